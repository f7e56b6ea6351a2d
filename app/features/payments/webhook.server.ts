import { runSaleReactions } from "./sale-reactions.server";
import { and, eq, inArray, lt, sql } from "drizzle-orm";
import type Stripe from "stripe";
import { getConfig } from "~/platform/config.server";
import type { Database, DatabaseTransaction } from "~/platform/db/client.server";
import { isUuid } from "~/platform/db/ids";
import {
  customers,
  payments,
  purchases,
  userActivityLog,
  webhookEvents,
} from "~/platform/db/schema";
import { getLogger } from "~/platform/logger.server";
import { getMailWorker } from "~/platform/mail/mailer.server";
import { enqueueMails } from "~/platform/mail/outbox.server";
import { webhookLag } from "~/platform/metrics/request-metrics";
import { isBillingPseudonym } from "./billing-erasure.server";
import {
  invoicePdf,
  issueCorrectiveInvoice,
  issueSaleInvoice,
  sendNewInvoiceRecords,
} from "~/features/billing/invoices.server";
import { countsInTotals, statusesBelow, type PurchaseStatus } from "./purchase-status";
import { stripeClient } from "./providers.server";
import { receiptMail, refundMail } from "./receipt-mail.server";

type Transaction = DatabaseTransaction;

export type WebhookAnswer = { status: number; body: string };

/** Signatures older than this are refused (Stripe's default tolerance). */
const SIGNATURE_TOLERANCE_SECONDS = 300;

/**
 * The provider's webhook: verifies the signature of the raw body, records the event by id and
 * applies it once, in one transaction. A bad or stale signature changes nothing.
 */
export async function handleWebhook(
  db: Database,
  rawBody: Buffer | string,
  signature: string | undefined,
): Promise<WebhookAnswer> {
  const config = getConfig();
  const stripe = await stripeClient(config);
  let event: Stripe.Event;
  try {
    event = stripe.webhooks.constructEvent(
      rawBody,
      signature ?? "",
      config.stripe.webhookSecret,
      SIGNATURE_TOLERANCE_SECONDS,
    );
  } catch {
    return { status: 400, body: "Firma no válida" };
  }
  // The delivery's lag behind the event, for /metrics: Stripe's retries of a failing endpoint
  // show here as minutes to hours (decision 049).
  webhookLag.observe(Date.now() / 1000 - event.created);
  let queuedMail: boolean;
  let applied = false;
  try {
    queuedMail = await db.transaction(async (tx) => {
      const recorded = await tx
        .insert(webhookEvents)
        .values({ id: event.id, type: event.type, payload: storedPayload(event) })
        .onConflictDoNothing()
        .returning({ id: webhookEvents.id });
      if (recorded.length === 0) return false;
      applied = true;
      return applyEvent(tx, event);
    });
  } catch (error) {
    if (!(error instanceof TooEarly)) throw error;
    // Nothing was recorded: the provider delivers the event again later (Stripe retries for
    // three days, then gives up).
    getLogger().warn({ eventId: event.id, type: event.type }, error.message);
    return { status: 503, body: "Inténtalo más tarde" };
  }
  if (queuedMail) getMailWorker().wake();
  // A payment or a refund may have issued an invoice: its record goes to AEAT now.
  if (applied) sendNewInvoiceRecords();
  return { status: 200, body: "ok" };
}

/** An event that cannot apply yet (it overtook the one before it); thrown to roll back. */
class TooEarly extends Error {}

/** The fields of an event's object that name what it is about. */
type EventObject = {
  object?: string;
  id?: string;
  metadata?: Record<string, string> | null;
  payment_intent?: string | { id: string } | null;
};

function paymentIntentOf(object: EventObject): string | undefined {
  return typeof object.payment_intent === "string"
    ? object.payment_intent
    : (object.payment_intent?.id ?? undefined);
}

/**
 * What is kept of an event (decision 012): its ids, never the customer's billing details
 * (e-mail, name, address, phone, card) that Stripe's objects carry. Nothing reads it back: the
 * row exists so an event id seen before is ignored, and for the staff to trace an event.
 */
export function storedPayload(event: Stripe.Event) {
  const object = event.data.object as EventObject;
  const purchaseId = object.metadata?.purchase_id;
  return {
    id: event.id,
    type: event.type,
    created: event.created,
    object: {
      object: object.object ?? null,
      id: object.id ?? null,
      payment_intent: paymentIntentOf(object) ?? null,
      purchase_id: isUuid(purchaseId) ? purchaseId : null,
    },
  };
}

/**
 * Stored events are deleted after the card networks' dispute window (120 days), in the hourly
 * clean-up. Stripe redelivers an event for three days at most, so the ids still dedupe every
 * delivery that can come.
 */
export const WEBHOOK_EVENT_RETENTION_MS = 120 * 24 * 60 * 60_000;

/** Deletes events received more than `olderThanMs` ago; returns how many. */
export async function pruneWebhookEvents(
  db: Database,
  olderThanMs = WEBHOOK_EVENT_RETENTION_MS,
): Promise<number> {
  const deleted = await db
    .delete(webhookEvents)
    .where(lt(webhookEvents.receivedAt, sql`now() - make_interval(secs => ${olderThanMs / 1000})`))
    .returning({ id: webhookEvents.id });
  return deleted.length;
}

/**
 * The purchase an event is about: by checkout session id, by the metadata we attached, or (for
 * a charge, which does not carry the payment's metadata) by its payment intent.
 */
async function findPurchase(tx: Transaction, event: Stripe.Event) {
  const object = event.data.object as EventObject;
  const paymentIntentId = paymentIntentOf(object);
  const condition =
    object.object === "checkout.session" && object.id
      ? eq(purchases.checkoutSessionId, object.id)
      : isUuid(object.metadata?.purchase_id)
        ? eq(purchases.id, object.metadata.purchase_id)
        : object.object === "charge" && paymentIntentId
          ? eq(purchases.paymentIntentId, paymentIntentId)
          : undefined;
  if (!condition) return undefined;
  const [purchase] = await tx.select().from(purchases).where(condition).for("update");
  return purchase;
}

/** Returns whether a mail was queued. */
async function applyEvent(tx: Transaction, event: Stripe.Event): Promise<boolean> {
  const purchase = await findPurchase(tx, event);
  if (!purchase && event.type === "charge.refunded" && paymentIntentOf(event.data.object)) {
    // A charge names only its payment intent, which a purchase records at its completion: a
    // refund that overtook the completion matches nothing yet. It is sent back unrecorded and
    // applies when redelivered after the completion. A charge of no purchase of ours is
    // retried the same way until Stripe gives up (three days), at the cost of a lookup each time.
    throw new TooEarly("refund of a payment intent no purchase has yet: retried");
  }
  if (!purchase) {
    getLogger().warn(
      { eventId: event.id, type: event.type },
      "webhook event for an unknown purchase",
    );
    return false;
  }
  switch (event.type) {
    case "checkout.session.completed":
      if (event.data.object.payment_status !== "paid") return false;
      return completePurchase(tx, purchase, event.data.object);
    case "checkout.session.async_payment_succeeded":
      return completePurchase(tx, purchase, event.data.object);
    case "checkout.session.async_payment_failed":
    case "payment_intent.payment_failed":
      await moveTo(tx, purchase.id, "failed");
      return false;
    case "checkout.session.expired":
      await moveTo(tx, purchase.id, "cancelled");
      return false;
    case "charge.refunded":
      return refundPurchase(tx, purchase, event.data.object);
    default:
      return false;
  }
}

/** Moves the purchase only forwards; returns whether it moved. */
async function moveTo(
  tx: Transaction,
  purchaseId: string,
  to: PurchaseStatus,
  extra: Partial<typeof purchases.$inferInsert> = {},
) {
  const moved = await tx
    .update(purchases)
    .set({ status: to, updatedAt: new Date(), ...extra })
    .where(and(eq(purchases.id, purchaseId), inArray(purchases.status, statusesBelow(to))))
    .returning({ id: purchases.id });
  return moved.length > 0;
}

type Purchase = typeof purchases.$inferSelect;

/** The completion: purchase, payment, customer totals, activity log and receipt, together. */
async function completePurchase(
  tx: Transaction,
  purchase: Purchase,
  session: Stripe.Checkout.Session,
): Promise<boolean> {
  const paymentIntentId =
    typeof session.payment_intent === "string"
      ? session.payment_intent
      : session.payment_intent?.id;
  const completedAt = new Date();
  const moved = await moveTo(tx, purchase.id, "completed", {
    completedAt,
    paymentIntentId: paymentIntentId ?? null,
  });
  if (!moved) return false;

  const email = (session.customer_details?.email ?? session.customer_email ?? "").toLowerCase();
  const amount = session.amount_total ?? purchase.price;
  if (amount !== purchase.price) {
    getLogger().error(
      { purchaseId: purchase.id, amount, expected: purchase.price },
      "charged amount differs from the catalogue price",
    );
  }
  const currency = (session.currency ?? "eur").toUpperCase();
  await tx.insert(payments).values({
    purchaseId: purchase.id,
    customerEmail: email,
    serviceName: purchase.serviceName,
    amount,
    currency,
    status: "completed",
  });
  const invoice = await issueSaleInvoice(tx, {
    purchaseId: purchase.id,
    userId: purchase.userId,
    serviceName: purchase.serviceName,
    customerEmail: email,
    amountCents: amount,
    currency,
    issuedAt: completedAt,
  });
  // The features above payments react in this transaction: all of it commits, or none.
  await runSaleReactions(tx, {
    purchaseId: purchase.id,
    userId: purchase.userId,
    serviceId: purchase.serviceId,
    serviceName: purchase.serviceName,
    amountCents: amount,
    currency,
    completedAt,
    invoiceNumber: invoice.number,
  });
  await tx
    .insert(customers)
    .values({
      email,
      name: session.customer_details?.name ?? null,
      totalSpent: amount,
      totalOrders: 1,
    })
    .onConflictDoUpdate({
      target: customers.email,
      set: {
        totalSpent: sql`${customers.totalSpent} + ${amount}`,
        totalOrders: sql`${customers.totalOrders} + 1`,
        updatedAt: new Date(),
      },
    });
  await tx.insert(userActivityLog).values({
    userId: purchase.userId,
    activityType: "purchase_completed",
    description: `Compra completada: ${purchase.serviceName}`,
    metadata: { purchaseId: purchase.id, amount, currency: "EUR" },
  });
  const { company, siteUrl } = getConfig();
  await enqueueMails(tx, [
    receiptMail(
      {
        to: email,
        serviceName: purchase.serviceName,
        amountCents: amount,
        purchaseId: purchase.id,
        paidAt: completedAt,
        invoice: { number: invoice.number, pdf: await invoicePdf(tx, invoice) },
      },
      { brandName: company.brandName, siteUrl },
    ),
  ]);
  return true;
}

/**
 * Moves a purchase's payment to 'withdrawn' or 'refunded' and, when it was still counted (a
 * completed payment), takes it out of its customer's totals: a withdrawn payment later refunded
 * leaves them once. The day totals follow the payment's status by their trigger (migration 0006).
 * Returns the payment, or undefined when the purchase has none.
 */
export async function paymentLeavesTotals(
  tx: Transaction,
  purchaseId: string,
  to: "withdrawn" | "refunded",
  at: Date,
) {
  const [before] = await tx
    .select({ status: payments.status })
    .from(payments)
    .where(eq(payments.purchaseId, purchaseId))
    .for("update");
  if (!before) return undefined;
  const [payment] = await tx
    .update(payments)
    .set({ status: to })
    .where(eq(payments.purchaseId, purchaseId))
    .returning();
  if (payment && countsInTotals(before.status))
    await tx
      .update(customers)
      .set({
        totalSpent: sql`greatest(${customers.totalSpent} - ${payment.amount}, 0)`,
        totalOrders: sql`greatest(${customers.totalOrders} - 1, 0)`,
        updatedAt: at,
      })
      .where(eq(customers.email, payment.customerEmail));
  return payment;
}

/**
 * A refund made in the provider's dashboard. Only a full refund returns the purchase; a partial
 * one is logged for the staff. A refund that arrives before its payment's completion is sent
 * back to be delivered again.
 */
async function refundPurchase(
  tx: Transaction,
  purchase: Purchase,
  charge: Stripe.Charge,
): Promise<boolean> {
  if (!charge.refunded) {
    getLogger().warn(
      { purchaseId: purchase.id, refunded: charge.amount_refunded, amount: charge.amount },
      "partial refund: the purchase stays completed",
    );
    return false;
  }
  if (purchase.status === "pending") throw new TooEarly("refund before its payment: retried");
  const refundedAt = new Date();
  if (!(await moveTo(tx, purchase.id, "refunded"))) return false;

  const payment = await paymentLeavesTotals(tx, purchase.id, "refunded", refundedAt);
  if (!payment) return false;
  await tx.insert(userActivityLog).values({
    userId: purchase.userId,
    activityType: "purchase_refunded",
    description: `Compra reembolsada: ${purchase.serviceName}`,
    metadata: { purchaseId: purchase.id, amount: payment.amount, currency: payment.currency },
  });
  const corrective = await issueCorrectiveInvoice(tx, {
    purchaseId: purchase.id,
    reason: purchase.refundReason ?? "Devolución del importe íntegro de la compra",
    issuedAt: refundedAt,
  });
  // The account was deleted and its e-mail replaced by a pseudonym: there is no one to tell.
  if (isBillingPseudonym(payment.customerEmail)) return false;
  const { company, siteUrl } = getConfig();
  await enqueueMails(tx, [
    refundMail(
      {
        to: payment.customerEmail,
        serviceName: purchase.serviceName,
        amountCents: payment.amount,
        purchaseId: purchase.id,
        paidAt: refundedAt,
        invoice: corrective
          ? { number: corrective.number, pdf: await invoicePdf(tx, corrective) }
          : undefined,
      },
      { brandName: company.brandName, siteUrl },
    ),
  ]);
  return true;
}
