import { Writable } from "node:stream";
import { eq } from "drizzle-orm";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { ensureAdmin } from "~/features/accounts/admin-accounts.server";
import { getAuth } from "~/features/identity/auth.server";
import { staffRoleOf } from "~/features/identity/session.server";
import { profiles, sessions, users } from "~/platform/db/schema";
import { adminLoginAnswer, signedInCustomer, viewerOf } from "../support/customer-session";
import { setupTestDatabase } from "../support/test-database";

const database = setupTestDatabase();

const attackerPassword = "contraseña-del-atacante";
const operatorPassword = "contraseña-del-operador";

/** A real pino logger writing JSON lines into memory, to read what ensureAdmin logged. */
function capturedLogger() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString("utf8").split("\n").filter(Boolean));
      done();
    },
  });
  return { logger: pino({ level: "info" }, stream), lines };
}

/** The admin login at /login, with a fresh client address each time (no rate limit). */
let attempt = 0;
async function adminLogin(email: string, password: string) {
  attempt += 1;
  return adminLoginAnswer(email, password, `192.0.2.${attempt}`);
}

const signedIn = async (cookie: string) => Boolean(await viewerOf(cookie));

const userByEmail = async (email: string) =>
  (await database.db.select().from(users).where(eq(users.email, email)))[0]!;

describe("ensureAdmin on an address someone signed up with first", () => {
  it("replaces the unverified account's password, ends its sessions and logs it: only the operator's password opens /admin", async () => {
    const email = "jefa@empresa.es";
    // The attacker signs up at /registro with the address the operator will configure.
    const attacker = await signedInCustomer(email, {
      verified: false,
      password: attackerPassword,
    });
    expect(await signedIn(attacker.cookie)).toBe(true);
    const { logger, lines } = capturedLogger();

    const result = await ensureAdmin(
      await getAuth(),
      database.db,
      " Jefa@Empresa.es ",
      operatorPassword,
      { logger },
    );

    expect(await adminLogin(email, attackerPassword)).toEqual({ status: 401, location: null });
    expect(await signedIn(attacker.cookie)).toBe(false);
    const attackerToken = decodeURIComponent(attacker.cookie.split("=")[1]!).split(".")[0]!;
    expect(
      await database.db.select().from(sessions).where(eq(sessions.token, attackerToken)),
    ).toEqual([]);
    expect(await adminLogin(email, operatorPassword)).toEqual({ status: 302, location: "/admin" });
    expect(result).toMatchObject({ userId: attacker.userId, created: false, reclaimed: true });
    expect(result.generatedPassword).toBeUndefined();
    expect((await userByEmail(email)).emailVerified).toBe(true);
    const [profile] = await database.db
      .select()
      .from(profiles)
      .where(eq(profiles.id, attacker.userId));
    expect(profile?.emailConfirmed).toBe(true);
    expect(await staffRoleOf(attacker.userId)).toBe("admin");

    const warnings = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ level: 40, userId: attacker.userId, email });
    expect(lines[0]).not.toContain(attackerPassword);
    expect(lines[0]).not.toContain(operatorPassword);
  });

  it("gives a reclaimed account a generated password when the operator set none, and returns it once", async () => {
    const email = "socio@empresa.es";
    const attacker = await signedInCustomer(email, {
      verified: false,
      password: attackerPassword,
    });
    const { logger, lines } = capturedLogger();

    const result = await ensureAdmin(await getAuth(), database.db, email, undefined, { logger });

    expect(await adminLogin(email, attackerPassword)).toEqual({ status: 401, location: null });
    expect(await signedIn(attacker.cookie)).toBe(false);
    expect(result.reclaimed).toBe(true);
    expect(result.generatedPassword).toMatch(/^[\w-]{16}$/);
    expect(await adminLogin(email, result.generatedPassword!)).toEqual({
      status: 302,
      location: "/admin",
    });
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain(result.generatedPassword!);
  });

  it("keeps the password of an account whose owner verified the address, and only promotes it", async () => {
    const email = "duena@empresa.es";
    const owner = await signedInCustomer(email, { password: attackerPassword });
    const { logger, lines } = capturedLogger();

    const result = await ensureAdmin(await getAuth(), database.db, email, operatorPassword, {
      logger,
    });

    expect(result).toMatchObject({ userId: owner.userId, created: false, reclaimed: false });
    expect(await signedIn(owner.cookie)).toBe(true);
    expect(await adminLogin(email, operatorPassword)).toEqual({ status: 401, location: null });
    expect(await adminLogin(email, attackerPassword)).toEqual({ status: 302, location: "/admin" });
    expect(lines).toEqual([]);
  });

  it("creates a missing administrator, verified, with the operator's password", async () => {
    const email = "nueva@empresa.es";
    const result = await ensureAdmin(await getAuth(), database.db, email, operatorPassword);
    expect(result).toMatchObject({ created: true, reclaimed: false });
    expect((await userByEmail(email)).emailVerified).toBe(true);
    expect(await adminLogin(email, operatorPassword)).toEqual({ status: 302, location: "/admin" });
  });

  it("lets instances started together ensure the same administrator: one account, all start", async () => {
    const email = "simultanea@empresa.es";
    const auth = await getAuth();
    const results = await Promise.all(
      Array.from({ length: 3 }, () => ensureAdmin(auth, database.db, email, operatorPassword)),
    );
    expect(results.filter((result) => result.created)).toHaveLength(1);
    expect(new Set(results.map((result) => result.userId)).size).toBe(1);
    expect(await database.db.select().from(users).where(eq(users.email, email))).toHaveLength(1);
    expect(await adminLogin(email, operatorPassword)).toEqual({ status: 302, location: "/admin" });
  });
});
