import { eq } from "drizzle-orm";
import type { Database } from "~/platform/db/client.server";
import { purchases } from "~/platform/db/schema";

export type Purchase = typeof purchases.$inferSelect;

/**
 * Stores a purchase as the checkout leaves it: by default a pending Stripe purchase of the
 * Ciberseguridad service (44,900 cents); `values` set the rest and override the defaults.
 */
export async function insertPurchase(
  db: Database,
  values: Partial<typeof purchases.$inferInsert> & { userId: string | null },
): Promise<Purchase> {
  const [purchase] = await db
    .insert(purchases)
    .values({
      serviceId: 4,
      serviceName: "Ciberseguridad",
      price: 44_900,
      provider: "stripe",
      ...values,
    })
    .returning();
  return purchase!;
}

/** The stored purchase with this id, if any. */
export async function purchaseById(db: Database, id: string): Promise<Purchase | undefined> {
  const [purchase] = await db.select().from(purchases).where(eq(purchases.id, id));
  return purchase;
}
