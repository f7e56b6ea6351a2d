import { and, desc, eq, like, sql } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  adminSignIn,
  customerSignIn,
  requestPasswordReset,
  resetPassword,
  signUp,
} from "~/features/accounts/account-actions.server";
import { ensureAdmin } from "~/features/accounts/admin-accounts.server";
import { getAuth } from "~/features/identity/auth.server";
import { mailOutbox, rateLimitBuckets, users } from "~/platform/db/schema";
import { runAction, type ActionAnswer } from "../support/account-actions";
import { setupTestDatabase } from "../support/test-database";

const database = setupTestDatabase();

const password = "contraseña-de-la-cuenta-7";

async function createVerifiedUser(email: string) {
  const answer = await runAction(signUp, { email, password, confirmPassword: password });
  expect(answer.status).toBe(302);
  await database.db.update(users).set({ emailVerified: true }).where(eq(users.email, email));
}

/** Time passes for the limits: every time they stored moves `seconds` back. */
async function wait(seconds: number) {
  await database.db.update(rateLimitBuckets).set({
    windowStartedAt: sql`${rateLimitBuckets.windowStartedAt} - make_interval(secs => ${seconds})`,
  });
}

let nextAddress = 0;
/** Another documentation address each time: a client of its own. */
const freshAddress = () => `198.51.100.${++nextAddress}`;

/** The client that guesses, and the one its owner signs in from. */
const attacker = "203.0.113.66";
const owner = "192.0.2.77";

const signIn = (email: string, guess: string, clientAddress = attacker) =>
  runAction(customerSignIn, { email, password: guess }, { clientAddress });

/**
 * The answer, its Retry-After rounded up to whole lock steps of 30 s: a slow machine may take a
 * second between a failure and the next attempt.
 */
const refusal = (answer: ActionAnswer) => {
  const retryAfter = answer.headers.get("Retry-After");
  return {
    status: answer.status,
    body: answer.body,
    lockSeconds: retryAfter === null ? null : Math.ceil(Number(retryAfter) / 30) * 30,
  };
};

const locked = (seconds: number) => ({
  status: 429,
  body: { errors: [{ code: "tooManyAttempts" }] },
  lockSeconds: seconds,
});

/** Ten wrong passwords within a minute from one client: the free failures. */
async function failTenTimes(email: string, clientAddress = attacker) {
  for (let attempt = 1; attempt <= 10; attempt++)
    expect((await signIn(email, `intento-${attempt}`, clientAddress)).status).toBe(401);
}

/** Forgets every sign-in counter: each test starts with no failures anywhere. */
const forgetAllFailures = () => database.db.delete(rateLimitBuckets);

describe("failed sign-ins of one account from one client", () => {
  beforeAll(async () => {
    await createVerifiedUser("objetivo@example.com");
  });
  beforeEach(forgetAllFailures);

  it("lock that client after 10 failures for 30 s, doubling with each further failure up to 15 minutes", async () => {
    const email = "objetivo@example.com";
    await failTenTimes(email);
    // The minute of the fixed window passes, and the 30 s lock after the 10th failure with it.
    await wait(61);
    const locks: number[] = [];
    for (let failure = 11; failure <= 17; failure++) {
      expect((await signIn(email, `intento-${failure}`)).status).toBe(401);
      const next = refusal(await signIn(email, "otro-intento-mas"));
      expect(next).toMatchObject({ status: 429, body: { errors: [{ code: "tooManyAttempts" }] } });
      locks.push(next.lockSeconds!);
      // Even the right password waits, from that client, until the lock ends.
      expect((await signIn(email, password)).status).toBe(429);
      await wait(next.lockSeconds! + 1);
    }
    expect(locks).toEqual([60, 120, 240, 480, 900, 900, 900]);
  });

  it("forget that client's failures after a successful sign-in from it", async () => {
    const email = "objetivo@example.com";
    await failTenTimes(email);
    await wait(61);
    expect((await signIn(email, password)).status).toBe(302);
    expect((await signIn(email, "intento-tras-acertar")).status).toBe(401);
    expect((await signIn(email, "otro-intento-tras-acertar")).status).toBe(401);
  });

  it("count the admin login's failures for the same account and client", async () => {
    await createVerifiedUser("jefe@example.com");
    for (let attempt = 1; attempt <= 10; attempt++) {
      const answer = await runAction(
        adminSignIn,
        { email: "jefe@example.com", password: `admin-${attempt}` },
        { clientAddress: attacker },
      );
      expect(answer.status).toBe(401);
    }
    await wait(61);
    expect((await signIn("jefe@example.com", "intento-11")).status).toBe(401);
    expect(refusal(await signIn("jefe@example.com", password))).toEqual(locked(60));
  });

  it("answer an unknown address exactly like a registered one", async () => {
    await createVerifiedUser("conocida@example.com");
    const answers = [];
    for (const email of ["conocida@example.com", "desconocida@example.com"]) {
      await failTenTimes(email);
      await wait(61);
      const eleventh = await signIn(email, "intento-11");
      answers.push({ eleventh: refusal(eleventh), next: refusal(await signIn(email, "x-12")) });
    }
    expect(answers[0]).toEqual({
      eleventh: {
        status: 401,
        body: { errors: [{ code: "wrongCredentials" }] },
        lockSeconds: null,
      },
      next: locked(60),
    });
    expect(answers[1]).toEqual(answers[0]);
  });
});

describe("an attacker who knows a customer's address", () => {
  beforeAll(async () => {
    await createVerifiedUser("victima@example.com");
  });
  beforeEach(forgetAllFailures);

  it("cannot lock the owner out: 30 guesses from one client, and the owner signs in from another at once", async () => {
    const email = "victima@example.com";
    const statuses = new Set<number>();
    for (let guess = 1; guess <= 30; guess++)
      statuses.add((await signIn(email, `adivina-${guess}`, attacker)).status);
    expect([...statuses].sort()).toEqual([401, 429]);
    const started = performance.now();
    const owners = await signIn(email, password, owner);
    expect(owners.status).toBe(302);
    expect(performance.now() - started).toBeLessThan(1000);
    // The attacker's client is still held back, even with the right password.
    expect((await signIn(email, "adivina-31", attacker)).status).toBe(429);
    expect((await signIn(email, password, attacker)).status).toBe(429);
  });

  it("cannot keep the owner from a new password: the mailed reset link works during the attack", async () => {
    const email = "victima@example.com";
    for (let guess = 1; guess <= 30; guess++) await signIn(email, `adivina-${guess}`, attacker);
    const asked = await runAction(requestPasswordReset, { email }, { clientAddress: owner });
    expect(asked.body).toMatchObject({ notice: "resetMailSent" });
    const [mail] = await database.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.recipient, email))
      .orderBy(desc(mailOutbox.createdAt))
      .limit(1);
    const token = /reset-password\/([^?"&]+)/.exec(mail!.html)![1]!;
    const newPassword = "otra-contraseña-tras-el-ataque-9";
    const chosen = await runAction(
      resetPassword,
      { token, password: newPassword, confirmPassword: newPassword },
      { clientAddress: owner },
    );
    expect(chosen.body).toBe("/login-cliente");
    expect((await signIn(email, newPassword, owner)).status).toBe(302);
  });

  it("spread over many clients is slowed down, never refused", async () => {
    const email = "victima@example.com";
    for (let client = 1; client <= 15; client++)
      expect((await signIn(email, `botnet-${client}`, freshAddress())).status).toBe(401);
    // Fifteen failures: each further attempt at the account waits half a second before its check.
    const started = performance.now();
    const next = await signIn(email, "botnet-16", freshAddress());
    expect(next.status).toBe(401);
    expect(performance.now() - started).toBeGreaterThanOrEqual(490);
    expect((await signIn(email, "adivina-otra-vez", owner)).status).toBe(401);
  });
});

describe("failed sign-ins from one address", () => {
  // An IPv6 visitor picks any address in its /64: they all count as one.
  const fromSameNetwork = (n: number) => `2001:db8:5:6::${n.toString(16)}`;

  it("lock the address (its /64) after 30 failures across accounts, whichever account it tries next", async () => {
    await createVerifiedUser("vecina@example.com");
    for (let n = 1; n <= 30; n++) {
      const answer = await signIn(`nadie-${n}@example.com`, "123456789abc", fromSameNetwork(n));
      expect(answer.status).toBe(401);
    }
    // The ten minutes of the fixed window pass, and the 30 s lock after the 30th failure.
    await wait(601);
    expect((await signIn("nadie-31@example.com", "x", fromSameNetwork(31))).status).toBe(401);
    expect(refusal(await signIn("nadie-32@example.com", "x", fromSameNetwork(32)))).toEqual(
      locked(60),
    );
    expect(refusal(await signIn("vecina@example.com", password, fromSameNetwork(33)))).toEqual(
      locked(60),
    );
    // Another visitor is not held back by it.
    expect((await signIn("vecina@example.com", password, "203.0.113.200")).status).toBe(302);
  });
});

describe("common passwords", () => {
  const common = ["qwertyuiop", "Password123", "barcelona"];

  it("are refused at sign-up, whatever their case, and no account is created", async () => {
    for (const guessable of common) {
      const email = `comun-${guessable.toLowerCase()}@example.com`;
      const answer = await runAction(signUp, {
        email,
        password: guessable,
        confirmPassword: guessable,
      });
      expect({ status: answer.status, body: answer.body }).toEqual({
        status: 400,
        body: { errors: [{ code: "passwordTooCommon", field: "password" }] },
      });
      expect(await database.db.select().from(users).where(eq(users.email, email))).toHaveLength(0);
    }
  });

  it("are refused when a new password is chosen through the mailed link", async () => {
    await createVerifiedUser("olvidadiza@example.com");
    await runAction(requestPasswordReset, { email: "olvidadiza@example.com" });
    const [mail] = await database.db
      .select()
      .from(mailOutbox)
      .where(
        and(
          like(mailOutbox.kind, "password-reset"),
          eq(mailOutbox.recipient, "olvidadiza@example.com"),
        ),
      );
    const token = /reset-password\/([^?"&]+)/.exec(mail!.html)![1]!;
    const choose = (newPassword: string) =>
      runAction(resetPassword, { token, password: newPassword, confirmPassword: newPassword });
    const refused = await choose("password1");
    expect({ status: refused.status, body: refused.body }).toEqual({
      status: 400,
      body: { errors: [{ code: "passwordTooCommon", field: "password" }] },
    });
    expect((await choose("nueva-y-rara-contraseña-42")).body).toBe("/login-cliente");
  });

  it("are refused for an administrator the operator creates", async () => {
    await expect(
      ensureAdmin(await getAuth(), database.db, "operadora@example.com", "iloveyou1"),
    ).rejects.toThrow(/común/);
    expect(
      await database.db.select().from(users).where(eq(users.email, "operadora@example.com")),
    ).toHaveLength(0);
  });
});
