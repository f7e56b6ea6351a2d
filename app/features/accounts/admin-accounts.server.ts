import { isUniqueViolation } from "~/platform/db/errors";
import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { recordStaffAction } from "~/features/audit/audit.server";
import type pino from "pino";
import type { Database } from "~/platform/db/client.server";
import { profiles, userRoles } from "~/platform/db/schema";
import { getLogger } from "~/platform/logger.server";
import { normalizeEmail, PASSWORD_LIMITS } from "./account-schemas";
import type { Auth } from "~/features/identity/auth.server";
import { isCommonPassword } from "./common-passwords.server";
import { isContextPassword } from "./context-words.server";

export type EnsuredAdmin = {
  userId: string;
  /** No account had the address: it was created. */
  created: boolean;
  /**
   * An account had the address but its owner never proved the mailbox (anyone can sign up with
   * any address): its password was replaced and its sessions ended before it was promoted.
   */
  reclaimed: boolean;
  /** Set when the operator gave no password and the account got a new one: shown once. */
  generatedPassword?: string;
};

/**
 * Makes sure `email` is a verified administrator: creates the account with `password` (or a
 * generated one, returned) when missing. An existing account whose address was verified by its
 * owner keeps its password and is only promoted. An existing unverified account proves nothing
 * about who created it, so it is taken over by the operator: new password, every session ended,
 * verified by this operator action alone, and a warning in the log.
 */
export async function ensureAdmin(
  auth: Auth,
  db: Database,
  rawEmail: string,
  password?: string,
  { logger = getLogger(), retried = false }: { logger?: pino.Logger; retried?: boolean } = {},
): Promise<EnsuredAdmin> {
  const email = normalizeEmail(rawEmail);
  const context = await auth.$context;
  const existing = await context.internalAdapter.findUserByEmail(email);
  const needsPassword = !existing || !existing.user.emailVerified;
  const generatedPassword =
    needsPassword && password === undefined ? randomBytes(12).toString("base64url") : undefined;
  const chosen = password ?? generatedPassword;
  if (needsPassword && !validPassword(chosen)) {
    throw new Error(
      `La contraseña debe tener entre ${PASSWORD_LIMITS.min} y ${PASSWORD_LIMITS.max} caracteres`,
    );
  }
  if (needsPassword && (await isCommonPassword(chosen!))) {
    throw new Error(
      "La contraseña es demasiado común: aparece en listas de contraseñas filtradas. Elige otra.",
    );
  }
  if (needsPassword && isContextPassword(chosen!, email)) {
    throw new Error(
      "La contraseña es fácil de adivinar: no uses el nombre de la empresa, de un servicio o del email.",
    );
  }

  let userId: string;
  if (!existing) {
    let user;
    try {
      user = await context.internalAdapter.createUser(
        { email, name: email.split("@")[0]!, emailVerified: true },
        { method: "admin" },
      );
    } catch (error) {
      // Another instance starting at the same moment created it: ensure that one instead.
      if (retried || !isUniqueViolation(error, "users_email_idx")) throw error;
      return ensureAdmin(auth, db, rawEmail, password, { logger, retried: true });
    }
    await context.internalAdapter.linkAccount({
      userId: user.id,
      providerId: "credential",
      accountId: user.id,
      password: await context.password.hash(chosen!),
    });
    userId = user.id;
  } else {
    userId = existing.user.id;
    if (!existing.user.emailVerified) {
      // Password first, then sessions, and the address verified last: an interrupted run
      // never leaves a verified account that the sign-up password still opens.
      const hash = await context.password.hash(chosen!);
      if (await context.internalAdapter.findCredentialAccount(userId))
        await context.internalAdapter.updatePassword(userId, hash);
      else
        await context.internalAdapter.linkAccount({
          userId,
          providerId: "credential",
          accountId: userId,
          password: hash,
        });
      await context.internalAdapter.deleteUserSessions(userId);
      await context.internalAdapter.updateUser(userId, { emailVerified: true });
      logger.warn(
        { userId, email, passwordGenerated: generatedPassword !== undefined },
        "administrator address had an unverified account: password replaced, sessions ended, verified by the operator",
      );
    }
  }
  await db.update(profiles).set({ emailConfirmed: true }).where(eq(profiles.id, userId));
  await makeAdministrator(db, userId, email);
  return {
    userId,
    created: !existing,
    reclaimed: Boolean(existing && !existing.user.emailVerified),
    generatedPassword,
  };
}

function validPassword(value: string | undefined): value is string {
  return (
    value !== undefined &&
    value.length >= PASSWORD_LIMITS.min &&
    value.length <= PASSWORD_LIMITS.max
  );
}

/**
 * The bootstrap's role: administrator, whatever staff role the account had (one per account). A
 * change is written to the staff audit log with no acting account: the operator did it, with
 * `ADMIN_EMAIL` at start or `npm run admin:create`. Two instances starting at once both try; the
 * row lock makes the second see the first's change and write nothing.
 */
async function makeAdministrator(db: Database, userId: string, email: string) {
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`staff-role:${userId}`}))`);
    const [current] = await tx
      .select({ role: userRoles.role })
      .from(userRoles)
      .where(eq(userRoles.userId, userId));
    if (current?.role === "admin") return;
    await tx.delete(userRoles).where(eq(userRoles.userId, userId));
    await tx.insert(userRoles).values({ userId, role: "admin" });
    await recordStaffAction(tx, {
      actor: { id: null, email: null },
      action: "role.change",
      target: userId,
      details: {
        from: current?.role ?? "cliente",
        to: "admin",
        email,
        por: "operador (ADMIN_EMAIL o admin:create)",
      },
    });
  });
}
