import { count, desc, inArray, sql, type SQL, type Subquery } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import type { Database } from "~/platform/db/client.server";
import type { contactInquiries, customers, payments } from "~/platform/db/schema";
import type { AdminView } from "../admin-tabs";
import type { CsvColumn, CsvList } from "./csv-cells.server";

/*
 * What every list tab shares: the search pattern, the count (capped when searching) and the
 * page. Each tab (tabs/*-tab.server.ts) brings its filter, its rows and its CSV.
 */

/**
 * A search counts its matches up to this many and then says "more than": an exact count of a
 * common word over a million rows would read them all, and a search is for finding, not for
 * paging past 40 pages (each match counted costs a table row read: 10,000 cost 400 ms).
 */
export const SEARCH_COUNT_CAP = 1_000;

/** `ILIKE '%search%'` with the search's own `%`, `_` and `\` taken literally. */
export function containsPattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

export type Page = {
  /** 1-based, never past the last page. */
  number: number;
  size: number;
  /** Matching rows; with `totalCapped`, at least this many. */
  total: number;
  totalCapped: boolean;
  pages: number;
};

export type PageWindow = { limit: number; offset: number };

export type RowCount = { total: number; capped: boolean };

/** The search and status a list's filter reads. */
export type ListFilterView = Pick<AdminView, "search" | "status">;

/** A list tab: what the panel's page and the CSV export need of it. */
export type ListTab<Row> = {
  /** The rows the search and status match; `undefined` when there is neither. */
  filter(db: Database, view: ListFilterView): SQL | undefined;
  /** How many rows `filter` matches: exact without a search, capped with one. */
  count(db: Database, view: AdminView, filter: SQL | undefined): Promise<RowCount>;
  /** The rows of `window`, in the list's order (newest first unless `order` says otherwise). */
  rows(
    db: Database,
    filter: SQL | undefined,
    window: PageWindow,
    order?: AdminView["order"],
  ): Promise<Row[]>;
  csv: CsvList;
};

function windowOf({ page, pageSize }: Pick<AdminView, "page" | "pageSize">): PageWindow {
  return { limit: pageSize, offset: (page - 1) * pageSize };
}

/** How many rows `filter` matches: exact without a search, capped with one. */
export async function countRows(
  db: Database,
  table: PgTable,
  filter: SQL | undefined,
  searching: boolean,
): Promise<RowCount> {
  if (!searching) {
    const [row] = await db.select({ total: count() }).from(table).where(filter);
    return { total: row?.total ?? 0, capped: false };
  }
  return cappedCount(
    db,
    db
      .select({ one: sql<number>`1`.as("one") })
      .from(table)
      .where(filter)
      .limit(SEARCH_COUNT_CAP + 1)
      .as("matches"),
  );
}

/** The rows of `matches`, a subquery cut at one past the cap. */
export async function cappedCount(db: Database, matches: Subquery): Promise<RowCount> {
  const [row] = await db.select({ total: count() }).from(matches);
  const total = row?.total ?? 0;
  return total > SEARCH_COUNT_CAP
    ? { total: SEARCH_COUNT_CAP, capped: true }
    : { total, capped: false };
}

function pageOf(view: AdminView, { total, capped }: RowCount): Page {
  const pages = Math.max(1, Math.ceil(total / view.pageSize));
  return {
    number: Math.min(view.page, pages),
    size: view.pageSize,
    total,
    totalCapped: capped,
    pages,
  };
}

/** A page of rows and where it sits in the list. */
export async function paged<Row>(
  view: AdminView,
  counting: Promise<RowCount>,
  rowsAt: (window: PageWindow) => Promise<Row[]>,
): Promise<{ rows: Row[]; page: Page }> {
  const [rowCount, rows] = await Promise.all([counting, rowsAt(windowOf(view))]);
  const page = pageOf(view, rowCount);
  // An address past the last page (the list shrank, or a hand-made link) shows the last one.
  if (page.number === view.page) return { rows, page };
  return { rows: await rowsAt(windowOf({ ...view, page: page.number })), page };
}

/*
 * Each list reads its page in two steps: the ids of the page from an index in the list's order
 * (an index-only scan, so a deep page skips index entries, not table rows), then those rows.
 */

/** The tables listed newest first by `(created_at, id)`, each with that index. */
type NewestFirstTable = typeof contactInquiries | typeof payments | typeof customers;

/** The page `window` of `table`'s rows matching `filter`, newest first. */
function newestFirstPage<Table extends NewestFirstTable>(
  db: Database,
  table: Table,
  filter: SQL | undefined,
  { limit, offset }: PageWindow,
): Promise<Table["$inferSelect"][]> {
  const newestFirst = [desc(table.createdAt), desc(table.id)];
  const pageIds = db
    .select({ id: table.id })
    .from(table as NewestFirstTable)
    .where(filter)
    .orderBy(...newestFirst)
    .limit(limit)
    .offset(offset);
  return db
    .select()
    .from(table as NewestFirstTable)
    .where(inArray(table.id, pageIds))
    .orderBy(...newestFirst) as Promise<Table["$inferSelect"][]>;
}

/**
 * A tab that lists one table newest first and exports it from that table alone; counted as any
 * list unless it brings its own `count`.
 */
export function newestFirstTab<Table extends NewestFirstTable>(
  table: Table,
  tab: {
    filter: ListTab<Table["$inferSelect"]>["filter"];
    count?: ListTab<Table["$inferSelect"]>["count"];
    csvColumns: CsvColumn[];
    /** The CSV's rows when its cells need more than the table (a join); the table's alone by default. */
    csvRows?: CsvList["rows"];
  },
): ListTab<Table["$inferSelect"]> {
  return {
    filter: tab.filter,
    count: tab.count ?? ((db, view, filter) => countRows(db, table, filter, Boolean(view.search))),
    rows: (db, filter, window) => newestFirstPage(db, table, filter, window),
    csv: {
      columns: tab.csvColumns,
      order: [table.createdAt, table.id],
      rows:
        tab.csvRows ??
        ((db, fields, where) =>
          db
            .select(fields)
            .from(table as NewestFirstTable)
            .where(where)
            .$dynamic()),
    },
  };
}
