import type { User } from "better-auth";
import { redirectWithToast } from "~/platform/http/toast.server";
import { identityMessages } from "./identity-rules";
import { pendingVerificationCookie } from "./journey-cookies.server";

/**
 * The mailed verification link confirms the address in whichever browser opens it, but signs in
 * only the browser that asked for it: the one whose pending-verification cookie (set at sign-up,
 * or at a sign-in refused for the unconfirmed address) holds the same address. Anyone else's
 * browser, sent the link by the account's owner, is not signed into that account (login CSRF);
 * it is told the address is confirmed and asked to sign in.
 */

/** The user each link request has just verified (Better Auth calls afterEmailVerification). */
const verifiedBy = new WeakMap<Request, User>();

/** From emailVerification.afterEmailVerification: this request verified this user now. */
export function rememberVerification(user: User, request: Request | undefined) {
  if (request) verifiedBy.set(request, user);
}

/**
 * Better Auth's `hooks.after`: once `/verify-email` has verified an address, signs the browser
 * in if it asked for that address, or sends it to the login with 'Email verificado'. An invalid,
 * expired or already used link keeps Better Auth's own answer.
 */
export async function verificationLinkHook() {
  const [{ createAuthMiddleware }, { setSessionCookie }] = await Promise.all([
    import("better-auth/api"),
    import("better-auth/cookies"),
  ]);
  return createAuthMiddleware(async (ctx) => {
    const user = ctx.path === "/verify-email" && ctx.request && verifiedBy.get(ctx.request);
    if (!user) return;
    const pending = (await pendingVerificationCookie().parse(
      ctx.request!.headers.get("Cookie"),
    )) as string | null;
    if (pending === user.email) {
      const session = await ctx.context.internalAdapter.createSession(user.id);
      await setSessionCookie(ctx, { session, user: { ...user, emailVerified: true } });
      return;
    }
    const toLogin = await redirectWithToast("/login-cliente", {
      kind: "success",
      ...identityMessages.emailVerifiedSignIn,
    });
    ctx.setHeader("Set-Cookie", toLogin.headers.get("Set-Cookie")!);
    throw ctx.redirect(toLogin.headers.get("Location")!);
  });
}
