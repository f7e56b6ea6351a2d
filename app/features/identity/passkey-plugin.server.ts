import type { AppConfig } from "~/platform/config.server";

/** The cookie (with the `vd.` prefix) that ties a WebAuthn ceremony to its challenge. */
export const PASSKEY_CHALLENGE_COOKIE = "passkey-challenge";

/**
 * Better Auth's passkey plugin (decision 045). The relying party is the site itself: its id is
 * the host of `SITE_URL` and the only origin accepted is the site's own, never the request's
 * Origin header. A passkey must verify its user (PIN, fingerprint, face) at registration and at
 * every sign-in: that is what lets one passkey stand for both factors (WebAuthn Level 3, §6.2.3,
 * user verification). Its HTTP endpoints are not exposed: `accounts/passkeys.server.ts` calls
 * them from our own actions, behind the origin check and the database rate limits.
 */
export async function passkeyPlugin(config: AppConfig) {
  const [{ passkey }, { APIError }] = await Promise.all([
    import("@better-auth/passkey"),
    import("better-auth/api"),
  ]);
  const site = new URL(config.siteUrl);
  const refuseUnverified = (userVerified: boolean) => {
    if (!userVerified)
      throw new APIError("UNAUTHORIZED", {
        code: "USER_NOT_VERIFIED",
        message: "The authenticator did not verify its user",
      });
  };
  return passkey({
    rpID: site.hostname,
    rpName: config.company.brandName,
    origin: site.origin,
    authenticatorSelection: { residentKey: "required", userVerification: "required" },
    registration: {
      afterVerification: async ({ verification }) => {
        refuseUnverified(verification.registrationInfo?.userVerified === true);
      },
    },
    authentication: {
      afterVerification: async ({ verification }) => {
        refuseUnverified(verification.authenticationInfo.userVerified);
      },
    },
    advanced: { webAuthnChallengeCookie: PASSKEY_CHALLENGE_COOKIE },
  });
}
