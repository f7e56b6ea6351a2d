import { randomUUID } from "node:crypto";
import { asc, eq, sql } from "drizzle-orm";
import { extractText } from "unpdf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  customerInvoiceDownload,
  issueSaleInvoice,
  staffInvoiceDownload,
} from "~/features/billing/invoices.server";
import { getConfig, resetConfigForTests } from "~/platform/config.server";
import { invoices, profiles } from "~/platform/db/schema";
import { signedInCustomer } from "../support/customer-session";
import { insertPurchase, type Purchase } from "../support/purchases";
import { chargeRefundedEvent, checkoutSessionEvent } from "../support/stripe-events";
import { deliverStripeEvent } from "../support/stripe-webhook";
import { latestMailOfKind } from "../support/outbox-records";
import { setupTestDatabase } from "../support/test-database";

/**
 * Issue #16's invoices: one per completed payment, numbered without gaps or repeats however many
 * complete at once, immutable once issued, corrected (never edited) by a refund, and readable as
 * a PDF by their customer and the staff only.
 */
const database = setupTestDatabase();
const WEBHOOK_SECRET = "whsec_test_invoices";
const saved = { ...process.env };
let customer: { userId: string };

beforeAll(async () => {
  Object.assign(process.env, {
    STRIPE_SECRET_KEY: "sk_test_invoices",
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
  });
  resetConfigForTests();
  customer = await signedInCustomer("facturas@example.com");
});

afterAll(() => {
  process.env = saved;
  resetConfigForTests();
});

const pendingPurchase = (userId: string | null, price = 14_900) =>
  insertPurchase(database.db, {
    userId,
    serviceId: 2,
    serviceName: "Asistencia Informática",
    price,
    checkoutSessionId: `cs_test_${randomUUID()}`,
  });

const deliver = (event: object) => deliverStripeEvent(database.db, event);

const paid = (purchase: Purchase, paymentIntent?: string) =>
  checkoutSessionEvent("checkout.session.completed", purchase, {
    email: "facturas@example.com",
    name: "Cliente de Facturas",
    paymentIntent,
  });

const invoiceOf = async (purchaseId: string, series: "F" | "R" = "F") =>
  (
    await database.db
      .select()
      .from(invoices)
      .where(sql`${invoices.purchaseId} = ${purchaseId} and ${invoices.series} = ${series}`)
  )[0];

async function pdfText(response: Response): Promise<string> {
  const { text } = await extractText(new Uint8Array(await response.arrayBuffer()), {
    mergePages: true,
  });
  return text;
}

describe("invoice numbers", () => {
  it("gives 50 payments completed at once 50 consecutive numbers, none repeated or skipped", async () => {
    const batch = await Promise.all(Array.from({ length: 50 }, () => pendingPurchase(null)));
    const answers = await Promise.all(batch.map((purchase) => deliver(paid(purchase))));
    expect(answers.every((answer) => answer.status === 200)).toBe(true);

    const issued = await database.db
      .select({ sequence: invoices.sequence, number: invoices.number, year: invoices.year })
      .from(invoices)
      .where(eq(invoices.series, "F"))
      .orderBy(asc(invoices.sequence));
    const ours = issued.slice(-50);
    const first = ours[0]!.sequence;
    expect(ours.map((invoice) => invoice.sequence)).toEqual(
      Array.from({ length: 50 }, (_, index) => first + index),
    );
    expect(new Set(issued.map((invoice) => invoice.number)).size).toBe(issued.length);
    expect(ours[0]!.number).toBe(`F${ours[0]!.year}-${String(first).padStart(6, "0")}`);
    expect(issued).toHaveLength(50);
  });

  it("stays gap-free when issuing transactions overlap, and one rolled back gives its number back", async () => {
    // Straight to the issuer, 40 transactions at once, every fifth one rolled back after taking a
    // number: the completion path above is also serialised by other rows it updates.
    const batch = await Promise.all(Array.from({ length: 40 }, () => pendingPurchase(null)));
    const before = await database.db.select({ id: invoices.id }).from(invoices);
    const outcomes = await Promise.allSettled(
      batch.map((purchase, index) =>
        database.db.transaction(async (tx) => {
          await issueSaleInvoice(tx, {
            purchaseId: purchase.id,
            userId: null,
            serviceName: purchase.serviceName,
            customerEmail: "facturas@example.com",
            amountCents: purchase.price,
            currency: "EUR",
            issuedAt: new Date(),
          });
          if (index % 5 === 0) throw new Error("rolled back after taking a number");
        }),
      ),
    );
    expect(outcomes.filter((outcome) => outcome.status === "rejected")).toHaveLength(8);
    const sequences = (
      await database.db
        .select({ sequence: invoices.sequence })
        .from(invoices)
        .where(eq(invoices.series, "F"))
        .orderBy(asc(invoices.sequence))
    ).map((row) => row.sequence);
    expect(sequences).toHaveLength(before.length + 32);
    expect(sequences).toEqual(Array.from({ length: sequences.length }, (_, index) => index + 1));
  });
});

describe("an invoice", () => {
  it("is simplified without a tax id, adds up, and goes with the receipt as a PDF", async () => {
    const purchase = await pendingPurchase(customer.userId);
    await deliver(paid(purchase));
    const invoice = (await invoiceOf(purchase.id))!;
    expect(invoice).toMatchObject({
      kind: "simplified",
      baseAmount: 12_314,
      vatRate: 21,
      vatAmount: 2_586,
      totalAmount: 14_900,
      customerEmail: "facturas@example.com",
      customerTaxId: null,
      sellerName: getConfig().company.legalName,
      sellerTaxId: getConfig().company.taxId,
    });
    const receipt = await latestMailOfKind(database.db, "payment-receipt");
    expect(receipt?.text).toContain(`Factura: ${invoice.number} (adjunta en PDF)`);
    expect(receipt?.attachments).toEqual([
      expect.objectContaining({
        filename: `factura-${invoice.number}.pdf`,
        contentType: "application/pdf",
      }),
    ]);
    const attached = Buffer.from(receipt!.attachments![0]!.contentBase64, "base64");
    expect(attached.subarray(0, 5).toString()).toBe("%PDF-");
  });

  it("is complete with the customer's NIF and billing name, and its PDF says so", async () => {
    await database.db
      .update(profiles)
      .set({
        taxId: "12345678Z",
        billingName: "Laura Gómez Peña",
        billingAddress: "Calle Luna 3, Madrid",
      })
      .where(eq(profiles.id, customer.userId));
    const purchase = await pendingPurchase(customer.userId, 44_900);
    await deliver(paid(purchase));
    const invoice = (await invoiceOf(purchase.id))!;
    expect(invoice).toMatchObject({
      kind: "complete",
      customerTaxId: "12345678Z",
      customerName: "Laura Gómez Peña",
      customerAddress: "Calle Luna 3, Madrid",
      baseAmount: 37_107,
      vatAmount: 7_793,
      totalAmount: 44_900,
    });

    const viewer = { id: customer.userId } as Parameters<typeof customerInvoiceDownload>[0];
    const response = await customerInvoiceDownload(viewer, invoice.id);
    expect(response.headers.get("Content-Type")).toBe("application/pdf");
    expect(response.headers.get("Content-Disposition")).toBe(
      `attachment; filename="factura-${invoice.number}.pdf"`,
    );
    const text = await pdfText(response);
    for (const expected of [
      `Factura ${invoice.number}`,
      "NIF: 12345678Z",
      "Laura Gómez Peña",
      "Base imponible",
      "371,07€",
      "IVA (21 %)",
      "77,93€",
      "449,00€",
      getConfig().company.taxId,
    ])
      expect(text).toContain(expected);
  });

  it("is never another customer's: their id answers 404, as an unknown one does", async () => {
    const purchase = await pendingPurchase(customer.userId);
    await deliver(paid(purchase));
    const invoice = (await invoiceOf(purchase.id))!;
    const stranger = await signedInCustomer("otro-facturas@example.com");
    const viewer = { id: stranger.userId } as Parameters<typeof customerInvoiceDownload>[0];
    for (const id of [invoice.id, randomUUID(), "not-a-uuid"]) {
      const answer = await customerInvoiceDownload(viewer, id).catch((error: unknown) => error);
      expect((answer as Response).status, id).toBe(404);
    }
    expect((await staffInvoiceDownload(invoice.id)).status).toBe(200);
  });

  it("cannot be changed or deleted once issued", async () => {
    const purchase = await pendingPurchase(customer.userId);
    await deliver(paid(purchase));
    const invoice = (await invoiceOf(purchase.id))!;
    await expect(
      database.db.update(invoices).set({ totalAmount: 1 }).where(eq(invoices.id, invoice.id)),
    ).rejects.toThrow();
    await expect(database.db.delete(invoices).where(eq(invoices.id, invoice.id))).rejects.toThrow();
    expect(await invoiceOf(purchase.id)).toEqual(invoice);
  });
});

describe("a refund", () => {
  it("delivered twice issues one corrective invoice that names the original and cancels it", async () => {
    const purchase = await pendingPurchase(customer.userId);
    await deliver(paid(purchase, "pi_refund_twice"));
    const original = (await invoiceOf(purchase.id))!;
    const refund = chargeRefundedEvent({
      paymentIntent: "pi_refund_twice",
      amount: purchase.price,
    });
    for (const event of [refund, refund, { ...refund, id: `evt_${randomUUID()}` }])
      expect(await deliver(event)).toEqual({ status: 200, body: "ok" });

    const corrective = await database.db
      .select()
      .from(invoices)
      .where(eq(invoices.correctsInvoiceId, original.id));
    expect(corrective).toHaveLength(1);
    expect(corrective[0]).toMatchObject({
      series: "R",
      kind: "corrective",
      baseAmount: -original.baseAmount,
      vatAmount: -original.vatAmount,
      totalAmount: -original.totalAmount,
    });
    expect(corrective[0]!.number).toMatch(/^R\d{4}-\d{6}$/);
    const text = await pdfText(await staffInvoiceDownload(corrective[0]!.id));
    expect(text).toContain(`Factura rectificativa ${corrective[0]!.number}`);
    expect(text).toContain(`Rectifica la factura ${original.number}`);
    expect(text).toContain("-149,00€");
  });
});
