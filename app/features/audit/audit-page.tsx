import { Link } from "react-router";
import { formatDate } from "~/platform/dates";
import { Field, Select } from "~/ui/form";
import { DataTable } from "~/ui/signed-in/data-table";
import { DownloadLink } from "~/ui/signed-in/download-link";
import { EmailText } from "~/ui/signed-in/email-text";
import { FilterForm } from "~/ui/signed-in/filter-form";
import { Pagination } from "~/ui/signed-in/pagination";
import {
  actorRoleLabel,
  auditActionLabel,
  auditActionLabels,
  auditActions,
  auditDetailsText,
  auditTargetHref,
} from "./audit-actions";
import type { AuditLogPage, AuditRow } from "./audit-log.server";
import { auditPageSizes, auditQuery, type AuditView } from "./audit-view";

const pageHref = (view: AuditView, page: number) => {
  const query = auditQuery({ ...view, page });
  return query ? `/admin/auditoria?${query}` : "/admin/auditoria";
};

/**
 * Auditoría (/admin/auditoria, administrators only): every staff action, newest first, with
 * filters by who, what and when, its CSV with those filters, and a pager.
 */
export function AuditPage({ data }: { data: AuditLogPage }) {
  const { view, rows, page } = data;
  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold tracking-tight text-ink">Auditoría</h1>
        <DownloadLink
          href={`/admin/auditoria/exportar?${auditQuery(view, { paging: false })}`}
          label="Exportar CSV"
          busyLabel="Exportando…"
          countRows
          fallbackName="auditoria.csv"
          succeeded={{ title: "CSV exportado" }}
          failed={{ title: "Error al exportar", description: "Por favor, inténtalo de nuevo." }}
        />
      </div>
      <p className="mt-2 max-w-3xl text-sm text-slate-600">
        Cada acción del equipo: quién, cuándo, qué y desde dónde. Los registros no se pueden
        modificar ni borrar; se conservan dos años.
      </p>
      <AuditFilters view={view} />
      <DataTable
        caption="Registro de auditoría"
        headers={["Fecha", "Quién y desde dónde", "Acción", "Detalles"]}
        emptyText={rows.length === 0 ? "No hay acciones con estos filtros." : undefined}
        className="mt-6 bg-white"
      >
        {rows.map((row) => (
          <AuditTableRow key={row.id} row={row} />
        ))}
      </DataTable>
      <Pagination
        className="mt-4"
        page={page.number}
        pages={page.pages}
        size={page.size}
        total={page.total}
        capped={page.capped}
        hrefOf={(target) => pageHref(view, target)}
      />
    </>
  );
}

const invalidTexts = {
  desde: "La fecha «desde» no es válida: no se ha aplicado.",
  hasta: "La fecha «hasta» no es válida: no se ha aplicado.",
};

/** The filters (GET): a new filter starts at page 1. */
function AuditFilters({ view }: { view: AuditView }) {
  return (
    <FilterForm
      role="search"
      aria-label="Filtrar el registro"
      key={auditQuery(view, { paging: false })}
      resetTo="/admin/auditoria"
      notApplied={view.invalid.map((field) => invalidTexts[field])}
    >
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-5">
        <Field
          label="Quién (email)"
          name="quien"
          type="search"
          maxLength={100}
          defaultValue={view.who}
        />
        <Select label="Acción" name="accion" defaultValue={view.action ?? ""}>
          <option value="">Todas</option>
          {auditActions.map((action) => (
            <option key={action} value={action}>
              {auditActionLabels[action]}
            </option>
          ))}
        </Select>
        <Field label="Desde" name="desde" type="date" defaultValue={view.from ?? ""} />
        <Field label="Hasta" name="hasta" type="date" defaultValue={view.to ?? ""} />
        <Select label="Por página" name="por" defaultValue={String(view.pageSize)}>
          {auditPageSizes.map((size) => (
            <option key={size} value={size}>
              {size}
            </option>
          ))}
        </Select>
      </div>
    </FilterForm>
  );
}

const cell = "px-4 py-2.5 align-top";

function AuditTableRow({ row }: { row: AuditRow }) {
  const href = auditTargetHref(row.action, row.targetId);
  const details = auditDetailsText(row.details, row.action);
  return (
    <tr data-audit-action={row.action} data-audit-id={row.id}>
      <td className={`${cell} whitespace-nowrap tabular-nums`}>
        {formatDate(row.at, "shortDateTimeSeconds")}
      </td>
      <td className={`${cell} max-w-72 min-w-52`}>
        <span className="block font-semibold [overflow-wrap:anywhere]">
          {row.actorEmail ? <EmailText email={row.actorEmail} /> : "Sistema"}
        </span>
        {row.actorRole ? (
          <span className="block text-xs text-slate-600">{actorRoleLabel(row.actorRole)}</span>
        ) : null}
        <span className="mt-1 block font-mono text-xs text-slate-600">
          {row.clientAddress ?? "—"}
        </span>
        {row.userAgent ? (
          <span className="block truncate text-xs text-slate-600" title={row.userAgent}>
            {row.userAgent}
          </span>
        ) : null}
      </td>
      <td className={`${cell} min-w-48`}>
        <span className="font-semibold">{auditActionLabel(row.action)}</span>
        {row.targetEmail ? (
          <span className="block text-xs text-slate-600" title={row.targetId ?? undefined}>
            Cuenta: <EmailText email={row.targetEmail} />
          </span>
        ) : row.targetId ? (
          <span className="block text-xs break-all text-slate-600">
            {href ? (
              <Link to={href} className="text-brand-700 underline">
                {row.targetId}
              </Link>
            ) : (
              row.targetId
            )}
          </span>
        ) : null}
      </td>
      <td className={`${cell} min-w-56 text-sm [overflow-wrap:anywhere] text-slate-700`}>
        {details || "—"}
      </td>
    </tr>
  );
}
