import { and, eq, isNull, sql } from "drizzle-orm";
import type { Database } from "~/platform/db/client.server";
import { verifactuDeliveries, verifactuRecords } from "~/platform/db/schema";

/**
 * The records' queue as /metrics reports it (decision 049): how many wait for AEAT's answer,
 * since when, and how many AEAT refused that nothing has corrected yet (a person must act).
 * Both counts read the partial and the status index, never the million accepted rows.
 */
export async function verifactuQueueState(db: Database) {
  const [waiting] = await db
    .select({
      waiting: sql<number>`count(*)`.mapWith(Number),
      oldestAgeSeconds:
        sql<number>`coalesce(extract(epoch from now() - min(${verifactuRecords.createdAt})), 0)`.mapWith(
          Number,
        ),
    })
    .from(verifactuDeliveries)
    .innerJoin(verifactuRecords, eq(verifactuRecords.id, verifactuDeliveries.recordId))
    .where(eq(verifactuDeliveries.status, "pending"));
  const [rejected] = await db
    .select({ count: sql<number>`count(*)`.mapWith(Number) })
    .from(verifactuDeliveries)
    .where(
      and(
        eq(verifactuDeliveries.status, "rejected"),
        isNull(verifactuDeliveries.correctedByRecordId),
      ),
    );
  return {
    waiting: waiting?.waiting ?? 0,
    oldestAgeSeconds: waiting?.oldestAgeSeconds ?? 0,
    rejectedUncorrected: rejected?.count ?? 0,
  };
}
