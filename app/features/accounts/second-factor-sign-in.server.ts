import { eq } from "drizzle-orm";
import { recordStaffAction } from "~/features/audit/audit.server";
import { authApiError, getAuth, withoutSessionCookies } from "~/features/identity/auth.server";
import { DEFAULT_RETURN_PATH, returnPathOf, withReturnPath } from "~/features/identity/return-path";
import { takeReturnPath } from "~/features/identity/return-path.server";
import {
  claimTotpCode,
  pendingSecondFactor,
  releaseTotpCode,
} from "~/features/identity/second-factor.server";
import { revokeSessionToken, staffRoleOf } from "~/features/identity/session.server";
import { getDb } from "~/platform/db/database.server";
import { users } from "~/platform/db/schema";
import { checkForm } from "~/platform/forms/form-answer";
import { readForm, refuse, type RefuseInit } from "~/platform/http/form-reply.server";
import { redirectWithToast } from "~/platform/http/toast.server";
import { getLogger } from "~/platform/logger.server";
import { checkAccountLimits, clearSignInFailures, recordSignInFailure } from "./rate-limits.server";
import {
  normaliseRecoveryCode,
  recoveryCodeSchema,
  secondFactorMessages,
  totpCodeSchema,
  type SecondFactorMessage,
} from "./second-factor-rules";
import { auditSignIn } from "./staff-sign-ins.server";
import { hasPasskey } from "./passkeys.server";

/**
 * The sign-in's second step (decision 044): after the right password, the code of the
 * authenticator app or one recovery code, as a plain form post (no JavaScript needed). Better
 * Auth checks the code against its signed challenge and makes the session; we add the rate
 * limits, the replay record and the audit log, all keyed on the challenge's account: the one
 * Better Auth will sign in (decision 063).
 */

type ActionInput = { request: Request; clientAddress: string };

/** The two doors and their pages. */
export type Door = "staff" | "customers";
const doorPaths = {
  staff: { signIn: "/login", code: "/login/verificacion" },
  customers: { signIn: "/login-cliente", code: "/login-cliente/verificacion" },
} as const;

const fail = (code: SecondFactorMessage, status: number, init: Omit<RefuseInit, "status"> = {}) =>
  refuse(code, { status, ...init });

/** The account of an address (the plugin's challenge does not name it). */
export async function accountIdOf(email: string): Promise<string | undefined> {
  const [row] = await getDb().select({ id: users.id }).from(users).where(eq(users.email, email));
  return row?.id;
}

/** Whether the account has a confirmed TOTP (a passkey-only account shows no code form). */
async function hasTotp(userId: string): Promise<boolean> {
  const [row] = await getDb()
    .select({ enabled: users.twoFactorEnabled })
    .from(users)
    .where(eq(users.id, userId));
  return row?.enabled === true;
}

/**
 * After the right password of an account with a second factor: to the door's code page, with
 * Better Auth's challenge cookie (in `headers`). The page asked for (`?volver=`) goes along.
 */
export async function toSecondFactor({ request }: ActionInput, door: Door, challenge: Headers) {
  const back = door === "customers" ? returnPathOf(request.url) : undefined;
  return redirectWithToast(
    withReturnPath(doorPaths[door].code, back),
    {
      kind: "info",
      title: "Verificación en dos pasos",
      description: "Contraseña correcta. Falta el código de tu aplicación o una llave de acceso.",
    },
    { headers: challenge },
  );
}

/** Back to the password: the challenge ended (expired, or too many wrong codes). */
async function backToPassword(door: Door, request: Request) {
  const back = door === "customers" ? returnPathOf(request.url) : undefined;
  return redirectWithToast(withReturnPath(doorPaths[door].signIn, back), {
    kind: "info",
    ...secondFactorMessages.challengeExpired,
  });
}

/** The code page's loader: who is signing in and which factors they have; else the password. */
export async function secondFactorSignInPage(request: Request, door: Door) {
  const pending = await pendingSecondFactor(request);
  if (!pending) throw await backToPassword(door, request);
  const [totp, passkey] = await Promise.all([hasTotp(pending.userId), hasPasskey(pending.userId)]);
  return { door, email: pending.email, totp, passkey };
}

/** Staff accounts' failed second factors go to the audit log (decision 043's rule for failures). */
async function auditFailure(
  { request, clientAddress }: ActionInput,
  pending: { userId: string; email: string },
  reason: string,
  method: "totp" | "recovery",
) {
  const role = await staffRoleOf(pending.userId);
  if (!role) return;
  await recordStaffAction(getDb(), {
    actor: {
      id: pending.userId,
      email: pending.email,
      role,
      clientAddress,
      userAgent: request.headers.get("User-Agent"),
    },
    action: "staff.second_factor_failed",
    target: pending.userId,
    details: { motivo: reason, metodo: method === "totp" ? "app" : "código de recuperación" },
  });
}

/**
 * The code step's action: `method=recovery` for a recovery code, otherwise the app's code.
 * Wrong codes count as wrong passwords (same limits, same back-off); a TOTP code already
 * accepted within its window is refused (replay); 5 wrong codes end the challenge. One recovery
 * check at a time per account: Better Auth rewrites the list of codes left, and two at once
 * could both read it.
 */
export async function secondFactorSignIn(input: ActionInput, door: Door) {
  const { request, clientAddress } = input;
  const pending = await pendingSecondFactor(request);
  if (!pending) return backToPassword(door, request);
  const fields = (await readForm(request))?.fields ?? {};
  const method = fields.method === "recovery" ? "recovery" : "totp";
  const parsed = checkForm(method === "recovery" ? recoveryCodeSchema : totpCodeSchema, fields);
  if (!parsed.ok) return refuse(parsed.errors.slice(0, 1));
  const code = method === "recovery" ? normaliseRecoveryCode(parsed.data.code) : parsed.data.code;
  const retryAfter = await checkAccountLimits("second-factor", {
    clientAddress,
    email: pending.email,
  });
  if (retryAfter !== undefined) return fail("tooManyAttempts", 429, { retryAfter });

  const wrong = async (reason: string, message: SecondFactorMessage) => {
    await recordSignInFailure({ clientAddress, email: pending.email });
    await auditFailure(input, pending, reason, method);
    return fail(message, 401, { field: "code" });
  };
  const claimKey = method === "totp" ? code : RECOVERY_CHECK;
  const claimed = await claimTotpCode(pending.userId, claimKey);
  if (claimed === null)
    return method === "totp"
      ? wrong("código repetido", "codeReused")
      : fail("checkInProgress", 409, { field: "code" });

  let accepted = false;
  try {
    const auth = await getAuth();
    // Without a session cookie, Better Auth checks the challenge's account, and no other.
    const headers = withoutSessionCookies(request.headers);
    const verified =
      method === "totp"
        ? await auth.api.verifyTOTP({ body: { code }, headers, returnHeaders: true })
        : await auth.api.verifyBackupCode({ body: { code }, headers, returnHeaders: true });
    const { token, user } = verified.response;
    if (!token) throw new Error("the second factor was accepted without a session");
    if (user.id !== pending.userId) {
      // Cannot happen while the challenge is the one record; refused and audited if it does.
      await revokeSessionToken(token);
      await auditFailure(input, pending, "cuenta distinta del reto", method);
      return await backToPassword(door, request);
    }
    accepted = true;
    return await finishSecondFactorSignIn(input, door, {
      headers: verified.headers,
      token,
      userId: pending.userId,
      email: pending.email,
      via: method,
    });
  } catch (error) {
    const apiError = await authApiError(error);
    const reason = apiError?.body?.code;
    if (reason === "INVALID_CODE") return wrong("código incorrecto", "codeWrong");
    if (reason === "INVALID_BACKUP_CODE") return wrong("código incorrecto", "recoveryCodeWrong");
    if (reason === "TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE") {
      await recordSignInFailure({ clientAddress, email: pending.email });
      await auditFailure(input, pending, "demasiados intentos", method);
      return backToPassword(door, request);
    }
    if (reason === "INVALID_TWO_FACTOR_COOKIE" || reason === "TOTP_NOT_ENABLED")
      return backToPassword(door, request);
    getLogger().error({ err: error }, "a second-factor check failed");
    return fail("failed", 503);
  } finally {
    // A wrong app code is not a use (it may be typed again, corrected); a recovery check
    // always lets the next one run.
    if (method === "recovery" || !accepted)
      await releaseTotpCode(pending.userId, claimKey, claimed);
  }
}

/** The claim that lets one recovery check of an account run at a time (never a TOTP code). */
const RECOVERY_CHECK = "recovery";

/**
 * The end of a sign-in that passed its second factor, whichever it was (this code page, or a
 * passkey): our challenge cookie cleared, the session given, the sign-in audited; at the staff
 * door an account without a staff role is refused (its new session ended).
 */
export async function finishSecondFactorSignIn(
  input: ActionInput,
  door: Door,
  done: {
    headers: Headers;
    token: string;
    userId: string;
    email: string;
    via: "totp" | "recovery" | "passkey";
  },
) {
  const { request, clientAddress } = input;
  const headers = new Headers(done.headers);
  await clearSignInFailures({ clientAddress, email: done.email });
  const role = await staffRoleOf(done.userId);
  if (door === "staff" && !role) {
    await revokeSessionToken(done.token);
    await auditSignIn(input, "staff", {
      ok: false,
      failure: { email: done.email, reason: "not_staff" },
    });
    // Better Auth's session cookie is not passed on: that session is already ended.
    return fail("adminDenied", 403);
  }
  await auditSignIn(input, door === "staff" ? "staff" : "customer", {
    ok: true,
    userId: done.userId,
    email: done.email,
  });
  if (role && done.via === "recovery")
    await recordStaffAction(getDb(), {
      actor: {
        id: done.userId,
        email: done.email,
        role,
        clientAddress,
        userAgent: request.headers.get("User-Agent"),
      },
      action: "factor.recovery_code_used",
      target: done.userId,
    });
  const left = done.via === "recovery" ? await recoveryCodesLeftNote(done.userId) : {};
  if (door === "staff")
    return redirectWithToast(
      "/admin",
      { kind: "success", title: `Bienvenido, ${done.email}`, ...left },
      { headers },
    );
  const kept = await takeReturnPath(request);
  if (kept.header) headers.append("Set-Cookie", kept.header);
  const to = returnPathOf(request.url) ?? kept.path ?? DEFAULT_RETURN_PATH;
  return redirectWithToast(
    to,
    { kind: "success", ...secondFactorMessages.welcome, ...left },
    { headers },
  );
}

/**
 * After a recovery code, how many are left (issue 39, item 6): the person learns it when it
 * matters, not on their next visit to the security page. Nothing when they cannot be counted.
 */
async function recoveryCodesLeftNote(userId: string): Promise<{ description?: string }> {
  try {
    const { backupCodes } = await (await getAuth()).api.viewBackupCodes({ body: { userId } });
    const left = backupCodes.length;
    return {
      description:
        left === 0
          ? "Has usado tu último código de recuperación: crea códigos nuevos en tu página de seguridad."
          : `Has usado un código de recuperación: te ${left === 1 ? "queda 1" : `quedan ${left}`}.`,
    };
  } catch (error) {
    getLogger().warn({ err: error }, "counting recovery codes failed");
    return {};
  }
}
