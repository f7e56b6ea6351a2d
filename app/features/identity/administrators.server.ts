import { eq } from "drizzle-orm";
import type { Database } from "~/platform/db/client.server";
import { userRoles } from "~/platform/db/schema";

/** A transaction of the caller's (the lock lasts until it ends). */
type Transaction = Pick<Database, "select">;

/**
 * The administrators' role rows, locked until the transaction ends: every path that can take
 * the role away from an account (a role change, a deletion) reads them this way first, so two
 * of them at the same moment cannot leave the panel without an administrator: the second
 * waits, then sees who is left (decision 063).
 */
export async function lockAdministrators(tx: Transaction): Promise<string[]> {
  const rows = await tx
    .select({ userId: userRoles.userId })
    .from(userRoles)
    .where(eq(userRoles.role, "admin"))
    .for("update");
  return rows.map((row) => row.userId);
}

/** Whether removing `userId` would leave no administrator (call inside the same transaction). */
export async function isLastAdministrator(tx: Transaction, userId: string): Promise<boolean> {
  const admins = await lockAdministrators(tx);
  return admins.length <= 1 && admins.includes(userId);
}
