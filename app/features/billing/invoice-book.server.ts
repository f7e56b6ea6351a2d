import { startOfNextSiteDay, startOfSiteDay } from "~/platform/db/site-days.server";
import { and, asc, eq, gte, lt, sql, type SQL } from "drizzle-orm";
import { alias, type AnyPgColumn } from "drizzle-orm/pg-core";
import { recordStaffAction, type AuditActor } from "~/features/audit/audit.server";
import type { Database } from "~/platform/db/client.server";
import { getConfig } from "~/platform/config.server";
import { getDb } from "~/platform/db/database.server";
import { invoices } from "~/platform/db/schema";
import { zipStream } from "~/platform/files/zip.server";
import { downloadResponse, snapshotPages, textStream } from "~/platform/http/downloads.server";
import { annulledInvoice } from "~/features/verifactu/records.server";
import { calendarDay, SITE_TIME_ZONE } from "~/platform/dates";
import { AMOUNT_STYLE, columnName, workbookEntries } from "./invoice-book-workbook.server";

/*
 * The libro registro de facturas expedidas (Reglamento de facturación, RD 1619/2012, and the
 * IVA record books of RD 1624/1992 art. 63) in the layout AEAT publishes for answering a
 * requerimiento ("Formatos de los libros registro del IVA y del IRPF", formato electrónico común,
 * sheet EXPEDIDAS; decision 069): its 36 columns in its order under its two header rows, every
 * invoice issued in a period, one line each. As the admin CSV (decision 029) the database writes
 * the lines and the file is streamed page by page from one read-only snapshot; amounts are plain
 * numbers with a decimal comma and dates dd/mm/aaaa, as AEAT's format and a Spanish spreadsheet
 * read them.
 */

/** AEAT's two header rows: the groups, then each column's own name. */
export const INVOICE_BOOK_HEADER: readonly (readonly string[])[] = [
  [
    "Autoliquidación",
    "",
    "Actividad",
    "",
    "",
    "Tipo de Factura",
    "Concepto de Ingreso",
    "Ingreso Computable",
    "Fecha Expedición",
    "Fecha Operación",
    "Identificación de la Factura",
    "",
    "",
    "NIF Destinatario",
    "",
    "",
    "Nombre Destinatario",
    "Clave de Operación",
    "Calificación de la Operación",
    "Operación Exenta",
    "Total Factura",
    "Base Imponible",
    "Tipo de IVA",
    "Cuota IVA Repercutida",
    "Tipo de Recargo eq.",
    "Cuota Recargo eq.",
    "Cobro (Operación Criterio de Caja de IVA y/o artículo 7.2.1º de Reglamento del IRPF)",
    "",
    "",
    "",
    "Tipo Retención del IRPF",
    "Importe Retenido del IRPF",
    "Registro Acuerdo Facturación",
    "Inmueble",
    "",
    "Referencia Externa",
  ],
  [
    "Ejercicio",
    "Periodo",
    "Código",
    "Tipo",
    "Grupo o Epígrafe del IAE",
    "",
    "",
    "",
    "",
    "",
    "Serie",
    "Número",
    "Número-Final",
    "Tipo",
    "Código País",
    "Identificación",
    "",
    "",
    "",
    "",
    "",
    "",
    "",
    "",
    "",
    "",
    "Fecha",
    "Importe",
    "Medio Utilizado",
    "Identificación Medio Utilizado",
    "",
    "",
    "",
    "Situación",
    "Referencia Catastral",
    "",
  ],
];

/** The header as the file starts: the byte order mark a Spanish Excel needs, then both rows. */
export const invoiceBookHeader = () =>
  `\uFEFF${INVOICE_BOOK_HEADER.map((row) => row.join(";")).join("\r\n")}\r\n`;

/** Invoices per page: one query and one string of about 500 kB. */
export const INVOICE_BOOK_PAGE_ROWS = 5_000;

/** A period as the accountant asks for it: Madrid calendar days, both included. */
export type InvoiceBookPeriod = { from: string; to: string };

export const invoiceBookRefusal =
  "Las fechas del libro de facturas no son válidas: indica desde y hasta como AAAA-MM-DD, y que desde no sea posterior a hasta.";

/** The period of `?desde=…&hasta=…`, or undefined when it is not one. */
export function invoiceBookPeriodOf(url: URL): InvoiceBookPeriod | undefined {
  const from = calendarDay(url.searchParams.get("desde"));
  const to = calendarDay(url.searchParams.get("hasta"));
  if (!from || !to || from > to) return undefined;
  return { from, to };
}

const corrected = alias(invoices, "corrected");
/** The simplified invoice an F3 replaces, and the F3 that replaced a simplified invoice. */
const substituted = alias(invoices, "substituted");
const substitute = alias(invoices, "substitute");

/** The book's two formats: AEAT's XLSX, and the CSV a Spanish spreadsheet opens. */
export type InvoiceBookFormat = "xlsx" | "csv";

/**
 * A cell of the book: text (`typed` when a person typed it, so the CSV guards it), an amount in
 * cents, or a plain number; each written by the database in either format.
 */
type BookCell =
  | { kind: "text"; value: SQL; typed?: boolean }
  | { kind: "cents"; value: AnyPgColumn }
  | { kind: "number"; value: SQL };

const EMPTY: BookCell = { kind: "text", value: sql`''` };
const text = (value: SQL, typed = false): BookCell => ({ kind: "text", value, typed });

/** Cents as a number a Spanish spreadsheet reads: -1234 → -12,34. */
const decimalComma = (cents: AnyPgColumn) =>
  sql`replace(to_char(${cents} / 100.0, 'FM999999999990.00'), '.', ',')`;

/**
 * A typed text in the CSV: quoted when it holds a semicolon, quote or line break, and with a
 * leading apostrophe when a spreadsheet would read it as a formula.
 */
function csvGuarded(value: SQL) {
  const text = sql`coalesce(${value}, '')`;
  const safe = sql`(case when ${text} ~ '^[-=+@\t\r]' then '''' || ${text} else ${text} end)`;
  return sql`(case when ${safe} ~ '[";\r\n]' then '"' || replace(${safe}, '"', '""') || '"' else ${safe} end)`;
}

function csvCell(cell: BookCell): SQL {
  if (cell.kind === "cents") return decimalComma(cell.value);
  if (cell.kind === "number") return sql`${cell.value}::text`;
  return cell.typed ? csvGuarded(cell.value) : cell.value;
}

/**
 * A cell of the sheet (ECMA-376 §18.3.1.4) at `reference` (its column letter and row number):
 * text as an inline string, escaped for XML and rid of the control characters XML 1.0 cannot
 * hold; numbers as numbers, amounts in the amount style; an empty value as an empty cell.
 */
function sheetCell(cell: BookCell, reference: SQL): SQL {
  const open = sql`'<c r="' || ${reference} || '"'`;
  if (cell.kind === "cents")
    return sql`${open} || ' s="${sql.raw(String(AMOUNT_STYLE))}"><v>' || to_char(${cell.value} / 100.0, 'FM999999999990.00') || '</v></c>'`;
  if (cell.kind === "number") return sql`${open} || '><v>' || ${cell.value}::text || '</v></c>'`;
  const value = sql`coalesce(${cell.value}, '')`;
  const escaped = sql`replace(replace(replace(regexp_replace(${value}, '[\x01-\x08\x0b\x0c\x0e-\x1f]', '', 'g'), '&', '&amp;'), '<', '&lt;'), '>', '&gt;')`;
  return sql`${open} || (case when ${value} = '' then '/>' else ' t="inlineStr"><is><t xml:space="preserve">' || ${escaped} || '</t></is></c>' end)`;
}

const MADRID = sql.raw(`'${SITE_TIME_ZONE}'`);
const madridDate = (instant: AnyPgColumn, format: string) =>
  sql`to_char(${instant} at time zone ${MADRID}, ${format})`;

/**
 * One invoice as a row of AEAT's layout. What this site never does stays empty: no IRPF, no
 * recargo de equivalencia, no criterio de caja, no exempt sale, no property rent; the
 * operation's date is the issue date, but for an F3: the day of the sale it replaces the
 * simplified invoice of. Every sale is clave 01 (régimen general), S1 at 21 %. An F3 carries
 * the sale's amounts, which AEAT's returns leave out as already declared (decision 070).
 * 'Referencia Externa' says what the layout has no column for: an invoice annulled as issued in
 * error (decision 064), the invoice a rectificativa corrects and the invoices of a substitution.
 */
function bookCells(): BookCell[] {
  return [
    { kind: "number", value: madridDate(invoices.issuedAt, "YYYY") },
    text(sql`${madridDate(invoices.issuedAt, "Q")} || 'T'`),
    EMPTY, // Actividad: código
    EMPTY, // Actividad: tipo
    EMPTY, // Actividad: epígrafe del IAE
    text(sql`${invoices.invoiceType}`),
    EMPTY, // Concepto de ingreso (IRPF)
    EMPTY, // Ingreso computable (IRPF)
    text(madridDate(invoices.issuedAt, "DD/MM/YYYY")),
    text(sql`coalesce(${madridDate(substituted.issuedAt, "DD/MM/YYYY")}, '')`),
    text(sql`split_part(${invoices.number}, '-', 1)`),
    text(sql`split_part(${invoices.number}, '-', 2)`),
    EMPTY, // Número final (asientos resumen)
    EMPTY, // NIF: tipo (a Spanish NIF has none)
    EMPTY, // NIF: código de país
    text(sql`${invoices.customerTaxId}`, true),
    text(sql`${invoices.customerName}`, true),
    text(sql`'01'`),
    text(sql`'S1'`),
    EMPTY, // Operación exenta
    { kind: "cents", value: invoices.totalAmount },
    { kind: "cents", value: invoices.baseAmount },
    { kind: "number", value: sql`${invoices.vatRate}` },
    { kind: "cents", value: invoices.vatAmount },
    EMPTY, // Tipo de recargo de equivalencia
    EMPTY, // Cuota de recargo de equivalencia
    EMPTY, // Cobro: fecha
    EMPTY, // Cobro: importe
    EMPTY, // Cobro: medio
    EMPTY, // Cobro: identificación del medio
    EMPTY, // Retención del IRPF: tipo
    EMPTY, // Retención del IRPF: importe
    EMPTY, // Registro del acuerdo de facturación
    EMPTY, // Inmueble: situación
    EMPTY, // Inmueble: referencia catastral
    text(sql`concat_ws(' ',
      case when ${annulledInvoice(invoices.id)} then 'ANULADA: emitida por error.' end,
      case when ${corrected.number} is not null then 'Rectifica la factura ' || ${corrected.number} || '.' end,
      case when ${substituted.number} is not null then 'Sustituye a la factura simplificada ' || ${substituted.number} || '.' end,
      case when ${substitute.number} is not null then 'Sustituida por la factura ' || ${substitute.number} || '.' end)`),
  ];
}

/**
 * One invoice in the format asked: a CSV line, or a `<row>` of the sheet, numbered from
 * `firstRow` in the book's order (spreadsheet readers want each row and cell to say where it is).
 */
function entryOf(format: InvoiceBookFormat, firstRow: number): SQL<string> {
  const cells = bookCells();
  if (format === "csv")
    return sql<string>`${sql.join(cells.map(csvCell), sql` || ';' || `)} || ${"\r\n"}`;
  const row = sql`(${firstRow}::int - 1 + row_number() over (order by ${invoices.series}, ${invoices.year}, ${invoices.sequence}))::text`;
  const xml = cells.map((cell, index) => sheetCell(cell, sql`${columnName(index)} || ${row}`));
  return sql<string>`'<row r="' || ${row} || '">' || ${sql.join(xml, sql` || `)} || '</row>'`;
}

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
  format: InvoiceBookFormat = "csv",
  firstRow = INVOICE_BOOK_HEADER.length + 1,
): Promise<Page> {
  const rows = await db
    .select({
      line: entryOf(format, firstRow),
      series: invoices.series,
      year: invoices.year,
      sequence: invoices.sequence,
    })
    .from(invoices)
    .leftJoin(corrected, eq(corrected.id, invoices.correctsInvoiceId))
    .leftJoin(substituted, eq(substituted.id, invoices.substitutesInvoiceId))
    .leftJoin(substitute, eq(substitute.substitutesInvoiceId, invoices.id))
    .where(
      and(
        gte(invoices.year, Number(period.from.slice(0, 4))),
        sql`${invoices.year} <= ${Number(period.to.slice(0, 4))}`,
        gte(invoices.issuedAt, startOfSiteDay(period.from)),
        lt(invoices.issuedAt, startOfNextSiteDay(period.to)),
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

/**
 * AEAT's name for the book: the year, the issuer's NIF, E (facturas expedidas) and the issuer's
 * name, then the period, since staff may download any span: "2026B12345674EEmpresa SL
 * 2026-01-01 a 2026-03-31.csv". Characters a file name cannot hold are left out.
 */
export function invoiceBookFileName(
  { from, to }: InvoiceBookPeriod,
  format: InvoiceBookFormat = "csv",
) {
  const { taxId, legalName } = getConfig().company;
  const name = [...legalName]
    .filter((char) => char >= " " && !'\\/:*?"<>|'.includes(char))
    .join("")
    .trim();
  return `${from.slice(0, 4)}${taxId}E${name} ${from} a ${to}.${format}`;
}

const CONTENT_TYPES: Record<InvoiceBookFormat, string> = {
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  csv: "text/csv; charset=utf-8",
};

/** `?formato=xlsx` asks for AEAT's workbook (the staff form's first button); the CSV otherwise. */
const formatOf = (url: URL): InvoiceBookFormat =>
  url.searchParams.get("formato") === "xlsx" ? "xlsx" : "csv";

/**
 * The book of `?desde=…&hasta=…` as a download: with `formato=xlsx` AEAT's workbook, otherwise
 * the CSV for a Spanish spreadsheet (UTF-8 with its byte order mark, semicolons, decimal
 * commas); 400 with the reason when the dates are not a period.
 */
export function invoiceBookDownload(url: URL): Response {
  const period = invoiceBookPeriodOf(url);
  if (!period)
    return new Response(invoiceBookRefusal, {
      status: 400,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  const format = formatOf(url);
  const pages = bookPages(getDb(), period, format);
  return downloadResponse(
    format === "xlsx"
      ? zipStream(workbookEntries(INVOICE_BOOK_HEADER, pages))
      : textStream(invoiceBookHeader(), pages),
    { fileName: invoiceBookFileName(period, format), contentType: CONTENT_TYPES[format] },
  );
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
      details: { desde: period.from, hasta: period.to, formato: formatOf(url) },
    });
  return invoiceBookDownload(url);
}

/** Where the next page starts: after an invoice, at a row of the sheet. */
type BookCursor = { after: PageEnd; firstRow: number };

/** The period's entries page by page, in one snapshot (platform/http/downloads.server.ts). */
function bookPages(db: Database, period: InvoiceBookPeriod, format: InvoiceBookFormat) {
  return snapshotPages<string, BookCursor>(
    db,
    async (tx, cursor) => {
      const firstRow = cursor?.firstRow ?? INVOICE_BOOK_HEADER.length + 1;
      const page = await invoiceBookPage(
        tx,
        period,
        cursor?.after,
        INVOICE_BOOK_PAGE_ROWS,
        format,
        firstRow,
      );
      const full = page.rows === INVOICE_BOOK_PAGE_ROWS && page.last;
      return {
        page: page.lines,
        next: full ? { after: page.last!, firstRow: firstRow + page.rows } : undefined,
      };
    },
    "invoice book export",
  );
}
