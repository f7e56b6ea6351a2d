import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { adminSignIn, customerSignIn, signUp } from "~/features/accounts/account-actions.server";
import { ensureAdmin } from "~/features/accounts/admin-accounts.server";
import { getAuth } from "~/features/identity/auth.server";
import { getViewer, type Viewer } from "~/features/identity/session.server";
import { getConfig } from "~/platform/config.server";
import { getDb } from "~/platform/db/database.server";
import { users } from "~/platform/db/schema";
import { totpCode } from "./totp";

/** A form post as the browser sends it: from this site, with the session cookie if any. */
export function formPost(path: string, fields: Record<string, string>, cookie = "") {
  return new Request(`${getConfig().siteUrl}${path}`, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { Cookie: cookie, Origin: getConfig().siteUrl },
  });
}

/**
 * Signs a new customer up and in through the real actions; returns the session cookie and the
 * user id. Signing in needs a verified address, so an unverified customer loses it afterwards.
 */
export async function signedInCustomer(
  email: string,
  { verified = true, password = "contraseña-de-prueba", clientAddress = "192.0.2.1" } = {},
): Promise<{ cookie: string; userId: string }> {
  await signUp({
    request: formPost("/registro", { email, password, confirmPassword: password }),
    clientAddress,
  });
  await getDb().update(users).set({ emailVerified: true }).where(eq(users.email, email));
  const signedIn = (await customerSignIn({
    request: formPost("/login-cliente", { email, password }),
    clientAddress,
  })) as Response;
  const cookie = sessionCookieOf(signedIn);
  if (!verified)
    await getDb().update(users).set({ emailVerified: false }).where(eq(users.email, email));
  const [user] = await getDb().select().from(users).where(eq(users.email, email));
  return { cookie, userId: user!.id };
}

/** Whom a request with `cookie` is signed in as: the viewer, or null without a live session. */
export async function viewerOf(cookie: string) {
  const { viewer } = await getViewer(
    new Request(getConfig().siteUrl, { headers: { Cookie: cookie } }),
  );
  return viewer;
}

/** A verified account as the feature code sees it: its viewer, and the session cookie it sends. */
export async function partyOf(
  email: string,
  cookie: string,
): Promise<{ viewer: Viewer; cookie: string }> {
  const [user] = await getDb().select().from(users).where(eq(users.email, email));
  return {
    cookie,
    viewer: { id: user!.id, email, emailVerified: true, createdAt: user!.createdAt.toISOString() },
  };
}

/** The session cookie a sign-in answer sets, as a Cookie header. */
function sessionCookieOf(signedIn: Response): string {
  return signedIn.headers
    .getSetCookie()
    .find((value) => value.includes("session_token="))!
    .split(";")[0]!;
}

/**
 * Makes an administrator (as ADMIN_EMAIL does at start) and signs them in through /login; staff
 * open no staff page without a second factor (decision 044), so a TOTP is enrolled on the way
 * (`secondFactor: false` leaves the account without one).
 */
export async function signedInAdmin(
  email: string,
  {
    password = `Adm-${randomBytes(12).toString("hex")}`,
    clientAddress = "192.0.2.50",
    secondFactor = true,
  } = {},
): Promise<{ cookie: string; userId: string; secret?: string }> {
  await ensureAdmin(await getAuth(), getDb(), email, password);
  const signedIn = (await adminSignIn({
    request: formPost("/login", { email, password }),
    clientAddress,
  })) as Response;
  const [user] = await getDb().select().from(users).where(eq(users.email, email));
  const cookie = sessionCookieOf(signedIn);
  if (!secondFactor) return { cookie, userId: user!.id };
  return { ...(await enrolTotp(cookie, password)), userId: user!.id };
}

/**
 * A TOTP enrolled for the account signed in with `cookie`, through Better Auth's plugin as the
 * security page does; the confirming code is computed from the secret (tests/support/totp.ts).
 * Returns the new session's cookie (the enrolment replaces the session) and the secret.
 */
export async function enrolTotp(cookie: string, password: string) {
  const auth = await getAuth();
  const headers = new Headers({ Cookie: cookie });
  const started = await auth.api.enableTwoFactor({ body: { password, method: "totp" }, headers });
  if (started.method !== "totp") throw new Error("no TOTP enrolment");
  const secret = new URL(started.totpURI).searchParams.get("secret")!;
  const confirmed = await auth.api.verifyTOTP({
    body: { code: totpCode(secret) },
    headers,
    returnHeaders: true,
  });
  const next = confirmed.headers
    .getSetCookie()
    .find((value) => value.includes("session_token=") && !value.includes("Max-Age=0"));
  return { cookie: next!.split(";")[0]!, secret };
}

/** A sign-in at /login from `clientAddress`: its status, and where a redirect sends the visitor. */
export async function adminLoginAnswer(email: string, password: string, clientAddress: string) {
  const answer = (await adminSignIn({
    request: formPost("/login", { email, password }),
    clientAddress,
  })) as Response | { init: { status?: number } | null };
  if (answer instanceof Response)
    return { status: answer.status, location: answer.headers.get("Location") };
  return { status: answer.init?.status ?? 200, location: null };
}
