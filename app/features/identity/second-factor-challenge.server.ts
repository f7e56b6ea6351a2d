import { z } from "~/platform/validation/zod";

/**
 * The second-factor challenge between the password and the second factor (decision 063): the one
 * record of whose factor is being asked for. It is Better Auth's own challenge: the signed
 * `vd.two_factor` cookie naming a `verifications` row (`2fa-…`: the account, expiring 10 minutes
 * after the password). The two-factor plugin opens it for an account with a TOTP; for a
 * passkey-only account this plugin opens the same kind. Every check at the code step (rate
 * limits, replay record, role, audit) and the passkey's "same account" rule read the account from
 * here, through Better Auth's cookie verification and its store, never from a cookie of ours.
 *
 * The same plugin renews a session after a step-up (a proof inside a session).
 *
 * The endpoints are server-only (no HTTP route, `platform/http/express-routes.ts` closes the rest
 * of /api/auth anyway) and called through `auth.api`.
 */

/** Better Auth's name for the challenge cookie (with our `vd.` prefix). */
const CHALLENGE_COOKIE = "two_factor";

/** As long as the two-factor plugin's challenge (`twoFactorCookieMaxAge`). */
export const CHALLENGE_SECONDS = 10 * 60;

export type PendingSecondFactor = { userId: string; email: string; expiresAt: string };

export async function secondFactorChallengePlugin() {
  const [
    { createAuthEndpoint, sessionMiddleware },
    { generateRandomString },
    { setSessionCookie },
  ] = await Promise.all([
    import("better-auth/api"),
    import("better-auth/crypto"),
    import("better-auth/cookies"),
  ]);
  return {
    id: "second-factor-challenge",
    endpoints: {
      /** The account of the request's live challenge, or null (none, forged, expired, used). */
      pendingSecondFactor: createAuthEndpoint.serverOnly({ method: "GET" }, async (ctx) => {
        const cookie = ctx.context.createAuthCookie(CHALLENGE_COOKIE);
        const identifier = await ctx.getSignedCookie(cookie.name, ctx.context.secret);
        if (!identifier) return ctx.json(null);
        const row = await ctx.context.internalAdapter.findVerificationValue(identifier);
        if (!row || new Date(row.expiresAt).getTime() <= Date.now()) return ctx.json(null);
        const user = await ctx.context.internalAdapter.findUserById(row.value);
        if (!user) return ctx.json(null);
        const pending: PendingSecondFactor = {
          userId: user.id,
          email: user.email,
          expiresAt: new Date(row.expiresAt).toISOString(),
        };
        return ctx.json(pending);
      }),
      /**
       * Opens a challenge for a passkey-only account after its password, as the two-factor
       * plugin does for a TOTP: the same row, lifetime and signed cookie.
       */
      openSecondFactorChallenge: createAuthEndpoint.serverOnly(
        { method: "POST", body: z.object({ userId: z.string().check(z.minLength(1)) }) },
        async (ctx) => {
          const { userId } = ctx.body;
          const cookie = ctx.context.createAuthCookie(CHALLENGE_COOKIE, {
            maxAge: CHALLENGE_SECONDS,
          });
          const identifier = `2fa-${generateRandomString(20)}`;
          await ctx.context.internalAdapter.createVerificationValue({
            identifier,
            value: userId,
            expiresAt: new Date(Date.now() + CHALLENGE_SECONDS * 1000),
          });
          await ctx.setSignedCookie(cookie.name, identifier, ctx.context.secret, cookie.attributes);
          return ctx.json({ ok: true });
        },
      ),
      /** Ends the request's challenge on the server and in the browser (a passkey finished it). */
      closeSecondFactorChallenge: createAuthEndpoint.serverOnly({ method: "POST" }, async (ctx) => {
        const cookie = ctx.context.createAuthCookie(CHALLENGE_COOKIE);
        const identifier = await ctx.getSignedCookie(cookie.name, ctx.context.secret);
        if (identifier) {
          await ctx.context.internalAdapter.deleteVerificationByIdentifier(identifier);
          await ctx.context.internalAdapter.deleteVerificationByIdentifier(
            `2fa-attempts-${identifier}`,
          );
        }
        ctx.setCookie(cookie.name, "", { ...cookie.attributes, maxAge: 0 });
        return ctx.json({ ok: true });
      }),
      /**
       * A proof of identity inside a session (step-up, decision 063) is a sign-in: a new session
       * token replaces the request's (OWASP ASVS 5.0, 7.2.4), its cookie set, the old one ended.
       */
      renewSession: createAuthEndpoint.serverOnly(
        { method: "POST", use: [sessionMiddleware] },
        async (ctx) => {
          const { session, user } = ctx.context.session;
          const renewed = await ctx.context.internalAdapter.createSession(user.id);
          if (!renewed) throw new Error("no new session was created");
          await setSessionCookie(ctx, { session: renewed, user });
          await ctx.context.internalAdapter.deleteSession(session.token);
          return ctx.json({ token: renewed.token });
        },
      ),
    },
  } as const;
}
