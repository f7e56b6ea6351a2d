import { count, desc, eq, sql } from "drizzle-orm";
import type { Viewer } from "~/features/accounts/session.server";
import { getConfig } from "~/platform/config.server";
import { getDb } from "~/platform/db/database.server";
import { purchases } from "~/platform/db/schema";
import { simulatedPaymentsAvailable } from "./providers.server";

/** A customer's purchases, newest first. */
export function purchasesOf(userId: string, limit: number) {
  return getDb()
    .select()
    .from(purchases)
    .where(eq(purchases.userId, userId))
    .orderBy(desc(purchases.createdAt))
    .limit(limit);
}

export type PurchaseTotals = { purchases: number; completed: number; spentCents: number };

/** A customer's totals. Spent counts completed purchases only: pending, failed and refunded ones cost nothing. */
export async function purchaseTotalsOf(userId: string): Promise<PurchaseTotals> {
  const completed = sql`${purchases.status} = 'completed'`;
  const [totals] = await getDb()
    .select({
      purchases: count(),
      completed: sql<number>`count(*) filter (where ${completed})`.mapWith(Number),
      spentCents:
        sql<number>`coalesce(sum(${purchases.price}) filter (where ${completed}), 0)`.mapWith(
          Number,
        ),
    })
    .from(purchases)
    .where(eq(purchases.userId, userId));
  return totals ?? { purchases: 0, completed: 0, spentCents: 0 };
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
