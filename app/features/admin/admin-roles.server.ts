import { and, eq } from "drizzle-orm";
import type { Database } from "~/platform/db/client.server";
import { userActivityLog, userRoles, users } from "~/platform/db/schema";
import type { AdminMessage } from "./admin-messages";

export type RoleChange = { ok: true } | { ok: false; reason: AdminMessage };

/**
 * Makes `userId` an administrator. Only an account whose owner proved the address can be one:
 * anyone can sign up with anyone's address. Written to the account's activity log.
 */
export async function grantAdmin(
  db: Database,
  staffId: string,
  userId: string,
): Promise<RoleChange> {
  return db.transaction(async (tx) => {
    const [user] = await tx
      .select({ emailVerified: users.emailVerified })
      .from(users)
      .where(eq(users.id, userId));
    if (!user) return { ok: false, reason: "userNotFound" };
    if (!user.emailVerified) return { ok: false, reason: "unverifiedAdmin" };
    const granted = await tx
      .insert(userRoles)
      .values({ userId, role: "admin" })
      .onConflictDoNothing()
      .returning({ userId: userRoles.userId });
    if (granted.length > 0) await logRoleChange(tx, userId, staffId, "admin_role_granted");
    return { ok: true };
  });
}

/**
 * Takes the administrator role from `userId`, never from the last administrator and never
 * from oneself. The admin rows are locked first, so two administrators removing each other at
 * the same moment cannot leave the panel without one: the second waits and then sees one left.
 */
export async function revokeAdmin(
  db: Database,
  staffId: string,
  userId: string,
): Promise<RoleChange> {
  if (userId === staffId) return { ok: false, reason: "ownRole" };
  return db.transaction(async (tx) => {
    const admins = await tx
      .select({ userId: userRoles.userId })
      .from(userRoles)
      .where(eq(userRoles.role, "admin"))
      .for("update");
    if (!admins.some((admin) => admin.userId === userId)) {
      const [user] = await tx.select({ id: users.id }).from(users).where(eq(users.id, userId));
      return user ? { ok: true } : { ok: false, reason: "userNotFound" };
    }
    if (admins.length <= 1) return { ok: false, reason: "lastAdmin" };
    await tx
      .delete(userRoles)
      .where(and(eq(userRoles.userId, userId), eq(userRoles.role, "admin")));
    await logRoleChange(tx, userId, staffId, "admin_role_revoked");
    return { ok: true };
  });
}

async function logRoleChange(
  tx: Pick<Database, "insert">,
  userId: string,
  staffId: string,
  activityType: "admin_role_granted" | "admin_role_revoked",
) {
  await tx.insert(userActivityLog).values({
    userId,
    activityType,
    description:
      activityType === "admin_role_granted"
        ? "Rol de administrador concedido"
        : "Rol de administrador retirado",
    metadata: { by: staffId },
  });
}
