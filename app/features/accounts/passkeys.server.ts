import { and, count, desc, eq } from "drizzle-orm";
import { recordStaffAction } from "~/features/audit/audit.server";
import { authApiError, getAuth } from "~/features/identity/auth.server";
import { DEFAULT_RETURN_PATH, safeReturnPath } from "~/features/identity/return-path";
import { takeReturnPath } from "~/features/identity/return-path.server";
import {
  closeSecondFactorChallenge,
  pendingSecondFactor,
} from "~/features/identity/second-factor.server";
import { getViewer, revokeSessionToken, staffRoleOf } from "~/features/identity/session.server";
import { requireRecentAuthentication } from "~/features/identity/step-up.server";
import { describeDevice } from "~/features/identity/user-agent";
import { getDb } from "~/platform/db/database.server";
import { passkeys, users } from "~/platform/db/schema";
import { readForm } from "~/platform/http/form-reply.server";
import { redirectWithToast } from "~/platform/http/toast.server";
import { getLogger } from "~/platform/logger.server";
import { visitorKey } from "~/platform/security/client-address.server";
import { hitRateLimit } from "~/platform/security/rate-limit.server";
import { PASSKEY_NAME_MAX, securityMessages, type SecurityMessage } from "./passkey-messages";
import { checkAccountLimits, clearSignInFailures, recordSignInFailure } from "./rate-limits.server";
import { securityPagePath, type SecurityActor } from "./security-paths";
import { mailNewWayIn } from "./security-mails.server";

/**
 * Passkeys (decision 045): Better Auth's passkey plugin does the WebAuthn ceremonies and keeps
 * the credentials; its HTTP endpoints stay closed. These actions call it from our own routes,
 * behind the origin check every POST passes (platform/security/origin-check.server.ts) and the
 * database rate limits, and add what it does not know: staff rules, audit rows, the door.
 */

type Input = { request: Request; clientAddress: string };

/** The browser's half speaks JSON: `{ ok, to? }` or `{ error }` with a message code. */
const answer = (error: SecurityMessage, status: number, headers?: HeadersInit) =>
  Response.json({ error }, { status, headers: noStore(headers) });

function noStore(init?: HeadersInit) {
  const headers = new Headers(init);
  headers.set("Cache-Control", "no-store");
  return headers;
}

/** Only the Set-Cookie headers of Better Auth's answer (its challenge and session cookies). */
function cookiesOf(source: Headers, into = new Headers()) {
  for (const cookie of source.getSetCookie()) into.append("Set-Cookie", cookie);
  return into;
}

async function readJson(request: Request): Promise<Record<string, unknown> | null> {
  if (!request.headers.get("Content-Type")?.startsWith("application/json")) return null;
  try {
    const body: unknown = await request.json();
    return body && typeof body === "object" && !Array.isArray(body)
      ? (body as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

/** A WebAuthn response is an object with a string id; the library checks the rest. */
const isCredential = (value: unknown): value is Record<string, unknown> & { id: string } =>
  !!value &&
  typeof value === "object" &&
  typeof (value as { id?: unknown }).id === "string" &&
  (value as { id: string }).id.length <= 1024;

/** Ceremonies of one account or one address: 20 in 10 minutes is more than anyone needs. */
async function tooManyCeremonies(key: string): Promise<number | undefined> {
  const hit = await hitRateLimit(getDb(), `passkey:${key}`, { limit: 20, windowMs: 10 * 60_000 });
  return hit.allowed ? undefined : hit.retryAfterSeconds;
}

const retry = (seconds: number) =>
  answer("passkeyTooMany", 429, { "Retry-After": String(seconds) });

/**
 * Registration, both steps: `{ step: "options" }` answers the creation options (and sets the
 * challenge cookie); `{ step: "verify", response }` stores the new passkey. Any signed-in
 * account may add one; a staff account without a factor too (it is how it enrols one).
 * Better Auth asks for a session signed in within the day (its `freshAge`).
 */
export async function passkeyRegistration({ request, clientAddress }: Input) {
  const { viewer } = await getViewer(request);
  if (!viewer) return answer("passkeyNotFresh", 401);
  const body = await readJson(request);
  if (!body || (body.step !== "options" && body.step !== "verify"))
    return answer("securityFormInvalid", 400);
  const wait = await tooManyCeremonies(`user:${viewer.id}`);
  if (wait) return retry(wait);
  // A new way in: only with a recent proof of identity (decision 063), answered as JSON.
  await requireRecentAuthentication(request, {
    fallback: securityPagePath({ role: await staffRoleOf(viewer.id) }),
    json: true,
  });
  const auth = await getAuth();
  try {
    if (body.step === "options") {
      const { headers, response } = await auth.api.generatePasskeyRegistrationOptions({
        headers: request.headers,
        returnHeaders: true,
      });
      return Response.json(response, { headers: noStore(cookiesOf(headers)) });
    }
    if (!isCredential(body.response)) return answer("securityFormInvalid", 400);
    const name = describeDevice(request.headers.get("User-Agent")).slice(0, PASSKEY_NAME_MAX);
    const { headers, response } = await auth.api.verifyPasskeyRegistration({
      headers: request.headers,
      body: { response: body.response, name },
      returnHeaders: true,
    });
    const role = await staffRoleOf(viewer.id);
    if (role)
      await recordStaffAction(getDb(), {
        actor: { ...viewer, role, clientAddress, userAgent: request.headers.get("User-Agent") },
        action: "passkey.added",
        target: viewer.id,
        details: { llave: response.name ?? name },
      });
    await mailNewWayIn(viewer.email, {
      what: `la llave de acceso «${response.name ?? name}»`,
      device: describeDevice(request.headers.get("User-Agent")),
      securityPath: securityPagePath({ role }),
    });
    return Response.json({ ok: true }, { headers: noStore(cookiesOf(headers)) });
  } catch (error) {
    const apiError = await authApiError(error);
    if (!apiError) {
      getLogger().error({ err: error }, "passkey registration failed");
      return answer("passkeyUnavailable", 503);
    }
    if (apiError.body?.code === "SESSION_NOT_FRESH") return answer("passkeyNotFresh", 403);
    return answer("passkeyRegistrationFailed", 400);
  }
}

type Door = "staff" | "customers";

/**
 * Sign-in with a passkey, both steps. A passkey that verified its user stands for both factors
 * (decision 045), so it opens the account at once: at the staff door only a staff account's,
 * and after a password (the second-factor step) only the passkey of the account that typed it.
 * Failures count like wrong passwords for the client (accounts/rate-limits.server.ts).
 */
export async function passkeySignIn({ request, clientAddress }: Input) {
  const body = await readJson(request);
  const door: Door | null = body?.door === "staff" || body?.door === "customers" ? body.door : null;
  if (!body || !door || (body.step !== "options" && body.step !== "verify"))
    return answer("securityFormInvalid", 400);
  const auth = await getAuth();
  if (body.step === "options") {
    const wait = await tooManyCeremonies(`ip:${visitorKey(clientAddress)}`);
    if (wait) return retry(wait);
    try {
      const { headers, response } = await auth.api.generatePasskeyAuthenticationOptions({
        headers: request.headers,
        returnHeaders: true,
      });
      return Response.json(response, { headers: noStore(cookiesOf(headers)) });
    } catch (error) {
      getLogger().error({ err: error }, "passkey sign-in options failed");
      return answer("passkeyUnavailable", 503);
    }
  }
  if (!isCredential(body.response)) return answer("securityFormInvalid", 400);
  const wait = await checkAccountLimits("sign-in", { clientAddress });
  if (wait !== undefined) return retry(wait);
  const from = { clientAddress, userAgent: request.headers.get("User-Agent") };
  // After a password: the account whose factor is asked for (Better Auth's challenge).
  const pending = await pendingSecondFactor(request);
  let signedIn;
  try {
    signedIn = await auth.api.verifyPasskeyAuthentication({
      headers: request.headers,
      // Checked by SimpleWebAuthn against the challenge, the origin and the stored key.
      body: { response: body.response as never },
      returnHeaders: true,
    });
  } catch (error) {
    if (!(await authApiError(error))) {
      getLogger().error({ err: error }, "passkey sign-in failed");
      return answer("passkeyUnavailable", 503);
    }
    await recordSignInFailure({ clientAddress });
    await auditFailure(pending?.userId ?? null, door, "passkey_refused", from);
    return answer("passkeySignInFailed", 401);
  }
  const { user, session } = signedIn.response;
  if (pending && pending.userId !== user.id) {
    // Someone half-way into one account offered another's passkey: neither opens.
    await revokeSessionToken(session.token);
    await recordSignInFailure({ clientAddress });
    await auditFailure(pending.userId, door, "passkey_other_account", from);
    return answer("passkeyOtherAccount", 403);
  }
  const role = await staffRoleOf(user.id);
  if (door === "staff" && !role) {
    await revokeSessionToken(session.token);
    await auditFailure(user.id, door, "not_staff", from);
    return answer("passkeyNotStaff", 403);
  }
  await getDb()
    .update(passkeys)
    .set({ lastUsedAt: new Date() })
    .where(eq(passkeys.credentialID, body.response.id));
  if (role)
    await recordStaffAction(getDb(), {
      actor: { id: user.id, email: user.email, role, ...from },
      action: "staff.sign_in",
      target: user.id,
      details: { puerta: doorPaths[door], metodo: "llave de acceso" },
    });
  const headers = cookiesOf(signedIn.headers);
  if (pending) cookiesOf(await closeSecondFactorChallenge(request), headers);
  await clearSignInFailures({ clientAddress, email: user.email });
  // Where the visitor goes next, as after a password: `?volver=`, else the one kept at sign-up.
  const kept = await takeReturnPath(request);
  if (kept.header) headers.append("Set-Cookie", kept.header);
  const asked = typeof body.returnTo === "string" ? safeReturnPath(body.returnTo, "") : "";
  const to = door === "staff" ? "/admin" : asked || kept.path || DEFAULT_RETURN_PATH;
  const moving = await redirectWithToast(
    to,
    {
      kind: "success",
      title: door === "staff" ? `Bienvenido, ${user.email}` : "¡Bienvenido de nuevo!",
    },
    { headers },
  );
  return Response.json({ ok: true, to }, { headers: noStore(cookiesOf(moving.headers)) });
}

const doorPaths = { staff: "/login", customers: "/login-cliente" } as const;

/**
 * A refused passkey in the staff audit log: at the staff door always, at the customers' only
 * when the account it names is staff (as for passwords, staff-sign-ins.server.ts).
 */
async function auditFailure(
  userId: string | null,
  door: Door,
  reason: string,
  from: { clientAddress: string; userAgent: string | null },
) {
  const [account] = userId
    ? await getDb()
        .select({ id: users.id, email: users.email })
        .from(users)
        .where(eq(users.id, userId))
    : [];
  const role = account ? await staffRoleOf(account.id) : null;
  if (door === "customers" && !role) return;
  await recordStaffAction(getDb(), {
    actor: { id: account?.id ?? null, email: account?.email ?? null, role, ...from },
    action: "staff.sign_in_failed",
    target: account?.id ?? null,
    details: { motivo: reason, puerta: doorPaths[door], metodo: "llave de acceso" },
  });
}

/** Whether the account has a passkey (a password sign-in then asks for it as second factor). */
export async function hasPasskey(userId: string): Promise<boolean> {
  const [row] = await getDb()
    .select({ n: count() })
    .from(passkeys)
    .where(eq(passkeys.userId, userId));
  return (row?.n ?? 0) > 0;
}

/** A passkey as the security page lists it. */
export type PasskeyRow = {
  id: string;
  name: string;
  createdAt: string | null;
  lastUsedAt: string | null;
  backedUp: boolean;
};

export async function listPasskeys(userId: string): Promise<PasskeyRow[]> {
  const rows = await getDb()
    .select({
      id: passkeys.id,
      name: passkeys.name,
      createdAt: passkeys.createdAt,
      lastUsedAt: passkeys.lastUsedAt,
      backedUp: passkeys.backedUp,
    })
    .from(passkeys)
    .where(eq(passkeys.userId, userId))
    .orderBy(desc(passkeys.createdAt), passkeys.id);
  return rows.map((row) => ({
    id: row.id,
    name: row.name || "Llave de acceso",
    createdAt: row.createdAt?.toISOString() ?? null,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    backedUp: row.backedUp,
  }));
}

/**
 * Rename and delete (plain forms, no JavaScript needed): each answers with a redirect back to
 * the account's security page and a toast. A staff account keeps at least one factor: its last
 * passkey goes only when a TOTP app is there too.
 */
export async function managePasskey({ request, clientAddress }: Input, actor: SecurityActor) {
  const back = securityPagePath(actor);
  const fail = (code: SecurityMessage) =>
    redirectWithToast(back, { kind: "error", ...securityMessages[code] });
  const fields = (await readForm(request))?.fields;
  const id = fields?.passkeyId ?? "";
  if (!fields || !/^[\w-]{1,100}$/.test(id)) return fail("securityFormInvalid");
  if (fields.intent === "delete") await requireRecentAuthentication(request, { fallback: back });
  const mine = and(eq(passkeys.id, id), eq(passkeys.userId, actor.id));
  const db = getDb();
  const [row] = await db.select({ name: passkeys.name }).from(passkeys).where(mine);
  if (!row) return fail("passkeyNotFound");
  const audit = {
    actor: { ...actor, clientAddress, userAgent: request.headers.get("User-Agent") },
    target: id,
  };
  if (fields.intent === "rename") {
    const name = (fields.name ?? "").trim();
    if (name.length < 1 || [...name].length > PASSKEY_NAME_MAX || name.includes("\u0000"))
      return fail("passkeyNameInvalid");
    await db.transaction(async (tx) => {
      await tx.update(passkeys).set({ name }).where(mine);
      if (actor.role)
        await recordStaffAction(tx, {
          ...audit,
          action: "passkey.renamed",
          details: { from: row.name, to: name },
        });
    });
    return redirectWithToast(back, { kind: "success", ...securityMessages.passkeyRenamed });
  }
  if (fields.intent === "delete") {
    const refused = await db.transaction(async (tx) => {
      if (actor.role) {
        // The account's row is locked: two deletions at once cannot both leave it bare.
        const [account] = await tx
          .select({ totp: users.twoFactorEnabled })
          .from(users)
          .where(eq(users.id, actor.id))
          .for("update");
        const [all] = await tx
          .select({ n: count() })
          .from(passkeys)
          .where(eq(passkeys.userId, actor.id));
        if (!account?.totp && (all?.n ?? 0) <= 1) return true;
      }
      await tx.delete(passkeys).where(mine);
      if (actor.role)
        await recordStaffAction(tx, {
          ...audit,
          action: "passkey.removed",
          details: { llave: row.name },
        });
      return false;
    });
    if (refused) return fail("passkeyLastFactor");
    return redirectWithToast(back, { kind: "success", ...securityMessages.passkeyRemoved });
  }
  return fail("securityFormInvalid");
}
