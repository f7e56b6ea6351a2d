import { sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { AnyPgColumn, PgSelect } from "drizzle-orm/pg-core";
import type { Database } from "~/platform/db/client.server";
import { SITE_TIME_ZONE } from "~/platform/dates";

/*
 * A tab's CSV is written by the database: each column a SQL expression giving the cell's text,
 * as the panel shows it. The export (admin-csv.server.ts) joins them into lines page by page.
 */

export type Cell = SQL<string>;
export type CsvColumn = [header: string, cell: Cell];

/** The fields of one page's inner query: the line, its order and the keys of the next page. */
export type PageFields = {
  line: SQL.Aliased<string>;
  n: SQL.Aliased<number>;
  time: SQL.Aliased<string>;
  tieBreak: SQL.Aliased<string>;
};

/**
 * A CSV list: its columns, its order (two keys unique together, newest first, which also finds
 * the next page: keyset paging) and its rows.
 */
export type CsvList = {
  columns: CsvColumn[];
  order: [time: AnyPgColumn, tieBreak: AnyPgColumn];
  rows(db: Database, fields: PageFields, where: SQL | undefined): PgSelect;
};

/**
 * A timestamp as a Spanish spreadsheet reads a date and time ("02/01/2026 09:05", Madrid time):
 * four-digit year, no comma, so LibreOffice and Excel take the cell as a date (issue 39, item
 * 9). Formatted by the database; a test holds it to Madrid's clock in summer and winter time.
 */
export const sqlCsvDateTime = (column: AnyPgColumn | SQLWrapper) =>
  sql<string>`to_char(${column} at time zone ${sql.raw(`'${SITE_TIME_ZONE}'`)}, 'DD/MM/YYYY HH24:MI')`;

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

/**
 * Cents as a number a Spanish spreadsheet reads as one: decimal comma, no thousands separator,
 * no currency sign (the column's header names the currency). Empty when there is no amount.
 */
export function sqlDecimalEuros(cents: AnyPgColumn | SQLWrapper): Cell {
  return sql<string>`coalesce(replace(to_char((${cents})::numeric / 100, 'FM9999999999990.00'), '.', ','), '')`;
}

/** A code as its Spanish label, from the same function the panel uses; unknown codes as `fallback`. */
export function sqlLabel(
  code: AnyPgColumn,
  codes: readonly string[],
  label: (code: string) => string,
  fallback: SQL = sql`coalesce(${code}::text, '')`,
): Cell {
  const cases = codes.map((each) => sql`when ${each} then ${label(each)}`);
  return sql<string>`(case ${code} ${sql.join(cases, sql` `)} else ${fallback} end)`;
}

/** A code as its label, unknown codes as the label the function gives them. */
export const sqlOwnLabel = (
  code: AnyPgColumn,
  codes: readonly string[],
  label: (code: string) => string,
): Cell => sqlLabel(code, codes, label, sql`${label("")}`);

export const yesNo = (condition: SQLWrapper): Cell =>
  sql<string>`(case when ${condition} then 'Sí' else 'No' end)`;
