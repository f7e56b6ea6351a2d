import type { ZipEntry } from "~/platform/files/zip.server";

/*
 * The libro as AEAT's 2025 revision of the common format asks for it: an XLSX workbook (Office
 * Open XML, ECMA-376) with the sheet EXPEDIDAS, its two header rows and one row per invoice
 * (decision 071). The rows are written by the database (invoice-book.server.ts); here are the
 * package's fixed parts and the sheet's frame, as ZIP entries.
 */

const SPREADSHEET_ML = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const RELATIONSHIPS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const PACKAGE_RELATIONSHIPS = "http://schemas.openxmlformats.org/package/2006/relationships";
const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

/** The sheet's name in AEAT's templates (LSI.xlsx, PLANTILLA_LIBROS_UNIFICADOS.xlsx). */
export const BOOK_SHEET_NAME = "EXPEDIDAS";

/**
 * Style 1 is an amount: two decimals with thousands grouping (built-in format 4, '#,##0.00'),
 * shown with the reader's own separators (1.234,56 in a Spanish spreadsheet). Style 2 is a
 * header cell, in bold.
 */
export const AMOUNT_STYLE = 1;
const HEADER_STYLE = 2;

const CONTENT_TYPES =
  `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
  `<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
  `<Default Extension="xml" ContentType="application/xml"/>` +
  `<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>` +
  `<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>` +
  `<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>` +
  `</Types>`;

const PACKAGE_RELS =
  `${XML}<Relationships xmlns="${PACKAGE_RELATIONSHIPS}">` +
  `<Relationship Id="rId1" Type="${RELATIONSHIPS}/officeDocument" Target="xl/workbook.xml"/>` +
  `</Relationships>`;

const WORKBOOK =
  `${XML}<workbook xmlns="${SPREADSHEET_ML}" xmlns:r="${RELATIONSHIPS}">` +
  `<sheets><sheet name="${BOOK_SHEET_NAME}" sheetId="1" r:id="rId1"/></sheets></workbook>`;

const WORKBOOK_RELS =
  `${XML}<Relationships xmlns="${PACKAGE_RELATIONSHIPS}">` +
  `<Relationship Id="rId1" Type="${RELATIONSHIPS}/worksheet" Target="worksheets/sheet1.xml"/>` +
  `<Relationship Id="rId2" Type="${RELATIONSHIPS}/styles" Target="styles.xml"/>` +
  `</Relationships>`;

const STYLES =
  `${XML}<styleSheet xmlns="${SPREADSHEET_ML}">` +
  `<fonts count="2"><font><sz val="11"/><name val="Calibri"/></font>` +
  `<font><b/><sz val="11"/><name val="Calibri"/></font></fonts>` +
  `<fills count="2"><fill><patternFill patternType="none"/></fill>` +
  `<fill><patternFill patternType="gray125"/></fill></fills>` +
  `<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>` +
  `<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>` +
  `<cellXfs count="3"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>` +
  `<xf numFmtId="4" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>` +
  `<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/></cellXfs>` +
  `</styleSheet>`;

/** Text as element content: the three characters XML reserves, escaped. */
export function xmlText(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** A column's letters from its index: 0 → A, 25 → Z, 26 → AA, 35 → AJ. */
export function columnName(index: number): string {
  const letter = String.fromCharCode(65 + (index % 26));
  return index < 26 ? letter : columnName(Math.floor(index / 26) - 1) + letter;
}

/** Header row `number`: each name a bold inline string, an empty name an empty cell. */
function headerRow(names: readonly string[], index: number): string {
  const number = index + 1;
  const cells = names.map((name, column) => {
    const at = `r="${columnName(column)}${number}" s="${HEADER_STYLE}"`;
    return name ? `<c ${at} t="inlineStr"><is><t>${xmlText(name)}</t></is></c>` : `<c ${at}/>`;
  });
  return `<row r="${number}">${cells.join("")}</row>`;
}

/** The sheet: its frame around the header rows and the rows `body` yields, page by page. */
async function* sheet(
  header: readonly (readonly string[])[],
  body: AsyncIterable<string>,
): AsyncGenerator<Uint8Array> {
  const encoder = new TextEncoder();
  yield encoder.encode(
    `${XML}<worksheet xmlns="${SPREADSHEET_ML}">` +
      // The two header rows stay in sight while scrolling.
      `<sheetViews><sheetView workbookViewId="0"><pane ySplit="${header.length}" topLeftCell="A${header.length + 1}" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews>` +
      `<sheetData>${header.map(headerRow).join("")}`,
  );
  for await (const rows of body) yield encoder.encode(rows);
  yield encoder.encode(`</sheetData></worksheet>`);
}

/** The workbook's parts as ZIP entries, the sheet streamed from `body` (rows of `<row>` XML). */
export async function* workbookEntries(
  header: readonly (readonly string[])[],
  body: AsyncIterable<string>,
): AsyncGenerator<ZipEntry> {
  const encoder = new TextEncoder();
  const part = (name: string, text: string): ZipEntry => ({ name, data: encoder.encode(text) });
  yield part("[Content_Types].xml", CONTENT_TYPES);
  yield part("_rels/.rels", PACKAGE_RELS);
  yield part("xl/workbook.xml", WORKBOOK);
  yield part("xl/_rels/workbook.xml.rels", WORKBOOK_RELS);
  yield part("xl/styles.xml", STYLES);
  yield { name: "xl/worksheets/sheet1.xml", data: sheet(header, body) };
}
