import { calendarDay } from "~/platform/dates";
import { isAuditAction, type AuditAction } from "./audit-actions";

/**
 * The address of the audit page (/admin/auditoria) and of its CSV: who (`quien`, part of the
 * staff member's address), what (`accion`), the Madrid days `desde` and `hasta` (both included),
 * and the page (`pagina`, `por`). Anything unreadable falls back to no filter; an unreadable day
 * is named so the page can say it was not applied.
 */
export const auditPageSizes = [25, 50, 100] as const;
export type AuditPageSize = (typeof auditPageSizes)[number];

export type AuditFilters = {
  who: string;
  action: AuditAction | null;
  from: string | null;
  to: string | null;
};

export type AuditView = AuditFilters & {
  page: number;
  pageSize: AuditPageSize;
  invalid: ("desde" | "hasta")[];
};

const WHO_MAX = 100;
const PAGE_MAX = 1_000_000;

export function auditViewFrom(url: URL): AuditView {
  const params = url.searchParams;
  const invalid: AuditView["invalid"] = [];
  const day = (name: "desde" | "hasta") => {
    const raw = params.get(name)?.trim();
    if (!raw) return null;
    const value = calendarDay(raw);
    if (!value) invalid.push(name);
    return value;
  };
  const action = params.get("accion");
  const page = /^\d{1,7}$/.test(params.get("pagina") ?? "") ? Number(params.get("pagina")) : 1;
  return {
    // A NUL byte (never typed; PostgreSQL refuses it in a query) is dropped.
    who: (params.get("quien") ?? "").replaceAll("\u0000", "").trim().slice(0, WHO_MAX),
    action: isAuditAction(action) ? action : null,
    from: day("desde"),
    to: day("hasta"),
    page: Math.min(Math.max(page, 1), PAGE_MAX),
    pageSize: auditPageSizes.find((size) => String(size) === params.get("por")) ?? 25,
    invalid,
  };
}

/** The query string of the filters (and, unless `paging` is false, the page) of `view`. */
export function auditQuery(
  view: AuditFilters & Partial<Pick<AuditView, "page" | "pageSize">>,
  { paging = true }: { paging?: boolean } = {},
): string {
  const query = new URLSearchParams();
  if (view.who) query.set("quien", view.who);
  if (view.action) query.set("accion", view.action);
  if (view.from) query.set("desde", view.from);
  if (view.to) query.set("hasta", view.to);
  if (paging) {
    if (view.page && view.page > 1) query.set("pagina", String(view.page));
    if (view.pageSize && view.pageSize !== auditPageSizes[0])
      query.set("por", String(view.pageSize));
  }
  return query.toString();
}

export const auditFilterDetails = (filters: AuditFilters) => ({
  quien: filters.who || null,
  accion: filters.action,
  desde: filters.from,
  hasta: filters.to,
});
