import { and, desc, eq, sql } from "drizzle-orm";
import { serviceById } from "~/features/catalogue/services";
import type { Viewer } from "~/features/identity/session.server";
import { getConfig } from "~/platform/config.server";
import { getDb } from "~/platform/db/database.server";
import { purchases, userActivityLog } from "~/platform/db/schema";
import { canWithdraw } from "./after-sale-status";
import { orderTimeline } from "./order-timeline";
import { returnPathFor } from "./purchase-return-path";
import { invoicesOfPurchases } from "~/features/billing/invoices.server";
import { simulatedPaymentsAvailable } from "./providers.server";

/**
 * What a customer sees of their purchases: never the staff's internal notes, but the refund's
 * reason, which the corrective invoice sent to them quotes anyway.
 */
const customerColumns = {
  id: purchases.id,
  serviceId: purchases.serviceId,
  serviceName: purchases.serviceName,
  status: purchases.status,
  price: purchases.price,
  currency: purchases.currency,
  provider: purchases.provider,
  checkoutSessionId: purchases.checkoutSessionId,
  paymentIntentId: purchases.paymentIntentId,
  createdAt: purchases.createdAt,
  completedAt: purchases.completedAt,
  deliveryStatus: purchases.deliveryStatus,
  deliveryNote: purchases.deliveryNote,
  deliveryUpdatedAt: purchases.deliveryUpdatedAt,
  refundReason: purchases.refundReason,
  immediateStartConsentAt: purchases.immediateStartConsentAt,
  withdrawalRequestedAt: purchases.withdrawalRequestedAt,
};

/** A customer's purchases, newest first, each with its invoices. */
export async function purchasesOf(userId: string, limit: number) {
  const own = await getDb()
    .select(customerColumns)
    .from(purchases)
    .where(eq(purchases.userId, userId))
    .orderBy(desc(purchases.createdAt))
    .limit(limit);
  const [invoices, refundDates] = await Promise.all([
    invoicesOfPurchases(own.map((purchase) => purchase.id)),
    own.some((purchase) => purchase.status === "refunded")
      ? refundDatesOf(userId)
      : new Map<string, Date>(),
  ]);
  return own.map((purchase) => {
    const service = serviceById(purchase.serviceId);
    return {
      ...purchase,
      invoice: invoices.get(purchase.id)?.sale,
      substituteInvoice: invoices.get(purchase.id)?.substitute,
      correctiveInvoice: invoices.get(purchase.id)?.corrective,
      invoiceSubstitutable: invoices.get(purchase.id)?.substitutable ?? false,
      // Decided here, with the server's clock, so the page hydrates with the same answer.
      withdrawable: canWithdraw(purchase),
      timeline: orderTimeline({
        ...purchase,
        refundedAt: refundDates.get(purchase.id) ?? null,
        // The customer is told the company refunded, not which employee (decision 050).
        refundedBy: { name: "nuestro equipo", email: null },
      }),
      // 'Intentar de nuevo': the service's page with its purchase dialog open, as after sign-in.
      retryPath: service ? returnPathFor(service.path ?? "/precios", service.slug) : null,
    };
  });
}

/**
 * When each of a customer's refunded purchases was refunded: its activity entry, written in the
 * refund's transaction (the user's index finds them).
 */
export async function refundDatesOf(userId: string): Promise<Map<string, Date>> {
  const rows = await getDb()
    .select({
      purchaseId: sql<string>`${userActivityLog.metadata}->>'purchaseId'`,
      at: userActivityLog.createdAt,
    })
    .from(userActivityLog)
    .where(
      and(
        eq(userActivityLog.userId, userId),
        eq(userActivityLog.activityType, "purchase_refunded"),
      ),
    );
  return new Map(rows.map((row) => [row.purchaseId, row.at]));
}

/**
 * A customer's purchase totals as columns of a bigger query (the spec's user stats). Spent counts
 * completed purchases only (`countsInTotals`): pending, failed, withdrawn and refunded ones cost
 * nothing.
 */
export function purchaseTotalsSql(userId: string) {
  const own = sql`${purchases.userId} = ${userId}`;
  const completed = sql`${own} and ${purchases.status} = 'completed'`;
  return {
    totalPurchases: sql<number>`(select count(*) from ${purchases} where ${own})`.mapWith(Number),
    completedPurchases: sql<number>`(select count(*) from ${purchases} where ${completed})`.mapWith(
      Number,
    ),
    totalSpentCents:
      sql<number>`(select coalesce(sum(${purchases.price}), 0) from ${purchases} where ${completed})`.mapWith(
        Number,
      ),
  };
}

const TEST_PAGE_PURCHASES = 100;

/** /test-pagos: the visitor's purchases and which payment provider serves them. */
export async function paymentTestOverview(viewer: Viewer | null) {
  // A page for trying payments out: it does not exist in production.
  if (getConfig().isProduction) throw new Response("Not Found", { status: 404 });
  if (!viewer) return { viewer: null, purchases: [], provider: null };
  return {
    viewer,
    purchases: await purchasesOf(viewer.id, TEST_PAGE_PURCHASES),
    provider: simulatedPaymentsAvailable() ? ("Simulado" as const) : ("Stripe" as const),
  };
}
