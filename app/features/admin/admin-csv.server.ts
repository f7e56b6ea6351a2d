import { and, desc, eq, exists, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { formatPrice, serviceCodeLabel } from "~/features/catalogue/services";
import { purchaseStatusLabel, type PurchaseStatus } from "~/features/payments/purchase-status";
import { ticketOverdueSql } from "~/features/support/tickets.server";
import {
  categoryLabel,
  priorityLabel,
  ticketStatusLabel,
  type TicketPriority,
  type TicketStatus,
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
import { adminViewFrom, type AdminListTab, type AdminView } from "./admin-tabs";

/** Rows fetched from the cursor at a time: big enough to be fast, small enough to stay lean. */
const CURSOR_BATCH = 5_000;
/** Rows per chunk handed to the response: about 50 kB of text. */
const ROWS_PER_CHUNK = 500;

/** A row as the cursor gives it: each value under its column's alias. */
type RawRow = Record<string, unknown>;
type Column = [header: string, value: (row: RawRow) => string];

const text = (value: unknown) => (value == null ? "" : String(value));
const euros = (value: unknown) => formatPrice(Number(value), { cents: "always" });
const yesNo = (value: unknown) => (value ? "Sí" : "No");

/**
 * A timestamp as the panel shows it (`formatDate(…, "shortDateTime")`: "2/1/26, 9:05", Madrid
 * time), formatted by the database: at a million rows the Node process would spend a tenth of
 * the export in Intl, while PostgreSQL does it on another core. A test holds both to the same
 * text, summer and winter time included.
 */
export const sqlShortDateTime = (column: AnyPgColumn | SQLWrapper) =>
  sql<string>`to_char(${column} at time zone ${sql.raw(`'${SITE_TIME_ZONE}'`)}, 'FMDD/FMMM/YY, FMHH24:MI')`;

type CsvList = {
  columns: Column[];
  /** The list's rows in the list's order, every value aliased to its name in `columns`. */
  query(db: Database, view: AdminView): SQLWrapper;
};

/** `select` with each value under its own name, so raw rows read like the builder's rows. */
function aliased(fields: Record<string, SQL | AnyPgColumn>) {
  return Object.fromEntries(
    Object.entries(fields).map(([name, value]) => [name, sql`${value}`.as(name)]),
  );
}

const csvLists: Record<AdminListTab, CsvList> = {
  consultas: {
    columns: [
      ["Fecha", (row) => text(row.createdAt)],
      ["Nombre", (row) => text(row.name)],
      ["Email", (row) => text(row.email)],
      ["Servicio", (row) => serviceCodeLabel(text(row.service))],
      ["Mensaje", (row) => text(row.message)],
      ["Atendida", (row) => (row.handledAt == null ? "No" : text(row.handledAt))],
    ],
    query: (db, view) =>
      db
        .select(
          aliased({
            createdAt: sqlShortDateTime(contactInquiries.createdAt),
            name: contactInquiries.name,
            email: contactInquiries.email,
            service: contactInquiries.service,
            message: contactInquiries.message,
            handledAt: sqlShortDateTime(contactInquiries.handledAt),
          }),
        )
        .from(contactInquiries)
        .where(listFilters.consultas(db, view))
        .orderBy(desc(contactInquiries.createdAt), desc(contactInquiries.id)),
  },
  pagos: {
    columns: [
      ["Fecha", (row) => text(row.createdAt)],
      ["Email", (row) => text(row.customerEmail)],
      ["Servicio", (row) => text(row.serviceName)],
      ["Importe", (row) => euros(row.amount)],
      ["Estado", (row) => purchaseStatusLabel(row.status as PurchaseStatus)],
    ],
    query: (db, view) =>
      db
        .select(
          aliased({
            createdAt: sqlShortDateTime(payments.createdAt),
            customerEmail: payments.customerEmail,
            serviceName: payments.serviceName,
            amount: payments.amount,
            status: payments.status,
          }),
        )
        .from(payments)
        .where(listFilters.pagos(db, view))
        .orderBy(desc(payments.createdAt), desc(payments.id)),
  },
  tickets: {
    columns: [
      ["Número", (row) => text(row.ticketNumber)],
      ["Asunto", (row) => text(row.subject)],
      ["Categoría", (row) => categoryLabel(text(row.category))],
      ["Prioridad", (row) => priorityLabel(row.priority as TicketPriority)],
      ["Estado", (row) => ticketStatusLabel(row.status as TicketStatus)],
      ["Cliente", (row) => text(row.customerEmail)],
      ["Creado", (row) => text(row.createdAt)],
      ["Responder antes de", (row) => text(row.firstResponseDueAt)],
      ["Vencido", (row) => yesNo(row.overdue)],
    ],
    query: (db, view) =>
      db
        .select(
          aliased({
            ticketNumber: supportTickets.ticketNumber,
            subject: supportTickets.subject,
            category: supportTickets.category,
            priority: supportTickets.priority,
            status: supportTickets.status,
            customerEmail: users.email,
            createdAt: sqlShortDateTime(supportTickets.createdAt),
            firstResponseDueAt: sqlShortDateTime(supportTickets.firstResponseDueAt),
            overdue: ticketOverdueSql,
          }),
        )
        .from(supportTickets)
        .innerJoin(users, eq(users.id, supportTickets.userId))
        .where(listFilters.tickets(db, view))
        .orderBy(desc(supportTickets.createdAt), desc(supportTickets.ticketNumber)),
  },
  usuarios: {
    columns: [
      ["Alta", (row) => text(row.createdAt)],
      ["Email", (row) => text(row.email)],
      ["Nombre", (row) => text(row.fullName)],
      ["Email verificado", (row) => yesNo(row.emailVerified)],
      ["Administrador", (row) => yesNo(row.isAdmin)],
    ],
    query: (db, view) =>
      db
        .select(
          aliased({
            createdAt: sqlShortDateTime(users.createdAt),
            email: users.email,
            fullName: profiles.fullName,
            emailVerified: users.emailVerified,
            isAdmin: exists(
              db
                .select({ one: sql`1` })
                .from(userRoles)
                .where(and(eq(userRoles.userId, users.id), eq(userRoles.role, "admin"))),
            ),
          }),
        )
        .from(users)
        .leftJoin(profiles, eq(profiles.id, users.id))
        .where(listFilters.usuarios(db, view))
        .orderBy(desc(users.createdAt), desc(users.id)),
  },
  clientes: {
    columns: [
      ["Email", (row) => text(row.email)],
      ["Nombre", (row) => text(row.name)],
      ["Pedidos", (row) => text(row.totalOrders)],
      ["Total gastado", (row) => euros(row.totalSpent)],
    ],
    query: (db, view) =>
      db
        .select(
          aliased({
            email: customers.email,
            name: customers.name,
            totalOrders: customers.totalOrders,
            totalSpent: customers.totalSpent,
          }),
        )
        .from(customers)
        .where(listFilters.clientes(db, view))
        .orderBy(desc(customers.createdAt), desc(customers.id)),
  },
};

/**
 * One cell: quoted when it must be, and never read as a formula by a spreadsheet (a visitor's
 * name such as "=HYPERLINK(…)" stays text).
 */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[";\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** The header line of a tab's CSV, after the UTF-8 byte order mark a Spanish Excel needs. */
export function csvHeader(tab: AdminListTab): string {
  return `\uFEFF${csvLists[tab].columns.map(([header]) => csvCell(header)).join(";")}\r\n`;
}

/** Rows of a tab as CSV lines (semicolons, CRLF), as they come from the cursor. */
export function csvLines(tab: AdminListTab, rows: RawRow[]): string {
  const { columns } = csvLists[tab];
  let lines = "";
  for (const row of rows)
    lines += `${columns.map(([, value]) => csvCell(value(row))).join(";")}\r\n`;
  return lines;
}

/** "pagos-2026-11-22.csv": the tab and the Madrid day of the export. */
export function csvFileName(tab: AdminListTab, now: Date): string {
  const day = new Intl.DateTimeFormat("en-CA", { timeZone: SITE_TIME_ZONE }).format(now);
  return `${tab}-${day}.csv`;
}

/**
 * The CSV of the admin tab in `url`, with the search and filter on screen, streamed from a
 * server-side cursor: batches are fetched as the client reads, so a million rows never sit in
 * memory. The cursor lives in a read-only repeatable-read transaction, so the file is one
 * consistent snapshot. On the embedded database (one connection) other queries wait while a
 * download is being read; its lists are small enough for that to be a moment.
 */
export async function adminExport(url: URL): Promise<Response> {
  const view = adminViewFrom(url);
  if (view.tab === "dashboard") return new Response("Not Found", { status: 404 });
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
  return new Response(
    cursorStream(db, csvLists[tab].query(db, { ...view, tab }), {
      first: csvHeader(tab),
      lines: (rows) => csvLines(tab, rows),
    }),
    { headers },
  );
}

function cursorStream(
  db: Database,
  query: SQLWrapper,
  text: { first: string; lines(rows: RawRow[]): string },
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let cancelled = false;
  let wake: (() => void) | undefined;
  const readerWants = () => new Promise<void>((resolve) => (wake = resolve));
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controller.enqueue(encoder.encode(text.first));
        db.transaction(
          async (tx) => {
            // Plan for reading every row, not for the first ones (a cursor's default).
            await tx.execute(sql`set local cursor_tuple_fraction = 1`);
            await tx.execute(sql`declare admin_export no scroll cursor for ${query}`);
            const fetchBatch = async () =>
              (
                (await tx.execute(
                  sql.raw(`fetch ${CURSOR_BATCH} from admin_export`),
                )) as unknown as {
                  rows: RawRow[];
                }
              ).rows;
            let next = fetchBatch();
            for (;;) {
              const rows = await next;
              const more = rows.length === CURSOR_BATCH;
              // The database reads the next batch while this one is turned into text.
              if (more) next = fetchBatch();
              // Chunks of a few dozen kB: large strings skip the young generation and pile up
              // until a full garbage collection (+180 MB at a million rows in one-batch chunks).
              for (let start = 0; start < rows.length; start += ROWS_PER_CHUNK)
                controller.enqueue(
                  encoder.encode(text.lines(rows.slice(start, start + ROWS_PER_CHUNK))),
                );
              if (!more) return;
              // Backpressure: no batch beyond the next until the client has read this one.
              while (!cancelled && (controller.desiredSize ?? 0) <= 0) await readerWants();
              if (cancelled) {
                await next;
                return;
              }
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
