import { and, count, eq, inArray, sql, sum } from "drizzle-orm";
import { activeTicketStatuses } from "~/features/support/ticket-rules";
import type { Database } from "~/platform/db/client.server";
import { paymentDayTotals, supportTickets, users } from "~/platform/db/schema";
import { SITE_TIME_ZONE } from "~/platform/dates";
import { paymentsTab } from "./tabs/payments-tab.server";
import { ticketsTab } from "./tabs/tickets-tab.server";

/** Spec: the dashboard lists the 5 latest payments and the 5 latest tickets. */
const DASHBOARD_LATEST = 5;
/** The dashboard's chart: daily revenue and orders over this many days, today included. */
export const CHART_DAYS = 90;

/** The dashboard's figures, all from SQL; revenue and orders count completed payments. */
export async function dashboardFigures(db: Database) {
  const latest = { limit: DASHBOARD_LATEST, offset: 0 };
  const [[completed], [userCount], [ticketCount], latestPayments, latestTickets, daily] =
    await Promise.all([
      db
        .select({
          cents: sum(paymentDayTotals.amount).mapWith(Number),
          orders: sum(paymentDayTotals.payments).mapWith(Number),
        })
        .from(paymentDayTotals)
        .where(eq(paymentDayTotals.status, "completed")),
      db.select({ users: count() }).from(users),
      db
        .select({ open: count() })
        .from(supportTickets)
        .where(inArray(supportTickets.status, [...activeTicketStatuses])),
      paymentsTab.rows(db, undefined, latest),
      ticketsTab.rows(db, undefined, latest),
      dailyRevenue(db),
    ]);
  const revenueCents = completed?.cents ?? 0;
  const orders = completed?.orders ?? 0;
  return {
    revenueCents,
    orders,
    users: userCount?.users ?? 0,
    /** Open or in progress, as the spec counts active tickets. */
    openTickets: ticketCount?.open ?? 0,
    /** Spec: completed revenue divided by the number of completed payments. */
    averageOrderCents: orders > 0 ? Math.round(revenueCents / orders) : null,
    latestPayments,
    latestTickets,
    daily,
  };
}

export type DailyRevenue = { day: string; revenueCents: number; orders: number };

/** Completed revenue and orders of each of the last CHART_DAYS Madrid days, oldest first. */
async function dailyRevenue(db: Database): Promise<DailyRevenue[]> {
  const today = sql.raw(`(now() at time zone '${SITE_TIME_ZONE}')::date`);
  const firstDay = sql.raw(`(now() at time zone '${SITE_TIME_ZONE}')::date - ${CHART_DAYS - 1}`);
  return db
    .select({
      day: sql<string>`to_char(days.day, 'YYYY-MM-DD')`,
      revenueCents: sql<number>`coalesce(${paymentDayTotals.amount}, 0)`.mapWith(Number),
      orders: sql<number>`coalesce(${paymentDayTotals.payments}, 0)`.mapWith(Number),
    })
    .from(sql`generate_series(${firstDay}, ${today}, interval '1 day') as days(day)`)
    .leftJoin(
      paymentDayTotals,
      and(sql`${paymentDayTotals.day} = days.day::date`, eq(paymentDayTotals.status, "completed")),
    )
    .orderBy(sql`days.day`);
}
