import {
  ticketStatusLabel,
  ticketStatuses,
  type TicketStatus,
} from "~/features/support/ticket-rules";

/** Tickets' status filter, the spec's: all, open, in_progress, resolved, closed. */
export const ticketFilters: readonly { value: "all" | TicketStatus; label: string }[] = [
  { value: "all", label: "Todos" },
  ...ticketStatuses.map((status) => ({ value: status, label: ticketStatusLabel(status) })),
];

/** Newest first, or the tickets past their first-response due time first (the 24-hour promise). */
export const ticketOrders = [
  { value: "recientes", label: "Más recientes" },
  { value: "vencidos", label: "Vencidos primero" },
] as const;

export type TicketOrder = (typeof ticketOrders)[number]["value"];
