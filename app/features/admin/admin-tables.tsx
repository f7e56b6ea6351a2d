import { ShieldMinus, ShieldPlus } from "lucide-react";
import type { ReactNode } from "react";
import { Form, Link, useNavigation } from "react-router";
import { formatPrice, serviceCodeLabel } from "~/features/catalogue/services";
import { purchaseStatusLabel } from "~/features/payments/purchase-status";
import { OverdueBadge } from "~/features/support/ticket-ui";
import { TicketPriorityBadge, TicketStatusBadge } from "~/features/support/support-ui";
import { categoryLabel } from "~/features/support/ticket-rules";
import { buttonClasses } from "~/ui/button";
import { formatDate } from "~/ui/dates";
import { DataTable } from "~/ui/data-table";
import type { AdminListing } from "./admin-data.server";

type PaymentRow = Extract<AdminListing, { tab: "pagos" }>["rows"][number];
type TicketRow = Extract<AdminListing, { tab: "tickets" }>["rows"][number];
type InquiryRow = Extract<AdminListing, { tab: "consultas" }>["rows"][number];
type UserRow = Extract<AdminListing, { tab: "usuarios" }>["rows"][number];

const NO_RESULTS = "No hay resultados.";

/** An address that may break after its '@' when a narrow column needs it, and nowhere else. */
function EmailText({ email }: { email: string }) {
  const at = email.lastIndexOf("@");
  if (at < 0) return <>{email}</>;
  return (
    <span>
      {email.slice(0, at + 1)}
      <wbr />
      {email.slice(at + 1)}
    </span>
  );
}

/** An admin list: the shared table, with the admin's empty text. */
function Table({
  caption,
  headers,
  empty,
  children,
}: {
  caption: string;
  headers: string[];
  empty: boolean;
  children: ReactNode;
}) {
  return (
    <DataTable
      caption={caption}
      headers={headers}
      emptyText={empty ? NO_RESULTS : undefined}
      className="mt-4 bg-white"
    >
      {children}
    </DataTable>
  );
}

const cellClasses = "px-4 py-2.5 align-top";
/** A column as narrow as its content, so the others get the room. */
const fit = "w-px whitespace-nowrap";

const badgeClasses = "inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold";

export function PaymentsTable({ rows, caption }: { rows: PaymentRow[]; caption: string }) {
  return (
    <Table
      caption={caption}
      headers={["Fecha", "Email", "Servicio", "Importe", "Estado", "Detalle"]}
      empty={rows.length === 0}
    >
      {rows.map((payment) => (
        <tr key={payment.id} data-status={payment.status}>
          <td className={`${cellClasses} whitespace-nowrap`}>
            {formatDate(payment.createdAt, "shortDateTime")}
          </td>
          <td className={cellClasses}>{payment.customerEmail}</td>
          <td className={`${cellClasses} whitespace-nowrap`}>{payment.serviceName}</td>
          <td className={`${cellClasses} whitespace-nowrap tabular-nums`}>
            {formatPrice(payment.amount, { cents: "always" })}
          </td>
          <td className={`${cellClasses} whitespace-nowrap`}>
            {purchaseStatusLabel(payment.status)}
          </td>
          <td className={`${cellClasses} ${fit}`}>
            <Link
              to={`/admin/pagos/${payment.id}`}
              aria-label={`Ver el pago de ${payment.customerEmail}, ${payment.serviceName}`}
              className="font-semibold text-brand-700 underline"
            >
              Ver
            </Link>
          </td>
        </tr>
      ))}
    </Table>
  );
}

/**
 * Tickets, each number a link to its staff page, overdue ones marked next to it; the customer and
 * the category under the subject, so the row fits a laptop's screen.
 */
export function TicketsTable({ rows, caption }: { rows: TicketRow[]; caption: string }) {
  return (
    <Table
      caption={caption}
      headers={["Número", "Asunto", "Prioridad", "Estado", "Creado", "Responder antes de"]}
      empty={rows.length === 0}
    >
      {rows.map((ticket) => (
        <tr key={ticket.id} data-status={ticket.status} data-overdue={ticket.overdue || undefined}>
          <td className={`${cellClasses} whitespace-nowrap`}>
            <Link
              to={`/admin/tickets/${ticket.id}`}
              className="font-semibold text-brand-700 underline"
            >
              {ticket.ticketNumber}
            </Link>
            {ticket.overdue ? (
              <div className="mt-1">
                <OverdueBadge />
              </div>
            ) : null}
          </td>
          <td className={`${cellClasses} min-w-56`}>
            <span className="font-medium text-ink">{ticket.subject}</span>
            <span className="mt-0.5 block text-xs wrap-anywhere text-slate-600">
              {ticket.customerEmail} · {categoryLabel(ticket.category)}
            </span>
          </td>
          <td className={cellClasses}>
            <TicketPriorityBadge priority={ticket.priority} />
          </td>
          <td className={cellClasses}>
            <TicketStatusBadge status={ticket.status} />
          </td>
          <td className={`${cellClasses} whitespace-nowrap`}>
            {formatDate(ticket.createdAt, "shortDateTime")}
          </td>
          <td className={`${cellClasses} whitespace-nowrap`}>
            <time dateTime={new Date(ticket.firstResponseDueAt).toISOString()}>
              {formatDate(ticket.firstResponseDueAt, "shortDateTime")}
            </time>
          </td>
        </tr>
      ))}
    </Table>
  );
}

/** An enquiry's state: waiting for an answer, or marked handled by staff. */
export function InquiryStateBadge({ handled }: { handled: boolean }) {
  return handled ? (
    <span className={`${badgeClasses} bg-emerald-50 text-emerald-800 ring-1 ring-emerald-200`}>
      Atendida
    </span>
  ) : (
    <span className={`${badgeClasses} bg-amber-50 text-amber-900 ring-1 ring-amber-200`}>
      Pendiente
    </span>
  );
}

/** The 'Ver' link of an enquiry's row, found again to take the focus back when its dialog closes. */
export function inquiryLinkSelector(inquiryId: string): string {
  return `a[data-inquiry-link="${CSS.escape(inquiryId)}"]`;
}

/**
 * Enquiries: the customer's name over the address, the message cut to two lines, and 'Ver',
 * which opens the detail dialog (its address is the list's with `consulta=<id>`).
 */
function InquiriesTable({
  rows,
  inquiryHref,
}: {
  rows: InquiryRow[];
  inquiryHref: (inquiryId: string) => string;
}) {
  return (
    <Table
      caption="Consultas"
      headers={["Fecha", "Cliente", "Servicio", "Mensaje", "Estado", "Detalle"]}
      empty={rows.length === 0}
    >
      {rows.map((inquiry) => (
        <tr key={inquiry.id} data-state={inquiry.handledAt ? "handled" : "pending"}>
          <td className={`${cellClasses} ${fit}`}>
            {formatDate(inquiry.createdAt, "shortDateTime")}
          </td>
          <td className={cellClasses}>
            <span className="font-medium text-ink">{inquiry.name}</span>
            <span className="mt-0.5 block text-xs text-slate-600">
              <EmailText email={inquiry.email} />
            </span>
          </td>
          <td className={`${cellClasses} min-w-32`}>{serviceCodeLabel(inquiry.service)}</td>
          <td className={`${cellClasses} min-w-48`}>
            <p className="line-clamp-2 max-w-md text-slate-700">{inquiry.message}</p>
          </td>
          <td className={`${cellClasses} ${fit}`}>
            <InquiryStateBadge handled={Boolean(inquiry.handledAt)} />
          </td>
          <td className={`${cellClasses} ${fit}`}>
            <Link
              to={inquiryHref(inquiry.id)}
              preventScrollReset
              data-inquiry-link={inquiry.id}
              // relative: the hidden words stay inside the table's scrolling box.
              className="relative font-semibold text-brand-700 underline"
            >
              Ver<span className="sr-only"> la consulta de {inquiry.name}</span>
            </Link>
          </td>
        </tr>
      ))}
    </Table>
  );
}

/**
 * Users with their role, and the form that grants or revokes the admin role (the server keeps
 * the last administrator). The form posts to the page's own address, so the list stays as it was.
 */
function UsersTable({ rows, selfId }: { rows: UserRow[]; selfId: string }) {
  const navigation = useNavigation();
  const changing =
    navigation.state === "submitting" ? navigation.formData?.get("userId") : undefined;
  return (
    <Table
      caption="Usuarios"
      headers={["Alta", "Usuario", "Verificado", "Rol", "Acciones"]}
      empty={rows.length === 0}
    >
      {rows.map((user) => (
        <tr key={user.id} data-role={user.isAdmin ? "admin" : "customer"}>
          <td className={`${cellClasses} ${fit}`}>{formatDate(user.createdAt, "shortDateTime")}</td>
          <td className={cellClasses}>
            <span className="font-medium text-ink">
              <EmailText email={user.email} />
            </span>
            {user.fullName ? (
              <span className="mt-0.5 block text-xs text-slate-600">{user.fullName}</span>
            ) : null}
          </td>
          <td className={`${cellClasses} ${fit}`}>{user.emailVerified ? "Sí" : "No"}</td>
          <td className={`${cellClasses} ${fit}`}>
            {user.isAdmin ? (
              <span className={`${badgeClasses} bg-brand-50 text-brand-800 ring-1 ring-brand-200`}>
                Administrador
              </span>
            ) : (
              <span className={`${badgeClasses} bg-slate-100 text-slate-700 ring-1 ring-slate-200`}>
                Cliente
              </span>
            )}
          </td>
          <td className={`${cellClasses} ${fit} py-2`}>
            {user.id === selfId ? (
              // The server never lets staff revoke their own role.
              <span className="text-slate-600">Tu cuenta</span>
            ) : (
              <Form method="post">
                <input
                  type="hidden"
                  name="intent"
                  value={user.isAdmin ? "revoke-admin" : "grant-admin"}
                />
                <input type="hidden" name="userId" value={user.id} />
                <button
                  type="submit"
                  disabled={changing === user.id}
                  // relative: the hidden address stays inside the table's scrolling box.
                  className={`${buttonClasses({ variant: "secondary", size: "sm" })} relative`}
                >
                  {user.isAdmin ? (
                    <ShieldMinus className="size-4" aria-hidden />
                  ) : (
                    <ShieldPlus className="size-4" aria-hidden />
                  )}
                  {user.isAdmin ? "Quitar administrador" : "Hacer administrador"}
                  <span className="sr-only"> ({user.email})</span>
                </button>
              </Form>
            )}
          </td>
        </tr>
      ))}
    </Table>
  );
}

/** The rows of the list tab on screen. */
export function AdminListingTable({
  listing,
  selfId,
  inquiryHref,
}: {
  listing: AdminListing;
  /** The signed-in staff member: their own row offers no change of role. */
  selfId: string;
  /** The address of the list with an enquiry's dialog open. */
  inquiryHref: (inquiryId: string) => string;
}) {
  switch (listing.tab) {
    case "consultas":
      return <InquiriesTable rows={listing.rows} inquiryHref={inquiryHref} />;
    case "pagos":
      return <PaymentsTable rows={listing.rows} caption="Pagos" />;
    case "tickets":
      return <TicketsTable rows={listing.rows} caption="Tickets" />;
    case "usuarios":
      return <UsersTable rows={listing.rows} selfId={selfId} />;
    case "clientes":
      return (
        <Table
          caption="Clientes"
          headers={["Email", "Nombre", "Pedidos", "Total gastado"]}
          empty={listing.rows.length === 0}
        >
          {listing.rows.map((customer) => (
            <tr key={customer.id}>
              <td className={cellClasses}>{customer.email}</td>
              <td className={cellClasses}>{customer.name ?? "—"}</td>
              <td className={`${cellClasses} tabular-nums`}>{customer.totalOrders}</td>
              <td className={`${cellClasses} whitespace-nowrap tabular-nums`}>
                {formatPrice(customer.totalSpent, { cents: "always" })}
              </td>
            </tr>
          ))}
        </Table>
      );
  }
}
