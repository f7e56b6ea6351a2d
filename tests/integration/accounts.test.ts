import { eq, like } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import {
  customerSignIn,
  profileAction,
  requestPasswordReset,
  resetPassword,
  signUp,
} from "~/features/accounts/account-actions.server";
import { getConfig } from "~/platform/config.server";
import { accounts, mailOutbox, profiles, users } from "~/platform/db/schema";
import { setupTestDatabase } from "../support/test-database";

const database = setupTestDatabase();

type Answer = { status: number; body: unknown };

/** Runs an action the way React Router would, reading redirects and data() answers alike. */
async function run(
  action: (input: { request: Request; clientAddress: string }) => Promise<unknown>,
  fields: Record<string, string>,
  clientAddress = "192.0.2.10",
): Promise<Answer> {
  const request = new Request(`${getConfig().siteUrl}/form`, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { Origin: getConfig().siteUrl },
  });
  const answer = (await action({ request, clientAddress })) as
    Response | { data: unknown; init: { status?: number } | null };
  if (answer instanceof Response)
    return { status: answer.status, body: answer.headers.get("Location") };
  return { status: answer.init?.status ?? 200, body: answer.data };
}

const password = "contraseña-larga-1";

async function createVerifiedUser(email: string) {
  const answer = await run(signUp, { email, password, confirmPassword: password });
  expect(answer).toEqual({ status: 302, body: "/verificar-email" });
  await database.db.update(users).set({ emailVerified: true }).where(eq(users.email, email));
}

beforeAll(async () => {
  await createVerifiedUser("known@example.com");
});

describe("sign-up", () => {
  it("creates the user with a profile and queues the verification mail", async () => {
    const [user] = await database.db
      .select()
      .from(users)
      .where(eq(users.email, "known@example.com"));
    expect(user).toBeTruthy();
    const [profile] = await database.db.select().from(profiles).where(eq(profiles.id, user!.id));
    expect(profile?.email).toBe("known@example.com");
    const mails = await database.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.recipient, "known@example.com"));
    expect(mails.map((mail) => mail.kind)).toEqual(["email-verification"]);
  });

  it("lower-cases and trims the address, and refuses a registered one with the spec's message", async () => {
    const answer = await run(signUp, {
      email: "  KNOWN@Example.com ",
      password,
      confirmPassword: password,
    });
    expect(answer).toEqual({
      status: 409,
      body: { errors: [{ code: "alreadyRegistered", field: "email" }] },
    });
  });

  it("enforces the password and e-mail limits on the server", async () => {
    expect(
      (await run(signUp, { email: "a@b.es", password: "short", confirmPassword: "short" })).body,
    ).toEqual({ errors: [{ code: "passwordTooShort", field: "password" }] });
    const long = "x".repeat(101);
    expect(
      (await run(signUp, { email: "a@b.es", password: long, confirmPassword: long })).body,
    ).toEqual({ errors: [{ code: "passwordTooLong", field: "password" }] });
    expect(
      (await run(signUp, { email: `${"a".repeat(251)}@b.es`, password, confirmPassword: password }))
        .body,
    ).toEqual({ errors: [{ code: "emailTooLong", field: "email" }] });
  });
});

describe("sign-in limits", () => {
  it("answer the 11th wrong password for one account from one client within a minute with 429", async () => {
    const statuses: number[] = [];
    for (let attempt = 1; attempt <= 11; attempt++) {
      const answer = await run(
        customerSignIn,
        { email: "known@example.com", password: "wrong-password" },
        "198.51.100.1",
      );
      statuses.push(answer.status);
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses[10]).toBe(429);
    const signIn = (clientAddress: string) =>
      run(customerSignIn, { email: "known@example.com", password }, clientAddress);
    expect((await signIn("198.51.100.1")).status).toBe(429);
    // The client is held back, not the account (decision 036): its owner signs in elsewhere.
    expect((await signIn("198.51.100.2")).status).toBe(302);
  });
});

describe("sign-in failures", () => {
  it("an unexpected failure says the login failed, not the sign-up", async () => {
    await createVerifiedUser("broken-hash@example.com");
    const [user] = await database.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, "broken-hash@example.com"));
    // A stored hash the password library cannot read makes Better Auth throw, not answer 401.
    await database.db
      .update(accounts)
      .set({ password: "not-a-hash" })
      .where(eq(accounts.userId, user!.id));
    const answer = await run(customerSignIn, { email: "broken-hash@example.com", password });
    expect(answer).toEqual({ status: 503, body: { errors: [{ code: "signInFailed" }] } });
  });
});

describe("new-password limits", () => {
  it("answer the 31st guessed reset token from one address within ten minutes with 429", async () => {
    const guess = (attempt: number) =>
      run(
        resetPassword,
        { token: `guess-${attempt}`, password, confirmPassword: password },
        "203.0.113.77",
      );
    const statuses: number[] = [];
    for (let attempt = 1; attempt <= 31; attempt++) statuses.push((await guess(attempt)).status);
    expect(statuses.slice(0, 30)).toEqual(Array(30).fill(400));
    expect(statuses[30]).toBe(429);
  });
});

describe("password recovery", () => {
  it("answers an unknown address exactly like a known one, mailing only the known one", async () => {
    const known = await run(requestPasswordReset, { email: "known@example.com" });
    const unknown = await run(requestPasswordReset, { email: "nobody@example.com" });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(known.status);
    expect({ ...(unknown.body as object), email: "" }).toEqual({
      ...(known.body as object),
      email: "",
    });
    const resetMails = await database.db
      .select()
      .from(mailOutbox)
      .where(like(mailOutbox.kind, "password-reset"));
    expect(resetMails.map((mail) => mail.recipient)).toEqual(["known@example.com"]);
  });
});

describe("the profile", () => {
  async function viewerOf(email: string, verified: boolean) {
    await createVerifiedUser(email);
    await database.db.update(users).set({ emailVerified: verified }).where(eq(users.email, email));
    const [user] = await database.db.select().from(users).where(eq(users.email, email));
    return {
      id: user!.id,
      email,
      emailVerified: verified,
      createdAt: user!.createdAt.toISOString(),
    };
  }

  const submit = (viewer: Awaited<ReturnType<typeof viewerOf>>, fields: Record<string, string>) =>
    run((input) => profileAction(input, viewer), fields);

  const profileOf = async (id: string) =>
    (await database.db.select().from(profiles).where(eq(profiles.id, id)))[0]!;

  it("saves the customer's own fields, trimmed, empty ones as null", async () => {
    const viewer = await viewerOf("perfil@example.com", true);
    const answer = await submit(viewer, {
      intent: "save",
      fullName: "  Ana García ",
      phone: "+34 600 000 000",
      company: "",
      bio: "Tienda online de cerámica.",
      // Not a profile field: ignored, whatever the client sends.
      email: "otra@example.com",
    });
    expect(answer).toEqual({ status: 302, body: "/perfil" });
    expect(await profileOf(viewer.id)).toMatchObject({
      fullName: "Ana García",
      phone: "+34 600 000 000",
      company: null,
      bio: "Tienda online de cerámica.",
      email: "perfil@example.com",
    });
  });

  it("refuses a bad field with its message and keeps what was saved", async () => {
    const viewer = await viewerOf("perfil2@example.com", true);
    await submit(viewer, { intent: "save", fullName: "Luis" });
    expect(await submit(viewer, { intent: "save", fullName: "Otro", phone: "llámame" })).toEqual({
      status: 400,
      body: { errors: [{ code: "phoneInvalid", field: "phone" }] },
    });
    expect(await submit(viewer, { intent: "save", bio: "b".repeat(501) })).toMatchObject({
      status: 400,
      body: { errors: [{ code: "bioTooLong" }] },
    });
    expect((await profileOf(viewer.id)).fullName).toBe("Luis");
    expect(await submit(viewer, { intent: "borrar-todo" })).toMatchObject({ status: 400 });
  });

  it("mails a password link to the signed-in address, and a verification link only when unverified", async () => {
    const verified = await viewerOf("perfil3@example.com", true);
    expect(await submit(verified, { intent: "password" })).toEqual({
      status: 302,
      body: "/perfil",
    });
    expect(await submit(verified, { intent: "verify" })).toEqual({ status: 302, body: "/perfil" });
    const unverified = await viewerOf("perfil4@example.com", false);
    expect(await submit(unverified, { intent: "verify" })).toEqual({
      status: 302,
      body: "/perfil",
    });
    const subjectsTo = async (recipient: string) =>
      (await database.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, recipient)))
        .map((mail) => mail.subject)
        .sort();
    const sent3 = await subjectsTo("perfil3@example.com");
    expect(sent3.filter((subject) => subject.startsWith("Restablece tu contraseña"))).toHaveLength(
      1,
    );
    // Sign-up sent one verification mail; the verified customer asked again and got none.
    expect(sent3.filter((subject) => subject.startsWith("Confirma tu email"))).toHaveLength(1);
    const sent4 = await subjectsTo("perfil4@example.com");
    expect(sent4.filter((subject) => subject.startsWith("Confirma tu email"))).toHaveLength(2);
  });
});
