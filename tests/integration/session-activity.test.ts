import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { customerSignIn } from "~/features/accounts/account-actions.server";
import { managePasskey, passkeySignIn } from "~/features/accounts/passkeys.server";
import {
  manageSessions,
  requireSecurityActor,
  securitySections,
} from "~/features/accounts/sessions.server";
import {
  LAST_SEEN_WRITE_INTERVAL_MS,
  STAFF_IDLE_LIMIT_MS,
} from "~/features/identity/session-activity.server";
import { getViewer, requireStaff } from "~/features/identity/session.server";
import { hasSecondFactor } from "~/features/identity/second-factor.server";
import { describeDevice } from "~/features/identity/user-agent";
import { getConfig } from "~/platform/config.server";
import { passkeys, sessions, staffAuditLog, userRoles } from "~/platform/db/schema";
import { takeToast } from "~/platform/http/toast.server";
import { formPost, signedInCustomer } from "../support/customer-session";
import { softwarePasskey, type SoftwarePasskey } from "../support/software-authenticator";
import { setupTestDatabase } from "../support/test-database";

const database = setupTestDatabase();

const MINUTE_MS = 60_000;
const PASSWORD = "contraseña-de-prueba";
const CHROME_WINDOWS =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const SAFARI_IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";

const requestWith = (cookie: string, path = "/", init: RequestInit = {}) =>
  new Request(`${getConfig().siteUrl}${path}`, {
    ...init,
    headers: { Cookie: cookie, Origin: getConfig().siteUrl, ...init.headers },
  });

const viewerOf = async (cookie: string) => (await getViewer(requestWith(cookie))).viewer;

const sessionsOf = (userId: string) =>
  database.db.select().from(sessions).where(eq(sessions.userId, userId));

/** Moves the session's last activity `ms` back (as a person away from the keyboard). */
async function idle(userId: string, ms: number) {
  const at = new Date(Date.now() - ms);
  await database.db
    .update(sessions)
    .set({ lastSeenAt: at, createdAt: at })
    .where(eq(sessions.userId, userId));
}

async function staffMember(email: string, role: "support" | "finance" | "admin" = "admin") {
  const signedIn = await signedInCustomer(email, { clientAddress: "192.0.2.60" });
  await database.db.insert(userRoles).values({ userId: signedIn.userId, role });
  return signedIn;
}

/** One more session of the account, from a browser of `userAgent` at `clientAddress`. */
async function anotherSession(email: string, userAgent: string, clientAddress: string) {
  const request = formPost("/login-cliente", { email, password: PASSWORD });
  request.headers.set("User-Agent", userAgent);
  request.headers.set("x-client-address", clientAddress);
  const answer = (await customerSignIn({ request, clientAddress })) as Response;
  return answer.headers
    .getSetCookie()
    .find((value) => value.includes("session_token="))!
    .split(";")[0]!;
}

const auditRows = (actorId: string) =>
  database.db.select().from(staffAuditLog).where(eq(staffAuditLog.actorId, actorId));

describe("the staff's idle limit (30 minutes, measured on the server)", () => {
  it("keeps a staff session used 29 minutes ago and ends one unused for 31", async () => {
    const { cookie, userId } = await staffMember("vigilante@example.com");
    await idle(userId, STAFF_IDLE_LIMIT_MS - MINUTE_MS);
    expect((await viewerOf(cookie))?.id).toBe(userId);
    await idle(userId, STAFF_IDLE_LIMIT_MS + MINUTE_MS);
    const { viewer, headers, ended } = await getViewer(requestWith(cookie));
    expect(viewer).toBeNull();
    expect(ended).toBe(true);
    expect(headers.getSetCookie().join("\n")).toMatch(/session_token=;/);
    expect(await sessionsOf(userId)).toHaveLength(0);
  });

  it("sends an idle staff member to /login saying why", async () => {
    const { cookie, userId } = await staffMember("dormida@example.com", "support");
    await idle(userId, STAFF_IDLE_LIMIT_MS + MINUTE_MS);
    const thrown = await requireStaff({
      request: requestWith(cookie, "/admin"),
      context: { clientAddress: "192.0.2.60" },
    }).catch((error: unknown) => error as Response);
    expect(thrown).toBeInstanceOf(Response);
    expect((thrown as Response).headers.get("Location")).toBe("/login");
    const { toast } = await takeToast(
      requestWith((thrown as Response).headers.getSetCookie().join("; ")),
    );
    expect(toast?.title).toBe("Tu sesión ha caducado");
  });

  it("keeps a customer's session however long it was idle (their 7 sliding days)", async () => {
    const { cookie, userId } = await signedInCustomer("pausada@example.com");
    await idle(userId, 3 * 24 * 60 * MINUTE_MS);
    expect((await viewerOf(cookie))?.id).toBe(userId);
  });

  it("writes the last activity at most once a minute, and each use after that moves it", async () => {
    const { cookie, userId } = await staffMember("activa@example.com");
    const halfAMinuteAgo = new Date(Date.now() - LAST_SEEN_WRITE_INTERVAL_MS / 2);
    await database.db
      .update(sessions)
      .set({ lastSeenAt: halfAMinuteAgo })
      .where(eq(sessions.userId, userId));
    await viewerOf(cookie);
    const [unchanged] = await sessionsOf(userId);
    expect(unchanged!.lastSeenAt?.getTime()).toBe(halfAMinuteAgo.getTime());

    await idle(userId, 20 * MINUTE_MS);
    const before = Date.now();
    await viewerOf(cookie);
    const [moved] = await sessionsOf(userId);
    expect(moved!.lastSeenAt!.getTime()).toBeGreaterThanOrEqual(before - 1_000);
    // 20 more minutes after that use: 40 since sign-in, 20 idle, still signed in.
    await database.db
      .update(sessions)
      .set({ lastSeenAt: new Date(Date.now() - 20 * MINUTE_MS) })
      .where(eq(sessions.userId, userId));
    expect((await viewerOf(cookie))?.id).toBe(userId);
  });
});

describe("the list of active sessions", () => {
  it("lists the account's own sessions, with device, address and the current one marked", async () => {
    const { cookie, userId } = await signedInCustomer("viajera@example.com");
    const phone = await anotherSession("viajera@example.com", SAFARI_IPHONE, "198.51.100.7");
    await signedInCustomer("vecina@example.com");
    const actor = await requireSecurityActor(requestWith(phone));
    const { sessions: listed } = await securitySections(requestWith(phone), actor);
    expect(listed).toHaveLength(2);
    expect(listed.filter((session) => session.current)).toHaveLength(1);
    const current = listed.find((session) => session.current)!;
    expect(current).toMatchObject({ device: "Safari en iPhone", ipAddress: "198.51.100.7" });
    expect(new Date(current.createdAt).getTime()).toBeLessThanOrEqual(Date.now());
    expect((await sessionsOf(userId)).map((row) => row.id).sort()).toEqual(
      listed.map((session) => session.id).sort(),
    );
    expect((await viewerOf(cookie))?.id).toBe(userId);
  });

  it("leaves a staff session idle past the limit out of the list", async () => {
    const { userId } = await staffMember("lista-staff@example.com");
    const fresh = await anotherSession("lista-staff@example.com", CHROME_WINDOWS, "192.0.2.61");
    const [old] = (await sessionsOf(userId)).filter((row) => !fresh.includes(row.token));
    await database.db
      .update(sessions)
      .set({ lastSeenAt: new Date(Date.now() - STAFF_IDLE_LIMIT_MS - MINUTE_MS) })
      .where(eq(sessions.id, old!.id));
    const actor = await requireSecurityActor(requestWith(fresh));
    const { sessions: listed } = await securitySections(requestWith(fresh), actor);
    expect(listed.map((session) => session.id)).not.toContain(old!.id);
    expect(listed).toHaveLength(1);
  });

  it("ends one session of the account, never another account's, and audits it for staff", async () => {
    const { cookie, userId } = await staffMember("revoca@example.com", "finance");
    const other = await anotherSession("revoca@example.com", CHROME_WINDOWS, "192.0.2.62");
    const stranger = await signedInCustomer("ajena@example.com");
    const [strangerSession] = await sessionsOf(stranger.userId);
    const actor = await requireSecurityActor(requestWith(cookie));
    const post = (fields: Record<string, string>) =>
      manageSessions(
        { request: formPost("/cuenta/sesiones", fields, cookie), clientAddress: "192.0.2.62" },
        actor,
      );

    const refused = await post({ intent: "revoke", sessionId: strangerSession!.id });
    expect(refused.headers.get("Location")).toBe("/admin/seguridad");
    expect(await viewerOf(stranger.cookie)).not.toBeNull();

    const [otherRow] = (await sessionsOf(userId)).filter((row) => other.includes(row.token));
    const ended = await post({ intent: "revoke", sessionId: otherRow!.id });
    expect(ended.headers.get("Location")).toBe("/admin/seguridad");
    expect(await viewerOf(other)).toBeNull();
    expect((await viewerOf(cookie))?.id).toBe(userId);
    expect((await auditRows(userId)).map((row) => row.action)).toContain("session.revoked");
  });

  it("signs out of every device, this one too", async () => {
    const { cookie, userId } = await signedInCustomer("todas@example.com");
    const other = await anotherSession("todas@example.com", CHROME_WINDOWS, "192.0.2.63");
    const actor = await requireSecurityActor(requestWith(cookie));
    const answer = await manageSessions(
      {
        request: formPost("/cuenta/sesiones", { intent: "revoke-all" }, cookie),
        clientAddress: "192.0.2.63",
      },
      actor,
    );
    expect(answer.headers.get("Location")).toBe("/login-cliente");
    expect(answer.headers.getSetCookie().join("\n")).toMatch(/session_token=;/);
    expect(await sessionsOf(userId)).toHaveLength(0);
    expect(await viewerOf(other)).toBeNull();
  });
});

describe("passkeys as factors", () => {
  async function addPasskey(userId: string, name = "Llave de prueba") {
    const id = randomUUID();
    await database.db.insert(passkeys).values({
      id,
      name,
      userId,
      publicKey: "cHVibGljLWtleQ==",
      credentialID: `cred-${id}`,
      counter: 0,
      deviceType: "multiDevice",
      backedUp: true,
    });
    return id;
  }

  it("counts a passkey as a staff account's second factor", async () => {
    const { userId } = await staffMember("con-llave@example.com");
    expect(await hasSecondFactor(userId)).toBe(false);
    await addPasskey(userId);
    expect(await hasSecondFactor(userId)).toBe(true);
  });

  it("refuses to delete a staff account's last factor, and deletes one of two (audited)", async () => {
    const { cookie, userId } = await staffMember("ultima-llave@example.com");
    const first = await addPasskey(userId, "Portátil");
    const actor = await requireSecurityActor(requestWith(cookie));
    const remove = async (passkeyId: string) => {
      const answer = await managePasskey(
        {
          request: formPost("/cuenta/llaves-de-acceso", { intent: "delete", passkeyId }, cookie),
          clientAddress: "192.0.2.64",
        },
        actor,
      );
      return (await takeToast(requestWith(answer.headers.getSetCookie().join("; ")))).toast?.title;
    };
    expect(await remove(first)).toBe("No puedes eliminar tu único segundo factor");
    expect(
      await database.db.select().from(passkeys).where(eq(passkeys.userId, userId)),
    ).toHaveLength(1);

    const second = await addPasskey(userId, "Móvil");
    expect(await remove(second)).toBe("Llave de acceso eliminada");
    const [row] = (await auditRows(userId)).filter((audit) => audit.action === "passkey.removed");
    expect(row).toMatchObject({ targetId: second, details: { llave: "Móvil" } });
  });

  it("lets a customer delete their only passkey, and nobody another account's", async () => {
    const { cookie, userId } = await signedInCustomer("cliente-llave@example.com");
    const mine = await addPasskey(userId);
    const other = await signedInCustomer("otra-llave@example.com");
    const theirs = await addPasskey(other.userId);
    const actor = await requireSecurityActor(requestWith(cookie));
    const post = (passkeyId: string) =>
      managePasskey(
        {
          request: formPost("/cuenta/llaves-de-acceso", { intent: "delete", passkeyId }, cookie),
          clientAddress: "192.0.2.65",
        },
        actor,
      );
    await post(theirs);
    expect(
      await database.db
        .select()
        .from(passkeys)
        .where(and(eq(passkeys.id, theirs))),
    ).toHaveLength(1);
    await post(mine);
    expect(await database.db.select().from(passkeys).where(eq(passkeys.id, mine))).toHaveLength(0);
  });

  it("refuses a passkey sign-in that is not a WebAuthn answer, with 4xx and no session", async () => {
    const signIn = (body: unknown) =>
      passkeySignIn({
        request: new Request(`${getConfig().siteUrl}/cuenta/llaves-de-acceso/entrada`, {
          method: "POST",
          headers: { "Content-Type": "application/json", Origin: getConfig().siteUrl },
          body: JSON.stringify(body),
        }),
        clientAddress: "192.0.2.66",
      });
    expect((await signIn({ step: "verify", door: "staff", response: "x" })).status).toBe(400);
    expect((await signIn({ step: "verify", door: "lateral" })).status).toBe(400);
    // A made-up credential without a challenge: refused as a failed sign-in.
    const forged = await signIn({
      step: "verify",
      door: "customers",
      response: { id: "inventada", rawId: "inventada", type: "public-key", response: {} },
    });
    expect(forged.status).toBe(401);
    expect(await forged.json()).toEqual({ error: "passkeySignInFailed" });
    expect(forged.headers.getSetCookie().join("")).not.toMatch(/session_token=[^;]/);
  });
});

describe("signing in with a passkey (a hand-made authenticator)", () => {
  const site = new URL(getConfig().siteUrl);

  async function enrolled(email: string) {
    const { userId } = await signedInCustomer(email, { clientAddress: "192.0.2.70" });
    const key = softwarePasskey();
    await database.db.insert(passkeys).values({
      id: randomUUID(),
      name: "Llave hecha a mano",
      userId,
      publicKey: key.publicKey,
      credentialID: key.credentialId,
      counter: 0,
      deviceType: "singleDevice",
      backedUp: false,
    });
    return { userId, key };
  }

  const jsonPost = (body: object, cookie = "") =>
    new Request(`${site.origin}/cuenta/llaves-de-acceso/entrada`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: site.origin, Cookie: cookie },
      body: JSON.stringify(body),
    });

  const cookiesOf = (response: Response) =>
    response.headers
      .getSetCookie()
      .map((value) => value.split(";")[0]!)
      .filter((value) => !value.endsWith("="));

  /** Both steps, as the sign-in page's script does them; answers the second step's response. */
  async function signIn(
    key: SoftwarePasskey,
    {
      door,
      userVerified,
      cookie = "",
    }: { door: "staff" | "customers"; userVerified: boolean; cookie?: string },
  ) {
    const clientAddress = "192.0.2.71";
    const options = await passkeySignIn({
      request: jsonPost({ step: "options", door }, cookie),
      clientAddress,
    });
    expect(options.status).toBe(200);
    const { challenge } = (await options.json()) as { challenge: string };
    const response = key.assert({
      challenge,
      origin: site.origin,
      rpId: site.hostname,
      userVerified,
      counter: 1,
    });
    const withChallenge = [cookie, ...cookiesOf(options)].filter(Boolean).join("; ");
    return passkeySignIn({
      request: jsonPost({ step: "verify", door, response }, withChallenge),
      clientAddress,
    });
  }

  it("opens the account when the passkey verified its user, and notes its use", async () => {
    const { userId, key } = await enrolled("huella@example.com");
    const answer = await signIn(key, { door: "customers", userVerified: true });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ ok: true });
    const session = cookiesOf(answer).find((value) => value.includes("session_token="))!;
    expect((await viewerOf(session))?.id).toBe(userId);
    const [row] = await database.db.select().from(passkeys).where(eq(passkeys.userId, userId));
    expect(row!.lastUsedAt).not.toBeNull();
  });

  it("refuses a passkey that did not verify its user (it would be one factor): no session", async () => {
    const { userId, key } = await enrolled("sin-pin@example.com");
    const before = (await sessionsOf(userId)).length;
    const answer = await signIn(key, { door: "customers", userVerified: false });
    expect(answer.status).toBe(401);
    expect(await answer.json()).toEqual({ error: "passkeySignInFailed" });
    expect(cookiesOf(answer).some((value) => value.includes("session_token="))).toBe(false);
    expect(await sessionsOf(userId)).toHaveLength(before);
  });

  it("refuses a customer's passkey at the staff door, ending the session it made", async () => {
    const { userId, key } = await enrolled("puerta-equivocada@example.com");
    const before = (await sessionsOf(userId)).length;
    const answer = await signIn(key, { door: "staff", userVerified: true });
    expect(answer.status).toBe(403);
    expect(await answer.json()).toEqual({ error: "passkeyNotStaff" });
    expect(await sessionsOf(userId)).toHaveLength(before);
  });

  it("refuses another account's passkey on the second step after a password", async () => {
    const staff = await enrolled("paso-dos@example.com");
    await database.db.insert(userRoles).values({ userId: staff.userId, role: "support" });
    const intruder = await enrolled("intrusa@example.com");
    // The staff member's password opens a challenge (a passkey-only account: decision 063).
    const password = (await customerSignIn({
      request: formPost("/login-cliente", { email: "paso-dos@example.com", password: PASSWORD }),
      clientAddress: "192.0.2.72",
    })) as Response;
    expect(password.headers.get("Location")).toBe("/login-cliente/verificacion");
    const challenge = password.headers
      .getSetCookie()
      .find((value) => value.includes("two_factor="))!
      .split(";")[0]!;
    const before = (await sessionsOf(intruder.userId)).length;
    const answer = await signIn(intruder.key, {
      door: "staff",
      userVerified: true,
      cookie: challenge,
    });
    expect(answer.status).toBe(403);
    expect(await answer.json()).toEqual({ error: "passkeyOtherAccount" });
    expect(await sessionsOf(intruder.userId)).toHaveLength(before);
    // Recorded against the account that typed its password, not the passkey's.
    const [row] = await auditRows(staff.userId);
    expect(row).toMatchObject({
      action: "staff.sign_in_failed",
      details: { motivo: "passkey_other_account", metodo: "llave de acceso" },
    });
  });

  it("lets a staff member's own passkey in at the staff door, audited with its method", async () => {
    const { userId, key } = await enrolled("llave-staff@example.com");
    await database.db.insert(userRoles).values({ userId, role: "admin" });
    const answer = await signIn(key, { door: "staff", userVerified: true });
    expect(await answer.json()).toEqual({ ok: true, to: "/admin" });
    const rows = await auditRows(userId);
    expect(rows.find((row) => row.action === "staff.sign_in")).toMatchObject({
      details: { puerta: "/login", metodo: "llave de acceso" },
    });
  });
});

describe("the device shown for a User-Agent", () => {
  it.each([
    [CHROME_WINDOWS, "Chrome en Windows"],
    [SAFARI_IPHONE, "Safari en iPhone"],
    ["Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0", "Firefox en Linux"],
    [
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0",
      "Edge en Mac",
    ],
    [null, "Navegador desconocido"],
    ["curl/8.5.0", "Navegador desconocido"],
  ])("%s → %s", (userAgent, device) => {
    expect(describeDevice(userAgent)).toBe(device);
  });
});
