import { randomUUID } from "node:crypto";
import Stripe from "stripe";

/**
 * The one builder of Stripe's webhook events for the tests (integration, cluster), in Stripe's
 * wire format, signed with the real SDK's scheme. It imports nothing of the site, so the
 * cluster runner can use it beside a built server. The site's own simulated checkout
 * (app/features/payments/simulated-checkout.server.ts) sends the same shapes.
 */

/** The API version the events carry (the simulated checkout's). */
export const STRIPE_API_VERSION = "2025-01-27.acacia";

/** Signing needs no key that works: the SDK signs locally with the webhook secret. */
const stripe = new Stripe("sk_test_event_signing");

/** The Stripe-Signature header Stripe sends with `payload`; `timestamp` in seconds (default now). */
export function stripeSignature(payload: string, secret: string, timestamp?: number): string {
  return stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp });
}

/** One delivery of `event`: its bytes and their signature, the same each time it is sent. */
export function signEvent(event: object, secret: string, timestamp?: number) {
  const payload = JSON.stringify(event);
  return { payload, header: stripeSignature(payload, secret, timestamp) };
}

/** An event's own id and creation time (default: a new id, now). */
export type EventOptions = { eventId?: string; created?: number };

const nowSeconds = () => Math.floor(Date.now() / 1000);
const newId = (prefix: string) => `${prefix}_${randomUUID().replaceAll("-", "")}`;

/** An event as Stripe sends it, about `object`. */
export function stripeEvent<T extends object>(type: string, object: T, options: EventOptions = {}) {
  return {
    id: options.eventId ?? `evt_${randomUUID()}`,
    object: "event" as const,
    api_version: STRIPE_API_VERSION,
    created: options.created ?? nowSeconds(),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: { object },
  };
}

/** The metadata the site attaches to a checkout and its payment intent (providers.server.ts). */
function purchaseMetadata(purchaseId: string, userId?: string | null) {
  return { purchase_id: purchaseId, ...(userId ? { user_id: userId } : {}) };
}

/** What a Checkout Session is about and how it stands. */
export type SessionInput = {
  /** cs_… */
  id: string;
  purchaseId: string;
  userId?: string | null;
  /** amount_total, in cents. */
  amount?: number | null;
  /** The payer: customer_email and customer_details. */
  email?: string | null;
  name?: string | null;
  paymentIntent?: string | null;
  status?: "open" | "complete" | "expired";
  paymentStatus?: "paid" | "unpaid" | "no_payment_required";
  /** More fields of the session, as Stripe names them; they win over the ones above. */
  fields?: Record<string, unknown>;
};

/** A Checkout Session as Stripe's API returns it and its events carry it. */
export function checkoutSession(input: SessionInput) {
  const status = input.status ?? "complete";
  return {
    id: input.id,
    object: "checkout.session" as const,
    mode: "payment",
    status,
    payment_status: input.paymentStatus ?? "paid",
    amount_total: input.amount ?? null,
    currency: "eur",
    customer_email: input.email ?? null,
    // Stripe fills the payer's details in at the payment: an open session has none yet.
    customer_details:
      status === "open" ? null : { email: input.email ?? null, name: input.name ?? null },
    client_reference_id: input.purchaseId,
    payment_intent: input.paymentIntent ?? null,
    metadata: purchaseMetadata(input.purchaseId, input.userId),
    ...input.fields,
  };
}

/** The purchase an event is about, as the site stores it. */
export type PurchaseRef = {
  id: string;
  checkoutSessionId: string | null;
  price: number;
  userId?: string | null;
};

export type CheckoutSessionEventType =
  | "checkout.session.completed"
  | "checkout.session.async_payment_succeeded"
  | "checkout.session.async_payment_failed"
  | "checkout.session.expired";

/** How the session stands when Stripe sends each of its events. */
const sessionStateOf: Record<
  CheckoutSessionEventType,
  Pick<SessionInput, "status" | "paymentStatus">
> = {
  "checkout.session.completed": { status: "complete", paymentStatus: "paid" },
  "checkout.session.async_payment_succeeded": { status: "complete", paymentStatus: "paid" },
  "checkout.session.async_payment_failed": { status: "complete", paymentStatus: "unpaid" },
  "checkout.session.expired": { status: "expired", paymentStatus: "unpaid" },
};

/**
 * A checkout.session.* event about `purchase`'s checkout, for its full price. The session's
 * status and payment status are those Stripe sends with `type` unless given; its payment intent
 * is a new one (none for an expired session) unless given.
 */
export function checkoutSessionEvent(
  type: CheckoutSessionEventType,
  purchase: PurchaseRef,
  options: Omit<SessionInput, "id" | "purchaseId" | "userId" | "amount"> & EventOptions = {},
) {
  const { eventId, created, ...given } = options;
  const state = sessionStateOf[type];
  const paymentIntent =
    given.paymentIntent !== undefined
      ? given.paymentIntent
      : type === "checkout.session.expired"
        ? null
        : newId("pi");
  const session = checkoutSession({
    ...given,
    id: purchase.checkoutSessionId!,
    purchaseId: purchase.id,
    userId: purchase.userId,
    amount: purchase.price,
    paymentIntent,
    status: given.status ?? state.status,
    paymentStatus: given.paymentStatus ?? state.paymentStatus,
  });
  return stripeEvent(type, session, { eventId, created });
}

/** payment_intent.payment_failed for `purchase`'s payment intent: a declined card. */
export function paymentFailedEvent(
  purchase: PurchaseRef,
  options: { paymentIntent?: string } & EventOptions = {},
) {
  return stripeEvent(
    "payment_intent.payment_failed",
    {
      id: options.paymentIntent ?? newId("pi"),
      object: "payment_intent" as const,
      amount: purchase.price,
      currency: "eur",
      status: "requires_payment_method",
      metadata: purchaseMetadata(purchase.id, purchase.userId),
      last_payment_error: { code: "card_declined", message: "Your card was declined." },
    },
    options,
  );
}

/** A charge of a checkout's payment, refunded in part or in full. */
export type RefundInput = {
  /** The charge's payment intent (null for a charge no checkout made). */
  paymentIntent: string | null;
  /** The charge, in cents. */
  amount: number;
  /** How much of it is refunded (default all of it). */
  amountRefunded?: number;
  /** ch_… (default a new one). */
  chargeId?: string;
  /** More fields of the charge, as Stripe names them; they win over the ones above. */
  fields?: Record<string, unknown>;
};

/**
 * charge.refunded as Stripe sends it, for a refund from the staff or from Stripe's dashboard.
 * Like Stripe's, the charge carries none of the checkout's metadata: only its payment intent.
 */
export function chargeRefundedEvent(input: RefundInput, options: EventOptions = {}) {
  const amountRefunded = input.amountRefunded ?? input.amount;
  return stripeEvent(
    "charge.refunded",
    {
      id: input.chargeId ?? newId("ch"),
      object: "charge" as const,
      amount: input.amount,
      amount_refunded: amountRefunded,
      currency: "eur",
      paid: true,
      refunded: amountRefunded === input.amount,
      status: "succeeded",
      payment_intent: input.paymentIntent,
      metadata: {} as Record<string, string>,
      ...input.fields,
    },
    options,
  );
}
