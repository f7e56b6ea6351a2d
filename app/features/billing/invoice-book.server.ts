import { and, asc, eq, gte, lt, sql, type SQL } from "drizzle-orm";
import { alias, type AnyPgColumn } from "drizzle-orm/pg-core";
import { recordStaffAction, type AuditActor } from "~/features/audit/audit.server";
import type { Database } from "~/platform/db/client.server";
import { getDb } from "~/platform/db/database.server";
import { invoices } from "~/platform/db/schema";
import { getLogger } from "~/platform/logger.server";
import { annulledInvoice } from "~/features/verifactu/records.server";
import { SITE_TIME_ZONE } from "~/ui/dates";

/*
 * The libro registro de facturas expedidas (Reglamento de facturación, RD 1619/2012, and the
 * IVA record books of RD 1624/1992 art. 63): every invoice issued in a period, one line each,
 * for the accountant's spreadsheet. As the admin CSV (decision 029) the database writes the
 * lines and the file is streamed page by page from one read-only snapshot; unlike it, amounts
 * are plain numbers with a decimal comma (no thousands point, no €), so a Spanish spreadsheet
 * adds them up.
 */

export const INVOICE_BOOK_COLUMNS = [
  "Número",
  "Fecha de expedición",
  "Tipo",
  "NIF del destinatario",
  "Nombre del destinatario",
  "Base imponible",
  "Tipo de IVA (%)",
  "Cuota de IVA",
  "Total",
  "Factura rectificada",
  "Anulada",
] as const;

/** Invoices per page: one query and one string of about 500 kB. */
export const INVOICE_BOOK_PAGE_ROWS = 5_000;

/** A period as the accountant asks for it: Madrid calendar days, both included. */
export type InvoiceBookPeriod = { from: string; to: string };

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar day written AAAA-MM-DD (2026-02-30 is not one). */
function isCalendarDay(value: string | null): value is string {
  const match = value ? DAY.exec(value) : null;
  if (!match) return false;
  const [, year, month, day] = match.map(Number) as [number, number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && year >= 2000;
}

export const invoiceBookRefusal =
  "Las fechas del libro de facturas no son válidas: indica desde y hasta como AAAA-MM-DD, y que desde no sea posterior a hasta.";

/** The period of `?desde=…&hasta=…`, or undefined when it is not one. */
export function invoiceBookPeriodOf(url: URL): InvoiceBookPeriod | undefined {
  const from = url.searchParams.get("desde");
  const to = url.searchParams.get("hasta");
  if (!isCalendarDay(from) || !isCalendarDay(to) || from > to) return undefined;
  return { from, to };
}

const corrected = alias(invoices, "corrected");

/** Cents as a number a Spanish spreadsheet reads: -1234 → -12,34. */
const decimalComma = (cents: AnyPgColumn) =>
  sql`replace(to_char(${cents} / 100.0, 'FM999999999990.00'), '.', ',')`;

/**
 * A text cell: quoted when it holds a semicolon, quote or line break, and with a leading
 * apostrophe when a spreadsheet would read it as a formula.
 */
function textCell(value: AnyPgColumn) {
  const text = sql`coalesce(${value}, '')`;
  const safe = sql`(case when ${text} ~ '^[-=+@\t\r]' then '''' || ${text} else ${text} end)`;
  return sql`(case when ${safe} ~ '[";\r\n]' then '"' || replace(${safe}, '"', '""') || '"' else ${safe} end)`;
}

function lineOf(): SQL<string> {
  const cells = [
    sql`${invoices.number}`,
    sql`to_char(${invoices.issuedAt} at time zone ${sql.raw(`'${SITE_TIME_ZONE}'`)}, 'DD/MM/YYYY')`,
    sql`${invoices.invoiceType}`,
    textCell(invoices.customerTaxId),
    textCell(invoices.customerName),
    decimalComma(invoices.baseAmount),
    sql`${invoices.vatRate}::text`,
    decimalComma(invoices.vatAmount),
    decimalComma(invoices.totalAmount),
    sql`coalesce(${corrected.number}, '')`,
    // Issued in error and annulled (decision 064): the line stays, marked, as the number was used.
    sql`(case when ${annulledInvoice(invoices.id)} then 'Sí' else '' end)`,
  ];
  return sql<string>`${sql.join(cells, sql` || ';' || `)} || ${"\r\n"}`;
}

/** The instant a Madrid calendar day begins. */
const startOfDay = (day: string) => sql`(${day}::date::timestamp at time zone ${SITE_TIME_ZONE})`;

/** Where the previous page ended, in the book's order: series, year, sequence. */
type PageEnd = { series: string; year: number; sequence: number };
type Page = { lines: string; rows: number; last?: PageEnd };

/**
 * One page of the book after `after`: the period's invoices by series then number (the year
 * bounds let the numbering index skip the other years).
 */
export async function invoiceBookPage(
  db: Pick<Database, "select">,
  period: InvoiceBookPeriod,
  after: PageEnd | undefined,
  pageRows = INVOICE_BOOK_PAGE_ROWS,
): Promise<Page> {
  const rows = await db
    .select({
      line: lineOf(),
      series: invoices.series,
      year: invoices.year,
      sequence: invoices.sequence,
    })
    .from(invoices)
    .leftJoin(corrected, eq(corrected.id, invoices.correctsInvoiceId))
    .where(
      and(
        gte(invoices.year, Number(period.from.slice(0, 4))),
        sql`${invoices.year} <= ${Number(period.to.slice(0, 4))}`,
        gte(invoices.issuedAt, startOfDay(period.from)),
        lt(invoices.issuedAt, sql`${startOfDay(period.to)} + interval '1 day'`),
        after
          ? sql`(${invoices.series}, ${invoices.year}, ${invoices.sequence}) > (${after.series}, ${after.year}, ${after.sequence})`
          : undefined,
      ),
    )
    .orderBy(asc(invoices.series), asc(invoices.year), asc(invoices.sequence))
    .limit(pageRows);
  const last = rows.at(-1);
  return {
    lines: rows.map((row) => row.line).join(""),
    rows: rows.length,
    last: last && { series: last.series, year: last.year, sequence: last.sequence },
  };
}

/** "libro-facturas-expedidas-2026-01-01-a-2026-03-31.csv". */
export const invoiceBookFileName = ({ from, to }: InvoiceBookPeriod) =>
  `libro-facturas-expedidas-${from}-a-${to}.csv`;

/**
 * The book of `?desde=…&hasta=…` as a CSV download for a Spanish spreadsheet (UTF-8 with its
 * byte order mark, semicolons, decimal commas); 400 with the reason when the dates are not a
 * period.
 */
export function invoiceBookDownload(url: URL): Response {
  const period = invoiceBookPeriodOf(url);
  if (!period)
    return new Response(invoiceBookRefusal, {
      status: 400,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  return new Response(bookStream(getDb(), period), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${invoiceBookFileName(period)}"`,
      "Cache-Control": "no-store",
    },
  });
}

/**
 * The book as a staff member asks for it (the route checked `payments.export`): a valid period is
 * written to the audit log first (the book reads in a read-only transaction as long as the
 * download), then streamed; invalid dates are refused as they always were.
 */
export async function staffInvoiceBookDownload(url: URL, staff: AuditActor): Promise<Response> {
  const period = invoiceBookPeriodOf(url);
  if (period)
    await recordStaffAction(getDb(), {
      actor: staff,
      action: "export.invoice_book",
      details: { desde: period.from, hasta: period.to },
    });
  return invoiceBookDownload(url);
}

function bookStream(db: Database, period: InvoiceBookPeriod): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let stopped = false;
  let resume: (() => void) | undefined;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controller.enqueue(encoder.encode(`\uFEFF${INVOICE_BOOK_COLUMNS.join(";")}\r\n`));
        const readPages = async (tx: Database) => {
          let after: PageEnd | undefined;
          do {
            const page = await invoiceBookPage(tx, period, after);
            if (page.rows > 0) controller.enqueue(encoder.encode(page.lines));
            if (page.rows < INVOICE_BOOK_PAGE_ROWS) return;
            after = page.last;
            // No page beyond this one until the client has read it.
            while (!stopped && (controller.desiredSize ?? 0) <= 0)
              await new Promise<void>((wake) => (resume = wake));
          } while (!stopped);
        };
        db.transaction((tx) => readPages(tx as unknown as Database), {
          isolationLevel: "repeatable read",
          accessMode: "read only",
        }).then(
          () => !stopped && controller.close(),
          (error: unknown) => {
            getLogger().error({ err: error }, "invoice book export failed");
            if (!stopped) controller.error(error);
          },
        );
      },
      pull: () => resume?.(),
      cancel() {
        stopped = true;
        resume?.();
      },
    },
    { highWaterMark: 4 },
  );
}
