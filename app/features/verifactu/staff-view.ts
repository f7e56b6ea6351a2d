import { calendarDay } from "~/platform/dates";
import { recordKinds, recordStates, type RecordKind, type RecordState } from "./record-states";
import type { RecordCursor, RecordFilters } from "./staff-records.server";

/**
 * The Verifactu page's address (/admin/verifactu): its filters (`estado`, `tipo`, `desde`,
 * `hasta`, `factura`), the page's place in the list (`antes`, `despues` or `ultima`, keyset
 * cursors) and its number (`pagina`, only what the pager shows). Shared by the page and the
 * export, so both read the same filters the same way.
 */
export const RECORDS_PER_PAGE = 25;

export type VerifactuView = {
  filters: RecordFilters;
  cursor: RecordCursor;
  page: number;
  /** Filter values that could not be read, by field: shown, and left out of the query. */
  invalid: ("desde" | "hasta" | "factura")[];
};

/** F2026-000123 or R2026-000001: a whole invoice number. */
const INVOICE_NUMBER = /^[FR]\d{4}-\d{6}$/;
const ID = /^\d{1,15}$/;

const idFrom = (value: string | null) => (value && ID.test(value) ? Number(value) : undefined);

function oneOf<Value extends string>(choices: readonly Value[], value: string | null) {
  return choices.find((choice) => choice === value);
}

export function verifactuViewFrom(url: URL): VerifactuView {
  const params = url.searchParams;
  const invalid: VerifactuView["invalid"] = [];
  const day = (name: "desde" | "hasta") => {
    const raw = params.get(name)?.trim();
    if (!raw) return undefined;
    const value = calendarDay(raw) ?? undefined;
    if (!value) invalid.push(name);
    return value;
  };
  const number = params.get("factura")?.trim().toUpperCase();
  if (number && !INVOICE_NUMBER.test(number)) invalid.push("factura");
  const filters: RecordFilters = {
    state: oneOf<RecordState>(recordStates, params.get("estado")),
    kind: oneOf<RecordKind>(recordKinds, params.get("tipo")),
    from: day("desde"),
    to: day("hasta"),
    invoiceNumber: number && INVOICE_NUMBER.test(number) ? number : undefined,
  };
  const before = idFrom(params.get("antes"));
  const after = idFrom(params.get("despues"));
  const oldest = params.get("ultima") === "1";
  const cursor: RecordCursor =
    before !== undefined
      ? { before }
      : after !== undefined
        ? { after }
        : oldest
          ? { oldest: RECORDS_PER_PAGE }
          : undefined;
  const page = cursor ? Math.min(Math.max(idFrom(params.get("pagina")) ?? 2, 1), 1_000_000) : 1;
  return { filters, cursor, page, invalid };
}

/** The query string of the filters on screen (the pager's links and the export keep them). */
export function filterQuery(filters: RecordFilters): URLSearchParams {
  const query = new URLSearchParams();
  if (filters.state) query.set("estado", filters.state);
  if (filters.kind) query.set("tipo", filters.kind);
  if (filters.from) query.set("desde", filters.from);
  if (filters.to) query.set("hasta", filters.to);
  if (filters.invoiceNumber) query.set("factura", filters.invoiceNumber);
  return query;
}

/** The address of the page `page` of the list, reached from `cursor`. */
export function verifactuHref(
  filters: RecordFilters,
  page: number,
  cursor?: { antes: number } | { despues: number } | { ultima: true },
): string {
  const query = filterQuery(filters);
  if (cursor && page > 1) {
    for (const [name, value] of Object.entries(cursor)) query.set(name, String(Number(value)));
    query.set("pagina", String(page));
  }
  const search = query.toString();
  return search ? `/admin/verifactu?${search}` : "/admin/verifactu";
}
