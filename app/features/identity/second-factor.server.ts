import { and, eq, exists, lt, sql } from "drizzle-orm";
import type { Database } from "~/platform/db/client.server";
import { getDb } from "~/platform/db/database.server";
import { passkeys, sessions, totpUsedCodes, twoFactors, users } from "~/platform/db/schema";
import { getAuth } from "./auth.server";
import type { PendingSecondFactor } from "./second-factor-challenge.server";

export type { PendingSecondFactor };

/**
 * Second factors (decision 044). Better Auth's two-factor plugin holds the TOTP secret and the
 * recovery codes and checks them; this module answers the questions our guards ask and keeps
 * the one record Better Auth does not: which codes were already accepted.
 */

/**
 * Whether the account has a second factor it can sign in with: a confirmed TOTP
 * (`users.two_factor_enabled`, set by Better Auth when the first code confirms the enrolment)
 * or a passkey (decision 045), in one query. `requireStaff` sends a staff account without one
 * to /admin/seguridad.
 */
export async function hasSecondFactor(userId: string): Promise<boolean> {
  const db = getDb();
  const [row] = await db
    .select({
      enabled: users.twoFactorEnabled,
      passkey: exists(
        db.select({ id: passkeys.id }).from(passkeys).where(eq(passkeys.userId, userId)),
      ),
    })
    .from(users)
    .where(eq(users.id, userId));
  return row?.enabled === true || row?.passkey === true;
}

/** The length of a TOTP step, in seconds (RFC 6238's default, the plugin's setting). */
export const TOTP_STEP_SECONDS = 30;

/**
 * A code is accepted at step s if it is the code of s-1, s or s+1; the same code sent again at
 * step t is inside that window while |t - s| ≤ 2. So a use is remembered for 2 steps.
 */
const REPLAY_WINDOW_STEPS = 2;

const currentStep = (now = Date.now()) => Math.floor(now / 1000 / TOTP_STEP_SECONDS);

/**
 * Claims a TOTP code for the account before it is checked: false when the same code was
 * already accepted (or is being checked) within its window, which is a replay (RFC 6238 §5.2:
 * the verifier must not accept a second use of a code). One statement, so two requests with
 * the same code cannot both claim it. Returns the step claimed, for `releaseTotpCode`.
 */
export async function claimTotpCode(userId: string, code: string): Promise<number | null> {
  const step = currentStep();
  const db = getDb();
  // The account's older uses are worthless: each sign-in clears them (a handful of rows).
  await db
    .delete(totpUsedCodes)
    .where(
      and(eq(totpUsedCodes.userId, userId), lt(totpUsedCodes.step, step - REPLAY_WINDOW_STEPS)),
    );
  const claimed = await db
    .insert(totpUsedCodes)
    .values({ userId, code, step })
    .onConflictDoUpdate({
      target: [totpUsedCodes.userId, totpUsedCodes.code],
      set: { step, usedAt: sql`now()` },
      setWhere: lt(totpUsedCodes.step, step - REPLAY_WINDOW_STEPS),
    })
    .returning({ step: totpUsedCodes.step });
  return claimed.length > 0 ? step : null;
}

/** A claimed code that turned out wrong is not a use: it may be typed again (corrected). */
export async function releaseTotpCode(userId: string, code: string, step: number) {
  await getDb()
    .delete(totpUsedCodes)
    .where(
      and(
        eq(totpUsedCodes.userId, userId),
        eq(totpUsedCodes.code, code),
        eq(totpUsedCodes.step, step),
      ),
    );
}

/**
 * An administrator's reset of another account's factor (the owner lost it): the TOTP secret
 * and its recovery codes go, and so do the account's sessions, so whoever holds one must sign in
 * again and, being staff, enrol a new factor. Runs in the caller's transaction, with its
 * audit-log row.
 */
export async function removeSecondFactor(
  db: Pick<Database, "delete" | "update">,
  userId: string,
): Promise<boolean> {
  const removed = await db
    .delete(twoFactors)
    .where(eq(twoFactors.userId, userId))
    .returning({ id: twoFactors.id });
  const [user] = await db
    .update(users)
    .set({ twoFactorEnabled: false, updatedAt: new Date() })
    .where(and(eq(users.id, userId), eq(users.twoFactorEnabled, true)))
    .returning({ id: users.id });
  await db.delete(totpUsedCodes).where(eq(totpUsedCodes.userId, userId));
  // Its passkeys are factors too (decision 045): a reset leaves none.
  const keys = await db
    .delete(passkeys)
    .where(eq(passkeys.userId, userId))
    .returning({ id: passkeys.id });
  await db.delete(sessions).where(eq(sessions.userId, userId));
  return removed.length > 0 || user !== undefined || keys.length > 0;
}

/**
 * Between the password and the second factor: the account whose factor is asked for, read from
 * Better Auth's challenge (its signed cookie and its `verifications` row, 10 minutes), or null
 * when the request has no live one (decision 063).
 */
export async function pendingSecondFactor(request: Request): Promise<PendingSecondFactor | null> {
  return (await getAuth()).api.pendingSecondFactor({ headers: request.headers });
}

/** A challenge for a passkey-only account after its password: the headers setting its cookie. */
export async function openSecondFactorChallenge(userId: string): Promise<Headers> {
  const { headers } = await (
    await getAuth()
  ).api.openSecondFactorChallenge({ body: { userId }, returnHeaders: true });
  return headers;
}

/** Ends the request's challenge (a passkey finished the sign-in): headers clearing its cookie. */
export async function closeSecondFactorChallenge(request: Request): Promise<Headers> {
  const { headers } = await (
    await getAuth()
  ).api.closeSecondFactorChallenge({ headers: request.headers, returnHeaders: true });
  return headers;
}
