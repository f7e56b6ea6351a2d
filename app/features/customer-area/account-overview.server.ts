import { hasSecondFactor } from "~/features/identity/second-factor.server";
import { eq } from "drizzle-orm";
import { purchasesOf, purchaseTotalsSql } from "~/features/payments/purchases.server";
import { ticketCountsSql, ticketsOf } from "~/features/support/ticket-store.server";
import { getDb } from "~/platform/db/database.server";
import { users } from "~/platform/db/schema";
import { getLogger } from "~/platform/logger.server";
import { accountTabOf } from "./account-tabs";
import { profileOf } from "~/features/accounts/profile.server";
import type { Viewer } from "~/features/identity/session.server";

/** Resumen shows the latest few; the history tabs show this many. */
const LATEST = { purchases: 3, tickets: 2 } as const;
const HISTORY = 100;

/**
 * The spec's user stats in one query: member since, purchases, total spent (completed
 * purchases), active tickets (open or in progress) and resolved tickets (resolved or closed).
 */
export async function userStatsOf(userId: string) {
  const [stats] = await getDb()
    .select({
      memberSince: users.createdAt,
      ...purchaseTotalsSql(userId),
      ...ticketCountsSql(userId),
    })
    .from(users)
    .where(eq(users.id, userId));
  if (!stats) throw new Error("user stats asked for a user that does not exist");
  return stats;
}
export type UserStats = Awaited<ReturnType<typeof userStatsOf>>;

/** Reads that may fail without taking the page down: logged, and shown as a message. */
async function orFailure<T>(what: string, read: Promise<T>): Promise<T | null> {
  try {
    return await read;
  } catch (error) {
    getLogger().error({ err: error }, `loading ${what} for Mi Cuenta failed`);
    return null;
  }
}

/** Mi Cuenta: who the customer is, their stats, and what the tab in the URL shows. */
export async function accountOverview(viewer: Viewer, url: URL) {
  const tab = accountTabOf(url);
  const purchaseCount = tab === "resumen" ? LATEST.purchases : HISTORY;
  const ticketCount = tab === "resumen" ? LATEST.tickets : HISTORY;
  const [profile, stats, purchases, tickets, secondFactor] = await Promise.all([
    orFailure("the profile", profileOf(viewer)),
    orFailure("the stats", userStatsOf(viewer.id)),
    tab === "resumen" || tab === "compras"
      ? orFailure("the purchases", purchasesOf(viewer.id, purchaseCount))
      : [],
    tab === "resumen" || tab === "soporte"
      ? orFailure("the tickets", ticketsOf(viewer.id, ticketCount))
      : [],
    // Configuración says whether the verificación en dos pasos is on (decision 044).
    tab === "configuracion" ? hasSecondFactor(viewer.id) : false,
  ]);
  return {
    tab,
    viewer: { email: viewer.email, createdAt: viewer.createdAt },
    fullName: profile?.fullName ?? null,
    stats,
    purchases,
    tickets,
    secondFactor,
  };
}
