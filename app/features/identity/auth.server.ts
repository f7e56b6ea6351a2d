import { unambiguousRecoveryCodes } from "./recovery-codes.server";
import type { APIError } from "better-auth/api";
import { eq } from "drizzle-orm";
import { getConfig, type AppConfig } from "~/platform/config.server";
import type { Database } from "~/platform/db/client.server";
import { getDb } from "~/platform/db/database.server";
import {
  accounts,
  profiles,
  passkeys,
  sessions,
  twoFactors,
  users,
  verifications,
} from "~/platform/db/schema";
import { getMailWorker } from "~/platform/mail/mailer.server";
import { enqueueMails, type OutgoingMail } from "~/platform/mail/outbox.server";
import { passwordResetMail, verificationMail } from "./auth-mails.server";
import { passkeyPlugin } from "./passkey-plugin.server";
import { CHALLENGE_SECONDS, secondFactorChallengePlugin } from "./second-factor-challenge.server";
import { PASSWORD_LIMITS } from "./identity-rules";
import { rememberVerification, verificationLinkHook } from "./verification-link.server";

/** Express copies the trusted client address here (overwriting any incoming value). */
export const CLIENT_ADDRESS_HEADER = "x-client-address";

/** A session slides: it lasts this long after its last renewal (renewed daily while in use). */
export const SESSION_DAYS = 7;

/**
 * However active, a session ends this long after it was created: an administrator's much
 * sooner, since it opens every customer's data (session.server.ts enforces both).
 */
export const SESSION_ABSOLUTE_LIFETIME_MS = { any: 30 * 24 * 60 * 60_000, admin: 12 * 60 * 60_000 };

/**
 * Better Auth's two-factor plugin (decision 044): TOTP of RFC 6238 (6 digits, 30-second steps,
 * ±1 step accepted) and 10 single-use recovery codes, encrypted with the auth secret. Its own
 * account lockout is off: failed codes back off like passwords, per account and client
 * (accounts/rate-limits.server.ts, decision 036), so a guesser cannot lock the owner out. A
 * challenge still ends after 5 wrong codes or 10 minutes (the password is asked again). No
 * "trusted device": every staff sign-in asks for the second factor.
 */
const SECOND_FACTOR_OPTIONS = (issuer: string) =>
  ({
    issuer,
    totpOptions: { digits: 6, period: 30 },
    backupCodeOptions: {
      amount: 10,
      length: 10,
      storeBackupCodes: "encrypted",
      customBackupCodesGenerate: () => unambiguousRecoveryCodes(10),
    },
    twoFactorCookieMaxAge: CHALLENGE_SECONDS,
    accountLockout: { enabled: false },
  }) as const;

const COOKIE_PREFIX = "vd";
const SESSION_COOKIE = new RegExp(`(?:^|;\\s*)(?:__Secure-)?${COOKIE_PREFIX}\\.session_token=`);

/** Whether a request carries a session cookie at all; without one there is no one to look up. */
export function hasSessionCookie(request: Request): boolean {
  return SESSION_COOKIE.test(request.headers.get("Cookie") ?? "");
}

/**
 * The request's headers without its session cookies: the sign-in's code step hands these to
 * Better Auth, which would otherwise check the code of a session the browser already holds
 * instead of the challenge's account (decision 063).
 */
export function withoutSessionCookies(headers: Headers): Headers {
  const kept = new Headers(headers);
  const cookies = (headers.get("Cookie") ?? "")
    .split(";")
    .map((pair) => pair.trim())
    .filter((pair) => pair && !/^(?:__Secure-)?vd\.session_(?:token|data)=/.test(pair));
  kept.set("Cookie", cookies.join("; "));
  return kept;
}

/**
 * Better Auth is imported on first use, not with the server's modules: loading it is a third of
 * their loading time, and anonymous visitors never need it. `startAuthLoading` warms it up while
 * the server waits for its database to open (decision 060).
 */
export async function createAuth(db: Database, config: AppConfig) {
  const [
    { betterAuth },
    { drizzleAdapter },
    { twoFactor },
    passkey,
    secondFactorChallenge,
    afterVerificationLink,
  ] = await Promise.all([
    import("better-auth"),
    import("better-auth/adapters/drizzle"),
    import("better-auth/plugins/two-factor"),
    passkeyPlugin(config),
    secondFactorChallengePlugin(),
    verificationLinkHook(),
  ]);
  const mailContext = { brandName: config.company.brandName, siteUrl: config.siteUrl };
  const queue = async (mail: OutgoingMail) => {
    await enqueueMails(db, [mail]);
    getMailWorker().wake();
  };
  return betterAuth({
    appName: config.company.brandName,
    baseURL: config.siteUrl,
    basePath: "/api/auth",
    secret: config.authSecret,
    trustedOrigins: [config.siteUrl],
    telemetry: { enabled: false },
    database: drizzleAdapter(db, {
      provider: "pg",
      schema: {
        user: users,
        session: sessions,
        account: accounts,
        verification: verifications,
        twoFactor: twoFactors,
        passkey: passkeys,
      },
    }),
    plugins: [
      twoFactor(SECOND_FACTOR_OPTIONS(config.company.brandName)),
      passkey,
      secondFactorChallenge,
    ],
    emailAndPassword: {
      enabled: true,
      requireEmailVerification: true,
      autoSignIn: false,
      minPasswordLength: PASSWORD_LIMITS.min,
      maxPasswordLength: PASSWORD_LIMITS.max,
      revokeSessionsOnPasswordReset: true,
      resetPasswordTokenExpiresIn: 60 * 60,
      sendResetPassword: ({ user, url }) => queue(passwordResetMail(user.email, url, mailContext)),
    },
    emailVerification: {
      sendOnSignUp: true,
      // The link signs in only the browser that asked for it: verification-link.server.ts.
      autoSignInAfterVerification: false,
      expiresIn: 24 * 60 * 60,
      sendVerificationEmail: ({ user, url }) =>
        queue(verificationMail(user.email, url, mailContext)),
      afterEmailVerification: async (user, request) => {
        await db
          .update(profiles)
          .set({ emailConfirmed: true, updatedAt: new Date() })
          .where(eq(profiles.id, user.id));
        rememberVerification(user, request);
      },
    },
    hooks: { after: afterVerificationLink },
    session: {
      expiresIn: SESSION_DAYS * 24 * 60 * 60,
      updateAge: 24 * 60 * 60,
      // Read with every session (no second query); written by session-activity.server.ts.
      additionalFields: { lastSeenAt: { type: "date", required: false, input: false } },
    },
    // Its HTTP endpoints are not exposed except the two mailed links; every form goes through
    // our actions, which apply the database rate limits of rate-limits.server.ts.
    rateLimit: { enabled: false },
    advanced: {
      cookiePrefix: COOKIE_PREFIX,
      useSecureCookies: config.isProduction,
      ipAddress: { ipAddressHeaders: [CLIENT_ADDRESS_HEADER] },
    },
    databaseHooks: {
      user: {
        create: {
          after: async (user) => {
            await db
              .insert(profiles)
              .values({ id: user.id, email: user.email, emailConfirmed: user.emailVerified })
              .onConflictDoNothing();
          },
        },
      },
    },
  });
}

export type Auth = Awaited<ReturnType<typeof createAuth>>;

const holder = globalThis as typeof globalThis & { __auth?: Promise<Auth> };

export function getAuth(): Promise<Auth> {
  holder.__auth ??= createAuth(getDb(), getConfig());
  return holder.__auth;
}

/** Loads Better Auth in the background, so that neither readiness nor the first sign-in waits for it. */
export function startAuthLoading() {
  getAuth().catch(() => {
    holder.__auth = undefined;
  });
}

/** Better Auth's API error, or undefined for anything else. */
export async function authApiError(error: unknown): Promise<APIError | undefined> {
  const { isAPIError } = await import("better-auth/api");
  return isAPIError(error) ? error : undefined;
}
