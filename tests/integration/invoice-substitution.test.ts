import { siteDay } from "~/platform/dates";
import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { invoiceBookPage } from "~/features/billing/invoice-book.server";
import {
  substitutionAction,
  substitutionPage,
} from "~/features/billing/invoice-substitution.server";
import {
  invoicePdf,
  issueCorrectiveInvoice,
  issueSubstituteInvoice,
} from "~/features/billing/invoices.server";
import type { Viewer } from "~/features/identity/session.server";
import { purchasesOf } from "~/features/payments/purchases.server";
import { registrationDocument } from "~/features/verifactu/record-xml";
import { aeatDate } from "~/features/verifactu/aeat-formats";
import { resetConfigForTests } from "~/platform/config.server";
import { formatDate } from "~/platform/dates";
import { invoices, userActivityLog, verifactuRecords } from "~/platform/db/schema";
import { huellasOf, schemaProblems } from "../support/aeat-schema";
import { formPost, signedInCustomer, viewerOf } from "../support/customer-session";
import { paidPurchase } from "../support/paid-purchase";
import { pdfText } from "../support/pdf-text";
import { setupTestDatabase } from "../support/test-database";

/**
 * Issue #37: a customer who got a simplified invoice asks in Mi Cuenta for a complete one in its
 * place, and gets an F3 (RD 1619/2012 art. 15.6; decision 070): a new number, their data, the
 * same operation and amounts, its own record naming the replaced invoice (FacturasSustituidas),
 * which validates against AEAT's schemas and chains like the others; once only, only theirs.
 */
const database = setupTestDatabase();
const saved = { ...process.env };
let owner: Viewer;
let stranger: Viewer;

const BUYER = {
  billingName: "Ruiz Consultores S.L.",
  billingTaxId: "b12345674",
  billingAddress: "Calle Mayor 1, 28013 Madrid",
};

beforeAll(async () => {
  delete process.env.STRIPE_SECRET_KEY;
  resetConfigForTests();
  owner = (await viewerOf((await signedInCustomer("sustitucion@example.com")).cookie))!;
  stranger = (await viewerOf((await signedInCustomer("otra@example.com")).cookie))!;
});

afterAll(() => {
  process.env = saved;
  resetConfigForTests();
});

/** A paid 149 € sale of the owner, with its simplified invoice (F2). */
async function simplifiedSale() {
  const { purchase, status } = await paidPurchase(
    database.db,
    { userId: owner.id },
    { email: owner.email },
  );
  expect(status).toBe(200);
  const [invoice] = await database.db
    .select()
    .from(invoices)
    .where(eq(invoices.purchaseId, purchase.id));
  expect(invoice).toMatchObject({ kind: "simplified", invoiceType: "F2" });
  return { purchase, invoice: invoice! };
}

const ask = (viewer: Viewer, invoiceId: string, fields: Record<string, string>) =>
  substitutionAction(
    formPost(`/mi-cuenta/facturas/${invoiceId}/completa`, fields),
    viewer,
    invoiceId,
  );

type Refusal = { data: { errors: { code: string; field?: string }[] }; init: { status: number } };

const invoicesOf = (purchaseId: string) =>
  database.db
    .select()
    .from(invoices)
    .where(eq(invoices.purchaseId, purchaseId))
    .orderBy(asc(invoices.sequence));

const recordOf = async (invoiceId: string) =>
  (
    await database.db
      .select()
      .from(verifactuRecords)
      .where(eq(verifactuRecords.invoiceId, invoiceId))
  )[0]!;

describe("a complete invoice in place of a simplified one (F3)", () => {
  it("is offered in Compras for a paid sale's simplified invoice", async () => {
    const { purchase } = await simplifiedSale();
    const [listed] = (await purchasesOf(owner.id, 50)).filter((p) => p.id === purchase.id);
    expect(listed).toMatchObject({ invoiceSubstitutable: true, substituteInvoice: undefined });
  });

  it("refuses data AEAT would refuse, naming the field, and issues nothing", async () => {
    const { purchase, invoice } = await simplifiedSale();
    const noTaxId = (await ask(owner, invoice.id, { ...BUYER, billingTaxId: "" })) as Refusal;
    expect(noTaxId.init.status).toBe(400);
    expect(noTaxId.data.errors).toEqual([{ code: "billingTaxIdRequired", field: "billingTaxId" }]);
    const badTaxId = (await ask(owner, invoice.id, {
      ...BUYER,
      billingTaxId: "B12345670",
    })) as Refusal;
    expect(badTaxId.data.errors).toEqual([{ code: "billingTaxIdInvalid", field: "billingTaxId" }]);
    const controlName = (await ask(owner, invoice.id, {
      ...BUYER,
      billingName: "Ruiz\u0007 S.L.",
    })) as Refusal;
    expect(controlName.data.errors).toEqual([{ code: "billingNameInvalid", field: "billingName" }]);
    expect(await invoicesOf(purchase.id)).toHaveLength(1);
  });

  it("is nobody else's: another customer's invoice answers 404, and so does a bad id", async () => {
    const { purchase, invoice } = await simplifiedSale();
    await expect(substitutionPage(stranger, invoice.id)).rejects.toMatchObject({ status: 404 });
    await expect(ask(stranger, invoice.id, BUYER)).rejects.toMatchObject({ status: 404 });
    await expect(substitutionPage(owner, "not-a-uuid")).rejects.toMatchObject({ status: 404 });
    expect(await invoicesOf(purchase.id)).toHaveLength(1);
  });

  it("issues an F3 naming the buyer and the invoice it replaces, recorded, valid and chained", async () => {
    const { purchase, invoice: simplified } = await simplifiedSale();
    const page = await substitutionPage(owner, simplified.id);
    expect(page).toMatchObject({ refusal: null, substitute: null });

    const answer = (await ask(owner, simplified.id, BUYER)) as Response;
    expect(answer.status).toBe(302);
    expect(answer.headers.get("Location")).toBe("/mi-cuenta?tab=compras");

    const [, f3] = await invoicesOf(purchase.id);
    expect(f3).toMatchObject({
      series: "F",
      kind: "complete",
      invoiceType: "F3",
      substitutesInvoiceId: simplified.id,
      customerName: "Ruiz Consultores S.L.",
      customerTaxId: "B12345674",
      customerAddress: "Calle Mayor 1, 28013 Madrid",
      description: simplified.description,
      baseAmount: simplified.baseAmount,
      vatAmount: simplified.vatAmount,
      totalAmount: simplified.totalAmount,
    });
    expect(f3!.sequence).toBeGreaterThan(simplified.sequence);

    const record = await recordOf(f3!.id);
    expect(record).toMatchObject({
      invoiceType: "F3",
      recipient: { name: "Ruiz Consultores S.L.", taxId: "B12345674" },
      substitutedInvoices: [
        {
          issuerTaxId: record.issuerTaxId,
          invoiceNumber: simplified.number,
          issueDate: aeatDate(simplified.issuedAt),
        },
      ],
      withoutRecipientId: null,
      cuotaTotal: (simplified.vatAmount / 100).toFixed(2),
      importeTotal: (simplified.totalAmount / 100).toFixed(2),
    });
    // The same day as the sale: no FechaOperacion.
    expect(record.operationDate).toBeNull();

    // It follows the chain's previous record, and the exported XML validates and recomputes.
    const chain = await database.db
      .select()
      .from(verifactuRecords)
      .orderBy(asc(verifactuRecords.id));
    const before = chain[chain.findIndex((r) => r.id === record.id) - 1]!;
    expect(record.previous?.hash).toBe(before.hash);
    const xml = registrationDocument([before, record]);
    expect(await schemaProblems(xml)).toBe("");
    expect(xml).toContain(
      `<sum1:FacturasSustituidas><sum1:IDFacturaSustituida><sum1:IDEmisorFactura>${record.issuerTaxId}</sum1:IDEmisorFactura><sum1:NumSerieFactura>${simplified.number}</sum1:NumSerieFactura>`,
    );
    const huellas = huellasOf(xml);
    expect(huellas.map((h) => h.recomputed)).toEqual([before.hash, record.hash]);
    expect(huellas[1]!.previous).toBe(before.hash);

    const [activity] = await database.db
      .select()
      .from(userActivityLog)
      .where(
        and(
          eq(userActivityLog.userId, owner.id),
          eq(userActivityLog.activityType, "invoice_substituted"),
        ),
      );
    expect(activity!.description).toBe(
      `Factura completa ${f3!.number} en sustitución de ${simplified.number}`,
    );
  });

  it("is issued once: a second request is refused and Compras lists both invoices", async () => {
    const { purchase, invoice: simplified } = await simplifiedSale();
    expect(((await ask(owner, simplified.id, BUYER)) as Response).status).toBe(302);
    const again = (await ask(owner, simplified.id, BUYER)) as Refusal;
    expect(again.init.status).toBe(409);
    expect(again.data.errors).toEqual([{ code: "substitutionAlreadyIssued" }]);
    const [, f3] = await invoicesOf(purchase.id);
    const page = await substitutionPage(owner, simplified.id);
    expect(page.substitute).toEqual({ id: f3!.id, number: f3!.number });
    const [listed] = (await purchasesOf(owner.id, 50)).filter((p) => p.id === purchase.id);
    expect(listed).toMatchObject({
      invoice: { id: simplified.id, number: simplified.number },
      substituteInvoice: { id: f3!.id, number: f3!.number },
      invoiceSubstitutable: false,
    });
    expect(await invoicesOf(purchase.id)).toHaveLength(2);
  });

  it("gives one F3 to two requests at once", async () => {
    const { purchase, invoice } = await simplifiedSale();
    const answers = await Promise.all([
      ask(owner, invoice.id, BUYER),
      ask(owner, invoice.id, BUYER),
    ]);
    const statuses = answers.map((answer) =>
      answer instanceof Response ? answer.status : (answer as Refusal).init.status,
    );
    expect(statuses.sort()).toEqual([302, 409]);
    expect(await invoicesOf(purchase.id)).toHaveLength(2);
  });

  it("prints both ways on the PDFs: the F3 names the simplified invoice, which names the F3", async () => {
    const { purchase, invoice: simplified } = await simplifiedSale();
    await ask(owner, simplified.id, BUYER);
    const [, f3] = await invoicesOf(purchase.id);
    const complete = await pdfText(await invoicePdf(database.db, f3!));
    expect(complete).toContain(`Factura ${f3!.number}`);
    expect(complete).toContain(`Sustituye a la factura simplificada ${simplified.number}`);
    // Issued on the day of the sale: no operation date of its own (art. 6.1.g asks it when not).
    expect(complete).not.toContain("Fecha de la operación");
    expect(complete).toContain("NIF: B12345674");
    expect(complete).toContain("Calle Mayor 1, 28013 Madrid");
    const replaced = await pdfText(await invoicePdf(database.db, simplified));
    expect(replaced).toContain(`Sustituida por la factura ${f3!.number}`);
  });

  it("marks both in the libro, the F3 with its type and the sale's date", async () => {
    const { purchase, invoice: simplified } = await simplifiedSale();
    await ask(owner, simplified.id, BUYER);
    const [, f3] = await invoicesOf(purchase.id);
    // The libro's period is in Spain's days: after 23:00 UTC in winter, Madrid is a day ahead.
    const day = siteDay(simplified.issuedAt);
    const { lines } = await invoiceBookPage(database.db, { from: day, to: day }, undefined);
    const lineOf = (number: string) => {
      const [series, sequence] = number.split("-");
      return lines
        .split("\r\n")
        .map((line) => line.split(";"))
        .find((cells) => cells[10] === series && cells[11] === sequence)!;
    };
    const f3Line = lineOf(f3!.number);
    expect(f3Line[5]).toBe("F3");
    expect(f3Line[15]).toBe("B12345674");
    expect(f3Line.at(-1)).toBe(`Sustituye a la factura simplificada ${simplified.number}.`);
    expect(lineOf(simplified.number).at(-1)).toBe(`Sustituida por la factura ${f3!.number}.`);
  });

  it("names the sale's day as FechaOperacion when issued on a later day", async () => {
    const { invoice: simplified } = await simplifiedSale();
    const later = new Date(simplified.issuedAt.getTime() + 2 * 86_400_000);
    const issued = await database.db.transaction((tx) =>
      issueSubstituteInvoice(tx, {
        invoiceId: simplified.id,
        userId: owner.id,
        buyer: { name: "Ruiz Consultores S.L.", taxId: "B12345674", address: "Calle Mayor 1" },
        issuedAt: later,
      }),
    );
    if (!issued.ok) throw new Error(issued.reason);
    const record = await recordOf(issued.invoice.id);
    expect(record.operationDate).toBe(aeatDate(simplified.issuedAt));
    expect(record.issueDate).toBe(aeatDate(later));
    const xml = registrationDocument([record]);
    expect(xml).toContain(
      `<sum1:FechaOperacion>${aeatDate(simplified.issuedAt)}</sum1:FechaOperacion>`,
    );
    expect(await schemaProblems(xml)).toBe("");
    const pdf = await pdfText(await invoicePdf(database.db, issued.invoice));
    expect(pdf).toContain(`Fecha de la operación: ${formatDate(simplified.issuedAt, "date")}`);
    expect(pdf).toContain(`Fecha de expedición: ${formatDate(later, "date")}`);
  });

  it("a refund afterwards corrects the F3 with an R1, and the sale no longer admits one", async () => {
    const { purchase, invoice: simplified } = await simplifiedSale();
    await ask(owner, simplified.id, BUYER);
    const [, f3] = await invoicesOf(purchase.id);
    const corrective = await database.db.transaction((tx) =>
      issueCorrectiveInvoice(tx, {
        purchaseId: purchase.id,
        reason: "Reembolso",
        issuedAt: new Date(),
      }),
    );
    expect(corrective).toMatchObject({
      invoiceType: "R1",
      correctsInvoiceId: f3!.id,
      substitutesInvoiceId: null,
      customerTaxId: "B12345674",
      totalAmount: -f3!.totalAmount,
    });
    const record = await recordOf(corrective!.id);
    expect(record.correctedInvoices).toEqual([
      {
        issuerTaxId: record.issuerTaxId,
        invoiceNumber: f3!.number,
        issueDate: aeatDate(f3!.issuedAt),
      },
    ]);
    expect(await schemaProblems(registrationDocument([record]))).toBe("");

    // A refunded sale's simplified invoice is no longer replaced.
    const other = await simplifiedSale();
    await database.db.transaction((tx) =>
      issueCorrectiveInvoice(tx, {
        purchaseId: other.purchase.id,
        reason: "Reembolso",
        issuedAt: new Date(),
      }),
    );
    const refused = (await ask(owner, other.invoice.id, BUYER)) as Refusal;
    expect(refused.init.status).toBe(409);
    expect(refused.data.errors).toEqual([{ code: "substitutionNotInForce" }]);
  });

  it("refuses to replace a complete invoice", async () => {
    const { purchase } = await paidPurchase(
      database.db,
      {
        userId: owner.id,
        billingName: "Ruiz Consultores S.L.",
        billingTaxId: "B12345674",
        billingAddress: "Calle Mayor 1",
      },
      { email: owner.email },
    );
    const [f1] = await invoicesOf(purchase.id);
    expect(f1!.invoiceType).toBe("F1");
    const refused = (await ask(owner, f1!.id, BUYER)) as Refusal;
    expect(refused.init.status).toBe(409);
    expect(refused.data.errors).toEqual([{ code: "substitutionNotSimplified" }]);
    expect((await substitutionPage(owner, f1!.id)).refusal).toBe("substitutionNotSimplified");
  });
});
