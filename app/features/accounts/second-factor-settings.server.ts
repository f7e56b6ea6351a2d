import { and, eq, lt } from "drizzle-orm";
import { data } from "react-router";
import { recordStaffAction } from "~/features/audit/audit.server";
import type { AuditAction } from "~/features/audit/audit-actions";
import { authApiError, getAuth } from "~/features/identity/auth.server";
import { signUpJourneyCookie } from "~/features/identity/journey-cookies.server";
import { claimTotpCode, releaseTotpCode } from "~/features/identity/second-factor.server";
import type { Staff, Viewer } from "~/features/identity/session.server";
import { requireRecentAuthentication } from "~/features/identity/step-up.server";
import { getConfig } from "~/platform/config.server";
import { getDb } from "~/platform/db/database.server";
import { sessions, twoFactors, users } from "~/platform/db/schema";
import { checkForm, type FormRefusal } from "~/platform/forms/form-answer";
import { readForm, refuse, type RefuseInit } from "~/platform/http/form-reply.server";
import { redirectWithToast } from "~/platform/http/toast.server";
import { getLogger } from "~/platform/logger.server";
import { describeDevice } from "~/features/identity/user-agent";
import { checkAccountLimits, recordSignInFailure } from "./rate-limits.server";
import { mailNewWayIn } from "./security-mails.server";
import {
  passwordConfirmSchema,
  secondFactorMessages,
  totpCodeSchema,
  type SecondFactorMessage,
} from "./second-factor-rules";

/**
 * The Verificación en dos pasos page (decision 044), of staff (/admin/seguridad, where a staff
 * account without a factor is sent) and of customers (/mi-cuenta/seguridad, opt-in). Every
 * change asks for the password again; the enrolment shows the QR and the secret as text,
 * is confirmed by a code, and then shows the 10 recovery codes once.
 */

type ActionInput = { request: Request; clientAddress: string };
/** Who is on the page: staff carry their role (their changes go to the audit log). */
type Owner = Viewer | Staff;

const isStaff = (owner: Owner): owner is Staff => "role" in owner;

const fail = (code: SecondFactorMessage, status: number, init: Omit<RefuseInit, "status"> = {}) =>
  refuse(code, { status, ...init });

/** The enrolment's second step: what to scan or type into the app. */
export type TotpSetup = { uri: string; secret: string; qrDataUri: string };

/**
 * New recovery codes are shown by the page's next GET, once: a change ends in a redirect (the
 * enrolment replaces the session, and a page posted without JavaScript reloads with the old
 * cookie in the same request), carrying this short signed note that the codes are to be shown.
 * The codes themselves never leave the server but in that one page.
 */
function showCodesCookie() {
  return signUpJourneyCookie("vd_show_recovery_codes");
}

/**
 * The page's facts: is a factor on, how many recovery codes are left, and the codes themselves
 * right after they were made; `headers` then clear the note (the route sends them).
 */
export async function secondFactorSettings(owner: Owner, request: Request) {
  const facts = await settingsOf(owner);
  const note: unknown = await showCodesCookie().parse(request.headers.get("Cookie"));
  if (note !== owner.id || !facts.enabled)
    return { page: { ...facts, recoveryCodes: null }, headers: new Headers() };
  const { backupCodes } = await (
    await getAuth()
  ).api.viewBackupCodes({ body: { userId: owner.id } });
  const headers = new Headers({
    "Set-Cookie": await showCodesCookie().serialize("", { maxAge: 0 }),
  });
  return { page: { ...facts, recoveryCodes: backupCodes as string[] | null }, headers };
}

/** Redirects back to the page, which shows the new codes once. */
async function toNewCodes(
  owner: Owner,
  back: string,
  message: SecondFactorMessage,
  auth?: Headers,
) {
  const headers = new Headers(auth);
  headers.append("Set-Cookie", await showCodesCookie().serialize(owner.id, { maxAge: 5 * 60 }));
  return redirectWithToast(
    back,
    { kind: "success", ...secondFactorMessages[message] },
    { headers },
  );
}

async function totpIsOn(userId: string): Promise<boolean> {
  const [row] = await getDb()
    .select({ enabled: users.twoFactorEnabled })
    .from(users)
    .where(eq(users.id, userId));
  return row?.enabled === true;
}

async function settingsOf(owner: Owner) {
  const enabled = await totpIsOn(owner.id);
  let recoveryCodesLeft: number | null = null;
  if (enabled) {
    try {
      const { backupCodes } = await (
        await getAuth()
      ).api.viewBackupCodes({ body: { userId: owner.id } });
      recoveryCodesLeft = backupCodes.length;
    } catch (error) {
      getLogger().warn({ err: error }, "counting recovery codes failed");
    }
  }
  const pending = !enabled && (await hasPendingTotp(owner.id));
  return { email: owner.email, enabled, recoveryCodesLeft, pending, staff: isStaff(owner) };
}

/** The QR of an otpauth URI, drawn on the server as SVG: no script, no third party. */
async function setupOf(uri: string): Promise<TotpSetup> {
  const secret = new URL(uri).searchParams.get("secret") ?? "";
  // Loaded on first use: only an enrolment draws a QR (start-up loads no heavy package).
  const { default: QRCode } = await import("qrcode");
  const svg = await QRCode.toString(uri, { type: "svg", errorCorrectionLevel: "M", margin: 2 });
  return {
    uri,
    // Grouped by 4 as authenticator apps show it; the apps ignore the spaces.
    secret: secret.replace(/(.{4})(?=.)/g, "$1 "),
    qrDataUri: `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`,
  };
}

/**
 * The URI of a pending enrolment, sent back by the confirmation form so a wrong code shows the
 * same QR again. It is only ever drawn for the person who posted it; it must still be an
 * otpauth TOTP URI of this site for this account, with a base32 secret.
 */
function pendingUri(value: string | undefined, owner: Owner): string | null {
  if (!value || value.length > 512) return null;
  try {
    const url = new URL(value);
    const label = decodeURIComponent(url.pathname.slice(1));
    const secret = url.searchParams.get("secret") ?? "";
    const issuer = getConfig().company.brandName;
    if (url.protocol !== "otpauth:" || url.host !== "totp") return null;
    if (label !== `${issuer}:${owner.email}` || !/^[A-Z2-7]{16,128}$/.test(secret)) return null;
    return value;
  } catch {
    return null;
  }
}

/** A factor change of a staff account, in the staff audit log. */
async function audit(owner: Owner, action: AuditAction, details?: Record<string, unknown>) {
  if (!isStaff(owner)) return;
  await recordStaffAction(getDb(), { actor: owner, action, target: owner.id, details });
}

/** The password asked again before a change; wrong ones count as failed sign-ins. */
async function checkPassword(
  { request, clientAddress }: ActionInput,
  owner: Owner,
  fields: Record<string, string>,
): Promise<{ ok: true; password: string } | { ok: false; response: Response | object }> {
  const parsed = checkForm(passwordConfirmSchema, fields);
  if (!parsed.ok) return { ok: false, response: refuse(parsed.errors.slice(0, 1)) };
  // A password, limited as the sign-in's passwords are.
  const retryAfter = await checkAccountLimits("sign-in", {
    clientAddress,
    email: owner.email,
  });
  if (retryAfter !== undefined)
    return { ok: false, response: fail("tooManyAttempts", 429, { retryAfter }) };
  const valid = await (
    await getAuth()
  ).api
    .verifyPassword({ body: { password: parsed.data.password }, headers: request.headers })
    .then(() => true)
    .catch(() => false);
  if (!valid) {
    await recordSignInFailure({ clientAddress, email: owner.email });
    return { ok: false, response: fail("passwordWrong", 400, { field: "password" }) };
  }
  return { ok: true, password: parsed.data.password };
}

/**
 * The page's forms, by `intent`: start, confirm, recovery-codes, disable; all but the
 * confirmation of a start ask a stale session to prove its owner first (step-up).
 */
export async function secondFactorSettingsAction(input: ActionInput, owner: Owner, back: string) {
  const fields = (await readForm(input.request))?.fields ?? {};
  // Turning the codes on, off or renewing them changes how the account is entered: a session
  // older than the step-up window proves its owner first, with the code when there is one
  // (decision 074); the typed password alone is what a stolen session's thief may also know.
  if (fields.intent !== "confirm")
    await requireRecentAuthentication(input.request, { fallback: back });
  try {
    switch (fields.intent) {
      case "start":
        return await startEnrolment(input, owner, fields);
      case "confirm":
        return await confirmEnrolment(input, owner, fields, back);
      case "recovery-codes":
        return await renewRecoveryCodes(input, owner, fields, back);
      case "disable":
        return await disable(input, owner, fields, back);
      default:
        return fail("failed", 400);
    }
  } catch (error) {
    getLogger().error({ err: error, intent: fields.intent }, "a second-factor change failed");
    return fail("failed", 503);
  }
}

/** Whether an enrolment was started and never confirmed: a secret the person may have scanned. */
async function hasPendingTotp(userId: string): Promise<boolean> {
  const [row] = await getDb()
    .select({ verified: twoFactors.verified })
    .from(twoFactors)
    .where(eq(twoFactors.userId, userId));
  return row?.verified === false;
}

/**
 * Starts the app's codes: a new secret, or, when an enrolment was started and not confirmed
 * (the page reloaded, the phone switched to the authenticator and back), the same secret again,
 * so the app that already scanned it keeps giving valid codes (issue 39, item 4).
 */
async function startEnrolment(input: ActionInput, owner: Owner, fields: Record<string, string>) {
  const password = await checkPassword(input, owner, fields);
  if (!password.ok) return password.response;
  const auth = await getAuth();
  if (await hasPendingTotp(owner.id)) {
    const { totpURI } = await auth.api.getTOTPURI({
      body: { password: password.password },
      headers: input.request.headers,
    });
    return { setup: await setupOf(totpURI) };
  }
  try {
    const started = await auth.api.enableTwoFactor({
      body: { password: password.password, method: "totp", issuer: getConfig().company.brandName },
      headers: input.request.headers,
    });
    if (started.method !== "totp") throw new Error("the plugin started another factor than TOTP");
    return { setup: await setupOf(started.totpURI) };
  } catch (error) {
    if ((await authApiError(error))?.body?.code === "TOTP_ALREADY_ENABLED")
      return fail("alreadyEnabled", 409);
    throw error;
  }
}

/**
 * The first code confirms the enrolment: Better Auth marks the factor on and gives a new
 * session; every other session of the account ends (one opened with the password alone must
 * not gain the factor's trust), and the recovery codes are shown, this once.
 */
async function confirmEnrolment(
  input: ActionInput,
  owner: Owner,
  fields: Record<string, string>,
  back: string,
) {
  // Only an enrolment under way is confirmed: with the factor on, a code proves nothing new,
  // and confirming again would end every session and log an enrolment that never happened.
  if (await totpIsOn(owner.id)) return fail("alreadyEnabled", 409);
  const uri = pendingUri(fields.uri, owner);
  if (!uri) return fail("setupExpired", 400);
  const setup = await setupOf(uri);
  const again = (code: SecondFactorMessage, status: number) =>
    data<FormRefusal<SecondFactorMessage> & { setup: TotpSetup }>(
      { errors: [{ code, field: "code" }], setup },
      { status },
    );
  const parsed = checkForm(totpCodeSchema, fields);
  if (!parsed.ok) return again(parsed.errors[0]!.code as SecondFactorMessage, 400);
  const retryAfter = await checkAccountLimits("second-factor", {
    clientAddress: input.clientAddress,
    email: owner.email,
  });
  if (retryAfter !== undefined) return fail("tooManyAttempts", 429, { retryAfter });
  const code = parsed.data.code;
  const claimed = await claimTotpCode(owner.id, code);
  if (claimed === null) return again("codeReused", 400);
  const startedAt = new Date(Date.now() - 1000);
  const auth = await getAuth();
  let headers: Headers;
  try {
    ({ headers } = await auth.api.verifyTOTP({
      body: { code },
      headers: input.request.headers,
      returnHeaders: true,
    }));
  } catch (error) {
    await releaseTotpCode(owner.id, code, claimed);
    const reason = (await authApiError(error))?.body?.code;
    if (reason === "INVALID_CODE") {
      await recordSignInFailure({ clientAddress: input.clientAddress, email: owner.email });
      return again("codeWrong", 400);
    }
    if (reason === "TOTP_NOT_ENABLED") return fail("setupExpired", 400);
    throw error;
  }
  // The new session was made just now; the ones before it end.
  await getDb()
    .delete(sessions)
    .where(and(eq(sessions.userId, owner.id), lt(sessions.createdAt, startedAt)));
  await audit(owner, "factor.enrolled", { factor: "totp" });
  await mailNewWayIn(owner.email, {
    what: "la verificación en dos pasos con una aplicación de autenticación",
    device: describeDevice(input.request.headers.get("User-Agent")),
    securityPath: back,
  });
  return toNewCodes(owner, back, "enabled", headers);
}

async function renewRecoveryCodes(
  input: ActionInput,
  owner: Owner,
  fields: Record<string, string>,
  back: string,
) {
  const password = await checkPassword(input, owner, fields);
  if (!password.ok) return password.response;
  try {
    await (
      await getAuth()
    ).api.generateBackupCodes({
      body: { password: password.password },
      headers: input.request.headers,
    });
    await audit(owner, "factor.recovery_codes");
    return await toNewCodes(owner, back, "recoveryCodesRenewed");
  } catch (error) {
    if ((await authApiError(error))?.body?.code === "TWO_FACTOR_NOT_ENABLED")
      return fail("notEnabled", 409);
    throw error;
  }
}

/** Customers may turn it off; for staff it is required (an administrator resets a lost one). */
async function disable(
  input: ActionInput,
  owner: Owner,
  fields: Record<string, string>,
  back: string,
) {
  if (isStaff(owner)) return fail("staffCannotDisable", 403);
  const password = await checkPassword(input, owner, fields);
  if (!password.ok) return password.response;
  const [factor] = await getDb()
    .select({ id: twoFactors.id })
    .from(twoFactors)
    .where(eq(twoFactors.userId, owner.id));
  if (!factor) return fail("notEnabled", 409);
  const { headers } = await (
    await getAuth()
  ).api.disableTwoFactor({
    body: { password: password.password },
    headers: input.request.headers,
    returnHeaders: true,
  });
  return redirectWithToast(
    back,
    { kind: "success", ...secondFactorMessages.disabled },
    { headers },
  );
}
