import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { and, eq } from "drizzle-orm";
import { extractText } from "unpdf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { invoicePdf, staffInvoiceDownload } from "~/features/billing/invoices.server";
import { invoiceCotejoUrl } from "~/features/verifactu/invoice-qr.server";
import { recordInvoice } from "~/features/verifactu/records.server";
import { resetConfigForTests } from "~/platform/config.server";
import { invoices, verifactuRecords } from "~/platform/db/schema";
import { insertPurchase } from "../support/purchases";
import { paidPurchase } from "../support/paid-purchase";
import { setupTestDatabase } from "../support/test-database";

/**
 * Issue #23 item 5: every invoice PDF with a Verifactu record carries AEAT's QR (Orden
 * HAC/1177/2024 arts. 20–21): printed, rasterised at 300 dpi (pdftoppm) and read by a real decoder
 * (zbarimg), it gives back exactly the cotejo URL of what AEAT received, 30–40 mm wide, between
 * 'QR tributario:' and 'Factura verificable en la sede electrónica de la AEAT'.
 */
const database = setupTestDatabase();
const run = promisify(execFile);
const saved = { ...process.env };
const ISSUER = "B12345674";
const DPI = 300;
const PIXELS_PER_MM = DPI / 25.4;
let workDir: string;

beforeAll(async () => {
  Object.assign(process.env, {
    STRIPE_SECRET_KEY: "sk_test_invoice_qr",
    STRIPE_WEBHOOK_SECRET: "whsec_test_invoice_qr",
    COMPANY_TAX_ID: ISSUER,
    VERIFACTU_ENVIRONMENT: "pruebas",
  });
  resetConfigForTests();
  workDir = await mkdtemp(path.join(tmpdir(), "invoice-qr-"));
});

afterAll(async () => {
  process.env = saved;
  resetConfigForTests();
  await rm(workDir, { recursive: true, force: true });
});

/** A paid purchase with checkout's billing data: a complete (F1) invoice. */
async function issuedCompleteInvoice() {
  const { purchase, status } = await paidPurchase(database.db, {
    serviceId: 4,
    serviceName: "Ciberseguridad",
    price: 44_900,
    billingName: "Talleres Ruiz S.L.",
    billingTaxId: "B87654321",
    billingAddress: "Calle Mayor 1, 28013 Madrid",
  });
  expect(status).toBe(200);
  const [invoice] = await database.db
    .select()
    .from(invoices)
    .where(eq(invoices.purchaseId, purchase.id));
  return invoice!;
}

const altaOf = async (invoiceId: string) =>
  (
    await database.db
      .select()
      .from(verifactuRecords)
      .where(and(eq(verifactuRecords.invoiceId, invoiceId), eq(verifactuRecords.kind, "alta")))
  )[0]!;

type Printed = { decoded: string[]; qrWidthMm?: number; qrHeightMm?: number; text: string };

/**
 * Prints the first page at 300 dpi and reads it as a scanner would: the QR codes zbarimg finds,
 * the QR's size (the tallest block of dark rows, more than 20 mm, with its dark columns), and the
 * text.
 */
async function printed(pdf: Buffer): Promise<Printed> {
  const file = path.join(workDir, `${randomUUID()}.pdf`);
  await writeFile(file, pdf);
  const image = file.replace(/\.pdf$/, "");
  // The first page at 300 dpi: a PNG for the decoder, a greyscale PGM to measure.
  const firstPage = ["-r", String(DPI), "-f", "1", "-l", "1", "-singlefile"];
  await run("pdftoppm", [...firstPage, "-png", file, image]);
  await run("pdftoppm", [...firstPage, "-gray", file, image]);
  // zbarimg exits with 4 when it finds no code: that is an empty answer, not an error.
  const decoded = await run("zbarimg", ["--raw", "-q", `${image}.png`]).then(
    ({ stdout }) => stdout.split("\n").filter(Boolean),
    (error: { code?: number }) => {
      if (error.code === 4) return [];
      throw error;
    },
  );
  const size = qrSize(await readFile(`${image}.pgm`));
  const { text } = await extractText(new Uint8Array(pdf), { mergePages: true });
  return { decoded, ...size, text };
}

/** The QR's printed size in mm, from a grey-scale PGM (P5) of the page. */
function qrSize(pgm: Buffer): { qrWidthMm?: number; qrHeightMm?: number } {
  const header = /^P5\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(pgm.subarray(0, 50).toString("latin1"))!;
  const [width, height] = [Number(header[1]), Number(header[2])];
  const pixels = pgm.subarray(header[0].length);
  const dark = (x: number, y: number) => pixels[y * width + x]! < 128;
  const darkRow = (y: number) => {
    for (let x = 0; x < width; x++) if (dark(x, y)) return true;
    return false;
  };
  // Rows with ink, grouped into blocks separated by at least 1 mm of blank.
  const gap = Math.round(PIXELS_PER_MM);
  const blocks: { top: number; bottom: number }[] = [];
  for (let y = 0; y < height; y++) {
    if (!darkRow(y)) continue;
    const last = blocks.at(-1);
    if (last && y - last.bottom <= gap) last.bottom = y;
    else blocks.push({ top: y, bottom: y });
  }
  const qr = blocks.find((block) => block.bottom - block.top > 20 * PIXELS_PER_MM);
  if (!qr) return {};
  let [left, right] = [width, -1];
  for (let y = qr.top; y <= qr.bottom; y++)
    for (let x = 0; x < width; x++)
      if (dark(x, y)) [left, right] = [Math.min(left, x), Math.max(right, x)];
  return {
    qrWidthMm: (right - left + 1) / PIXELS_PER_MM,
    qrHeightMm: (qr.bottom - qr.top + 1) / PIXELS_PER_MM,
  };
}

const pdfOf = async (invoiceId: string) =>
  Buffer.from(await (await staffInvoiceDownload(invoiceId)).arrayBuffer());

describe("the invoice's QR", () => {
  it("decodes to exactly the cotejo URL of its record, 30–40 mm, between its two legends", async () => {
    const invoice = await issuedCompleteInvoice();
    const alta = await altaOf(invoice.id);
    expect(alta).toMatchObject({ issuerTaxId: ISSUER, importeTotal: "449.00" });
    const expected =
      "https://prewww2.aeat.es/wlpl/TIKE-CONT/ValidarQR" +
      `?nif=${ISSUER}&numserie=${invoice.number}&fecha=${alta.issueDate}&importe=449.00`;

    const page = await printed(await pdfOf(invoice.id));
    expect(page.decoded).toEqual([expected]);
    expect(page.qrWidthMm).toBeGreaterThanOrEqual(30);
    expect(page.qrWidthMm).toBeLessThanOrEqual(40);
    expect(page.qrHeightMm).toBeGreaterThanOrEqual(30);
    expect(page.qrHeightMm).toBeLessThanOrEqual(40);
    expect(Math.abs(page.qrWidthMm! - page.qrHeightMm!)).toBeLessThan(0.5);

    const above = page.text.indexOf("QR tributario:");
    const below = page.text.indexOf("Factura verificable en la sede electrónica de la AEAT");
    expect(above).toBeGreaterThanOrEqual(0);
    expect(below).toBeGreaterThan(above);
    expect(page.text.indexOf(`Factura ${invoice.number}`)).toBeGreaterThan(below);
  });

  it("shows quantity, unit price, payment method and the customer's address", async () => {
    const invoice = await issuedCompleteInvoice();
    const { text } = await extractText(new Uint8Array(await pdfOf(invoice.id)), {
      mergePages: true,
    });
    for (const expected of [
      "Cantidad",
      "Precio unitario",
      "371,07€",
      "Forma de pago: Tarjeta",
      "Calle Mayor 1, 28013 Madrid",
      "NIF: B87654321",
    ])
      expect(text).toContain(expected);
  });

  it("round-trips an invoice number with characters that need encoding", async () => {
    const invoice = await issuedCompleteInvoice();
    const number = "F 2026/7&B?=#+%";
    const purchase = await insertPurchase(database.db, { userId: null });
    const [odd] = await database.db
      .insert(invoices)
      .values({
        ...invoice,
        id: undefined,
        number,
        year: 1999,
        sequence: 7,
        purchaseId: purchase.id,
      })
      .returning();
    await database.db.transaction((tx) =>
      recordInvoice(tx, {
        invoiceId: odd!.id,
        number,
        issuedAt: odd!.issuedAt,
        type: "F1",
        description: odd!.description,
        recipient: { name: odd!.customerName!, taxId: odd!.customerTaxId! },
        vatRatePercent: odd!.vatRate,
        baseCents: odd!.baseAmount,
        vatCents: odd!.vatAmount,
        totalCents: odd!.totalAmount,
      }),
    );

    const [url] = (await printed(await pdfOf(odd!.id))).decoded;
    expect(url).toContain("&numserie=F%202026%2F7%26B%3F%3D%23%2B%25&fecha=");
    const query = new URL(url!).searchParams;
    expect(Object.fromEntries(query)).toEqual({
      nif: ISSUER,
      numserie: number,
      fecha: (await altaOf(odd!.id)).issueDate,
      importe: "449.00",
    });
  });

  it("is absent, with its legends, on an invoice issued before Verifactu (no record)", async () => {
    const invoice = await issuedCompleteInvoice();
    const purchase = await insertPurchase(database.db, { userId: null });
    const [old] = await database.db
      .insert(invoices)
      .values({
        ...invoice,
        id: undefined,
        number: "F1999-000008",
        year: 1999,
        sequence: 8,
        purchaseId: purchase.id,
      })
      .returning();
    const page = await printed(await invoicePdf(database.db, old!));
    expect(page.decoded).toEqual([]);
    expect(page.qrWidthMm).toBeUndefined();
    expect(page.text).not.toContain("QR tributario");
    expect(page.text).not.toContain("Factura verificable");
    expect(page.text).toContain("Factura F1999-000008");
  });

  it("names AEAT's production host in produccion", async () => {
    const invoice = await issuedCompleteInvoice();
    process.env.VERIFACTU_ENVIRONMENT = "produccion";
    resetConfigForTests();
    try {
      expect(await invoiceCotejoUrl(database.db, invoice.id)).toMatch(
        /^https:\/\/www2\.agenciatributaria\.gob\.es\/wlpl\/TIKE-CONT\/ValidarQR\?nif=/,
      );
    } finally {
      process.env.VERIFACTU_ENVIRONMENT = "pruebas";
      resetConfigForTests();
    }
  });
});
