import { and, count, eq, gte, notExists, sql } from "drizzle-orm";
import { analyticsReport } from "~/features/analytics/analytics.server";
import type { Database } from "~/platform/db/client.server";
import { contactInquiries, paymentDayTotals, userRoles, users } from "~/platform/db/schema";
import { SITE_TIME_ZONE } from "~/platform/dates";
import { pageNameOf } from "./page-names";

/**
 * The Analítica section: the visits of the last `days` days next to the completed revenue and
 * orders of the same days, and the enquiries, sign-ups and payments our own records hold for
 * them. Those never come from the beacon, which anyone can send (decision 035).
 */
export async function analyticsWithRevenue(db: Database, days: number) {
  const firstDay = sql.raw(`(now() at time zone '${SITE_TIME_ZONE}')::date - ${days - 1}`);
  const periodStart = sql.raw(
    `((now() at time zone '${SITE_TIME_ZONE}')::date - ${days - 1})::timestamp at time zone '${SITE_TIME_ZONE}'`,
  );
  const [report, [revenue], [enquiries], [signups]] = await Promise.all([
    analyticsReport(days, db),
    db
      .select({
        cents: sql<number>`coalesce(sum(${paymentDayTotals.amount}), 0)`.mapWith(Number),
        orders: sql<number>`coalesce(sum(${paymentDayTotals.payments}), 0)`.mapWith(Number),
      })
      .from(paymentDayTotals)
      .where(and(eq(paymentDayTotals.status, "completed"), gte(paymentDayTotals.day, firstDay))),
    db
      .select({ count: count() })
      .from(contactInquiries)
      .where(gte(contactInquiries.createdAt, periodStart)),
    // Customers' accounts only: a staff account is not a sign-up.
    db
      .select({ count: count() })
      .from(users)
      .where(
        and(
          gte(users.createdAt, periodStart),
          notExists(db.select().from(userRoles).where(eq(userRoles.userId, users.id))),
        ),
      ),
  ]);
  const orders = revenue?.orders ?? 0;
  const conversions = {
    enquiries: enquiries?.count ?? 0,
    signups: signups?.count ?? 0,
    payments: orders,
  };
  // Visits that reported an enquiry can't outnumber the enquiries received.
  const convertedVisits = Math.min(report.funnel.convertedVisits, conversions.enquiries);
  return {
    ...report,
    pages: report.pages.map((page) => ({ ...page, name: pageNameOf(page.key) })),
    funnel: { ...report.funnel, convertedVisits },
    conversions,
    revenueCents: revenue?.cents ?? 0,
    orders,
  };
}

export type AdminAnalytics = Awaited<ReturnType<typeof analyticsWithRevenue>>;
