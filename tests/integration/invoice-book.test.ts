import { randomUUID } from "node:crypto";
import { and, asc, eq, gte, lt } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import ExcelJS from "exceljs";
import { beforeAll, describe, expect, it } from "vitest";
import {
  INVOICE_BOOK_HEADER,
  invoiceBookHeader,
  invoiceBookPage,
  invoiceBookRefusal,
} from "~/features/billing/invoice-book.server";
import { issueCorrectiveInvoice, issueSaleInvoice } from "~/features/billing/invoices.server";
import { getConfig } from "~/platform/config.server";
import { invoices } from "~/platform/db/schema";
import { loader } from "~/routes/admin-libro-facturas";
import { childNamed, childrenNamed, parseXml } from "~/features/verifactu/xml-tree.server";
import { unzipped, wellFormed } from "../support/aeat-schema";
import { signedInAdmin, signedInCustomer } from "../support/customer-session";
import { insertPurchase } from "../support/purchases";
import { setupTestDatabase } from "../support/test-database";

/**
 * The libro registro de facturas expedidas: the staff's CSV of a period has one line per invoice
 * issued on its Madrid days, in series and number order, saying what the invoice says, in the
 * shape a Spanish spreadsheet reads (BOM, semicolons, decimal commas); bad dates are refused in
 * Spanish and only staff may download it.
 */
const database = setupTestDatabase();
let adminCookie: string;
let customerCookie: string;

const PERIOD = { from: "2026-01-01", to: "2026-03-31" };
const SHEET = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";

/** A paid sale (complete when `buyer` gives a name and NIF) issued at `issuedAt`. */
async function sale(issuedAt: string, price: number, buyer?: { name: string; taxId: string }) {
  const purchase = await insertPurchase(database.db, {
    userId: null,
    price,
    checkoutSessionId: `cs_test_${randomUUID()}`,
    billingName: buyer?.name,
    billingTaxId: buyer?.taxId,
    billingAddress: buyer ? "Calle Mayor 2, 28013 Madrid" : undefined,
  });
  await database.db.transaction((tx) =>
    issueSaleInvoice(tx, {
      purchaseId: purchase.id,
      userId: null,
      serviceName: purchase.serviceName,
      customerEmail: "libro@example.com",
      amountCents: price,
      currency: "EUR",
      issuedAt: new Date(issuedAt),
    }),
  );
  return purchase.id;
}

const refund = (purchaseId: string, issuedAt: string) =>
  database.db.transaction((tx) =>
    issueCorrectiveInvoice(tx, { purchaseId, reason: "Devolución", issuedAt: new Date(issuedAt) }),
  );

beforeAll(async () => {
  adminCookie = (await signedInAdmin("gestoria@example.com")).cookie;
  customerCookie = (await signedInCustomer("cliente-libro@example.com")).cookie;
  // 23:30 on 31 December in Madrid: the year before the period.
  await sale("2025-12-31T22:30:00Z", 14_900);
  // 00:30 on 1 January in Madrid (still 31 December in UTC): inside it.
  const first = await sale("2025-12-31T23:30:00Z", 14_900);
  const company = await sale("2026-02-10T10:00:00Z", 123_456, {
    name: 'Taller "El Rayo"; Soluciones',
    taxId: "12345678Z",
  });
  await sale("2026-03-02T09:00:00Z", 4_900, { name: "=Fórmula García", taxId: "00000000T" });
  await refund(company, "2026-03-15T12:00:00Z");
  await refund(first, "2026-03-31T21:59:00Z");
  // After the period: 1 April in Madrid.
  await sale("2026-03-31T22:00:00Z", 9_900);
});

const corrected = alias(invoices, "corrected");

/** The period's invoices from the table, as the book should write each one. */
async function expectedRows() {
  const rows = await database.db
    .select({ invoice: invoices, corrected: corrected.number })
    .from(invoices)
    .leftJoin(corrected, eq(corrected.id, invoices.correctsInvoiceId))
    .where(
      and(
        gte(invoices.issuedAt, new Date("2025-12-31T23:00:00Z")),
        lt(invoices.issuedAt, new Date("2026-03-31T22:00:00Z")),
      ),
    )
    .orderBy(asc(invoices.series), asc(invoices.year), asc(invoices.sequence));
  const day = new Intl.DateTimeFormat("es-ES", {
    timeZone: "Europe/Madrid",
    day: "2-digit",
    month: "2-digit",
    year: "numeric",
  });
  const money = (cents: number) => (cents / 100).toFixed(2).replace(".", ",");
  const empty = (count: number) => Array.from({ length: count }, () => "");
  return rows.map(({ invoice, corrected }) => {
    const [dd, mm, yyyy] = day.format(invoice.issuedAt).split("/");
    const [serie, numero] = invoice.number.split("-");
    return [
      yyyy!,
      `${Math.ceil(Number(mm) / 3)}T`,
      ...empty(3),
      invoice.invoiceType,
      ...empty(2),
      `${dd}/${mm}/${yyyy}`,
      "",
      serie!,
      numero!,
      ...empty(3),
      invoice.customerTaxId ?? "",
      invoice.customerName?.startsWith("=")
        ? `'${invoice.customerName}`
        : (invoice.customerName ?? ""),
      "01",
      "S1",
      "",
      money(invoice.totalAmount),
      money(invoice.baseAmount),
      String(invoice.vatRate),
      money(invoice.vatAmount),
      ...empty(11),
      // None of these was annulled (verifactu-staff.test.ts marks one that is).
      corrected ? `Rectifica la factura ${corrected}.` : "",
    ];
  });
}

/** Semicolon-separated lines with quoted cells ("" for a quote inside one). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    const next = text[i + 1];
    if (quoted && char === '"' && next === '"') {
      cell += '"';
      i++;
    } else if (char === '"') {
      quoted = !quoted;
    } else if (!quoted && char === ";") {
      row.push(cell);
      cell = "";
    } else if (!quoted && char === "\r" && next === "\n") {
      rows.push([...row, cell]);
      row = [];
      cell = "";
      i++;
    } else {
      cell += char;
    }
  }
  if (cell || row.length > 0) rows.push([...row, cell]);
  return rows;
}

/** The route's answer, returned or thrown (the guard throws its redirect). */
async function download(query: string, cookie = adminCookie): Promise<Response> {
  const request = new Request(`${getConfig().siteUrl}/admin/libro-facturas${query}`, {
    headers: { Cookie: cookie, "Sec-Fetch-Site": "same-origin" },
  });
  try {
    return await loader({ request, params: {}, context: {} } as never);
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

describe("libro registro de facturas expedidas", () => {
  it("lists the period's invoices row for row, as the invoices table holds them", async () => {
    const response = await download(`?desde=${PERIOD.from}&hasta=${PERIOD.to}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    // AEAT's name: year, NIF, E (expedidas), the issuer's name; then the period.
    const { taxId, legalName } = getConfig().company;
    const fileName = `2026${taxId}E${legalName} 2026-01-01 a 2026-03-31.csv`;
    expect(response.headers.get("content-disposition")).toBe(
      `attachment; filename="${fileName.normalize("NFD").replace(/[^\x20-\x7e]/g, "")}"; filename*=UTF-8''${encodeURIComponent(fileName)}`,
    );
    const bytes = new Uint8Array(await response.arrayBuffer());
    // UTF-8 byte order mark, which a Spanish Excel needs to read the accents.
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder().decode(bytes.slice(3));
    expect(text.endsWith("\r\n")).toBe(true);
    const [groups, names, ...lines] = parseCsv(text);
    // AEAT's two header rows, 36 columns (A to AJ).
    expect([groups, names]).toEqual(INVOICE_BOOK_HEADER.map((row) => [...row]));
    expect(groups).toHaveLength(36);
    expect(groups!.slice(0, 3)).toEqual(["Autoliquidación", "", "Actividad"]);
    expect(names!.slice(10, 16)).toEqual([
      "Serie",
      "Número",
      "Número-Final",
      "Tipo",
      "Código País",
      "Identificación",
    ]);
    expect(groups!.at(-1)).toBe("Referencia Externa");

    const expected = await expectedRows();
    expect(lines).toEqual(expected);
    // Every line has AEAT's 36 cells.
    for (const line of lines) expect(line).toHaveLength(36);
    // F1, F2 and both corrective types, the January one at 00:30 in Madrid included.
    expect(lines.map((line) => line[5])).toEqual(["F2", "F1", "F1", "R1", "R5"]);
    expect(lines[0]!.slice(0, 2)).toEqual(["2026", "1T"]);
    expect(lines[0]![8]).toBe("01/01/2026");
    expect(lines[0]!.slice(10, 12)).toEqual(["F2026", "000001"]);
    // Numbers as numbers: no thousands point, no euro sign, negative on corrective invoices.
    expect(lines[1]!.slice(20, 24)).toEqual(["1234,56", "1020,30", "21", "214,26"]);
    expect(lines[3]!.slice(20, 24)).toEqual(["-1234,56", "-1020,30", "21", "-214,26"]);
    expect(lines[3]![35]).toBe(`Rectifica la factura ${lines[1]![10]}-${lines[1]![11]}.`);
    // The name with a quote and a semicolon survives; one that looks like a formula does not run.
    expect(lines[1]![16]).toBe('Taller "El Rayo"; Soluciones');
    expect(lines[2]![16]).toBe("'=Fórmula García");
  });

  it("as AEAT's workbook: the sheet EXPEDIDAS holds the same rows, amounts as numbers", async () => {
    const response = await download(`?desde=${PERIOD.from}&hasta=${PERIOD.to}&formato=xlsx`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe(
      "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    );
    const { taxId, legalName } = getConfig().company;
    expect(response.headers.get("content-disposition")).toContain(
      encodeURIComponent(`2026${taxId}E${legalName} 2026-01-01 a 2026-03-31.xlsx`),
    );
    const bytes = Buffer.from(await response.arrayBuffer());
    const files = await unzipped(new Uint8Array(bytes));
    expect([...files.keys()].sort()).toEqual([
      "[Content_Types].xml",
      "_rels/.rels",
      "xl/_rels/workbook.xml.rels",
      "xl/styles.xml",
      "xl/workbook.xml",
      "xl/worksheets/sheet1.xml",
    ]);
    // Every part is well-formed XML (xmllint), and the workbook names AEAT's sheet.
    for (const [name, bytes] of files) expect(await wellFormed(bytes), name).toBe("");
    expect(files.get("xl/workbook.xml")!.toString()).toContain('<sheet name="EXPEDIDAS"');

    const sheetXml = files.get("xl/worksheets/sheet1.xml")!.toString();
    const sheet = parseXml(sheetXml);
    const rows = childrenNamed(childNamed(sheet, SHEET, "sheetData"), SHEET, "row").map((row) =>
      childrenNamed(row, SHEET, "c").map((cell) => ({
        text: childNamed(childNamed(cell, SHEET, "is"), SHEET, "t")?.text,
        number: childNamed(cell, SHEET, "v")?.text,
      })),
    );
    const value = (cell: (typeof rows)[number][number]) => cell.text ?? cell.number ?? "";
    const [groups, names, ...lines] = rows.map((row) => row.map(value));
    expect([groups, names]).toEqual(INVOICE_BOOK_HEADER.map((row) => [...row]));
    // The same rows as the CSV, but amounts are numbers (a point, not a comma) in the amount
    // style, and a name that looks like a formula needs no guard: a cell of text never runs.
    const csvRows = (await expectedRows()).map((row) =>
      row.map((cell, column) =>
        [20, 21, 23].includes(column)
          ? cell.replace(",", ".")
          : column === 16
            ? cell.replace(/^'=/, "=")
            : cell,
      ),
    );
    expect(lines).toEqual(csvRows);
    for (const line of rows.slice(2)) {
      expect(line).toHaveLength(36);
      expect(line[0]!.number).toMatch(/^\d{4}$/);
      expect([20, 21, 22, 23].map((column) => line[column]!.number)).not.toContain(undefined);
    }
    // Total, base and cuota of each row in the amount style (two decimals), nothing else.
    expect(sheetXml.match(/<c r="[A-Z]+\d+" s="1"><v>/g)).toHaveLength(3 * lines.length);
    expect(lines[3]!.slice(20, 24)).toEqual(["-1234.56", "-1020.30", "21", "-214.26"]);
    expect(lines[1]![16]).toBe('Taller "El Rayo"; Soluciones');

    // A spreadsheet library reads it as a spreadsheet application would: the sheet, its
    // frozen header, numbers as numbers with two decimals, and text as text.
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
    const expedidas = workbook.getWorksheet("EXPEDIDAS")!;
    expect(expedidas.rowCount).toBe(2 + lines.length);
    expect(expedidas.views[0]).toMatchObject({ state: "frozen", ySplit: 2 });
    expect(expedidas.getRow(1).getCell(1).value).toBe("Autoliquidación");
    const corrective = expedidas.getRow(6);
    expect(corrective.getCell(1).value).toBe(2026);
    expect([21, 22, 23, 24].map((column) => corrective.getCell(column).value)).toEqual([
      -1234.56, -1020.3, 21, -214.26,
    ]);
    expect(corrective.getCell(21).numFmt).toBe("#,##0.00");
    expect(corrective.getCell(12).value).toBe(lines[3]![11]);
  });

  it("reads a long period page by page without losing or repeating a line", async () => {
    const whole = await invoiceBookPage(
      database.db,
      { from: "2025-01-01", to: "2026-12-31" },
      undefined,
      100,
    );
    let lines = "";
    let after;
    for (;;) {
      const page = await invoiceBookPage(
        database.db,
        { from: "2025-01-01", to: "2026-12-31" },
        after,
        2,
      );
      lines += page.lines;
      if (page.rows < 2) break;
      after = page.last;
    }
    expect(whole.rows).toBe(7);
    expect(lines).toBe(whole.lines);
  });

  it("gives an empty period its header alone", async () => {
    const response = await download("?desde=2024-05-01&hasta=2024-05-31");
    expect(response.status).toBe(200);
    const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(await response.arrayBuffer());
    expect(text).toBe(invoiceBookHeader());
  });

  it.each([
    ["no dates", ""],
    ["no end", "?desde=2026-01-01"],
    ["not a day", "?desde=2026-02-30&hasta=2026-03-31"],
    ["another format", "?desde=01/01/2026&hasta=31/03/2026"],
    ["the end before the start", "?desde=2026-03-31&hasta=2026-01-01"],
  ])("refuses %s with a Spanish 400", async (_, query) => {
    const response = await download(query);
    expect(response.status).toBe(400);
    expect(await response.text()).toBe(invoiceBookRefusal);
  });

  it("is for staff only", async () => {
    for (const cookie of ["", customerCookie]) {
      const response = await download(`?desde=${PERIOD.from}&hasta=${PERIOD.to}`, cookie);
      expect(response.status).toBe(302);
      expect(response.headers.get("location")).toMatch(/^\/login/);
    }
  });
});
