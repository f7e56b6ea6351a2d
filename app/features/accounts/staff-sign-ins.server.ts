import { eq } from "drizzle-orm";
import { recordStaffAction } from "~/features/audit/audit.server";
import { staffRoleOf } from "~/features/identity/session.server";
import { getDb } from "~/platform/db/database.server";
import { userRoles, users } from "~/platform/db/schema";

/** Why a sign-in that reached the password check failed. */
export type SignInFailure = "wrong_credentials" | "email_not_verified" | "not_staff";

type Outcome =
  | { ok: true; userId: string; email: string }
  | { ok: false; failure?: { email: string; reason: SignInFailure } };

const doors = { staff: "/login", customer: "/login-cliente" } as const;

/**
 * Staff sign-ins in the staff audit log (decision 043). A success is recorded for an account
 * with a staff role, at either door (both sessions open /admin). A failure that reached the
 * password check is recorded at the staff door (/login) for any address, and at the customers'
 * door only for a staff account's address; refusals before it (a malformed form, the rate limit)
 * are not: the rate limit bounds how many rows a guesser can write.
 */
export async function auditSignIn(
  { request, clientAddress }: { request: Request; clientAddress: string },
  door: keyof typeof doors,
  outcome: Outcome,
) {
  const from = { clientAddress, userAgent: request.headers.get("User-Agent") };
  if (outcome.ok) {
    const role = await staffRoleOf(outcome.userId);
    if (!role) return;
    await recordStaffAction(getDb(), {
      actor: { id: outcome.userId, email: outcome.email, role, ...from },
      action: "staff.sign_in",
      target: outcome.userId,
      details: { puerta: doors[door] },
    });
    return;
  }
  if (!outcome.failure) return;
  const { email, reason } = outcome.failure;
  const [account] = await getDb()
    .select({ id: users.id, role: userRoles.role })
    .from(users)
    .leftJoin(userRoles, eq(userRoles.userId, users.id))
    .where(eq(users.email, email));
  if (door === "customer" && !account?.role) return;
  await recordStaffAction(getDb(), {
    actor: { id: account?.id ?? null, email, role: account?.role ?? null, ...from },
    action: "staff.sign_in_failed",
    target: account?.id ?? null,
    details: { motivo: reason, puerta: doors[door] },
  });
}
