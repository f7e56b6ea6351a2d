import { staffCan, type StaffCapability, type StaffRole } from "~/features/identity/staff-roles";
import { inquiryFilters } from "./tabs/inquiries-tab";
import { paymentFilters } from "./tabs/payments-tab";
import { ticketFilters, ticketOrders, type TicketOrder } from "./tabs/tickets-tab";

/**
 * The admin panel's tabs and filters (spec: /admin), shared by the page and the CSV export. Each
 * section names the capability that opens it (identity/staff-roles.ts): the shell shows a staff
 * member only the sections their role may open, and the loaders refuse the others.
 */
export const adminTabs = [
  { id: "dashboard", label: "Dashboard", capability: "dashboard.view" },
  { id: "consultas", label: "Consultas", capability: "enquiries.view" },
  { id: "pagos", label: "Pagos", capability: "payments.view" },
  { id: "tickets", label: "Tickets", capability: "tickets.view" },
  { id: "usuarios", label: "Usuarios", capability: "users.view" },
  { id: "clientes", label: "Clientes", capability: "customers.view" },
  { id: "analitica", label: "Analítica", capability: "analytics.view" },
] as const satisfies readonly { id: string; label: string; capability: StaffCapability }[];

export type AdminTab = (typeof adminTabs)[number]["id"];

/** Staff sections with an address of their own beside the panel's tabs. */
export const adminPages = [
  { id: "verifactu", label: "Verifactu", href: "/admin/verifactu", capability: "verifactu.view" },
  { id: "auditoria", label: "Auditoría", href: "/admin/auditoria", capability: "audit.view" },
] as const satisfies readonly {
  id: string;
  label: string;
  href: string;
  capability: StaffCapability;
}[];
/** Any section of the staff's navigation: a tab of /admin or a page of its own. */
export type AdminSection = AdminTab | (typeof adminPages)[number]["id"];
/** The tabs that list rows, each with a search and a CSV export. */
export type AdminListTab = Exclude<AdminTab, "dashboard" | "analitica">;

export function isListTab(tab: AdminTab): tab is AdminListTab {
  return tab !== "dashboard" && tab !== "analitica";
}

/** The capability each list tab's CSV needs. */
export const exportCapabilities: Record<AdminListTab, StaffCapability> = {
  consultas: "enquiries.export",
  pagos: "payments.export",
  tickets: "tickets.export",
  usuarios: "users.export",
  clientes: "customers.export",
};

export function tabHref(tab: AdminTab): string {
  return tab === "dashboard" ? "/admin" : `/admin?tab=${tab}`;
}

/** Every section of the staff's navigation, in its order, with its address. */
export const adminSections = [
  ...adminTabs.map((tab) => ({ ...tab, href: tabHref(tab.id) })),
  ...adminPages,
];

/** The sections `role` may open (none without a staff role). */
export function sectionsFor(role: StaffRole | null | undefined) {
  return adminSections.filter((section) => staffCan(role, section.capability));
}

/** The periods the Analítica section shows, in days; the first is the default. */
export const analyticsPeriods = [30, 90] as const;
export type AnalyticsPeriod = (typeof analyticsPeriods)[number];

type Choice<Value extends string> = { readonly value: Value; readonly label: string };

/** The status filter of each tab that has one (each defined by its tab, in tabs/). */
const statusFilters: Partial<Record<AdminTab, readonly Choice<string>[]>> = {
  consultas: inquiryFilters,
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

/** Rows per page a list offers; the first is the default. */
export const pageSizes = [25, 50, 100] as const;
export type PageSize = (typeof pageSizes)[number];

/**
 * `status` is "all" or one of the tab's filters; `order` only sorts the tickets; `page` counts
 * from 1; `inquiryId` is the enquiry whose detail dialog is open (Consultas).
 */
export type AdminView = {
  tab: AdminTab;
  search: string;
  status: string;
  order: TicketOrder;
  page: number;
  pageSize: PageSize;
  inquiryId: string | null;
  /** Analítica: the last 30 or 90 days. */
  days: AnalyticsPeriod;
};

const SEARCH_MAX = 100;
/** Far beyond any real list (a million rows at 25 a page is 40,000 pages); keeps OFFSET sane. */
const PAGE_MAX = 1_000_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function pageFrom(value: string | null): number {
  const page = /^\d{1,7}$/.test(value ?? "") ? Number(value) : 1;
  return Math.min(Math.max(page, 1), PAGE_MAX);
}

function pageSizeFrom(value: string | null): PageSize {
  return pageSizes.find((size) => String(size) === value) ?? pageSizes[0];
}

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
    page: pageFrom(url.searchParams.get("pagina")),
    pageSize: pageSizeFrom(url.searchParams.get("por")),
    inquiryId: id === "consultas" ? uuidOrNull(url.searchParams.get("consulta")) : null,
    days: analyticsPeriods.find((days) => String(days) === url.searchParams.get("dias")) ?? 30,
  };
}

function uuidOrNull(value: string | null): string | null {
  return value && UUID.test(value) ? value.toLowerCase() : null;
}

/**
 * The query string of `view` with `changes` applied: the links of the pager, the dialog and
 * the CSV export keep the search, filter and order on screen. Defaults are left out.
 */
export function adminQuery(
  view: AdminView,
  changes: Partial<Pick<AdminView, "page" | "pageSize" | "inquiryId">> & { paging?: false } = {},
): string {
  const next = { ...view, ...changes };
  const query = new URLSearchParams({ tab: next.tab });
  if (next.search) query.set("q", next.search);
  if (next.status !== "all") query.set("estado", next.status);
  if (next.tab === "tickets" && next.order !== ticketOrders[0].value)
    query.set("orden", next.order);
  if (next.tab === "analitica" && next.days !== analyticsPeriods[0])
    query.set("dias", String(next.days));
  if (changes.paging !== false) {
    if (next.page > 1) query.set("pagina", String(next.page));
    if (next.pageSize !== pageSizes[0]) query.set("por", String(next.pageSize));
    if (next.inquiryId) query.set("consulta", next.inquiryId);
  }
  return query.toString();
}
