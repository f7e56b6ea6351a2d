import {
  ticketStatusLabel,
  ticketStatuses,
  type TicketStatus,
} from "~/features/support/ticket-rules";

/** The admin panel's tabs and filters (spec: /admin), shared by the page and the CSV export. */
export const adminTabs = [
  { id: "dashboard", label: "Dashboard" },
  { id: "consultas", label: "Consultas" },
  { id: "pagos", label: "Pagos" },
  { id: "tickets", label: "Tickets" },
  { id: "usuarios", label: "Usuarios" },
  { id: "clientes", label: "Clientes" },
] as const;

export type AdminTab = (typeof adminTabs)[number]["id"];
/** The tabs that list rows, each with a search and a CSV export. */
export type AdminListTab = Exclude<AdminTab, "dashboard">;

/** The spec's payment filter (all, completed, pending, failed), plus refunded payments. */
export const paymentFilters = [
  { value: "all", label: "Todos" },
  { value: "completed", label: "Completados" },
  { value: "pending", label: "Pendientes" },
  { value: "failed", label: "Fallidos" },
  { value: "refunded", label: "Reembolsados" },
] as const;

export type PaymentFilter = (typeof paymentFilters)[number]["value"];

/** The spec's ticket filter: all, open, in_progress, resolved, closed. */
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

type Choice<Value extends string> = { readonly value: Value; readonly label: string };

/** The status filter of each tab that has one. */
const statusFilters: Partial<Record<AdminTab, readonly Choice<string>[]>> = {
  pagos: paymentFilters,
  tickets: ticketFilters,
};

export function statusFiltersOf(tab: AdminTab): readonly Choice<string>[] | undefined {
  return statusFilters[tab];
}

/** The value of `choices` named `value`, or the first (the default) when there is none. */
export function choiceIn<Value extends string>(
  choices: readonly Choice<Value>[],
  value: string | null,
): Value {
  return (choices.find((choice) => choice.value === value) ?? choices[0]!).value;
}

/** `status` is "all" or one of the tab's filters; `order` only sorts the tickets. */
export type AdminView = { tab: AdminTab; search: string; status: string; order: TicketOrder };

const SEARCH_MAX = 100;

/** Reads the view from the address; anything unknown falls back to the default. */
export function adminViewFrom(url: URL): AdminView {
  const tab = adminTabs.find((candidate) => candidate.id === url.searchParams.get("tab"));
  const id = tab?.id ?? "dashboard";
  const filters = statusFiltersOf(id);
  return {
    tab: id,
    // A NUL byte (never typed; PostgreSQL refuses it in a query) is dropped.
    search: (url.searchParams.get("q") ?? "").replaceAll("\u0000", "").trim().slice(0, SEARCH_MAX),
    status: filters ? choiceIn(filters, url.searchParams.get("estado")) : "all",
    order: choiceIn(ticketOrders, url.searchParams.get("orden")),
  };
}
