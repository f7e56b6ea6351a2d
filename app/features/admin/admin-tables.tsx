import { Mail } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { formatPrice, serviceCodeLabel } from "~/features/catalogue/services";
import { purchaseStatusLabel } from "~/features/payments/purchase-status";
import { OverdueBadge } from "~/features/support/ticket-ui";
import { TicketPriorityBadge, TicketStatusBadge } from "~/features/support/support-ui";
import { categoryLabel } from "~/features/support/ticket-rules";
import { formatDate } from "~/ui/dates";
import { DataTable } from "~/ui/data-table";
import type { AdminListing } from "./admin-data.server";

type PaymentRow = Extract<AdminListing, { tab: "pagos" }>["rows"][number];
type TicketRow = Extract<AdminListing, { tab: "tickets" }>["rows"][number];

const NO_RESULTS = "No hay resultados.";

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
      className="mt-4"
    >
      {children}
    </DataTable>
  );
}

const cellClasses = "px-4 py-3 align-top";

export function PaymentsTable({ rows, caption }: { rows: PaymentRow[]; caption: string }) {
  return (
    <Table
      caption={caption}
      headers={["Fecha", "Email", "Servicio", "Importe", "Estado"]}
      empty={rows.length === 0}
    >
      {rows.map((payment) => (
        <tr key={payment.id} data-status={payment.status}>
          <td className={`${cellClasses} whitespace-nowrap`}>
            {formatDate(payment.createdAt, "shortDateTime")}
          </td>
          <td className={cellClasses}>{payment.customerEmail}</td>
          <td className={cellClasses}>{payment.serviceName}</td>
          <td className={`${cellClasses} whitespace-nowrap`}>
            {formatPrice(payment.amount, { cents: "always" })}
          </td>
          <td className={cellClasses}>{purchaseStatusLabel(payment.status)}</td>
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

/** The rows of the list tab on screen. */
export function AdminListingTable({ listing }: { listing: AdminListing }) {
  switch (listing.tab) {
    case "consultas":
      return (
        <Table
          caption="Consultas"
          headers={["Fecha", "Nombre", "Email", "Servicio", "Mensaje"]}
          empty={listing.rows.length === 0}
        >
          {listing.rows.map((inquiry) => (
            <tr key={inquiry.id}>
              <td className={`${cellClasses} whitespace-nowrap`}>
                {formatDate(inquiry.createdAt, "shortDateTime")}
              </td>
              <td className={cellClasses}>{inquiry.name}</td>
              <td className={cellClasses}>{inquiry.email}</td>
              <td className={cellClasses}>{serviceCodeLabel(inquiry.service)}</td>
              <td className={cellClasses}>
                {/* The spec's detail: customer, service, message and 'Responder'. */}
                <details>
                  <summary className="cursor-pointer font-semibold text-brand-700">
                    Ver consulta
                  </summary>
                  <p className="mt-2 max-w-md whitespace-pre-line text-slate-700">
                    {inquiry.message}
                  </p>
                  <a
                    href={`mailto:${inquiry.email}?subject=${encodeURIComponent(`Re: tu consulta sobre ${serviceCodeLabel(inquiry.service)}`)}`}
                    className="mt-2 inline-flex items-center gap-1 font-semibold text-brand-700 underline"
                  >
                    <Mail className="size-4" aria-hidden />
                    Responder
                  </a>
                </details>
              </td>
            </tr>
          ))}
        </Table>
      );
    case "pagos":
      return <PaymentsTable rows={listing.rows} caption="Pagos" />;
    case "tickets":
      return <TicketsTable rows={listing.rows} caption="Tickets" />;
    case "usuarios":
      return (
        <Table
          caption="Usuarios"
          headers={["Alta", "Email", "Nombre", "Email verificado"]}
          empty={listing.rows.length === 0}
        >
          {listing.rows.map((user) => (
            <tr key={user.id}>
              <td className={`${cellClasses} whitespace-nowrap`}>
                {formatDate(user.createdAt, "shortDateTime")}
              </td>
              <td className={cellClasses}>{user.email}</td>
              <td className={cellClasses}>{user.fullName ?? "—"}</td>
              <td className={cellClasses}>{user.emailVerified ? "Sí" : "No"}</td>
            </tr>
          ))}
        </Table>
      );
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
              <td className={cellClasses}>{customer.totalOrders}</td>
              <td className={`${cellClasses} whitespace-nowrap`}>
                {formatPrice(customer.totalSpent, { cents: "always" })}
              </td>
            </tr>
          ))}
        </Table>
      );
  }
}
