import { invoiceKindName } from "~/features/billing/invoice-type";
import { FileText } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { formatPrice } from "~/features/catalogue/services";
import { accountRoleLabel } from "~/features/identity/staff-roles";
import { deliveryStatusLabel } from "~/features/payments/after-sale-status";
import { purchaseStatusLabel } from "~/features/payments/purchase-status";
import {
  AttachmentDownload,
  AttachmentThumbnail,
  isPreviewable,
} from "~/features/support/support-ui";
import { priorityLabel, ticketStatusLabel } from "~/features/support/ticket-rules";
import { formatDate } from "~/platform/dates";
import { cardClasses } from "~/ui/form";
import { FactList, type Fact } from "~/ui/signed-in/fact-list";
import { RecordPageHead } from "~/ui/signed-in/page-head";
import type { StaffCustomer } from "./customer-page.server";
import { EmailText } from "~/ui/signed-in/email-text";
import { fit, ListTable, type Column } from "./tabs/list-table";

const priceOf = (amount: number) => formatPrice(amount, { cents: "always" });
const linkClasses = "font-semibold text-brand-700 underline";

/**
 * A customer for staff (/admin/clientes/:customerId): who they are and everything they have
 * with us, each record a link to its own staff page. A section the viewer's role may not open
 * (money for support, tickets for finance) is left out, not shown empty.
 */
export function StaffCustomerPage({ customer }: { customer: StaffCustomer }) {
  return (
    <>
      <RecordPageHead
        back={{ to: "/admin?tab=clientes", label: "Volver a Clientes" }}
        title={<EmailOrName customer={customer} />}
      >
        <p className="mt-1 text-slate-600">
          {customer.name ? (
            <>
              <span className="wrap-anywhere">{customer.email}</span> ·{" "}
            </>
          ) : null}
          {customer.profile ? "Con cuenta" : "Sin cuenta (compra como invitado)"} ·{" "}
          {customer.totals.orders} {customer.totals.orders === 1 ? "pedido" : "pedidos"}
          {customer.totals.spent === null ? null : (
            <> · {priceOf(customer.totals.spent)} gastados</>
          )}
        </p>
      </RecordPageHead>

      {/* One column: the tables need the width (five columns each) more than a sidebar. */}
      <div className="mt-8 space-y-8">
        <Profile customer={customer} />
        {customer.purchases ? <Purchases list={customer.purchases} /> : null}
        {customer.invoices ? <Invoices list={customer.invoices} /> : null}
        {customer.withdrawals ? <Withdrawals list={customer.withdrawals} /> : null}
        {customer.tickets ? (
          <Tickets list={customer.tickets} hasAccount={!!customer.profile} />
        ) : null}
        {customer.attachments ? <Attachments list={customer.attachments} /> : null}
        <Activity customer={customer} />
      </div>
    </>
  );
}

function Profile({ customer }: { customer: StaffCustomer }) {
  const { profile } = customer;
  const facts: Fact[] = profile
    ? [
        { label: "Nombre", value: profile.fullName || "—" },
        { label: "Email", value: <span className="wrap-anywhere">{customer.email}</span> },
        { label: "Email verificado", value: profile.emailVerified ? "Sí" : "No" },
        { label: "Verificación en dos pasos", value: profile.twoFactorEnabled ? "Sí" : "No" },
        { label: "Rol", value: accountRoleLabel(profile.role) },
        { label: "Teléfono", value: profile.phone || "—" },
        { label: "Empresa", value: profile.company || "—" },
        { label: "NIF/NIE", value: profile.taxId || "—" },
        { label: "Nombre de facturación", value: profile.billingName || "—" },
        { label: "Dirección de facturación", value: profile.billingAddress || "—" },
        { label: "Alta", value: formatDate(profile.createdAt, "shortDateTime") },
      ]
    : [
        { label: "Email", value: <span className="wrap-anywhere">{customer.email}</span> },
        { label: "Cuenta", value: "No tiene: ha comprado como invitado" },
        {
          label: "Primera compra",
          value: customer.firstSeenAt ? formatDate(customer.firstSeenAt, "shortDateTime") : "—",
        },
      ];
  return (
    <section className={cardClasses} aria-labelledby="profile-heading">
      <h2 id="profile-heading" className="text-lg font-semibold">
        Perfil
      </h2>
      <FactList facts={facts} className="mt-4 grid gap-3 text-sm sm:grid-cols-2 lg:grid-cols-3" />
    </section>
  );
}

/** The name when we know one; else the address, which may break after its '@'. */
function EmailOrName({ customer }: { customer: StaffCustomer }) {
  return customer.name ? (
    <span className="wrap-anywhere">{customer.name}</span>
  ) : (
    <span className="wrap-anywhere">
      <EmailText email={customer.email} />
    </span>
  );
}

type List<Row> = { rows: Row[]; total: number };
type PurchaseRow = NonNullable<StaffCustomer["purchases"]>["rows"][number];
type InvoiceRow = NonNullable<StaffCustomer["invoices"]>["rows"][number];
type TicketRow = NonNullable<StaffCustomer["tickets"]>["rows"][number];

/** A section of the page: its title with how many there are, and its table. */
function Section<Row extends { id: string }>({
  id,
  title,
  list,
  columns,
  emptyText,
}: {
  id: string;
  title: string;
  list: List<Row>;
  columns: readonly Column<Row>[];
  emptyText: string;
}) {
  return (
    <section aria-labelledby={`${id}-heading`} data-section={id}>
      <h2 id={`${id}-heading`} className="text-lg font-semibold">
        {title} <span className="font-normal text-slate-600">({list.total})</span>
      </h2>
      {list.total > list.rows.length ? (
        <p className="mt-1 text-sm text-slate-600">
          Se muestran las {list.rows.length} más recientes de {list.total}.
        </p>
      ) : null}
      <ListTable
        caption={title}
        columns={columns}
        rows={list.rows}
        emptyText={emptyText}
        className="mt-3 bg-white"
      />
    </section>
  );
}

/** The purchase's staff page when it was paid, its name otherwise (nothing to open yet). */
function PurchaseLink({ row }: { row: Pick<PurchaseRow, "paymentId" | "serviceName"> }): ReactNode {
  return row.paymentId ? (
    <Link to={`/admin/pagos/${row.paymentId}`} className={linkClasses}>
      {row.serviceName}
    </Link>
  ) : (
    row.serviceName
  );
}

const purchaseColumns: Column<PurchaseRow>[] = [
  {
    header: "Fecha",
    className: fit,
    cell: (row) => formatDate(row.createdAt, "shortDateTime"),
  },
  { header: "Servicio", cell: (row) => <PurchaseLink row={row} /> },
  {
    header: "Importe",
    className: `${fit} tabular-nums`,
    cell: (row) => priceOf(row.amount ?? row.price),
  },
  {
    header: "Estado",
    className: fit,
    cell: (row) => <span data-purchase-status={row.status}>{purchaseStatusLabel(row.status)}</span>,
  },
  {
    header: "Entrega",
    className: fit,
    cell: (row) => (row.status === "completed" ? deliveryStatusLabel(row.deliveryStatus) : "—"),
  },
];

function Purchases({ list }: { list: List<PurchaseRow> }) {
  return (
    <Section
      id="compras"
      title="Compras"
      list={list}
      columns={purchaseColumns}
      emptyText="No tiene compras."
    />
  );
}

const invoiceColumns: Column<InvoiceRow>[] = [
  {
    header: "Número",
    className: fit,
    cell: (invoice) => (
      <a
        href={`/admin/facturas/${invoice.id}`}
        download
        className={`inline-flex items-center gap-1 ${linkClasses}`}
      >
        <FileText className="size-4" aria-hidden />
        {invoice.number}
      </a>
    ),
  },
  { header: "Tipo", className: fit, cell: (invoice) => invoiceKindName(invoice) },
  { header: "Fecha", className: fit, cell: (invoice) => formatDate(invoice.issuedAt, "date") },
  {
    header: "Total",
    className: `${fit} tabular-nums`,
    cell: (invoice) => priceOf(invoice.totalAmount),
  },
  {
    header: "Pago",
    className: fit,
    cell: (invoice) =>
      invoice.paymentId ? (
        <Link to={`/admin/pagos/${invoice.paymentId}`} className={linkClasses}>
          Ver pago
        </Link>
      ) : (
        "—"
      ),
  },
];

function Invoices({ list }: { list: List<InvoiceRow> }) {
  return (
    <Section
      id="facturas"
      title="Facturas"
      list={list}
      columns={invoiceColumns}
      emptyText="No tiene facturas."
    />
  );
}

const withdrawalColumns: Column<PurchaseRow>[] = [
  {
    header: "Solicitado",
    className: fit,
    cell: (row) => formatDate(row.withdrawalRequestedAt!, "shortDateTime"),
  },
  { header: "Servicio", cell: (row) => <PurchaseLink row={row} /> },
  {
    header: "Importe",
    className: `${fit} tabular-nums`,
    cell: (row) => priceOf(row.amount ?? row.price),
  },
  { header: "Estado", className: fit, cell: (row) => purchaseStatusLabel(row.status) },
];

function Withdrawals({ list }: { list: List<PurchaseRow> }) {
  return (
    <Section
      id="desistimientos"
      title="Desistimientos"
      list={list}
      columns={withdrawalColumns}
      emptyText="No ha desistido de ninguna compra."
    />
  );
}

const ticketColumns: Column<TicketRow>[] = [
  {
    header: "Ticket",
    className: fit,
    cell: (ticket) => (
      <Link to={`/admin/tickets/${ticket.id}`} className={`font-mono ${linkClasses}`}>
        {ticket.ticketNumber}
      </Link>
    ),
  },
  { header: "Asunto", cell: (ticket) => <span className="wrap-anywhere">{ticket.subject}</span> },
  { header: "Estado", className: fit, cell: (ticket) => ticketStatusLabel(ticket.status) },
  { header: "Prioridad", className: fit, cell: (ticket) => priorityLabel(ticket.priority) },
  { header: "Creado", className: fit, cell: (ticket) => formatDate(ticket.createdAt, "date") },
];

function Tickets({ list, hasAccount }: { list: List<TicketRow>; hasAccount: boolean }) {
  return (
    <Section
      id="tickets"
      title="Tickets"
      list={list}
      columns={ticketColumns}
      emptyText={hasAccount ? "No ha abierto tickets." : "Sin cuenta no puede abrir tickets."}
    />
  );
}

type AttachmentRow = NonNullable<StaffCustomer["attachments"]>["rows"][number];

/**
 * The files sent with the customer's tickets, newest first: an image as a thumbnail that opens
 * it, every file as a download, each with the ticket it came with.
 */
function Attachments({ list }: { list: List<AttachmentRow> }) {
  return (
    <section className={cardClasses} aria-labelledby="attachments-heading" data-section="adjuntos">
      <h2 id="attachments-heading" className="text-lg font-semibold">
        Archivos adjuntos <span className="font-normal text-slate-600">({list.total})</span>
      </h2>
      {list.total > list.rows.length ? (
        <p className="mt-1 text-sm text-slate-600">
          Se muestran los {list.rows.length} más recientes de {list.total}.
        </p>
      ) : null}
      {list.rows.length === 0 ? (
        <p className="mt-3 text-sm text-slate-600">No ha enviado archivos.</p>
      ) : (
        <ul className="mt-4 grid grid-cols-[repeat(auto-fill,minmax(14rem,1fr))] gap-4 text-sm">
          {list.rows.map((file) => (
            <li key={file.id} className="min-w-0 space-y-1.5">
              {isPreviewable(file) ? <AttachmentThumbnail file={file} /> : null}
              <AttachmentDownload file={file} />
              <p className="text-xs text-slate-600">
                <Link
                  to={`/admin/tickets/${file.ticketId}`}
                  className="font-mono text-brand-700 underline"
                >
                  {file.ticketNumber}
                </Link>{" "}
                · {formatDate(file.createdAt, "date")}
              </p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function Activity({ customer }: { customer: StaffCustomer }) {
  return (
    <section className={cardClasses} aria-labelledby="activity-heading">
      <h2 id="activity-heading" className="text-lg font-semibold">
        Actividad reciente
      </h2>
      {customer.activity.length === 0 ? (
        <p className="mt-3 text-sm text-slate-600">
          {customer.profile ? "No hay actividad registrada." : "Sin cuenta no hay actividad."}
        </p>
      ) : (
        <ol className="mt-3 space-y-3 text-sm">
          {customer.activity.map((entry) => (
            <li key={entry.id}>
              <p className="text-ink">{entry.description}</p>
              <p className="text-xs text-slate-600">
                {formatDate(entry.createdAt, "shortDateTime")}
              </p>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
