import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  reactToCompletedSales,
  type CompletedSale,
} from "~/features/payments/sale-reactions.server";
import { resetConfigForTests } from "~/platform/config.server";
import {
  invoices,
  payments,
  purchases,
  userActivityLog,
  webhookEvents,
} from "~/platform/db/schema";
import { signedInCustomer } from "../support/customer-session";
import { insertPurchase } from "../support/purchases";
import { checkoutSessionEvent } from "../support/stripe-events";
import { deliverStripeEvent } from "../support/stripe-webhook";
import { setupTestDatabase } from "../support/test-database";

/**
 * Decision 077: a feature above payments reacts to a completed sale inside the webhook's
 * transaction. Its write commits with the sale; its failure undoes the sale whole, and the
 * redelivered event completes it.
 */
const database = setupTestDatabase();
const saved = { ...process.env };
let buyer: { userId: string };
const unregister: (() => void)[] = [];

beforeAll(async () => {
  Object.assign(process.env, {
    STRIPE_SECRET_KEY: "sk_test_sale_reactions",
    STRIPE_WEBHOOK_SECRET: "whsec_test_sale_reactions",
  });
  resetConfigForTests();
  buyer = await signedInCustomer("reacciones@example.com");
});

afterEach(() => {
  for (const undo of unregister.splice(0)) undo();
});

afterAll(() => {
  process.env = saved;
  resetConfigForTests();
});

const pendingPurchase = () =>
  insertPurchase(database.db, {
    userId: buyer.userId,
    serviceId: 1,
    serviceName: "Consultoría Puntual",
    price: 7_900,
    checkoutSessionId: `cs_test_${randomUUID()}`,
  });

const completed = (purchase: Awaited<ReturnType<typeof pendingPurchase>>) =>
  checkoutSessionEvent("checkout.session.completed", purchase, {
    email: "reacciones@example.com",
    name: "Cliente",
  });

describe("reactions to a completed sale", () => {
  it("run in the sale's transaction with what was sold, and their writes commit with it", async () => {
    const seen: CompletedSale[] = [];
    unregister.push(
      reactToCompletedSales("booking-test", async (tx, sale) => {
        seen.push(sale);
        await tx.insert(userActivityLog).values({
          userId: sale.userId,
          activityType: "booking_test_confirmed",
          description: `Reserva confirmada con ${sale.invoiceNumber}`,
        });
      }),
    );
    const purchase = await pendingPurchase();
    expect((await deliverStripeEvent(database.db, completed(purchase))).status).toBe(200);
    const [invoice] = await database.db
      .select()
      .from(invoices)
      .where(eq(invoices.purchaseId, purchase.id));
    expect(seen).toEqual([
      expect.objectContaining({
        purchaseId: purchase.id,
        userId: buyer.userId,
        serviceId: 1,
        serviceName: "Consultoría Puntual",
        amountCents: 7_900,
        currency: "EUR",
        invoiceNumber: invoice!.number,
      }),
    ]);
    const rows = await database.db
      .select()
      .from(userActivityLog)
      .where(eq(userActivityLog.activityType, "booking_test_confirmed"));
    expect(rows.map((row) => row.description)).toEqual([
      `Reserva confirmada con ${invoice!.number}`,
    ]);
  });

  it("undo the whole sale when one fails, and the redelivered event completes it", async () => {
    let failing = true;
    unregister.push(
      reactToCompletedSales("quote-test", async () => {
        if (failing) throw new Error("the quote could not be marked paid");
      }),
    );
    const purchase = await pendingPurchase();
    const event = completed(purchase);
    await expect(deliverStripeEvent(database.db, event)).rejects.toThrow("could not be marked");
    const [pending] = await database.db
      .select()
      .from(purchases)
      .where(eq(purchases.id, purchase.id));
    expect(pending!.status).toBe("pending");
    const paymentsOf = () =>
      database.db.select().from(payments).where(eq(payments.purchaseId, purchase.id));
    const invoicesOf = () =>
      database.db.select().from(invoices).where(eq(invoices.purchaseId, purchase.id));
    expect(await paymentsOf()).toEqual([]);
    expect(await invoicesOf()).toEqual([]);
    const eventId = (event as { id: string }).id;
    expect(
      await database.db.select().from(webhookEvents).where(eq(webhookEvents.id, eventId)),
    ).toEqual([]);
    // Stripe delivers the event again; the reaction's cause is gone.
    failing = false;
    expect((await deliverStripeEvent(database.db, event)).status).toBe(200);
    expect(await paymentsOf()).toHaveLength(1);
    expect(await invoicesOf()).toHaveLength(1);
  });

  it("takes one reaction per name", () => {
    unregister.push(reactToCompletedSales("twice", async () => {}));
    expect(() => reactToCompletedSales("twice", async () => {})).toThrow("registered already");
  });
});
