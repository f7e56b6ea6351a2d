import { eq } from "drizzle-orm";
import { redirect } from "react-router";
import { getDb } from "~/platform/db/database.server";
import { users, verifications } from "~/platform/db/schema";
import { checkForm, type FormError } from "~/platform/forms/form-answer";
import {
  notice,
  parseForm,
  readForm,
  refuse,
  type RefuseInit,
} from "~/platform/http/form-reply.server";
import { redirectWithToast } from "~/platform/http/toast.server";
import { HUMAN_CHECK_FIELD, verifyHumanCheck } from "~/platform/human-check/human-check.server";
import { getLogger } from "~/platform/logger.server";
import {
  accountMessages,
  newPasswordSchema,
  profileSchema,
  recoverySchema,
  signInSchema,
  signUpSchema,
  type AccountMessage,
} from "./account-schemas";
import { authApiError, getAuth } from "~/features/identity/auth.server";
import { recordStaffAction } from "~/features/audit/audit.server";
import { isCommonPassword } from "./common-passwords.server";
import { isContextPassword } from "./context-words.server";
import { storeProfile } from "./profile.server";
import { DEFAULT_RETURN_PATH, returnPathOf } from "~/features/identity/return-path";
import { rememberReturnPath, takeReturnPath } from "~/features/identity/return-path.server";
import {
  checkAccountLimits,
  clearSignInFailures,
  recordSignInFailure,
  type AccountAction,
} from "./rate-limits.server";
import { pendingVerificationCookie } from "~/features/identity/journey-cookies.server";
import {
  revokeSessionToken,
  signOutHeaders,
  staffRoleOf,
  type Viewer,
} from "~/features/identity/session.server";
import {
  hasSecondFactor,
  openSecondFactorChallenge,
} from "~/features/identity/second-factor.server";
import { accountIdOf, toSecondFactor } from "./second-factor-sign-in.server";
import { auditSignIn, type SignInFailure } from "./staff-sign-ins.server";

export const VERIFY_CALLBACK = "/verificar-email";
/**
 * Where the mailed link lands after Better Auth verified the address (or found it verified
 * already): `?enlace` tells the page the address is verified even in a browser that is not
 * signed in, such as another device (issue 39, item 11). A bad link lands with `?error=` too.
 */
export const VERIFY_LINK_CALLBACK = `${VERIFY_CALLBACK}?enlace`;
export const RESET_CALLBACK = "/actualizar-password";

type ActionInput = { request: Request; clientAddress: string };

/** Refuses an account form with one of its messages. */
const fail = (code: AccountMessage, status: number, init: Omit<RefuseInit, "status"> = {}) =>
  refuse(code, { status, ...init });

/**
 * A schema's refusal of an account form names its first problem only, in the spec's order: the
 * form checked them all in the browser; a page without JavaScript shows one at a time.
 */
const refuseFirst = (errors: FormError[]) => refuse(errors.slice(0, 1));

async function limited(action: AccountAction, clientAddress: string, email?: string) {
  const retryAfter = await checkAccountLimits(action, { clientAddress, email });
  return retryAfter === undefined ? undefined : fail("tooManyAttempts", 429, { retryAfter });
}

/** Redirects with one of the account messages as the next page's toast. */
function redirectWithMessage(
  to: string,
  message: AccountMessage,
  headers?: HeadersInit,
  kind: "success" | "info" = "success",
) {
  return redirectWithToast(to, { kind, ...accountMessages[message] }, { headers });
}

/** Sign-up: our rules first, then the address check the spec asks for, then Better Auth. */
export async function signUp({ request, clientAddress }: ActionInput) {
  const form = await parseForm(request, signUpSchema);
  if (!form) return fail("signUpFailed", 400);
  if (!form.ok) return refuseFirst(form.errors);
  const { email, password } = form.data;
  if (await isCommonPassword(password))
    return fail("passwordTooCommon", 400, { field: "password" });
  if (isContextPassword(password, email))
    return fail("passwordContextWord", 400, { field: "password" });
  const tooMany = await limited("sign-up", clientAddress, email);
  if (tooMany) return tooMany;
  if (!(await verifyHumanCheck(form.fields[HUMAN_CHECK_FIELD])))
    return fail("humanCheckFailed", 400);
  // The spec reveals a registered address on purpose; the rate limits above bound that.
  const existing = await getDb().select({ id: users.id }).from(users).where(eq(users.email, email));
  if (existing.length > 0) return fail("alreadyRegistered", 409, { field: "email" });
  try {
    await (
      await getAuth()
    ).api.signUpEmail({
      body: { email, password, name: email.split("@")[0]!, callbackURL: VERIFY_LINK_CALLBACK },
      headers: request.headers,
    });
  } catch (error) {
    getLogger().warn({ err: error }, "sign-up failed");
    return fail("signUpFailed", (await authApiError(error)) ? 400 : 503);
  }
  const headers = new Headers({ "Set-Cookie": await pendingVerificationCookie().serialize(email) });
  headers.append("Set-Cookie", await rememberReturnPath(request));
  return redirectWithToast(
    VERIFY_CALLBACK,
    { kind: "success", ...accountMessages.signUpSucceeded, milestone: "signup" },
    { headers },
  );
}

type SignInOutcome =
  | { ok: true; headers: Headers; userId: string; token: string; email: string }
  /** The password was right; the account's second factor is still to come (decision 044). */
  | { ok: "second-factor"; headers: Headers; userId: string; email: string }
  | {
      ok: false;
      response: ReturnType<typeof refuse>;
      /** Set when a password was checked for an address (the audit log records those). */
      failure?: { email: string; reason: SignInFailure };
    };

/** Shared by the customer and the admin login. */
async function signInWithPassword(
  { request, clientAddress }: ActionInput,
  wrongCredentials: AccountMessage,
): Promise<SignInOutcome> {
  const form = await parseForm(request, signInSchema);
  if (!form?.ok)
    return { ok: false, response: form ? refuseFirst(form.errors) : fail(wrongCredentials, 400) };
  const { email, password } = form.data;
  const tooMany = await limited("sign-in", clientAddress, email);
  if (tooMany) return { ok: false, response: tooMany };
  try {
    const { headers, response } = await (
      await getAuth()
    ).api.signInEmail({
      body: { email, password },
      headers: request.headers,
      returnHeaders: true,
    });
    // An account with a TOTP: Better Auth made no session, only its signed challenge cookie.
    // The failures are forgotten only once the code is right too: wrong codes after a right
    // password keep adding up (second-factor-sign-in.server.ts).
    if ("twoFactorRedirect" in response) {
      const userId = await accountIdOf(email);
      if (userId) return { ok: "second-factor", headers, userId, email };
      throw new Error("a second-factor challenge for an address without an account");
    }
    // A factor Better Auth's challenge does not know (a passkey): the session is not given, and
    // the same kind of challenge is opened for it (decision 063).
    if (await hasSecondFactor(response.user.id)) {
      await revokeSessionToken(response.token);
      const challenge = await openSecondFactorChallenge(response.user.id);
      return { ok: "second-factor", headers: challenge, userId: response.user.id, email };
    }
    await clearSignInFailures({ clientAddress, email });
    return { ok: true, headers, userId: response.user.id, token: response.token, email };
  } catch (error) {
    const apiError = await authApiError(error);
    if (apiError?.body?.code === "EMAIL_NOT_VERIFIED") {
      // The password was right: only the address is still to be confirmed.
      await clearSignInFailures({ clientAddress, email });
      const headers = { "Set-Cookie": await pendingVerificationCookie().serialize(email) };
      return {
        ok: false,
        response: fail("emailNotVerified", 403, {
          action: { label: "Verificar", to: VERIFY_CALLBACK },
          headers,
        }),
        failure: { email, reason: "email_not_verified" },
      };
    }
    // Better Auth refuses a password longer than any account can have (it counts UTF-16 units,
    // our form counts characters) before looking: that is a wrong password too, never an outage.
    const refused =
      apiError?.status === "UNAUTHORIZED" ||
      apiError?.statusCode === 401 ||
      apiError?.body?.code === "PASSWORD_TOO_LONG";
    if (apiError && refused) {
      await recordSignInFailure({ clientAddress, email });
      return {
        ok: false,
        response: fail(wrongCredentials, 401),
        failure: { email, reason: "wrong_credentials" },
      };
    }
    getLogger().error({ err: error }, "sign-in failed");
    return {
      ok: false,
      response: fail("signInFailed", 503),
    };
  }
}

/**
 * A successful login goes back to the page the visitor came from (`?volver=`, or the one kept at
 * sign-up), else to /precios.
 */
export async function customerSignIn(input: ActionInput) {
  const outcome = await signInWithPassword(input, "wrongCredentials");
  if (outcome.ok === "second-factor") return toSecondFactor(input, "customers", outcome.headers);
  await auditSignIn(input, "customer", outcome);
  if (!outcome.ok) return outcome.response;
  const kept = await takeReturnPath(input.request);
  if (kept.header) outcome.headers.append("Set-Cookie", kept.header);
  const to = returnPathOf(input.request.url) ?? kept.path ?? DEFAULT_RETURN_PATH;
  return redirectWithMessage(to, "welcome", outcome.headers);
}

/**
 * Staff login: a valid password without a staff role ends the new session at once. Every
 * attempt that reached the password check is written to the staff audit log.
 */
export async function adminSignIn(input: ActionInput) {
  const outcome = await signInWithPassword(input, "adminWrongCredentials");
  if (outcome.ok && !(await staffRoleOf(outcome.userId))) {
    if (outcome.ok === true) await revokeSessionToken(outcome.token);
    await auditSignIn(input, "staff", {
      ok: false,
      failure: { email: outcome.email, reason: "not_staff" },
    });
    return fail("adminDenied", 403);
  }
  if (outcome.ok === "second-factor") return toSecondFactor(input, "staff", outcome.headers);
  await auditSignIn(input, "staff", outcome);
  if (!outcome.ok) return outcome.response;
  return redirectWithToast(
    "/admin",
    { kind: "success", title: `Bienvenido, ${outcome.email}` },
    { headers: outcome.headers },
  );
}

/** Recovery answers the same whether or not the address has an account. */
export async function requestPasswordReset({ request, clientAddress }: ActionInput) {
  const form = await parseForm(request, recoverySchema);
  if (!form?.ok) return form ? refuseFirst(form.errors) : fail("emailInvalid", 400);
  const { email } = form.data;
  const tooMany = await limited("reset", clientAddress, email);
  if (tooMany) return tooMany;
  try {
    await (
      await getAuth()
    ).api.requestPasswordReset({
      body: { email, redirectTo: RESET_CALLBACK },
      headers: request.headers,
    });
  } catch (error) {
    getLogger().error({ err: error }, "password reset request failed");
    return fail("resetMailFailed", 503);
  }
  return notice("resetMailSent", { email });
}

export async function resetPassword({ request, clientAddress }: ActionInput) {
  const form = await parseForm(request, newPasswordSchema);
  if (!form?.ok) return form ? refuseFirst(form.errors) : fail("resetLinkInvalid", 400);
  const { password } = form.data;
  if (await isCommonPassword(password))
    return fail("passwordTooCommon", 400, { field: "password" });
  const token = form.fields.token ?? "";
  // Mailed tokens are letters and digits; other text (a NUL byte fails the lookup) is no link.
  if (!/^[\w-]{1,255}$/.test(token)) return fail("resetLinkInvalid", 400);
  const tooMany = await limited("new-password", clientAddress);
  if (tooMany) return tooMany;
  const owner = await accountOfResetLink(token);
  if (isContextPassword(password, owner?.email))
    return fail("passwordContextWord", 400, { field: "password" });
  try {
    await (
      await getAuth()
    ).api.resetPassword({
      body: { newPassword: password, token },
      headers: request.headers,
    });
    if (owner) await auditStaffPasswordReset({ request, clientAddress }, owner);
  } catch (error) {
    if (await authApiError(error)) return fail("resetLinkInvalid", 400);
    getLogger().error({ err: error }, "password reset failed");
    return fail("resetMailFailed", 503);
  }
  return redirectWithMessage("/login-cliente", "passwordUpdated");
}

/** The account a mailed reset link names (Better Auth's `reset-password:<token>` row). */
async function accountOfResetLink(token: string) {
  const [row] = await getDb()
    .select({ id: users.id, email: users.email })
    .from(verifications)
    .innerJoin(users, eq(users.id, verifications.value))
    .where(eq(verifications.identifier, `reset-password:${token}`));
  return row;
}

/**
 * A staff member's password changed by a mailed link ends every session of the account: a
 * security event, in the audit log (decision 063).
 */
async function auditStaffPasswordReset(
  { request, clientAddress }: ActionInput,
  owner: { id: string; email: string },
) {
  const role = await staffRoleOf(owner.id);
  if (!role) return;
  await recordStaffAction(getDb(), {
    actor: { ...owner, role, clientAddress, userAgent: request.headers.get("User-Agent") },
    action: "staff.password_reset",
    target: owner.id,
    details: { via: "enlace por correo", sesiones: "todas cerradas" },
  });
}

export async function resendVerification({ request, clientAddress }: ActionInput) {
  const email = (await pendingVerificationCookie().parse(request.headers.get("Cookie"))) as
    string | null;
  if (!email) return redirectWithMessage("/registro", "resendNoEmail", undefined, "info");
  const tooMany = await limited("resend", clientAddress, email);
  if (tooMany) return tooMany;
  try {
    await (
      await getAuth()
    ).api.sendVerificationEmail({
      body: { email, callbackURL: VERIFY_LINK_CALLBACK },
      headers: request.headers,
    });
  } catch (error) {
    getLogger().warn({ err: error }, "resending the verification mail failed");
    return fail("resendFailed", 400);
  }
  return notice("resendSent");
}

export async function signOut({ request }: { request: Request }) {
  return redirectWithMessage("/", "signedOut", await signOutHeaders(request), "info");
}

/** The profile page's form: its own fields, or one of the two mails it can ask for. */
export async function profileAction({ request, clientAddress }: ActionInput, viewer: Viewer) {
  const fields = (await readForm(request))?.fields;
  switch (fields?.intent) {
    case "save":
      return saveProfile(fields, viewer);
    case "verify":
      return mailForProfile(viewer, clientAddress, "resend");
    case "password":
      return mailForProfile(viewer, clientAddress, "reset");
    default:
      return fail("profileSaveFailed", 400);
  }
}

async function saveProfile(fields: Record<string, string>, viewer: Viewer) {
  const parsed = checkForm(profileSchema, fields);
  if (!parsed.ok) return refuseFirst(parsed.errors);
  try {
    await storeProfile(viewer, parsed.data);
  } catch (error) {
    getLogger().error({ err: error }, "saving a profile failed");
    return fail("profileSaveFailed", 503);
  }
  return redirectWithMessage("/perfil", "profileSaved");
}

/** A new verification link, or a link to choose a new password, for the signed-in address. */
async function mailForProfile(viewer: Viewer, clientAddress: string, mail: "resend" | "reset") {
  const tooMany = await limited(mail, clientAddress, viewer.email);
  if (tooMany) return tooMany;
  if (mail === "resend" && viewer.emailVerified) return redirect("/perfil");
  try {
    const auth = await getAuth();
    if (mail === "resend")
      await auth.api.sendVerificationEmail({
        body: { email: viewer.email, callbackURL: VERIFY_LINK_CALLBACK },
      });
    else
      await auth.api.requestPasswordReset({
        body: { email: viewer.email, redirectTo: RESET_CALLBACK },
      });
  } catch (error) {
    getLogger().error({ err: error, mail }, "a mail asked for on the profile page failed");
    return fail("resetMailFailed", 503);
  }
  return redirectWithMessage(
    "/perfil",
    mail === "resend" ? "resendSent" : "passwordChangeMailSent",
  );
}
