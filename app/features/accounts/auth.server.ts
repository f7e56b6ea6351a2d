import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { eq } from "drizzle-orm";
import { getConfig, type AppConfig } from "~/platform/config.server";
import type { Database } from "~/platform/db/client.server";
import { getDb } from "~/platform/db/database.server";
import { accounts, profiles, sessions, users, verifications } from "~/platform/db/schema";
import { getMailWorker } from "~/platform/mail/mailer.server";
import { enqueueMails, type OutgoingMail } from "~/platform/mail/outbox.server";
import { passwordResetMail, verificationMail } from "./account-mails.server";
import { PASSWORD_LIMITS } from "./account-schemas";

/** Express copies the trusted client address here (overwriting any incoming value). */
export const CLIENT_ADDRESS_HEADER = "x-client-address";

export const SESSION_DAYS = 7;

export function createAuth(db: Database, config: AppConfig) {
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
      schema: { user: users, session: sessions, account: accounts, verification: verifications },
    }),
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
      autoSignInAfterVerification: true,
      expiresIn: 24 * 60 * 60,
      sendVerificationEmail: ({ user, url }) =>
        queue(verificationMail(user.email, url, mailContext)),
      afterEmailVerification: async (user) => {
        await db
          .update(profiles)
          .set({ emailConfirmed: true, updatedAt: new Date() })
          .where(eq(profiles.id, user.id));
      },
    },
    session: { expiresIn: SESSION_DAYS * 24 * 60 * 60, updateAge: 24 * 60 * 60 },
    // Its HTTP endpoints are not exposed except the two mailed links; every form goes through
    // our actions, which apply the database rate limits of rate-limits.server.ts.
    rateLimit: { enabled: false },
    advanced: {
      cookiePrefix: "vd",
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

export type Auth = ReturnType<typeof createAuth>;

const holder = globalThis as typeof globalThis & { __auth?: Auth };

export function getAuth(): Auth {
  holder.__auth ??= createAuth(getDb(), getConfig());
  return holder.__auth;
}

/** Tests build the auth of their own database. */
export function resetAuthForTests() {
  holder.__auth = undefined;
}
