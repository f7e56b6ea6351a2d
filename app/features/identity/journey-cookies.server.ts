import { createCookie } from "react-router";
import { getConfig } from "~/platform/config.server";

/**
 * The address waiting for confirmation, so /verificar-email can show it and resend the mail
 * before the user can sign in. Signed, HttpOnly, one day.
 */
export function pendingVerificationCookie() {
  return signUpJourneyCookie("vd_pending_email");
}

/** A signed, HttpOnly cookie of the way from sign-up to the first sign-in: one day. */
export function signUpJourneyCookie(name: `vd_${string}`) {
  const config = getConfig();
  return createCookie(name, {
    httpOnly: true,
    sameSite: "lax",
    secure: config.isProduction,
    path: "/",
    maxAge: 24 * 60 * 60,
    secrets: [config.authSecret],
  });
}
