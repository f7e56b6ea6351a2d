import { and, desc, sql } from "drizzle-orm";
import { recordStaffAction } from "~/features/audit/audit.server";
import { requireCapability, type Staff } from "~/features/identity/session.server";
import type { Database } from "~/platform/db/client.server";
import { getDb } from "~/platform/db/database.server";
import { downloadResponse, snapshotPages, textStream } from "~/platform/http/downloads.server";
import { siteDay } from "~/platform/dates";
import {
  adminViewFrom,
  exportCapabilities,
  isListTab,
  type AdminListTab,
  type AdminView,
} from "./admin-tabs";
import type { PageFields } from "./tabs/csv-cells.server";
import { countList, listTabs } from "./tabs/list-tabs.server";

/**
 * Rows per page of the export: one query, one string of about 50 kB. The database writes the
 * CSV lines and joins them, so the server holds one string per page instead of a row object per
 * row: at a million rows that is the difference between ~200 MB of garbage and almost none.
 */
export const EXPORT_PAGE_ROWS = 500;

/**
 * The header line of a tab's CSV, after the UTF-8 byte order mark a Spanish Excel needs (our
 * headers hold no semicolon, quote or formula sign).
 */
export function csvHeader(tab: AdminListTab): string {
  return `\uFEFF${listTabs[tab].csv.columns.map(([header]) => header).join(";")}\r\n`;
}

/** "pagos-2026-11-22.csv": the tab and the Madrid day of the export. */
export function csvFileName(tab: AdminListTab, now: Date): string {
  const day = siteDay(now);
  return `${tab}-${day}.csv`;
}

/** Where the previous page ended: its last row's keys, as text the database gave and takes back. */
type PageEnd = { time: string; tieBreak: string };
type Page = { lines: string | null; rows: number; time: string | null; tieBreak: string | null };

/** One page of a tab's CSV lines after `after` (from the start without it), joined by the database. */
export async function csvPage(
  db: Database,
  tab: AdminListTab,
  view: AdminView,
  after: PageEnd | undefined,
): Promise<Page> {
  const { csv, filter } = listTabs[tab];
  const [time, tieBreak] = csv.order;
  const newestFirst = sql`${time} desc, ${tieBreak} desc`;
  const cells = csv.columns.map(([, cell]) => sql`coalesce(${cell}, '')`);
  const fields: PageFields = {
    line: sql<string>`${sql.join(cells, sql` || ';' || `)} || ${"\r\n"}`.as("line"),
    n: sql<number>`row_number() over (order by ${newestFirst})`.as("n"),
    time: sql<string>`${time}::text`.as("time"),
    tieBreak: sql<string>`${tieBreak}::text`.as("tie_break"),
  };
  const afterEnd = after
    ? sql`(${time}, ${tieBreak}) < (cast(${after.time} as ${sql.raw(time.getSQLType())}), cast(${after.tieBreak} as ${sql.raw(tieBreak.getSQLType())}))`
    : undefined;
  const page = csv
    .rows(db, fields, and(filter(db, view), afterEnd))
    .orderBy(desc(time), desc(tieBreak))
    .limit(EXPORT_PAGE_ROWS)
    .as("page");
  const [result] = await db
    .select({
      lines: sql<string | null>`string_agg(${page.line}, '' order by ${page.n})`,
      rows: sql<number>`count(*)::int`,
      time: sql<string | null>`(array_agg(${page.time} order by ${page.n} desc))[1]`,
      tieBreak: sql<string | null>`(array_agg(${page.tieBreak} order by ${page.n} desc))[1]`,
    })
    .from(page);
  return result!;
}

/**
 * The CSV of the admin tab in `url`, with the search and filter on screen, streamed page by page
 * as the client reads, so a million rows never sit in memory. Every page is read in one
 * read-only repeatable-read transaction, so the file is one consistent snapshot. On the embedded
 * database (one connection) other queries wait while a download is being read; its lists are
 * small enough for that to be a moment.
 */
export async function adminExport(url: URL): Promise<Response> {
  const view = adminViewFrom(url);
  if (!isListTab(view.tab)) return new Response("Not Found", { status: 404 });
  const tab = view.tab;
  const db = getDb();
  const { total, capped } = await countList(db, { ...view, tab });
  const pages = snapshotPages<string, PageEnd>(
    db,
    async (tx, after) => {
      const page = await csvPage(tx, tab, { ...view, tab }, after);
      const full = page.rows === EXPORT_PAGE_ROWS;
      return {
        page: page.lines ?? "",
        next: full ? { time: page.time!, tieBreak: page.tieBreak! } : undefined,
      };
    },
    "admin CSV export",
  );
  const response = downloadResponse(textStream(csvHeader(tab), pages), {
    fileName: csvFileName(tab, new Date()),
    contentType: "text/csv; charset=utf-8",
  });
  // Lets the download show a percentage; a capped search count would be a guess.
  if (!capped) response.headers.set("X-Total-Rows", String(total));
  return response;
}

/**
 * The CSV of the tab in `url` as `staff` asks for it: refused (403) unless their role may export
 * that tab, and written to the audit log with its filters first. The export reads in a read-only
 * transaction that lasts as long as the download (on the embedded database, the one connection),
 * so its row is written just before it, not inside it.
 */
export async function staffExport(url: URL, staff: Staff): Promise<Response> {
  const view = adminViewFrom(url);
  if (!isListTab(view.tab)) return new Response("Not Found", { status: 404 });
  requireCapability(staff, exportCapabilities[view.tab]);
  await recordStaffAction(getDb(), {
    actor: staff,
    action: "export.csv",
    details: {
      tab: view.tab,
      q: view.search || null,
      estado: view.status === "all" ? null : view.status,
      orden: view.tab === "tickets" ? view.order : null,
    },
  });
  return adminExport(url);
}
