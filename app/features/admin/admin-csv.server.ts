import { and, desc, eq, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { AnyPgColumn, PgSelect } from "drizzle-orm/pg-core";
import { serviceCodeLabel, serviceCodes } from "~/features/catalogue/services";
import { purchaseStatusLabel, purchaseStatuses } from "~/features/payments/purchase-status";
import { ticketOverdueSql } from "~/features/support/tickets.server";
import {
  categoryLabel,
  priorityLabel,
  ticketCategories,
  ticketPriorities,
  ticketStatuses,
  ticketStatusLabel,
} from "~/features/support/ticket-rules";
import type { Database } from "~/platform/db/client.server";
import { getDb } from "~/platform/db/database.server";
import {
  contactInquiries,
  customers,
  payments,
  profiles,
  supportTickets,
  userRoles,
  users,
} from "~/platform/db/schema";
import { getLogger } from "~/platform/logger.server";
import { SITE_TIME_ZONE } from "~/ui/dates";
import { countList, listFilters } from "./admin-data.server";
import { adminViewFrom, isListTab, type AdminListTab, type AdminView } from "./admin-tabs";

/**
 * Rows per page of the export: one query, one string of about 50 kB. The database writes the
 * CSV lines and joins them, so the server holds one string per page instead of a row object per
 * row: at a million rows that is the difference between ~200 MB of garbage and almost none.
 */
export const EXPORT_PAGE_ROWS = 500;

type Cell = SQL<string>;
type Column = [header: string, cell: Cell];

/** The fields of one page's inner query: the line, its order and the keys of the next page. */
type PageFields = {
  line: SQL.Aliased<string>;
  n: SQL.Aliased<number>;
  time: SQL.Aliased<string>;
  tieBreak: SQL.Aliased<string>;
};

/**
 * A CSV list: its columns (each a SQL expression giving the cell's text), its order (two keys
 * unique together, newest first, which also finds the next page: keyset paging) and its rows.
 */
type CsvList = {
  columns: Column[];
  order: [time: AnyPgColumn, tieBreak: AnyPgColumn];
  rows(db: Database, fields: PageFields, where: SQL | undefined): PgSelect;
};

/**
 * A timestamp as the panel shows it (`formatDate(…, "shortDateTime")`: "2/1/26, 9:05", Madrid
 * time), formatted by the database. A test holds both to the same text, summer and winter time.
 */
export const sqlShortDateTime = (column: AnyPgColumn | SQLWrapper) =>
  sql<string>`to_char(${column} at time zone ${sql.raw(`'${SITE_TIME_ZONE}'`)}, 'FMDD/FMMM/YY, FMHH24:MI')`;

/**
 * Text a visitor typed, as a cell: quoted when it holds a semicolon, quote or line break, and
 * never read as a formula by a spreadsheet ("=HYPERLINK(…)" gets a leading apostrophe).
 */
export function sqlCsvText(value: AnyPgColumn | SQLWrapper): Cell {
  const text = sql`coalesce((${value})::text, '')`;
  const neutral = sql`(case when ${text} ~ ${"^[-=+@\t\r]"} then '''' || ${text} else ${text} end)`;
  return sql<string>`(case when ${text} ~ ${'[";\r\n]'} then '"' || replace(${neutral}, '"', '""') || '"' else ${neutral} end)`;
}

/** Cents as the panel writes money with cents (`formatPrice(…, { cents: "always" })`): 1.234,00€ is 1234,00€. */
export function sqlEuros(cents: AnyPgColumn | SQLWrapper): Cell {
  const whole = sql`(abs(${cents}) / 100)`;
  // es-ES groups thousands from five digits on: 9999 but 10.000.
  const digits = sql`(case when ${whole} >= 10000 then replace(to_char(${whole}, 'FM999,999,999,999,990'), ',', '.') else ${whole}::text end)`;
  return sql<string>`((case when ${cents} < 0 then '-' else '' end) || ${digits} || ',' || lpad((abs(${cents}) % 100)::text, 2, '0') || '€')`;
}

/** A code as its Spanish label, from the same function the panel uses; unknown codes as `fallback`. */
function sqlLabel(
  code: AnyPgColumn,
  codes: readonly string[],
  label: (code: string) => string,
  fallback: SQL = sql`coalesce(${code}::text, '')`,
): Cell {
  const cases = codes.map((each) => sql`when ${each} then ${label(each)}`);
  return sql<string>`(case ${code} ${sql.join(cases, sql` `)} else ${fallback} end)`;
}

const yesNo = (condition: SQLWrapper): Cell =>
  sql<string>`(case when ${condition} then 'Sí' else 'No' end)`;

const csvLists: Record<AdminListTab, CsvList> = {
  consultas: {
    columns: [
      ["Fecha", sqlShortDateTime(contactInquiries.createdAt)],
      ["Nombre", sqlCsvText(contactInquiries.name)],
      ["Email", sqlCsvText(contactInquiries.email)],
      ["Servicio", sqlCsvText(sqlLabel(contactInquiries.service, serviceCodes, serviceCodeLabel))],
      ["Mensaje", sqlCsvText(contactInquiries.message)],
      ["Atendida", sql<string>`coalesce(${sqlShortDateTime(contactInquiries.handledAt)}, 'No')`],
    ],
    order: [contactInquiries.createdAt, contactInquiries.id],
    rows: (db, fields, where) => db.select(fields).from(contactInquiries).where(where).$dynamic(),
  },
  pagos: {
    columns: [
      ["Fecha", sqlShortDateTime(payments.createdAt)],
      ["Email", sqlCsvText(payments.customerEmail)],
      ["Servicio", sqlCsvText(payments.serviceName)],
      ["Importe", sqlEuros(payments.amount)],
      [
        "Estado",
        sqlLabel(
          payments.status,
          purchaseStatuses,
          purchaseStatusLabel,
          sql`${purchaseStatusLabel("")}`,
        ),
      ],
    ],
    order: [payments.createdAt, payments.id],
    rows: (db, fields, where) => db.select(fields).from(payments).where(where).$dynamic(),
  },
  tickets: {
    columns: [
      ["Número", sqlCsvText(supportTickets.ticketNumber)],
      ["Asunto", sqlCsvText(supportTickets.subject)],
      ["Categoría", sqlCsvText(sqlLabel(supportTickets.category, ticketCategories, categoryLabel))],
      [
        "Prioridad",
        sqlLabel(
          supportTickets.priority,
          ticketPriorities,
          priorityLabel,
          sql`${priorityLabel("")}`,
        ),
      ],
      [
        "Estado",
        sqlLabel(
          supportTickets.status,
          ticketStatuses,
          ticketStatusLabel,
          sql`${ticketStatusLabel("")}`,
        ),
      ],
      ["Cliente", sqlCsvText(users.email)],
      ["Creado", sqlShortDateTime(supportTickets.createdAt)],
      ["Responder antes de", sqlShortDateTime(supportTickets.firstResponseDueAt)],
      ["Vencido", yesNo(ticketOverdueSql)],
    ],
    order: [supportTickets.createdAt, supportTickets.ticketNumber],
    rows: (db, fields, where) =>
      db
        .select(fields)
        .from(supportTickets)
        .innerJoin(users, eq(users.id, supportTickets.userId))
        .where(where)
        .$dynamic(),
  },
  usuarios: {
    columns: [
      ["Alta", sqlShortDateTime(users.createdAt)],
      ["Email", sqlCsvText(users.email)],
      ["Nombre", sqlCsvText(profiles.fullName)],
      ["Email verificado", yesNo(users.emailVerified)],
      [
        "Administrador",
        yesNo(
          sql`exists (select 1 from ${userRoles} where ${userRoles.userId} = ${users.id} and ${userRoles.role} = 'admin')`,
        ),
      ],
    ],
    order: [users.createdAt, users.id],
    rows: (db, fields, where) =>
      db
        .select(fields)
        .from(users)
        .leftJoin(profiles, eq(profiles.id, users.id))
        .where(where)
        .$dynamic(),
  },
  clientes: {
    columns: [
      ["Email", sqlCsvText(customers.email)],
      ["Nombre", sqlCsvText(customers.name)],
      ["Pedidos", sql<string>`${customers.totalOrders}::text`],
      ["Total gastado", sqlEuros(customers.totalSpent)],
    ],
    order: [customers.createdAt, customers.id],
    rows: (db, fields, where) => db.select(fields).from(customers).where(where).$dynamic(),
  },
};

/**
 * The header line of a tab's CSV, after the UTF-8 byte order mark a Spanish Excel needs (our
 * headers hold no semicolon, quote or formula sign).
 */
export function csvHeader(tab: AdminListTab): string {
  return `\uFEFF${csvLists[tab].columns.map(([header]) => header).join(";")}\r\n`;
}

/** "pagos-2026-11-22.csv": the tab and the Madrid day of the export. */
export function csvFileName(tab: AdminListTab, now: Date): string {
  const day = new Intl.DateTimeFormat("en-CA", { timeZone: SITE_TIME_ZONE }).format(now);
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
  const list = csvLists[tab];
  const [time, tieBreak] = list.order;
  const newestFirst = sql`${time} desc, ${tieBreak} desc`;
  const cells = list.columns.map(([, cell]) => sql`coalesce(${cell}, '')`);
  const fields: PageFields = {
    line: sql<string>`${sql.join(cells, sql` || ';' || `)} || ${"\r\n"}`.as("line"),
    n: sql<number>`row_number() over (order by ${newestFirst})`.as("n"),
    time: sql<string>`${time}::text`.as("time"),
    tieBreak: sql<string>`${tieBreak}::text`.as("tie_break"),
  };
  const afterEnd = after
    ? sql`(${time}, ${tieBreak}) < (cast(${after.time} as ${sql.raw(time.getSQLType())}), cast(${after.tieBreak} as ${sql.raw(tieBreak.getSQLType())}))`
    : undefined;
  const page = list
    .rows(db, fields, and(listFilters[tab](db, view), afterEnd))
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
  const headers = new Headers({
    "Content-Type": "text/csv; charset=utf-8",
    "Content-Disposition": `attachment; filename="${csvFileName(tab, new Date())}"`,
    "Cache-Control": "no-store",
  });
  // Lets the download show a percentage; a capped search count would be a guess.
  if (!capped) headers.set("X-Total-Rows", String(total));
  return new Response(pagedStream(db, tab, { ...view, tab }), { headers });
}

function pagedStream(db: Database, tab: AdminListTab, view: AdminView): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let cancelled = false;
  let wake: (() => void) | undefined;
  const readerWants = () => new Promise<void>((resolve) => (wake = resolve));
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controller.enqueue(encoder.encode(csvHeader(tab)));
        db.transaction(
          async (tx) => {
            let after: PageEnd | undefined;
            for (;;) {
              const page = await csvPage(tx, tab, view, after);
              if (page.lines) controller.enqueue(encoder.encode(page.lines));
              if (page.rows < EXPORT_PAGE_ROWS) return;
              after = { time: page.time!, tieBreak: page.tieBreak! };
              // Backpressure: no page beyond this one until the client has read it.
              while (!cancelled && (controller.desiredSize ?? 0) <= 0) await readerWants();
              if (cancelled) return;
            }
          },
          { isolationLevel: "repeatable read", accessMode: "read only" },
        ).then(
          () => {
            if (!cancelled) controller.close();
          },
          (error: unknown) => {
            getLogger().error({ err: error }, "admin CSV export failed");
            if (!cancelled) controller.error(error);
          },
        );
      },
      pull() {
        wake?.();
      },
      cancel() {
        cancelled = true;
        wake?.();
      },
    },
    { highWaterMark: 8 },
  );
}
