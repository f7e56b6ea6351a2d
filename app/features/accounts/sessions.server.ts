import { recordStaffAction } from "~/features/audit/audit.server";
import {
  currentSessionId,
  listActiveSessions,
  revokeAllSessions,
  revokeSession,
} from "~/features/identity/session-activity.server";
import { requireCustomer, signOutHeaders, staffRoleOf } from "~/features/identity/session.server";
import { requireRecentAuthentication } from "~/features/identity/step-up.server";
import { describeDevice } from "~/features/identity/user-agent";
import { getDb } from "~/platform/db/database.server";
import { readForm } from "~/platform/http/form-reply.server";
import { redirectWithToast } from "~/platform/http/toast.server";
import { securityMessages, type SecurityMessage } from "./passkey-messages";
import { listPasskeys } from "./passkeys.server";
import { securityPagePath, type SecurityActor } from "./security-paths";

type Input = { request: Request; clientAddress: string };

/**
 * The guard of the passkey and session actions: any signed-in account (customer or staff, a
 * staff account without a factor too: it enrols one with a passkey), with its staff role.
 * The staff's idle and absolute limits apply as on every page (identity/session.server.ts).
 */
export async function requireSecurityActor(request: Request): Promise<SecurityActor> {
  const viewer = await requireCustomer(request);
  return { ...viewer, role: await staffRoleOf(viewer.id) };
}

/** What the passkey and session sections show: the account's passkeys and active sessions. */
export async function securitySections(request: Request, actor: SecurityActor) {
  const [passkeys, current] = await Promise.all([
    listPasskeys(actor.id),
    currentSessionId(request),
  ]);
  const sessions = await listActiveSessions(actor.id, current, { staff: actor.role !== null });
  return {
    passkeys,
    sessions: sessions.map(({ userAgent, ...session }) => ({
      ...session,
      device: describeDevice(userAgent),
    })),
  };
}

export type SecuritySectionsData = Awaited<ReturnType<typeof securitySections>>;

/**
 * The session list's forms: end one session of the account (`revoke`), or every one, this one
 * included (`revoke-all`, 'Cerrar sesión en todos los dispositivos'), which signs out here too
 * and goes to the sign-in page. Staff actions are in the audit log.
 */
export async function manageSessions({ request, clientAddress }: Input, actor: SecurityActor) {
  const back = securityPagePath(actor);
  const fail = (code: SecurityMessage) =>
    redirectWithToast(back, { kind: "error", ...securityMessages[code] });
  const fields = (await readForm(request))?.fields;
  // Ending sessions takes a recent proof of identity (ASVS 5.0, 7.5.2; decision 063).
  if (fields?.intent === "revoke" || fields?.intent === "revoke-all")
    await requireRecentAuthentication(request, { fallback: back });
  const audited = {
    actor: { ...actor, clientAddress, userAgent: request.headers.get("User-Agent") },
    target: actor.id,
  };
  if (fields?.intent === "revoke") {
    const sessionId = fields.sessionId ?? "";
    if (!/^[\w-]{1,100}$/.test(sessionId)) return fail("securityFormInvalid");
    const current = await currentSessionId(request);
    if (sessionId === current) return signOutEverywhere(request, actor, audited, current);
    if (!(await revokeSession(actor.id, sessionId))) return fail("sessionNotFound");
    if (actor.role)
      await recordStaffAction(getDb(), {
        ...audited,
        action: "session.revoked",
        details: { sesion: sessionId },
      });
    return redirectWithToast(back, { kind: "success", ...securityMessages.sessionRevoked });
  }
  if (fields?.intent === "revoke-all") return signOutEverywhere(request, actor, audited);
  return fail("securityFormInvalid");
}

async function signOutEverywhere(
  request: Request,
  actor: SecurityActor,
  audited: Omit<Parameters<typeof recordStaffAction>[1], "action">,
  onlyThis?: string,
) {
  const ended = onlyThis
    ? Number(await revokeSession(actor.id, onlyThis))
    : await revokeAllSessions(actor.id);
  if (actor.role)
    await recordStaffAction(getDb(), {
      ...audited,
      action: onlyThis ? "session.revoked" : "session.revoked_all",
      details: { sesiones: ended },
    });
  // The browser's cookie names a session that is gone: clear it with the sign-out's headers.
  const headers = await signOutHeaders(request);
  return redirectWithToast(
    actor.role ? "/login" : "/login-cliente",
    { kind: "info", ...securityMessages[onlyThis ? "sessionRevoked" : "signedOutEverywhere"] },
    { headers },
  );
}
