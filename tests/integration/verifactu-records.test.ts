import { randomUUID } from "node:crypto";
import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { checkChain } from "~/features/verifactu/chain-check.server";
import { altaHash } from "~/features/verifactu/record-hash.server";
import { recordCancellation } from "~/features/verifactu/records.server";
import { resetConfigForTests } from "~/platform/config.server";
import { invoices, verifactuDeliveries, verifactuRecords } from "~/platform/db/schema";
import { paidPurchase } from "../support/paid-purchase";
import { insertPurchase, type Purchase } from "../support/purchases";
import { chargeRefundedEvent, checkoutSessionEvent } from "../support/stripe-events";
import { deliverStripeEvent } from "../support/stripe-webhook";
import { tamperWithRecord } from "../support/tamper";
import { setupTestDatabase } from "../support/test-database";

/**
 * Issue #23: every invoice gets its registro de facturación in the transaction that numbers it,
 * one chain per issuer however many payments complete at once, and records never change.
 */
const database = setupTestDatabase();
const saved = { ...process.env };

beforeAll(() => {
  Object.assign(process.env, {
    STRIPE_SECRET_KEY: "sk_test_verifactu",
    STRIPE_WEBHOOK_SECRET: "whsec_test_verifactu",
    COMPANY_TAX_ID: "B12345674",
  });
  resetConfigForTests();
});

afterAll(() => {
  process.env = saved;
  resetConfigForTests();
});

const pendingPurchase = (price = 14_900, billing: Partial<Purchase> = {}) =>
  insertPurchase(database.db, {
    userId: null,
    serviceId: 2,
    serviceName: "Asistencia Informática",
    price,
    checkoutSessionId: `cs_test_${randomUUID()}`,
    ...billing,
  });

const paid = (purchase: Purchase, paymentIntent?: string) =>
  deliverStripeEvent(
    database.db,
    checkoutSessionEvent("checkout.session.completed", purchase, {
      email: "verifactu@example.com",
      name: "Cliente Verifactu",
      paymentIntent,
    }),
  );

const allRecords = () =>
  database.db.select().from(verifactuRecords).orderBy(asc(verifactuRecords.id));

describe("billing records", () => {
  it("gives 50 payments completed at once 50 records in one chain, without a fork", async () => {
    const batch = await Promise.all(Array.from({ length: 50 }, () => pendingPurchase()));
    const answers = await Promise.all(batch.map((purchase) => paid(purchase)));
    expect(answers.every((answer) => answer.status === 200)).toBe(true);

    const records = await allRecords();
    expect(records).toHaveLength(50);
    expect(records[0]!.previousRecordId).toBeNull();
    expect(records[0]!.previous).toBeNull();
    const predecessors = records.slice(1).map((record) => record.previousRecordId);
    expect(new Set(predecessors).size).toBe(49);
    records.slice(1).forEach((record, index) => {
      const before = records[index]!;
      expect(record.previousRecordId).toBe(before.id);
      expect(record.previous).toEqual({
        issuerTaxId: before.issuerTaxId,
        invoiceNumber: before.invoiceNumber,
        issueDate: before.issueDate,
        hash: before.hash,
      });
      expect(record.generatedAt >= before.generatedAt).toBe(true);
    });
    const invoiceIds = new Set(records.map((record) => record.invoiceId));
    expect(invoiceIds.size).toBe(50);
    const deliveries = await database.db.select().from(verifactuDeliveries);
    expect(deliveries.filter((delivery) => delivery.status === "pending")).toHaveLength(50);
    expect(await checkChain(database.db)).toMatchObject({ checked: 50, firstBreak: undefined });
  });

  it("says of a simplified invoice what AEAT asks, hashed as AEAT does", async () => {
    const { purchase } = await paidPurchase(database.db);
    const [invoice] = await database.db
      .select()
      .from(invoices)
      .where(eq(invoices.purchaseId, purchase.id));
    const [record] = await database.db
      .select()
      .from(verifactuRecords)
      .where(eq(verifactuRecords.invoiceId, invoice!.id));
    expect(record).toMatchObject({
      kind: "alta",
      issuerTaxId: "B12345674",
      invoiceNumber: invoice!.number,
      invoiceType: "F2",
      cuotaTotal: "25.86",
      importeTotal: "149.00",
      recipient: null,
      breakdown: [
        {
          tax: "01",
          regime: "01",
          qualification: "S1",
          rate: "21.00",
          base: "123.14",
          cuota: "25.86",
        },
      ],
      hashType: "01",
    });
    expect(record!.issueDate).toMatch(/^\d{2}-\d{2}-\d{4}$/);
    expect(record!.generatedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/);
    expect(record!.system).toMatchObject({ onlyVerifactu: "S", id: "WS" });
    expect(record!.hash).toBe(
      altaHash({
        issuerTaxId: "B12345674",
        invoiceNumber: invoice!.number,
        issueDate: record!.issueDate,
        invoiceType: "F2",
        cuotaTotal: "25.86",
        importeTotal: "149.00",
        previousHash: record!.previous!.hash,
        generatedAt: record!.generatedAt,
      }),
    );
  });

  it("names the buyer on a complete invoice and the corrected invoice on its R1", async () => {
    const paymentIntent = `pi_${randomUUID()}`;
    const { purchase } = await paidPurchase(
      database.db,
      {
        price: 44_900,
        billingName: "Ferretería López S.L.",
        billingTaxId: "B12345674",
        billingAddress: "Calle Real 3, 41001 Sevilla",
      },
      { paymentIntent },
    );
    const [sale] = await database.db
      .select()
      .from(invoices)
      .where(eq(invoices.purchaseId, purchase.id));
    expect(sale).toMatchObject({
      invoiceType: "F1",
      kind: "complete",
      customerAddress: "Calle Real 3, 41001 Sevilla",
    });
    const answer = await deliverStripeEvent(
      database.db,
      chargeRefundedEvent({ paymentIntent, amount: purchase.price }),
    );
    expect(answer.status).toBe(200);
    const records = await database.db
      .select()
      .from(verifactuRecords)
      .innerJoin(invoices, eq(invoices.id, verifactuRecords.invoiceId))
      .where(eq(invoices.purchaseId, purchase.id))
      .orderBy(asc(verifactuRecords.id));
    expect(records.map((row) => row.verifactu_records.invoiceType)).toEqual(["F1", "R1"]);
    expect(records[0]!.verifactu_records.recipient).toEqual({
      name: "Ferretería López S.L.",
      taxId: "B12345674",
    });
    expect(records[1]!.verifactu_records).toMatchObject({
      correctiveType: "I",
      correctedInvoices: [
        {
          issuerTaxId: "B12345674",
          invoiceNumber: sale!.number,
          issueDate: records[0]!.verifactu_records.issueDate,
        },
      ],
      cuotaTotal: "-77.93",
      importeTotal: "-449.00",
    });
  });

  it("writes a summer sale's record in Madrid's summer time (+02:00), dated by Madrid's day", async () => {
    // 22:30 UTC on 15 July is 00:30 on 16 July in Madrid, on summer time.
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2027-07-15T22:30:00Z") });
    try {
      expect((await paid(await pendingPurchase())).status).toBe(200);
    } finally {
      vi.useRealTimers();
    }
    const record = (await allRecords()).at(-1)!;
    expect(record).toMatchObject({
      issueDate: "16-07-2027",
      generatedAt: "2027-07-16T00:30:00+02:00",
    });
    expect(record.invoiceNumber).toMatch(/^F2027-/);
    expect(record.hash).toBe(
      altaHash({
        ...record,
        invoiceType: record.invoiceType!,
        cuotaTotal: record.cuotaTotal!,
        importeTotal: record.importeTotal!,
        previousHash: record.previous?.hash ?? "",
      }),
    );
  });

  it("never changes or deletes a record; a cancellation is a new record in the chain", async () => {
    const [first] = await allRecords();
    await expect(
      database.db
        .update(verifactuRecords)
        .set({ importeTotal: "1.00" })
        .where(eq(verifactuRecords.id, first!.id)),
    ).rejects.toThrow();
    await expect(
      database.db.delete(verifactuRecords).where(eq(verifactuRecords.id, first!.id)),
    ).rejects.toThrow();
    const cancellation = await database.db.transaction((tx) => recordCancellation(tx, first!));
    expect(cancellation).toMatchObject({ kind: "anulacion", invoiceNumber: first!.invoiceNumber });
    expect((await checkChain(database.db)).firstBreak).toBeUndefined();
  });

  it("names the first record changed by hand, triggers disabled", async () => {
    const records = await allRecords();
    const victim = records[7]!;
    await tamperWithRecord(database.db, victim.id, "1.49");
    const check = await checkChain(database.db);
    expect(check.checked).toBe(records.length);
    expect(check.firstBreak).toEqual({
      recordId: victim.id,
      invoiceNumber: victim.invoiceNumber,
      reason: "hash",
    });
  });
});
