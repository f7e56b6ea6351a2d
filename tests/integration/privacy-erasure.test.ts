import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { eq, inArray, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { pruneWebhookEvents } from "~/features/payments/webhook.server";
import { deleteAccountData } from "~/features/privacy/account-data.server";
import {
  customers,
  invoices,
  mailOutbox,
  payments,
  profiles,
  purchases,
  userActivityLog,
  users,
  webhookEvents,
} from "~/platform/db/schema";
import { signedInCustomer, viewerOf } from "../support/customer-session";
import { insertPurchase, type Purchase } from "../support/purchases";
import { chargeRefundedEvent, checkoutSessionEvent } from "../support/stripe-events";
import { deliverStripeEvent } from "../support/stripe-webhook";
import { setupTestDatabase } from "../support/test-database";

const database = setupTestDatabase();

/** The billing details Stripe sends with a checkout session and a charge. */
function billingDetails(email: string, name: string) {
  return {
    email,
    name,
    phone: "+34 611 222 333",
    address: {
      line1: "Calle de la Princesa 25",
      line2: "3º B",
      city: "Madrid",
      postal_code: "28008",
      state: "Madrid",
      country: "ES",
    },
  };
}

/** A completed checkout session as Stripe sends it, with the payer's billing details. */
const completedSession = (id: string, purchase: Purchase, email: string, name: string) =>
  checkoutSessionEvent("checkout.session.completed", purchase, {
    eventId: id,
    email,
    name,
    paymentIntent: `pi_${purchase.checkoutSessionId}`,
    fields: {
      customer_details: { ...billingDetails(email, name), tax_exempt: "none", tax_ids: [] },
    },
  });

/** A full refund as Stripe sends it: the charge carries billing details, not our metadata. */
const fullRefund = (id: string, purchase: Purchase, email: string, name: string) =>
  chargeRefundedEvent(
    {
      chargeId: `ch_${purchase.checkoutSessionId}`,
      paymentIntent: `pi_${purchase.checkoutSessionId}`,
      amount: purchase.price,
      fields: {
        billing_details: billingDetails(email, name),
        receipt_email: email,
        payment_method_details: { type: "card", card: { brand: "visa", last4: "4242" } },
      },
    },
    { eventId: id },
  );

const deliver = (event: object) => deliverStripeEvent(database.db, event);

/** A signed-in customer with a profile and one purchase paid through the webhook. */
async function payingCustomer(email: string, name: string, sessionId: string) {
  const { cookie, userId } = await signedInCustomer(email);
  await database.db
    .update(profiles)
    .set({ fullName: name, phone: "+34 611 222 333", company: "Taller García" })
    .where(eq(profiles.id, userId));
  const purchase = await insertPurchase(database.db, { userId, checkoutSessionId: sessionId });
  expect(await deliver(completedSession(`evt_paid_${sessionId}`, purchase, email, name))).toEqual({
    status: 200,
    body: "ok",
  });
  const viewer = await viewerOf(cookie);
  return { viewer: viewer!, purchase };
}

/** Every row of the tables that hold what a customer bought, as text. */
async function everyRowAsText() {
  const db = database.db;
  const tables = {
    users: await db.select().from(users),
    profiles: await db.select().from(profiles),
    purchases: await db.select().from(purchases),
    payments: await db.select().from(payments),
    customers: await db.select().from(customers),
    invoices: await db.select().from(invoices),
    webhookEvents: await db.select().from(webhookEvents),
    userActivityLog: await db.select().from(userActivityLog),
  };
  return Object.entries(tables).map(([table, rows]) => ({
    table,
    text: JSON.stringify(rows).toLowerCase(),
  }));
}

describe("account deletion", () => {
  it("leaves neither the e-mail nor the name in any table, and keeps the billing totals under a pseudonym", async () => {
    const email = "borrame@example.com";
    const name = "Lucía Borrame Quintana";
    const { viewer } = await payingCustomer(email, name, "cs_test_erase_me");
    await payingCustomer("se-queda@example.com", "Marta Sequeda", "cs_test_stays");
    const holding = async (needle: string) =>
      (await everyRowAsText())
        .filter((table) => table.text.includes(needle.toLowerCase()))
        .map((table) => table.table);
    // Before: the data is there, so the search below can find it.
    expect(await holding(email)).toEqual(
      expect.arrayContaining(["users", "profiles", "payments", "customers", "invoices"]),
    );
    expect(await holding(name)).toEqual(
      expect.arrayContaining(["profiles", "customers", "invoices"]),
    );

    await deleteAccountData(viewer);

    expect(await holding(email)).toEqual([]);
    expect(await holding(name)).toEqual([]);
    expect(await holding("Borrame")).toEqual([]);

    // The billing records stay, pseudonymised: the customer's totals and the payment share one
    // pseudonym that no mail can reach.
    const [payment] = await database.db
      .select()
      .from(payments)
      .innerJoin(purchases, eq(payments.purchaseId, purchases.id))
      .where(eq(purchases.checkoutSessionId, "cs_test_erase_me"));
    expect(payment?.purchases.userId).toBeNull();
    expect(payment?.payments).toMatchObject({ amount: 44_900, status: "completed" });
    expect(payment?.payments.customerEmail).toMatch(/\.invalid$/);
    const [pseudonymised] = await database.db
      .select()
      .from(customers)
      .where(eq(customers.email, payment!.payments.customerEmail));
    expect(pseudonymised).toMatchObject({ name: null, totalSpent: 44_900, totalOrders: 1 });

    // Someone else's data is untouched.
    const [other] = await database.db
      .select()
      .from(customers)
      .where(eq(customers.email, "se-queda@example.com"));
    expect(other).toMatchObject({ name: "Marta Sequeda", totalSpent: 44_900, totalOrders: 1 });
    expect(await holding("se-queda@example.com")).toEqual(
      expect.arrayContaining(["users", "profiles", "payments", "customers"]),
    );
  });

  it("keeps a complete invoice whole, NIF and billing name included, as the law requires", async () => {
    const email = "con-nif@example.com";
    const { cookie, userId } = await signedInCustomer(email);
    await database.db
      .update(profiles)
      .set({ taxId: "00000000T", billingName: "Cliente Con Nif S.L." })
      .where(eq(profiles.id, userId));
    const pending = await insertPurchase(database.db, {
      userId,
      checkoutSessionId: "cs_test_complete_invoice",
    });
    await deliver(completedSession("evt_paid_complete_invoice", pending, email, "Con Nif"));
    await deleteAccountData((await viewerOf(cookie))!);

    const [invoice] = await database.db
      .select()
      .from(invoices)
      .where(eq(invoices.purchaseId, pending.id));
    expect(invoice).toMatchObject({
      kind: "complete",
      customerTaxId: "00000000T",
      customerName: "Cliente Con Nif S.L.",
      customerEmail: email,
    });
  });

  it("still applies a later refund to the pseudonymised totals, and mails no one", async () => {
    const email = "reembolso-tardio@example.com";
    const name = "Íñigo Tardío";
    const { viewer, purchase } = await payingCustomer(email, name, "cs_test_refund_after_erasure");
    await deleteAccountData(viewer);

    expect(await deliver(fullRefund("evt_refund_after_erasure", purchase, email, name))).toEqual({
      status: 200,
      body: "ok",
    });
    const [refunded] = await database.db
      .select()
      .from(payments)
      .where(eq(payments.purchaseId, purchase.id));
    expect(refunded?.status).toBe("refunded");
    const [totals] = await database.db
      .select()
      .from(customers)
      .where(eq(customers.email, refunded!.customerEmail));
    expect(totals).toMatchObject({ totalSpent: 0, totalOrders: 0 });
    expect(
      await database.db.select().from(mailOutbox).where(eq(mailOutbox.kind, "payment-refund")),
    ).toHaveLength(0);
  });
});

describe("stored webhook events", () => {
  it("keep only ids: no e-mail, name, address, phone or card detail", async () => {
    const email = "solo-ids@example.com";
    const name = "Rosa Idéntica";
    const { purchase } = await payingCustomer(email, name, "cs_test_only_ids");
    await deliver(fullRefund("evt_refund_only_ids", purchase, email, name));

    const stored = await database.db
      .select()
      .from(webhookEvents)
      .where(inArray(webhookEvents.id, ["evt_paid_cs_test_only_ids", "evt_refund_only_ids"]));
    expect(stored).toHaveLength(2);
    const text = JSON.stringify(stored).toLowerCase();
    for (const detail of [
      email,
      name,
      "Calle de la Princesa",
      "28008",
      "Madrid",
      "+34 611 222 333",
      "4242",
      "visa",
    ])
      expect(text).not.toContain(detail.toLowerCase());

    const payloadOf = (id: string) => stored.find((row) => row.id === id)?.payload;
    expect(payloadOf("evt_paid_cs_test_only_ids")).toEqual({
      id: "evt_paid_cs_test_only_ids",
      type: "checkout.session.completed",
      created: expect.any(Number),
      object: {
        object: "checkout.session",
        id: "cs_test_only_ids",
        payment_intent: "pi_cs_test_only_ids",
        purchase_id: purchase.id,
      },
    });
    expect(payloadOf("evt_refund_only_ids")).toEqual({
      id: "evt_refund_only_ids",
      type: "charge.refunded",
      created: expect.any(Number),
      object: {
        object: "charge",
        id: "ch_cs_test_only_ids",
        payment_intent: "pi_cs_test_only_ids",
        purchase_id: null,
      },
    });
  });

  it("are deleted by the clean-up once older than 120 days, and kept until then", async () => {
    const daysAgo = (days: number) => new Date(Date.now() - days * 24 * 60 * 60_000);
    const payload = { id: "evt", type: "charge.refunded", created: 0, object: {} };
    await database.db.insert(webhookEvents).values([
      { id: "evt_121_days", type: "charge.refunded", payload, receivedAt: daysAgo(121) },
      { id: "evt_200_days", type: "charge.refunded", payload, receivedAt: daysAgo(200) },
      { id: "evt_119_days", type: "charge.refunded", payload, receivedAt: daysAgo(119) },
    ]);
    const before = (await database.db.select().from(webhookEvents)).length;

    expect(await pruneWebhookEvents(database.db)).toBe(2);

    const left = (await database.db.select().from(webhookEvents)).map((row) => row.id);
    expect(left).toHaveLength(before - 2);
    expect(left).toContain("evt_119_days");
    expect(left).not.toContain("evt_121_days");
    expect(left).not.toContain("evt_200_days");
  });

  it("written before this change are cut down to ids by the migration", async () => {
    const legacy = fullRefund(
      "evt_legacy_full_payload",
      {
        id: "00000000-0000-4000-8000-000000000000",
        checkoutSessionId: "cs_test_legacy",
        price: 44_900,
      } as Purchase,
      "antiguo@example.com",
      "Pablo Antiguo",
    );
    await database.db
      .insert(webhookEvents)
      .values({ id: legacy.id, type: legacy.type, payload: legacy });
    const migrationsDir = path.resolve("drizzle");
    const migration = readdirSync(migrationsDir).find((file) =>
      file.endsWith("_minimise_webhook_payloads.sql"),
    );
    expect(migration).toBeDefined();
    await database.db.execute(sql.raw(readFileSync(path.join(migrationsDir, migration!), "utf8")));

    const [row] = await database.db
      .select()
      .from(webhookEvents)
      .where(eq(webhookEvents.id, legacy.id));
    expect(row?.payload).toEqual({
      id: "evt_legacy_full_payload",
      type: "charge.refunded",
      created: legacy.created,
      object: {
        object: "charge",
        id: "ch_cs_test_legacy",
        payment_intent: "pi_cs_test_legacy",
        purchase_id: null,
      },
    });
  });
});
