import { Link } from "react-router";
import { TicketPriorityBadge, TicketStatusBadge } from "~/features/support/support-ui";
import { categoryLabel } from "~/features/support/ticket-rules";
import { OverdueBadge } from "~/features/support/ticket-ui";
import { formatDate } from "~/platform/dates";
import { dateColumn, ListTable, type Column } from "./list-table";
import type { TicketRow } from "./tickets-tab.server";

const columns: Column<TicketRow>[] = [
  {
    header: "Número",
    className: "whitespace-nowrap",
    cell: (ticket) => (
      <>
        <Link to={`/admin/tickets/${ticket.id}`} className="font-semibold text-brand-700 underline">
          {ticket.ticketNumber}
        </Link>
        {ticket.overdue ? (
          <div className="mt-1">
            <OverdueBadge />
          </div>
        ) : null}
      </>
    ),
  },
  {
    header: "Asunto",
    className: "min-w-56",
    cell: (ticket) => (
      <>
        <span className="font-medium text-ink">{ticket.subject}</span>
        <span className="mt-0.5 block text-xs wrap-anywhere text-slate-600">
          {ticket.customerEmail} · {categoryLabel(ticket.category)}
        </span>
      </>
    ),
  },
  { header: "Prioridad", cell: (ticket) => <TicketPriorityBadge priority={ticket.priority} /> },
  { header: "Estado", cell: (ticket) => <TicketStatusBadge status={ticket.status} /> },
  dateColumn("Creado", "whitespace-nowrap", (ticket) => ticket.createdAt),
  {
    header: "Responder antes de",
    className: "whitespace-nowrap",
    cell: (ticket) => (
      <time dateTime={new Date(ticket.firstResponseDueAt).toISOString()}>
        {formatDate(ticket.firstResponseDueAt, "shortDateTime")}
      </time>
    ),
  },
];

/**
 * Tickets, each number a link to its staff page, overdue ones marked next to it; the customer and
 * the category under the subject, so the row fits a laptop's screen.
 */
export function TicketsTable({ rows, caption }: { rows: TicketRow[]; caption: string }) {
  return (
    <ListTable
      caption={caption}
      columns={columns}
      rows={rows}
      rowData={(ticket) => ({
        "data-status": ticket.status,
        "data-overdue": ticket.overdue || undefined,
      })}
    />
  );
}
