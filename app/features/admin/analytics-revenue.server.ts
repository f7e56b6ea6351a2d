import { and, eq, gte, sql } from "drizzle-orm";
import { analyticsReport } from "~/features/analytics/analytics.server";
import type { Database } from "~/platform/db/client.server";
import { paymentDayTotals } from "~/platform/db/schema";
import { SITE_TIME_ZONE } from "~/ui/dates";

/**
 * The Analítica section: the visits of the last `days` days next to the completed revenue and
 * orders of the same days.
 */
export async function analyticsWithRevenue(db: Database, days: number) {
  const firstDay = sql.raw(`(now() at time zone '${SITE_TIME_ZONE}')::date - ${days - 1}`);
  const [report, [revenue]] = await Promise.all([
    analyticsReport(days, db),
    db
      .select({
        cents: sql<number>`coalesce(sum(${paymentDayTotals.amount}), 0)`.mapWith(Number),
        orders: sql<number>`coalesce(sum(${paymentDayTotals.payments}), 0)`.mapWith(Number),
      })
      .from(paymentDayTotals)
      .where(and(eq(paymentDayTotals.status, "completed"), gte(paymentDayTotals.day, firstDay))),
  ]);
  return { ...report, revenueCents: revenue?.cents ?? 0, orders: revenue?.orders ?? 0 };
}

export type AdminAnalytics = Awaited<ReturnType<typeof analyticsWithRevenue>>;
