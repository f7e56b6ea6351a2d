import { createEmailVerificationToken } from "better-auth/api";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { customerSignIn, signUp } from "~/features/accounts/account-actions.server";
import { verificationPage } from "~/features/accounts/account-pages.server";
import { getAuth } from "~/features/identity/auth.server";
import { getConfig } from "~/platform/config.server";
import { mailOutbox, profiles, sessions, users } from "~/platform/db/schema";
import { takeToast } from "~/platform/http/toast.server";
import { cookiesOf, runAction } from "../support/account-actions";
import { viewerOf } from "../support/customer-session";
import { setupTestDatabase } from "../support/test-database";

const database = setupTestDatabase();

const password = "contraseña-de-registro-3";

/** Signs `email` up; returns the cookies the sign-up answer set (the pending-e-mail cookie). */
async function signUpBrowser(email: string) {
  const answer = await runAction(signUp, { email, password, confirmPassword: password });
  expect(answer.body).toBe("/verificar-email");
  return cookiesOf(answer.headers);
}

async function mailedLink(email: string) {
  const mails = await database.db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.recipient, email), eq(mailOutbox.kind, "email-verification")));
  const html = mails.at(-1)!.html;
  return /href="([^"]*verify-email[^"]*)"/.exec(html)![1]!.replace(/&amp;/g, "&");
}

/** A link as Better Auth mails it, around any token. */
const linkWith = (token: string) =>
  `${getConfig().siteUrl}/api/auth/verify-email?token=${encodeURIComponent(token)}&callbackURL=/verificar-email`;

/** A browser opens the link: with `cookie`, or none (another browser, another device). */
async function openLink(link: string, cookie = "") {
  return (await getAuth()).handler(
    new Request(link, { headers: cookie ? { Cookie: cookie } : {} }),
  );
}

async function userOf(email: string) {
  const [user] = await database.db.select().from(users).where(eq(users.email, email));
  const [profile] = await database.db.select().from(profiles).where(eq(profiles.id, user!.id));
  const open = await database.db.select().from(sessions).where(eq(sessions.userId, user!.id));
  return {
    verified: user!.emailVerified,
    confirmed: profile!.emailConfirmed,
    sessions: open.length,
  };
}

const sessionCookieIn = (response: Response) =>
  response.headers.getSetCookie().some((cookie) => /session_token=[^;]/.test(cookie));

describe("the mailed verification link", () => {
  it("signs in the browser that signed up: it holds the pending cookie of that address", async () => {
    const email = "misma@example.com";
    const browser = await signUpBrowser(email);
    const response = await openLink(await mailedLink(email), browser);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/verificar-email?enlace");
    expect(sessionCookieIn(response)).toBe(true);
    expect(await userOf(email)).toEqual({ verified: true, confirmed: true, sessions: 1 });
    const signedIn = cookiesOf(response.headers);
    const viewer = await viewerOf(signedIn);
    expect(viewer).toMatchObject({ email, emailVerified: true });
  });

  it("signs in the browser that was sent to verify at sign-in", async () => {
    const email = "antes-de-entrar@example.com";
    await signUpBrowser(email);
    const refused = await runAction(customerSignIn, { email, password });
    expect(refused.body).toMatchObject({ errors: [{ code: "emailNotVerified" }] });
    const response = await openLink(await mailedLink(email), cookiesOf(refused.headers));
    expect(sessionCookieIn(response)).toBe(true);
    expect((await userOf(email)).sessions).toBe(1);
  });

  it("verifies the address in another browser without signing it in, and says to sign in", async () => {
    const email = "otro-navegador@example.com";
    await signUpBrowser(email);
    const response = await openLink(await mailedLink(email));
    expect(response.status).toBe(302);
    expect(sessionCookieIn(response)).toBe(false);
    expect(await userOf(email)).toEqual({ verified: true, confirmed: true, sessions: 0 });
    expect(response.headers.get("Location")).toBe("/login-cliente");
    const next = new Request(`${getConfig().siteUrl}/login-cliente`, {
      headers: { Cookie: cookiesOf(response.headers) },
    });
    expect((await takeToast(next)).toast).toMatchObject({
      kind: "success",
      title: "Email verificado",
      description: "Tu dirección está confirmada. Inicia sesión para continuar.",
    });
  });

  it("opened again, or on another device after it was used, says the address is verified (issue 39, item 11)", async () => {
    const email = "dos-veces@example.com";
    const waiting = await signUpBrowser(email);
    const link = await mailedLink(email);
    await openLink(link);
    // The link again, in a browser that is not signed in: Better Auth finds it verified.
    const again = await openLink(link);
    expect(again.status).toBe(302);
    expect(again.headers.get("Location")).toBe("/verificar-email?enlace");
    const landing = await verificationPage(
      new Request(`${getConfig().siteUrl}/verificar-email?enlace`),
    );
    expect(landing.data).toMatchObject({ state: "verified-elsewhere" });
    // The tab that signed up and waits: it notices the address was verified on another device.
    const tab = await verificationPage(
      new Request(`${getConfig().siteUrl}/verificar-email`, { headers: { Cookie: waiting } }),
    );
    expect(tab.data).toMatchObject({ state: "verified-elsewhere", email });
    // Before any link, the same tab still waits.
    const other = await signUpBrowser("aun-esperando@example.com");
    const stillWaiting = await verificationPage(
      new Request(`${getConfig().siteUrl}/verificar-email`, { headers: { Cookie: other } }),
    );
    expect(stillWaiting.data).toMatchObject({ state: "sent" });
  });

  it("does not sign in a browser waiting for another address (login CSRF)", async () => {
    const attacker = "atacante@example.com";
    const victim = "victima@example.com";
    await signUpBrowser(attacker);
    const victimsBrowser = await signUpBrowser(victim);
    const response = await openLink(await mailedLink(attacker), victimsBrowser);
    expect(sessionCookieIn(response)).toBe(false);
    expect(await userOf(attacker)).toEqual({ verified: true, confirmed: true, sessions: 0 });
    expect(response.headers.get("Location")).toBe("/login-cliente");
    // The victim's own sign-up is untouched.
    expect(await userOf(victim)).toEqual({ verified: false, confirmed: false, sessions: 0 });
  });

  it("refuses a forged token, even in the browser that signed up: unverified, signed out", async () => {
    const email = "falsificado@example.com";
    const browser = await signUpBrowser(email);
    const forged = await createEmailVerificationToken(
      "not-our-secret-but-long-enough-to-sign",
      email,
    );
    const response = await openLink(linkWith(forged), browser);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toMatch(/\/verificar-email\?error=/);
    expect(sessionCookieIn(response)).toBe(false);
    expect(await userOf(email)).toEqual({ verified: false, confirmed: false, sessions: 0 });
  });

  it("refuses an expired token", async () => {
    const email = "caducado@example.com";
    const browser = await signUpBrowser(email);
    const expired = await createEmailVerificationToken(
      getConfig().authSecret,
      email,
      undefined,
      -60,
    );
    const response = await openLink(linkWith(expired), browser);
    expect(response.headers.get("Location")).toMatch(/\/verificar-email\?error=/);
    expect(sessionCookieIn(response)).toBe(false);
    expect(await userOf(email)).toEqual({ verified: false, confirmed: false, sessions: 0 });
  });
});
