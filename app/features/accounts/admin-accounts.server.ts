import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Database } from "~/platform/db/client.server";
import { profiles, userRoles } from "~/platform/db/schema";
import { normalizeEmail, PASSWORD_LIMITS } from "./account-schemas";
import type { Auth } from "./auth.server";

/**
 * Makes sure `email` is a verified administrator: creates the account with `password` (or a
 * generated one, returned) when missing, and otherwise keeps its password and only promotes it.
 */
export async function ensureAdmin(
  auth: Auth,
  db: Database,
  rawEmail: string,
  password?: string,
): Promise<{ userId: string; created: boolean; generatedPassword?: string }> {
  const email = normalizeEmail(rawEmail);
  const context = await auth.$context;
  const existing = await context.internalAdapter.findUserByEmail(email);
  let userId: string;
  let generatedPassword: string | undefined;
  if (existing) {
    userId = existing.user.id;
    if (!existing.user.emailVerified)
      await context.internalAdapter.updateUser(userId, { emailVerified: true });
  } else {
    const chosen = password ?? (generatedPassword = randomBytes(12).toString("base64url"));
    if (chosen.length < PASSWORD_LIMITS.min || chosen.length > PASSWORD_LIMITS.max) {
      throw new Error(
        `La contraseña debe tener entre ${PASSWORD_LIMITS.min} y ${PASSWORD_LIMITS.max} caracteres`,
      );
    }
    const user = await context.internalAdapter.createUser(
      { email, name: email.split("@")[0]!, emailVerified: true },
      { method: "admin" },
    );
    await context.internalAdapter.linkAccount({
      userId: user.id,
      providerId: "credential",
      accountId: user.id,
      password: await context.password.hash(chosen),
    });
    userId = user.id;
  }
  await db.update(profiles).set({ emailConfirmed: true }).where(eq(profiles.id, userId));
  await db.insert(userRoles).values({ userId, role: "admin" }).onConflictDoNothing();
  return { userId, created: !existing, generatedPassword };
}
