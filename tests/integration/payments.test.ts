import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCheckout } from "~/features/payments/checkout.server";
import { handleWebhook } from "~/features/payments/webhook.server";
import { getConfig, resetConfigForTests } from "~/platform/config.server";
import { customers, payments, purchases, users, webhookEvents } from "~/platform/db/schema";
import { formPost, signedInCustomer } from "../support/customer-session";
import { StripeStandIn } from "../support/stripe-stand-in";
import {
  chargeRefundedEvent,
  checkoutSessionEvent,
  paymentFailedEvent,
  signEvent,
  stripeSignature,
  type CheckoutSessionEventType,
  type PurchaseRef,
} from "../support/stripe-events";
import { deliverStripeEvent } from "../support/stripe-webhook";
import { activityOfType, mailsOfKind } from "../support/outbox-records";
import { setupTestDatabase } from "../support/test-database";

const database = setupTestDatabase();
const standIn = new StripeStandIn();
const WEBHOOK_SECRET = "whsec_test_integration_secret";
const saved = { ...process.env };

let verifiedCookie = "";
let unverifiedCookie = "";

type Answer = { status: number; body: unknown };

function unwrap(answer: unknown): Answer {
  if (answer instanceof Response)
    return { status: answer.status, body: answer.headers.get("Location") };
  const value = answer as { data: unknown; init: { status?: number } | null };
  return { status: value.init?.status ?? 200, body: value.data };
}

/** Signs up, verifies (or not) and signs in; returns the session cookie. */
async function customerSession(email: string, verified: boolean): Promise<string> {
  return (await signedInCustomer(email, { verified })).cookie;
}

/** The billing data a complete invoice needs, asked above 400 € (checkout-billing.test.ts). */
const BILLING = {
  billingName: "Pagador de Pruebas",
  billingTaxId: "12345678Z",
  billingAddress: "Calle Mayor 1, 28013 Madrid",
};

/** A checkout of `serviceId` with the consent to begin at once, as `cookie`'s visitor. */
const checkout = async (serviceId: string, cookie = verifiedCookie) =>
  unwrap(
    await startCheckout(
      formPost("/checkout", { serviceId, immediateStart: "yes", ...BILLING }, cookie),
    ),
  );

const signed = (event: object, timestamp?: number) => signEvent(event, WEBHOOK_SECRET, timestamp);
const deliver = (event: object) => deliverStripeEvent(database.db, event);

/** A checkout.session.* event of the signed-in payer; `fields` as Stripe names them. */
const sessionEvent = (
  eventId: string,
  type: CheckoutSessionEventType,
  purchase: PurchaseRef,
  fields: Record<string, unknown> = {},
) =>
  checkoutSessionEvent(type, purchase, {
    eventId,
    email: "pagador@example.com",
    name: "Pagador",
    paymentIntent: "pi_test_123",
    fields,
  });

/** The checkout.session.completed event of the signed-in payer's `purchase`, paid or not. */
const sessionCompleted = (
  eventId: string,
  purchase: PurchaseRef,
  paymentStatus: "paid" | "unpaid",
) =>
  sessionEvent(eventId, "checkout.session.completed", purchase, { payment_status: paymentStatus });

const purchaseById = async (id: string) =>
  (await database.db.select().from(purchases).where(eq(purchases.id, id)))[0];
const purchaseBySession = async (sessionId: string) =>
  (await database.db.select().from(purchases).where(eq(purchases.checkoutSessionId, sessionId)))[0];

beforeAll(async () => {
  await standIn.startForSite({
    STRIPE_SECRET_KEY: "sk_test_integration",
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_PRICE_CIBERSEGURIDAD: "price_ciberseguridad_449",
    STRIPE_PRICE_DESARROLLO_WEB: "price_desarrollo_web_799",
  });
  resetConfigForTests();
  verifiedCookie = await customerSession("pagador@example.com", true);
  unverifiedCookie = await customerSession("sinverificar@example.com", false);
});

afterAll(async () => {
  process.env = saved;
  resetConfigForTests();
  await standIn.stop();
});

describe("checkout", () => {
  it("sends Stripe the catalogue's price and a pending purchase exists first, whatever the client sent", async () => {
    const answer = unwrap(
      await startCheckout(
        formPost(
          "/checkout",
          {
            serviceId: "4",
            price: "1",
            priceId: "price_cheap",
            serviceName: "Gratis",
            currency: "usd",
            immediateStart: "yes",
            ...BILLING,
          },
          verifiedCookie,
        ),
      ),
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      url: expect.stringMatching(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_standin/),
    });
    const request = standIn.requests.at(-1)!;
    expect(request.path).toBe("/v1/checkout/sessions");
    expect(request.form.get("line_items[0][price]")).toBe("price_ciberseguridad_449");
    expect(request.form.get("line_items[0][quantity]")).toBe("1");
    expect(request.form.get("mode")).toBe("payment");
    expect(request.form.get("currency")).toBe("eur");
    expect(request.form.get("customer_email")).toBe("pagador@example.com");
    expect(request.form.get("success_url")).toBe(
      `${getConfig().siteUrl}/pago-exitoso?service=Ciberseguridad`,
    );
    expect(request.form.get("cancel_url")).toBe(`${getConfig().siteUrl}/precios`);
    const purchase = await purchaseBySession("cs_test_standin1");
    expect(purchase).toMatchObject({
      serviceName: "Ciberseguridad",
      price: 44_900,
      currency: "EUR",
      status: "pending",
      provider: "stripe",
    });
    expect(request.form.get("metadata[purchase_id]")).toBe(purchase!.id);
    expect(request.form.get("payment_intent_data[metadata][purchase_id]")).toBe(purchase!.id);
    expect(request.headers["idempotency-key"]).toBe(`checkout-${purchase!.id}`);
  });

  it("refuses an unverified customer with 403 and an anonymous visitor with 401", async () => {
    expect(await checkout("4", unverifiedCookie)).toEqual({
      status: 403,
      body: { errors: [{ code: "emailNotVerified" }] },
    });
    expect(await checkout("4", "")).toMatchObject({
      status: 401,
    });
  });

  it("answers the spec's error when the service has no Stripe price id, and 400 for an unknown service", async () => {
    expect(await checkout("1")).toEqual({
      status: 400,
      body: { errors: [{ code: "priceIdMissing" }] },
    });
    expect((await checkout("99")).status).toBe(400);
  });
});

describe("the webhook", () => {
  it("refuses a wrong or stale signature with 400 and changes nothing", async () => {
    const purchase = await purchaseBySession("cs_test_standin1");
    const event = sessionCompleted("evt_bad", purchase!, "paid");
    const { payload } = signed(event);
    const forged = stripeSignature(payload, "whsec_someone_else");
    expect(await handleWebhook(database.db, payload, forged)).toMatchObject({ status: 400 });
    expect(await handleWebhook(database.db, payload, undefined)).toMatchObject({ status: 400 });
    const stale = signed(event, Math.floor(Date.now() / 1000) - 600);
    expect(await handleWebhook(database.db, stale.payload, stale.header)).toMatchObject({
      status: 400,
    });
    const tampered = payload.replace('"amount_total":44900', '"amount_total":100');
    expect(await handleWebhook(database.db, tampered, signed(event).header)).toMatchObject({
      status: 400,
    });
    expect(await database.db.select().from(webhookEvents)).toHaveLength(0);
    const after = await purchaseById(purchase!.id);
    expect(after?.status).toBe("pending");
  });

  it("counts one payment whatever the repetitions and order of the events", async () => {
    await checkout("6");
    const purchase = await purchaseBySession("cs_test_standin2");
    const events = [
      sessionCompleted("evt_completed", purchase!, "paid"),
      // The same payment again under another event id.
      sessionEvent("evt_async_ok", "checkout.session.async_payment_succeeded", purchase!, {
        payment_status: "paid",
      }),
      sessionEvent("evt_expired", "checkout.session.expired", purchase!, {
        payment_status: "unpaid",
      }),
      paymentFailedEvent(purchase!, { eventId: "evt_pi_failed", paymentIntent: "pi_test_123" }),
    ];
    const deliveries = events.flatMap((event) => [event, event, event]);
    // A fixed shuffle, different from the natural order.
    const order = [5, 11, 0, 7, 3, 9, 1, 10, 4, 8, 2, 6];
    for (const index of order)
      expect(await deliver(deliveries[index]!)).toEqual({ status: 200, body: "ok" });
    const after = await purchaseById(purchase!.id);
    expect(after).toMatchObject({ status: "completed", paymentIntentId: "pi_test_123" });
    expect(after?.completedAt).toBeInstanceOf(Date);
    const paid = await database.db
      .select()
      .from(payments)
      .where(eq(payments.purchaseId, purchase!.id));
    expect(paid).toHaveLength(1);
    expect(paid[0]).toMatchObject({
      amount: 79_900,
      currency: "EUR",
      status: "completed",
      customerEmail: "pagador@example.com",
    });
    const [customer] = await database.db
      .select()
      .from(customers)
      .where(eq(customers.email, "pagador@example.com"));
    expect(customer).toMatchObject({ totalOrders: 1, totalSpent: 79_900 });
    expect(await database.db.select().from(webhookEvents)).toHaveLength(4);
    const receipts = await mailsOfKind(database.db, "payment-receipt");
    expect(receipts).toHaveLength(1);
    expect(receipts[0]?.subject).toBe("Recibo de tu compra: Desarrollo Web - Vértice Digital");
  });

  it("adds a second purchase of the same customer to the totals", async () => {
    await checkout("4");
    const purchase = await purchaseBySession("cs_test_standin3");
    await deliver(sessionCompleted("evt_second", purchase!, "paid"));
    const [customer] = await database.db
      .select()
      .from(customers)
      .where(eq(customers.email, "pagador@example.com"));
    expect(customer).toMatchObject({ totalOrders: 2, totalSpent: 79_900 + 44_900 });
  });

  it("leaves an unpaid completed session pending, and a declined one failed", async () => {
    await checkout("6");
    const purchase = await purchaseBySession("cs_test_standin4");
    await deliver(sessionCompleted("evt_unpaid", purchase!, "unpaid"));
    expect((await purchaseById(purchase!.id))?.status).toBe("pending");
    await deliver(
      sessionEvent("evt_async_failed", "checkout.session.async_payment_failed", purchase!),
    );
    expect((await purchaseById(purchase!.id))?.status).toBe("failed");
  });
});

describe("refunds", () => {
  /** A pending purchase of the signed-in customer. */
  async function pendingPurchase(serviceId: string) {
    await checkout(serviceId);
    const purchaseId = standIn.requests.at(-1)!.form.get("metadata[purchase_id]")!;
    const purchase = await purchaseById(purchaseId);
    return purchase!;
  }

  const chargeRefunded = (id: string, paymentIntent: string, amount: number, refunded: number) =>
    chargeRefundedEvent(
      { chargeId: `ch_${id}`, paymentIntent, amount, amountRefunded: refunded },
      { eventId: id },
    );

  const customerTotals = async () =>
    (
      await database.db.select().from(customers).where(eq(customers.email, "pagador@example.com"))
    )[0]!;

  /** The 44,900-cent purchase is refunded, with its payment, and taken off the paid totals once. */
  async function expectRefunded(
    purchaseId: string,
    paid: { totalSpent: number; totalOrders: number },
  ) {
    expect((await purchaseById(purchaseId))?.status).toBe("refunded");
    const [payment] = await database.db
      .select()
      .from(payments)
      .where(eq(payments.purchaseId, purchaseId));
    expect(payment).toMatchObject({ status: "refunded", amount: 44_900 });
    expect(await customerTotals()).toMatchObject({
      totalSpent: paid.totalSpent - 44_900,
      totalOrders: paid.totalOrders - 1,
    });
  }

  it("returns a fully refunded purchase once: status, payment, totals, activity and one mail", async () => {
    const purchase = await pendingPurchase("4");
    await deliver(
      sessionEvent("evt_paid_for_refund", "checkout.session.completed", purchase, {
        payment_status: "paid",
        payment_intent: "pi_refund_full",
      }),
    );
    const before = await customerTotals();

    const partial = chargeRefunded("evt_partial", "pi_refund_full", 44_900, 10_000);
    expect(await deliver(partial)).toEqual({ status: 200, body: "ok" });
    const stillPaid = await purchaseById(purchase.id);
    expect(stillPaid?.status).toBe("completed");

    const full = chargeRefunded("evt_full", "pi_refund_full", 44_900, 44_900);
    for (const event of [full, full, { ...full, id: "evt_full_again" }])
      expect(await deliver(event)).toEqual({ status: 200, body: "ok" });

    await expectRefunded(purchase.id, before);
    const activity = await activityOfType(database.db, "purchase_refunded");
    expect(activity).toHaveLength(1);
    expect(activity[0]?.description).toBe("Compra reembolsada: Ciberseguridad");
    const notices = await mailsOfKind(database.db, "payment-refund");
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({
      recipient: "pagador@example.com",
      subject: "Reembolso de tu compra: Ciberseguridad - Vértice Digital",
    });
    expect(notices[0]?.text).toContain("Importe reembolsado: 449€ (IVA incluido)");
  });

  it("sends back a refund that overtakes its payment, and applies it once the payment is in", async () => {
    const purchase = await pendingPurchase("6");
    const refund = chargeRefunded("evt_refund_early", "pi_refund_early", 79_900, 79_900);
    // The charge names only its payment intent, which the completion records first; with
    // the metadata a charge may carry, the purchase is found while still pending.
    const early = {
      ...refund,
      data: { object: { ...refund.data.object, metadata: { purchase_id: purchase.id } } },
    };
    expect(await deliver(early)).toEqual({ status: 503, body: "Inténtalo más tarde" });
    expect(
      await database.db.select().from(webhookEvents).where(eq(webhookEvents.id, early.id)),
    ).toHaveLength(0);

    await deliver(
      sessionEvent("evt_paid_after_refund", "checkout.session.completed", purchase, {
        payment_status: "paid",
        payment_intent: "pi_refund_early",
      }),
    );
    expect(await deliver(early)).toEqual({ status: 200, body: "ok" });
    const after = await purchaseById(purchase.id);
    expect(after?.status).toBe("refunded");
  });

  it("sends back a refund whose charge names only a payment intent no purchase has yet, and applies it once after the completion", async () => {
    const purchase = await pendingPurchase("4");
    // As Stripe sends it: the charge carries no checkout metadata, only its payment intent,
    // which the purchase records at completion.
    const refund = chargeRefunded("evt_refund_before_pi", "pi_refund_before_pi", 44_900, 44_900);
    expect(refund.data.object.metadata).toEqual({});
    const recorded = () =>
      database.db.select().from(webhookEvents).where(eq(webhookEvents.id, refund.id));

    expect(await deliver(refund)).toEqual({ status: 503, body: "Inténtalo más tarde" });
    expect(await recorded()).toHaveLength(0);
    expect((await purchaseById(purchase.id))?.status).toBe("pending");

    await deliver(
      sessionEvent("evt_paid_before_pi_refund", "checkout.session.completed", purchase, {
        payment_status: "paid",
        payment_intent: "pi_refund_before_pi",
      }),
    );
    const paid = await customerTotals();

    // Stripe delivers the refund again later, maybe more than once.
    expect(await deliver(refund)).toEqual({ status: 200, body: "ok" });
    expect(await deliver(refund)).toEqual({ status: 200, body: "ok" });
    expect(await recorded()).toHaveLength(1);
    await expectRefunded(purchase.id, paid);
    const activity = await activityOfType(database.db, "purchase_refunded");
    expect(
      activity.filter(
        (entry) => (entry.metadata as { purchaseId?: string }).purchaseId === purchase.id,
      ),
    ).toHaveLength(1);
  });

  it("acknowledges at once a refund of a charge with no payment intent, which no checkout of ours made", async () => {
    const refund = chargeRefunded("evt_refund_no_pi", "", 5_000, 5_000);
    const foreign = {
      ...refund,
      data: { object: { ...refund.data.object, payment_intent: null } },
    };
    expect(await deliver(foreign)).toEqual({ status: 200, body: "ok" });
    expect(
      await database.db.select().from(webhookEvents).where(eq(webhookEvents.id, foreign.id)),
    ).toHaveLength(1);
  });
});

describe("checkout limits", () => {
  it("answer a customer's 11th checkout within ten minutes with 429 and no new purchase", async () => {
    const cookie = await customerSession("impaciente@example.com", true);
    const statuses: number[] = [];
    for (let attempt = 1; attempt <= 11; attempt++)
      statuses.push((await checkout("4", cookie)).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200));
    expect(statuses[10]).toBe(429);
    const [user] = await database.db
      .select()
      .from(users)
      .where(eq(users.email, "impaciente@example.com"));
    expect(
      await database.db.select().from(purchases).where(eq(purchases.userId, user!.id)),
    ).toHaveLength(10);
  });
});

describe("the consent to begin at once", () => {
  it("refuses to start without the consent to begin at once, and stores it with the purchase", async () => {
    const before = await database.db.select({ id: purchases.id }).from(purchases);
    for (const immediateStart of [undefined, "", "no", "on"]) {
      const fields: Record<string, string> = { serviceId: "4", ...BILLING };
      if (immediateStart !== undefined) fields.immediateStart = immediateStart;
      expect(unwrap(await startCheckout(formPost("/checkout", fields, verifiedCookie)))).toEqual({
        status: 400,
        body: {
          errors: [{ code: "immediateStartConsentRequired", field: "immediateStart" }],
          // What was typed comes back, for a page answered without JavaScript.
          values: BILLING,
        },
      });
    }
    expect(await database.db.select({ id: purchases.id }).from(purchases)).toHaveLength(
      before.length,
    );
    const started = Date.now();
    await checkout("4");
    const purchaseId = standIn.requests.at(-1)!.form.get("metadata[purchase_id]")!;
    const consentAt = (await purchaseById(purchaseId))?.immediateStartConsentAt;
    expect(consentAt?.getTime()).toBeGreaterThanOrEqual(started - 1000);
  });
});
