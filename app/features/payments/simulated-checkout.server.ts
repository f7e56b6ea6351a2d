import { randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { requireCustomer, type Viewer } from "~/features/identity/session.server";
import { getConfig } from "~/platform/config.server";
import { getDb } from "~/platform/db/database.server";
import { purchases } from "~/platform/db/schema";
import { data, redirect } from "react-router";
import { simulatedPaymentsAvailable, stripeClient } from "./providers.server";
import { simulatedOutcomesFor, type SimulatedOutcome } from "./purchase-status";

/**
 * The local stand-in for Stripe Checkout: it produces the events Stripe would send, in Stripe's
 * JSON shapes, signed with the webhook secret, and posts them to our own webhook endpoint.
 */

type Purchase = typeof purchases.$inferSelect;

export async function findSimulatedPurchase(sessionId: string, viewer: Viewer) {
  // Session ids are ASCII (cs_sim_…): other text in the URL names no purchase, and a NUL byte
  // would make the query itself fail.
  if (!/^[\w-]{1,255}$/.test(sessionId)) return undefined;
  const [purchase] = await getDb()
    .select()
    .from(purchases)
    .where(
      and(
        eq(purchases.checkoutSessionId, sessionId),
        eq(purchases.userId, viewer.id),
        eq(purchases.provider, "simulated"),
      ),
    );
  return purchase;
}

const id = (prefix: string) => `${prefix}_sim_${randomBytes(12).toString("hex")}`;

function checkoutSession(purchase: Purchase, email: string, fields: Record<string, unknown>) {
  return {
    id: purchase.checkoutSessionId,
    object: "checkout.session",
    mode: "payment",
    amount_total: purchase.price,
    currency: "eur",
    customer_email: email,
    customer_details: { email, name: null },
    client_reference_id: purchase.id,
    metadata: { purchase_id: purchase.id, user_id: purchase.userId },
    ...fields,
  };
}

function event(type: string, object: Record<string, unknown>) {
  return {
    id: id("evt"),
    object: "event",
    api_version: "2025-01-27.acacia",
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: { object },
  };
}

/** The events Stripe sends for each way a checkout can end. */
export function simulatedEvents(outcome: SimulatedOutcome, purchase: Purchase, email: string) {
  const paymentIntent = id("pi");
  switch (outcome) {
    case "pay":
      return [
        event(
          "checkout.session.completed",
          checkoutSession(purchase, email, {
            status: "complete",
            payment_status: "paid",
            payment_intent: paymentIntent,
          }),
        ),
      ];
    case "decline":
      return [
        event("payment_intent.payment_failed", {
          id: paymentIntent,
          object: "payment_intent",
          amount: purchase.price,
          currency: "eur",
          status: "requires_payment_method",
          metadata: { purchase_id: purchase.id, user_id: purchase.userId },
          last_payment_error: { code: "card_declined", message: "Your card was declined." },
        }),
      ];
    case "refund":
      // What Stripe sends when the staff refund a payment in full from its dashboard. Like
      // Stripe's, the charge does not carry the checkout's metadata: only its payment intent.
      return [
        event("charge.refunded", {
          id: id("ch"),
          object: "charge",
          amount: purchase.price,
          amount_refunded: purchase.price,
          currency: "eur",
          paid: true,
          refunded: true,
          status: "succeeded",
          payment_intent: purchase.paymentIntentId,
          metadata: {},
        }),
      ];
    case "cancel":
      // Stripe expires an abandoned session later; the simulation expires it at once.
      return [
        event(
          "checkout.session.expired",
          checkoutSession(purchase, email, {
            status: "expired",
            payment_status: "unpaid",
            payment_intent: null,
          }),
        ),
      ];
  }
}

/** Signs an event like Stripe does and posts it to this server's webhook endpoint. */
export async function deliverToWebhook(payloadObject: unknown): Promise<number> {
  const config = getConfig();
  const payload = JSON.stringify(payloadObject);
  const header = (await stripeClient(config)).webhooks.generateTestHeaderString({
    payload,
    secret: config.stripe.webhookSecret,
  });
  const host = config.host === "0.0.0.0" || config.host === "::" ? "127.0.0.1" : config.host;
  const response = await fetch(
    `http://${host.includes(":") ? `[${host}]` : host}:${config.port}/api/stripe/webhook`,
    {
      method: "POST",
      headers: { "Content-Type": "application/json", "Stripe-Signature": header },
      body: payload,
    },
  );
  return response.status;
}

const notFound = () => new Response("Not Found", { status: 404 });

/**
 * The guard of /pago-simulado: the page does not exist in production or with Stripe (404 for
 * everyone, signed in or not); otherwise it needs a signed-in customer.
 */
export async function requireSimulatedCheckout(request: Request): Promise<Viewer> {
  if (!simulatedPaymentsAvailable()) throw notFound();
  return requireCustomer(request);
}

/** The simulated checkout page exists only without Stripe, and only for the buyer's own purchase. */
async function ownSimulatedPurchase(sessionId: string, viewer: Viewer) {
  if (!simulatedPaymentsAvailable()) throw notFound();
  const purchase = await findSimulatedPurchase(sessionId, viewer);
  if (!purchase) throw notFound();
  return purchase;
}

export async function simulatedCheckoutPage(sessionId: string, viewer: Viewer) {
  const purchase = await ownSimulatedPurchase(sessionId, viewer);
  return {
    serviceName: purchase.serviceName,
    price: purchase.price,
    status: purchase.status,
    outcomes: simulatedOutcomesFor(purchase.status),
  };
}

async function readOutcome(request: Request): Promise<string | null> {
  try {
    return String((await request.formData()).get("outcome"));
  } catch {
    return null;
  }
}

/** Plays the chosen ending of the checkout through the real webhook, then goes where Stripe would. */
export async function runSimulatedOutcome(request: Request, sessionId: string, viewer: Viewer) {
  const purchase = await ownSimulatedPurchase(sessionId, viewer);
  const outcome = await readOutcome(request);
  const allowed: string[] = simulatedOutcomesFor(purchase.status);
  if (!outcome || !allowed.includes(outcome)) return data({ declined: false }, { status: 400 });
  for (const event of simulatedEvents(outcome as SimulatedOutcome, purchase, viewer.email)) {
    const status = await deliverToWebhook(event);
    if (status !== 200) return data({ declined: false }, { status: 502 });
  }
  if (outcome === "pay")
    return redirect(`/pago-exitoso?service=${encodeURIComponent(purchase.serviceName)}`);
  if (outcome === "cancel") return redirect("/precios");
  if (outcome === "refund") return redirect("/test-pagos");
  return { declined: true };
}
