/** The admin panel's tabs and filters (spec: /admin), shared by the page and the CSV export. */
export const adminTabs = [
  { id: "dashboard", label: "Dashboard" },
  { id: "consultas", label: "Consultas" },
  { id: "pagos", label: "Pagos" },
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

export type AdminView = { tab: AdminTab; search: string; status: PaymentFilter };

const SEARCH_MAX = 100;

/** Reads the view from the address; anything unknown falls back to the default. */
export function adminViewFrom(url: URL): AdminView {
  const tab = adminTabs.find((candidate) => candidate.id === url.searchParams.get("tab"));
  const status = paymentFilters.find((filter) => filter.value === url.searchParams.get("estado"));
  return {
    tab: tab?.id ?? "dashboard",
    search: (url.searchParams.get("q") ?? "").trim().slice(0, SEARCH_MAX),
    status: status?.value ?? "all",
  };
}
