import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkoutDefaults, startCheckout } from "~/features/payments/checkout.server";
import { paymentMessages } from "~/features/payments/payment-messages";
import { simulatedEvents } from "~/features/payments/simulated-checkout.server";
import { resetConfigForTests } from "~/platform/config.server";
import { invoicePdf, issueCorrectiveInvoice } from "~/features/billing/invoices.server";
import { registrationDocument } from "~/features/verifactu/record-xml";
import { invoices, profiles, purchases, verifactuRecords } from "~/platform/db/schema";
import { textOf } from "~/platform/forms/form-answer";
import { schemaProblems } from "../support/aeat-schema";
import { formPost, signedInCustomer } from "../support/customer-session";
import { pdfText } from "../support/pdf-text";
import { purchaseById } from "../support/purchases";
import { deliverStripeEvent } from "../support/stripe-webhook";
import { setupTestDatabase } from "../support/test-database";

/**
 * Issue #23, invoices right in the first place: above 400 € (IVA included), or for a business,
 * the checkout takes the billing data of a complete invoice before any purchase is written, and
 * the paid purchase gets an F1 invoice naming the buyer; otherwise a simplified one (F2).
 */
const database = setupTestDatabase();
const saved = { ...process.env };
const EMAIL = "factura-completa@example.com";
let cookie = "";
let userId = "";

beforeAll(async () => {
  // Local mode: the simulated checkout, whose events the real webhook takes.
  delete process.env.STRIPE_SECRET_KEY;
  resetConfigForTests();
  ({ cookie, userId } = await signedInCustomer(EMAIL));
});

afterAll(() => {
  process.env = saved;
  resetConfigForTests();
});

const CIBERSEGURIDAD = "4"; // 449 €
const ASISTENCIA = "2"; // 149 €
const BILLING = {
  billingName: "Ferretería Ejemplo S.L.",
  billingTaxId: "b-12345674",
  billingAddress: "Calle Mayor 1, 28013 Madrid",
};

const CONSUMER = { billingName: "Ana Pérez Gil", billingAddress: "Calle Luna 3, 41001 Sevilla" };

type Answer = { status: number; body: Record<string, unknown> };

async function checkout(fields: Record<string, string>): Promise<Answer> {
  const answer = (await startCheckout(
    formPost("/checkout", { immediateStart: "yes", ...fields }, cookie),
  )) as { data: Record<string, unknown>; init: { status?: number } | null };
  return { status: answer.init?.status ?? 200, body: answer.data };
}

const purchaseCount = async () => (await database.db.select().from(purchases)).length;

/** Pays the purchase a checkout answered with through the simulator's events and the webhook. */
async function payAndInvoice(answer: Answer) {
  expect(answer.status).toBe(200);
  const sessionId = new URL(answer.body.url as string).pathname.split("/").pop()!;
  const [purchase] = await database.db
    .select()
    .from(purchases)
    .where(eq(purchases.checkoutSessionId, sessionId));
  for (const event of simulatedEvents("pay", purchase!, EMAIL))
    expect((await deliverStripeEvent(database.db, event)).status).toBe(200);
  const [invoice] = await database.db
    .select()
    .from(invoices)
    .where(eq(invoices.purchaseId, purchase!.id));
  return { purchase: (await purchaseById(database.db, purchase!.id))!, invoice: invoice! };
}

describe("billing data at checkout", () => {
  it("refuses a 449 € purchase without billing data, in Spanish, and writes no purchase", async () => {
    const before = await purchaseCount();
    const answer = await checkout({ serviceId: CIBERSEGURIDAD });
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toEqual([
      { code: "billingNameRequired", field: "billingName" },
      { code: "billingAddressRequired", field: "billingAddress" },
    ]);
    expect(textOf(paymentMessages, { code: "billingNameRequired" }).description).toMatch(
      /nombre o la razón social/,
    );
    expect(await purchaseCount()).toBe(before);
  });

  it("refuses a bad NIF, naming the field, and writes no purchase", async () => {
    const before = await purchaseCount();
    const answer = await checkout({
      serviceId: CIBERSEGURIDAD,
      ...BILLING,
      billingTaxId: "12345678A",
    });
    expect(answer).toMatchObject({
      status: 400,
      body: {
        errors: [{ code: "billingTaxIdInvalid", field: "billingTaxId" }],
      },
    });
    expect(await purchaseCount()).toBe(before);
  });

  it("stores the data with a 449 € purchase, and its invoice is complete (F1) naming the buyer", async () => {
    const { purchase, invoice } = await payAndInvoice(
      await checkout({ serviceId: CIBERSEGURIDAD, ...BILLING }),
    );
    expect(purchase).toMatchObject({
      status: "completed",
      price: 44_900,
      billingName: "Ferretería Ejemplo S.L.",
      billingTaxId: "B12345674",
      billingAddress: "Calle Mayor 1, 28013 Madrid",
    });
    expect(invoice).toMatchObject({
      invoiceType: "F1",
      kind: "complete",
      customerName: "Ferretería Ejemplo S.L.",
      customerTaxId: "B12345674",
      customerAddress: "Calle Mayor 1, 28013 Madrid",
      totalAmount: 44_900,
    });
  });

  it("above 400 € a consumer gives name and address only: a complete invoice, F2 under art. 6.1.d", async () => {
    const { purchase, invoice } = await payAndInvoice(
      await checkout({ serviceId: CIBERSEGURIDAD, ...CONSUMER }),
    );
    expect(purchase).toMatchObject({ billingName: "Ana Pérez Gil", billingTaxId: null });
    expect(invoice).toMatchObject({
      invoiceType: "F2",
      kind: "complete",
      customerName: "Ana Pérez Gil",
      customerTaxId: null,
      customerAddress: "Calle Luna 3, 41001 Sevilla",
    });
    const [record] = await database.db
      .select()
      .from(verifactuRecords)
      .where(eq(verifactuRecords.invoiceId, invoice.id));
    expect(record).toMatchObject({ invoiceType: "F2", withoutRecipientId: "S", recipient: null });
    const xml = registrationDocument([record!]);
    expect(xml).toContain(
      "<sum1:FacturaSinIdentifDestinatarioArt61d>S</sum1:FacturaSinIdentifDestinatarioArt61d>",
    );
    expect(await schemaProblems(xml)).toBe("");
    // The PDF is a complete invoice naming the consumer and their address, with no NIF line.
    const pdf = await pdfText(await invoicePdf(database.db, invoice));
    expect(pdf).not.toMatch(/simplificada/i);
    expect(pdf).toContain("Ana Pérez Gil");
    expect(pdf).toContain("Calle Luna 3, 41001 Sevilla");
    expect(pdf.match(/NIF:/g)).toHaveLength(1); // the issuer's

    // Its rectificativa is an R5 marked the same way, and validates too.
    const corrective = await database.db.transaction((tx) =>
      issueCorrectiveInvoice(tx, {
        purchaseId: purchase.id,
        reason: "Devolución",
        issuedAt: new Date(),
      }),
    );
    const [r5] = await database.db
      .select()
      .from(verifactuRecords)
      .where(eq(verifactuRecords.invoiceId, corrective!.id));
    expect(r5).toMatchObject({ invoiceType: "R5", withoutRecipientId: "S", recipient: null });
    expect(await schemaProblems(registrationDocument([r5!]))).toBe("");
  });

  it("a consumer's tax id, when given, is checked and named like a business's", async () => {
    const refused = await checkout({ serviceId: CIBERSEGURIDAD, ...CONSUMER, billingTaxId: "1" });
    expect(refused.body.errors).toEqual([{ code: "billingTaxIdInvalid", field: "billingTaxId" }]);
    const { invoice } = await payAndInvoice(
      await checkout({ serviceId: CIBERSEGURIDAD, ...CONSUMER, billingTaxId: "12345678z" }),
    );
    expect(invoice).toMatchObject({ invoiceType: "F1", customerTaxId: "12345678Z" });
  });

  it("up to 400 € a consumer pays without the data and gets a simplified invoice (F2)", async () => {
    const { purchase, invoice } = await payAndInvoice(await checkout({ serviceId: ASISTENCIA }));
    expect(purchase).toMatchObject({ billingName: null, billingTaxId: null, billingAddress: null });
    expect(invoice).toMatchObject({ invoiceType: "F2", kind: "simplified", customerTaxId: null });
  });

  it("under 400 € a buyer who ticks 'factura completa' must give the data, then gets an F1", async () => {
    const before = await purchaseCount();
    const refused = await checkout({ serviceId: ASISTENCIA, businessBuyer: "yes" });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toHaveLength(3); // a business also gives its NIF
    expect(await purchaseCount()).toBe(before);

    const { invoice } = await payAndInvoice(
      await checkout({ serviceId: ASISTENCIA, businessBuyer: "yes", ...BILLING }),
    );
    expect(invoice).toMatchObject({ invoiceType: "F1", customerTaxId: "B12345674" });
  });
});

describe("the dialog's pre-filled billing data", () => {
  const ask = (as: string, query = "?datos=facturacion") =>
    checkoutDefaults(
      new Request(`http://localhost/checkout${query}`, { headers: { Cookie: as } }),
    ) as Promise<unknown>;

  it("comes from the signed-in customer's profile", async () => {
    await database.db
      .update(profiles)
      .set({ taxId: "12345678Z", billingName: "Ana Pérez", billingAddress: "Gran Vía 2, Madrid" })
      .where(eq(profiles.id, userId));
    expect(await ask(cookie)).toMatchObject({
      data: {
        billing: { name: "Ana Pérez", taxId: "12345678Z", address: "Gran Vía 2, Madrid" },
      },
    });
  });

  it("is nobody else's: a visitor, or a plain GET, goes to the prices", async () => {
    for (const answer of [await ask(""), await ask(cookie, "")]) {
      expect(answer).toBeInstanceOf(Response);
      expect((answer as Response).headers.get("Location")).toBe("/precios");
    }
  });
});
