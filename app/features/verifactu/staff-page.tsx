import { Ban, Download, FileText, Link2, RotateCw, ShieldCheck } from "lucide-react";
import { Form, Link, useNavigation } from "react-router";
import {
  CANCELLATION_REASON_MAX,
  cancellationRefusal,
  DESCRIPTION_MAX,
  isCorrectable,
  RECIPIENT_NAME_MAX,
  recordKindLabels,
  recordKinds,
  recordStateLabels,
  recordStates,
  recordStateText,
} from "./record-states";
import type { ChainCheck } from "./chain-check.server";
import { CORRECTION_FIELDS } from "./record-correction";
import type { FormNotice, FormRefusal } from "~/platform/forms/form-answer";
import { replyOf } from "~/platform/forms/form-answer";
import { Button, buttonClasses } from "~/ui/button";
import { formatDate } from "~/platform/dates";
import { cardClasses, Checkbox, Field, FormAlert, Select, TextArea } from "~/ui/form";
import { formatCount } from "~/ui/numbers";
import { DataTable } from "~/ui/signed-in/data-table";
import { FilterForm } from "~/ui/signed-in/filter-form";
import { Pagination } from "~/ui/signed-in/pagination";
import { StatCardGrid } from "~/ui/signed-in/stat-cards";
import { Badge } from "~/ui/signed-in/badge";
import { PageHeader } from "~/ui/signed-in/page-header";
import { verifactuMessages } from "./staff-messages";
import type { verifactuPage } from "./staff-page.server";
import { filterQuery, verifactuHref } from "./staff-view";
import { SITE_LOCALE } from "~/platform/locale";

type PageData = Awaited<ReturnType<typeof verifactuPage>>;
type Row = PageData["records"]["rows"][number];
export type VerifactuAnswer = (FormRefusal | (FormNotice & { chain?: ChainCheck })) | undefined;

/**
 * Verifactu for staff (/admin/verifactu): whether records are sent and where, the queue, AEAT's
 * last answer and the wait, 'Comprobar cadena', the period export and the records themselves.
 */
export function VerifactuPage({ data, answer }: { data: PageData; answer: VerifactuAnswer }) {
  return (
    <>
      <PageHeader title="Verifactu">
        <Link
          to="/admin/verifactu/declaracion"
          className="inline-flex items-center gap-1 text-sm font-semibold text-brand-700 underline"
        >
          <FileText className="size-4" aria-hidden />
          Declaración responsable
        </Link>
      </PageHeader>
      <SendingFacts data={data} />
      <div className="mt-6 grid items-start gap-6 lg:grid-cols-2">
        <ChainCheckForm answer={answer} />
        <ExportForm data={data} />
      </div>
      <RefusalAlert answer={answer} />
      <RecordFilters data={data} />
      <RecordList data={data} />
    </>
  );
}

/** '3 min', '2 h 5 min', '4 d': how long ago `since` was, at `now`. */
function ageOf(since: Date, now: Date): string {
  const minutes = Math.max(0, Math.floor((now.getTime() - since.getTime()) / 60_000));
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ${minutes % 60} min`;
  return `${Math.floor(hours / 24)} d`;
}

const outcomeLabels: Record<string, string> = {
  Correcto: "Correcto",
  ParcialmenteCorrecto: "Parcialmente correcto",
  Incorrecto: "Incorrecto",
};

function SendingFacts({ data: { queue, sending, now } }: { data: PageData }) {
  const last = queue.lastAnswer;
  const nextSend =
    queue.nextSendAt && new Date(queue.nextSendAt) > new Date(now)
      ? `Próximo envío a las ${formatDate(queue.nextSendAt, "shortDateTimeSeconds")}`
      : "Se puede enviar ya";
  return (
    <section aria-label="Envío a la AEAT" className="mt-6">
      <StatCardGrid
        columns="lg:grid-cols-4"
        cards={[
          {
            label: "Envío a la AEAT",
            value: sending.enabled
              ? `Activo · ${sending.environment === "produccion" ? "producción" : "pruebas"}`
              : "Desactivado",
          },
          {
            label: "Pendientes de envío",
            value: (
              <>
                {queue.pendingCapped ? "más de " : ""}
                {formatCount(queue.pending)}
                {queue.oldestPendingAt ? (
                  <span className="block text-sm font-normal text-slate-600">
                    el más antiguo hace {ageOf(new Date(queue.oldestPendingAt), new Date(now))}
                  </span>
                ) : null}
              </>
            ),
          },
          {
            label: "Última respuesta",
            value: last ? (
              <>
                {last.outcome ? (outcomeLabels[last.outcome] ?? last.outcome) : "Sin respuesta"}
                <span className="block text-sm font-normal break-all text-slate-600">
                  {formatDate(last.sentAt, "shortDateTimeSeconds")} ·{" "}
                  {formatCount(last.recordCount)}{" "}
                  {last.recordCount === 1 ? "registro" : "registros"}
                  {last.csv ? ` · CSV ${last.csv}` : ""}
                  {last.error ? ` · ${last.error}` : ""}
                </span>
              </>
            ) : (
              "Ninguna todavía"
            ),
          },
          {
            label: "Espera entre envíos",
            value: (
              <>
                {formatCount(queue.waitSeconds)} s
                <span className="block text-sm font-normal text-slate-600">{nextSend}</span>
              </>
            ),
          },
        ]}
      />
    </section>
  );
}

/** What 'Comprobar cadena' found, in words. */
export function chainCheckText(check: ChainCheck): string {
  const seconds = check.seconds.toLocaleString(SITE_LOCALE.intl, { maximumFractionDigits: 2 });
  if (!check.firstBreak)
    return `Cadena íntegra: ${formatCount(check.checked)} ${check.checked === 1 ? "registro comprobado" : "registros comprobados"} en ${seconds} s`;
  const { recordId, invoiceNumber, reason } = check.firstBreak;
  const what = reason === "hash" ? "la huella no coincide" : "el encadenamiento no coincide";
  return `La cadena se rompe en el registro ${recordId} (factura ${invoiceNumber}): ${what}`;
}

function ChainCheckForm({ answer }: { answer: VerifactuAnswer }) {
  const navigation = useNavigation();
  const checking = navigation.formData?.get("intent") === "check-chain";
  const check = answer && "chain" in answer ? answer.chain : undefined;
  return (
    <Form method="post" className={`${cardClasses} space-y-3`} aria-labelledby="chain-heading">
      <h2 id="chain-heading" className="text-lg font-semibold">
        Comprobar cadena
      </h2>
      <p className="text-sm text-slate-600">
        Recalcula la huella de cada registro y comprueba que cada uno enlaza con el anterior.
      </p>
      <input type="hidden" name="intent" value="check-chain" />
      <Button type="submit" variant="secondary" disabled={checking}>
        <Link2 className="size-4" aria-hidden />
        {checking ? "Comprobando..." : "Comprobar cadena"}
      </Button>
      {check && !checking ? (
        <p
          role={check.firstBreak ? "alert" : "status"}
          data-chain-result={check.firstBreak ? "broken" : "intact"}
          className={`flex gap-2 rounded-lg p-3 text-sm ring-1 ${
            check.firstBreak
              ? "bg-red-50 text-red-900 ring-red-200"
              : "bg-emerald-50 text-emerald-900 ring-emerald-200"
          }`}
        >
          <ShieldCheck className="size-5 shrink-0" aria-hidden />
          {chainCheckText(check)}
        </p>
      ) : null}
    </Form>
  );
}

function ExportForm({ data }: { data: PageData }) {
  return (
    <Form
      method="get"
      action="/admin/verifactu/exportar"
      reloadDocument
      className={`${cardClasses} space-y-3`}
      aria-labelledby="export-heading"
    >
      <h2 id="export-heading" className="text-lg font-semibold">
        Exportar registros (XML)
      </h2>
      <p className="text-sm text-slate-600">
        Los registros generados en el periodo como documentos del esquema de la AEAT
        (RegFactuSistemaFacturacion), uno por cada 1.000 registros, en un archivo ZIP.
      </p>
      <div className="grid gap-3 sm:grid-cols-2">
        <Field label="Desde" name="desde" type="date" required defaultValue={data.filters.from} />
        <Field label="Hasta" name="hasta" type="date" required defaultValue={data.filters.to} />
      </div>
      <Button type="submit" variant="secondary">
        <Download className="size-4" aria-hidden />
        Descargar XML
      </Button>
    </Form>
  );
}

function RefusalAlert({ answer }: { answer: VerifactuAnswer }) {
  const reply = answer && "errors" in answer ? replyOf(answer, verifactuMessages) : undefined;
  return reply ? <FormAlert reply={reply} className="mt-6" /> : null;
}

const invalidTexts = {
  desde: "La fecha «desde» no es válida: no se ha aplicado.",
  hasta: "La fecha «hasta» no es válida: no se ha aplicado.",
  factura: "Escribe el número completo de la factura (por ejemplo F2026-000123).",
};

function RecordFilters({ data: { filters, invalid } }: { data: PageData }) {
  return (
    <FilterForm
      aria-labelledby="filters-heading"
      key={filterQuery(filters).toString()}
      resetTo="/admin/verifactu"
      notApplied={invalid.map((field) => invalidTexts[field])}
    >
      <h2 id="filters-heading" className="text-lg font-semibold">
        Registros de facturación
      </h2>
      <div className="mt-3 grid gap-3 sm:grid-cols-2 lg:grid-cols-5">
        <Select label="Estado" name="estado" defaultValue={filters.state ?? ""}>
          <option value="">Todos</option>
          {recordStates.map((state) => (
            <option key={state} value={state}>
              {recordStateLabels[state]}
            </option>
          ))}
        </Select>
        <Select label="Tipo" name="tipo" defaultValue={filters.kind ?? ""}>
          <option value="">Todos</option>
          {recordKinds.map((kind) => (
            <option key={kind} value={kind}>
              {recordKindLabels[kind]}
            </option>
          ))}
        </Select>
        <Field label="Desde" name="desde" type="date" defaultValue={filters.from ?? ""} />
        <Field label="Hasta" name="hasta" type="date" defaultValue={filters.to ?? ""} />
        <Field
          label="Número de factura"
          name="factura"
          placeholder="F2026-000123"
          maxLength={20}
          defaultValue={filters.invoiceNumber ?? ""}
        />
      </div>
    </FilterForm>
  );
}

const stateTones = {
  pending: "bg-amber-100 text-amber-900",
  accepted: "bg-emerald-100 text-emerald-900",
  accepted_with_errors: "bg-orange-100 text-orange-900",
  rejected: "bg-red-100 text-red-900",
} as const;

const headers = ["Factura", "Tipo", "Total", "Generado", "Estado", "Huella", "Acciones"];

function RecordList({ data }: { data: PageData }) {
  const { records, page, count, filters } = data;
  const first = records.rows[0];
  const last = records.rows.at(-1);
  const pages = count.capped
    ? page + (records.hasOlder ? 1 : 0)
    : Math.max(page, Math.ceil(count.total / 25));
  const hrefOf = (target: number) => {
    if (target === 1) return verifactuHref(filters, 1);
    if (target === page + 1 && last) return verifactuHref(filters, target, { antes: last.id });
    if (target === page - 1 && first) return verifactuHref(filters, target, { despues: first.id });
    return verifactuHref(filters, target, { ultima: true });
  };
  return (
    <section aria-label="Lista de registros" className="mt-6">
      <DataTable
        caption="Registros de facturación"
        headers={headers}
        emptyText={records.rows.length === 0 ? "No hay registros con estos filtros." : undefined}
        className="bg-white"
      >
        {records.rows.map((row) => (
          <RecordRow key={row.id} row={row} />
        ))}
      </DataTable>
      <Pagination
        className="mt-4"
        page={page}
        pages={pages}
        size={25}
        total={count.capped ? Math.max(count.total, page * 25) : count.total}
        capped={count.capped}
        hrefOf={hrefOf}
      />
    </section>
  );
}

function RecordRow({ row }: { row: Row }) {
  const cell = "px-4 py-2.5 align-top";
  return (
    <tr data-record-id={row.id} data-status={row.status} data-kind={row.kind}>
      <td className={`${cell} whitespace-nowrap`}>
        {row.paymentId ? (
          <Link
            to={`/admin/pagos/${row.paymentId}`}
            className="font-semibold text-brand-700 underline"
          >
            {row.invoiceNumber}
          </Link>
        ) : (
          <span className="font-semibold">{row.invoiceNumber}</span>
        )}
        <span className="block text-xs text-slate-600">Registro {row.id}</span>
      </td>
      <td className={`${cell} whitespace-nowrap`}>
        {recordKindLabels[row.kind]}
        {row.invoiceType ? (
          <span className="block text-xs text-slate-600">{row.invoiceType}</span>
        ) : null}
      </td>
      <td className={`${cell} whitespace-nowrap tabular-nums`}>
        {row.importeTotal ? `${row.importeTotal.replace(".", ",")} €` : "—"}
      </td>
      <td className={`${cell} whitespace-nowrap`}>{formatDate(row.createdAt, "shortDateTime")}</td>
      <td className={`${cell} min-w-48`}>
        <Badge tone={stateTones[row.status]}>{recordStateLabels[row.status]}</Badge>
        {row.status === "rejected" || row.status === "accepted_with_errors" ? (
          <span className="mt-1 block text-xs text-slate-700">
            {recordStateText(row).slice(recordStateLabels[row.status].length).trim() ||
              "Sin texto de la AEAT"}
          </span>
        ) : null}
      </td>
      <td className={`${cell} font-mono text-xs`} title={row.hash}>
        {row.hash.slice(0, 8)}…{row.hash.slice(-4)}
      </td>
      <td className={`${cell} w-px`}>
        <RecordActions row={row} />
      </td>
    </tr>
  );
}

/**
 * 'Anular registro' on an alta that is still its invoice's latest record, of a sale never
 * charged and not rectified, with its reason; 'Subsanar y reenviar' on one AEAT rejected or
 * accepted with errors, with the data to correct.
 */
function RecordActions({ row }: { row: Row }) {
  if (isCorrectable(row)) return <CorrectionForm row={row} />;
  // A charged sale is corrected with a rectificativa, never annulled (decision 064).
  if (cancellationRefusal(row)) return <span className="text-xs text-slate-500">—</span>;
  return (
    <details className="text-sm">
      <summary className="cursor-pointer font-semibold whitespace-nowrap text-red-700">
        Anular registro
      </summary>
      <Form method="post" className="mt-2 w-64 space-y-2">
        <input type="hidden" name="intent" value="cancel-record" />
        <input type="hidden" name="recordId" value={row.id} />
        <TextArea
          name="reason"
          label="Motivo de la anulación"
          hint="Por qué la factura no debió emitirse (por ejemplo, un duplicado)."
          required
          minLength={10}
          maxLength={CANCELLATION_REASON_MAX}
          rows={3}
        />
        <Checkbox
          name="confirm"
          value="yes"
          required
          label={`La factura ${row.invoiceNumber} se emitió por error: generar su registro de anulación.`}
        />
        <button type="submit" className={buttonClasses({ variant: "danger", size: "sm" })}>
          <Ban className="size-4" aria-hidden />
          Anular registro
        </button>
      </Form>
    </details>
  );
}

/**
 * The subsanación: the record's data as AEAT has it, to correct (the recipient's name and NIF
 * as AEAT's census holds them, the description) and send again (decision 068). What changes the
 * invoice itself is a factura rectificativa, not this.
 */
function CorrectionForm({ row }: { row: Row }) {
  return (
    <details className="text-sm">
      <summary className="cursor-pointer font-semibold whitespace-nowrap text-brand-700">
        Subsanar y reenviar
      </summary>
      <Form method="post" className="mt-2 w-72 space-y-2">
        <input type="hidden" name="intent" value="correct-record" />
        <input type="hidden" name="recordId" value={row.id} />
        {row.recipient ? (
          <>
            <Field
              name={CORRECTION_FIELDS.recipientName}
              label="Nombre o razón social del destinatario"
              defaultValue={row.recipient.name}
              required
              maxLength={RECIPIENT_NAME_MAX}
            />
            <Field
              name={CORRECTION_FIELDS.recipientTaxId}
              label="NIF del destinatario"
              defaultValue={row.recipient.taxId}
              required
              autoCapitalize="characters"
              spellCheck={false}
            />
          </>
        ) : null}
        <TextArea
          name={CORRECTION_FIELDS.description}
          label="Descripción de la operación"
          defaultValue={row.description ?? ""}
          required
          maxLength={DESCRIPTION_MAX}
          rows={2}
        />
        <p className="text-xs text-slate-600">
          Corrige los datos del registro tal como constan en la factura y en el censo de la AEAT. Si
          la factura misma es errónea, se corrige con una factura rectificativa.
        </p>
        <button type="submit" className={buttonClasses({ variant: "secondary", size: "sm" })}>
          <RotateCw className="size-4" aria-hidden />
          Subsanar y reenviar
        </button>
      </Form>
    </details>
  );
}
