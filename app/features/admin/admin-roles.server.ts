import { eq } from "drizzle-orm";
import { recordStaffAction, type AuditActor } from "~/features/audit/audit.server";
import { lockAdministrators } from "~/features/identity/administrators.server";
import { staffRoleLabels, type StaffRole } from "~/features/identity/staff-roles";
import type { Database } from "~/platform/db/client.server";
import { userActivityLog, userRoles, users } from "~/platform/db/schema";
import { enqueueMails } from "~/platform/mail/outbox.server";
import type { AdminMessage } from "./admin-messages";
import { roleChangeMail } from "./role-mails.server";

export type RoleChange = { ok: true } | { ok: false; reason: AdminMessage };

/**
 * Gives `userId` the staff role `role` (one per account), or none (null: a customer again), on
 * an administrator's word (`actor`). Only an account whose owner proved the address can be staff:
 * anyone can sign up with anyone's address. Nobody changes their own role, and the last
 * administrator stays one. The admin rows are locked first, so two administrators demoting each
 * other at the same moment cannot leave the panel without one: the second waits and then sees
 * one left. The change goes to the account's activity log and to the staff audit log, in the
 * same transaction, with a mail that tells the account; asking for the role the account already
 * has changes, logs and mails nothing.
 */
export async function setStaffRole(
  db: Database,
  actor: AuditActor & { id: string },
  userId: string,
  role: StaffRole | null,
): Promise<RoleChange> {
  if (userId === actor.id) return { ok: false, reason: "ownRole" };
  return db.transaction(async (tx) => {
    const admins = await lockAdministrators(tx);
    const [user] = await tx
      .select({ email: users.email, emailVerified: users.emailVerified })
      .from(users)
      .where(eq(users.id, userId));
    if (!user) return { ok: false, reason: "userNotFound" };
    const [current] = await tx
      .select({ role: userRoles.role })
      .from(userRoles)
      .where(eq(userRoles.userId, userId))
      .for("update");
    const from = current?.role ?? null;
    if (from === role) return { ok: true };
    if (role && !user.emailVerified) return { ok: false, reason: "unverifiedStaff" };
    if (from === "admin" && admins.length <= 1) return { ok: false, reason: "lastAdmin" };
    await tx.delete(userRoles).where(eq(userRoles.userId, userId));
    if (role) await tx.insert(userRoles).values({ userId, role });
    await tx.insert(userActivityLog).values({
      userId,
      activityType: role ? "staff_role_granted" : "staff_role_revoked",
      description: role
        ? `Rol del equipo: ${staffRoleLabels[role]}`
        : `Rol del equipo retirado (${staffRoleLabels[from!]})`,
      metadata: { by: actor.id, from, to: role },
    });
    await recordStaffAction(tx, {
      actor,
      action: "role.change",
      target: userId,
      details: { from: from ?? "cliente", to: role ?? "cliente", email: user.email },
    });
    // The account is told, in the change's transaction: it is queued exactly when it happened.
    await enqueueMails(tx, [roleChangeMail(user.email, from, role)]);
    return { ok: true };
  });
}
