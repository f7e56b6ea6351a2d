import { and, eq, inArray, sql } from "drizzle-orm";
import type Stripe from "stripe";
import { getConfig } from "~/platform/config.server";
import type { Database } from "~/platform/db/client.server";
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
import { statusesBelow, type PurchaseStatus } from "./purchase-status";
import { stripeClient } from "./providers.server";
import { receiptMail } from "./receipt-mail.server";

type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];

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
  const queuedMail = await db.transaction(async (tx) => {
    const recorded = await tx
      .insert(webhookEvents)
      .values({
        id: event.id,
        type: event.type,
        payload: event as unknown as Record<string, unknown>,
      })
      .onConflictDoNothing()
      .returning({ id: webhookEvents.id });
    if (recorded.length === 0) return false;
    return applyEvent(tx, event);
  });
  if (queuedMail) getMailWorker().wake();
  return { status: 200, body: "ok" };
}

/** The purchase an event is about: by checkout session id, or by the metadata we attached. */
async function findPurchase(tx: Transaction, event: Stripe.Event) {
  const object = event.data.object as {
    object?: string;
    id?: string;
    metadata?: Record<string, string> | null;
  };
  const condition =
    object.object === "checkout.session" && object.id
      ? eq(purchases.checkoutSessionId, object.id)
      : object.metadata?.purchase_id && /^[0-9a-f-]{36}$/.test(object.metadata.purchase_id)
        ? eq(purchases.id, object.metadata.purchase_id)
        : undefined;
  if (!condition) return undefined;
  const [purchase] = await tx.select().from(purchases).where(condition).for("update");
  return purchase;
}

/** Returns whether a mail was queued. */
async function applyEvent(tx: Transaction, event: Stripe.Event): Promise<boolean> {
  const purchase = await findPurchase(tx, event);
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
  await tx.insert(payments).values({
    purchaseId: purchase.id,
    customerEmail: email,
    serviceName: purchase.serviceName,
    amount,
    currency: (session.currency ?? "eur").toUpperCase(),
    status: "completed",
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
      },
      { brandName: company.brandName, siteUrl },
    ),
  ]);
  return true;
}
