import { isSecurityMessage, type SecurityMessage } from "./passkey-messages";

/**
 * The browser's half of a passkey ceremony (decision 045): ask our route for the options, let
 * the browser and the authenticator do WebAuthn (SimpleWebAuthn's browser part, loaded on
 * click so no page pays for it before), and post the result back. Every answer is a message
 * code of `securityMessages`.
 */
export const PASSKEY_ROUTES = {
  registration: "/cuenta/llaves-de-acceso/registro",
  signIn: "/cuenta/llaves-de-acceso/entrada",
} as const;

export type CeremonyOutcome = { ok: true; to?: string } | { ok: false; error: SecurityMessage };

async function post(url: string, body: object): Promise<{ status: number; json: unknown }> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    credentials: "same-origin",
    body: JSON.stringify(body),
  });
  const json: unknown = await response.json().catch(() => null);
  return { status: response.status, json };
}

function refusal(json: unknown, fallback: SecurityMessage): CeremonyOutcome {
  const code = (json as { error?: unknown } | null)?.error;
  return { ok: false, error: isSecurityMessage(code) ? code : fallback };
}

/** What the browser's own refusals mean to a person. */
function browserRefusal(error: unknown, fallback: SecurityMessage): CeremonyOutcome {
  const name = (error as { name?: string } | null)?.name;
  if (name === "NotAllowedError" || name === "AbortError")
    return { ok: false, error: "passkeyCancelled" };
  if (name === "InvalidStateError") return { ok: false, error: "passkeyAlreadyRegistered" };
  return { ok: false, error: fallback };
}

export async function createPasskey(): Promise<CeremonyOutcome> {
  const webauthn = await import("@simplewebauthn/browser");
  if (!webauthn.browserSupportsWebAuthn()) return { ok: false, error: "passkeyUnsupported" };
  const options = await post(PASSKEY_ROUTES.registration, { step: "options" });
  const confirmFirst = (options.json as { to?: unknown } | null)?.to;
  // The server asks for a recent proof of identity first (decision 063): its page, then back.
  if (options.status === 403 && typeof confirmFirst === "string" && confirmFirst.startsWith("/")) {
    window.location.assign(confirmFirst);
    return { ok: false, error: "stepUpRequired" };
  }
  if (options.status !== 200) return refusal(options.json, "passkeyRegistrationFailed");
  let response;
  try {
    response = await webauthn.startRegistration({ optionsJSON: options.json as never });
  } catch (error) {
    return browserRefusal(error, "passkeyRegistrationFailed");
  }
  const verified = await post(PASSKEY_ROUTES.registration, { step: "verify", response });
  return verified.status === 200
    ? { ok: true }
    : refusal(verified.json, "passkeyRegistrationFailed");
}

export async function signInWithPasskey(
  door: "staff" | "customers",
  returnTo: string | null,
): Promise<CeremonyOutcome> {
  const webauthn = await import("@simplewebauthn/browser");
  if (!webauthn.browserSupportsWebAuthn()) return { ok: false, error: "passkeyUnsupported" };
  const options = await post(PASSKEY_ROUTES.signIn, { step: "options", door });
  if (options.status !== 200) return refusal(options.json, "passkeySignInFailed");
  let response;
  try {
    response = await webauthn.startAuthentication({ optionsJSON: options.json as never });
  } catch (error) {
    return browserRefusal(error, "passkeySignInFailed");
  }
  const verified = await post(PASSKEY_ROUTES.signIn, {
    step: "verify",
    door,
    response,
    returnTo,
  });
  if (verified.status !== 200) return refusal(verified.json, "passkeySignInFailed");
  const to = (verified.json as { to?: unknown } | null)?.to;
  return { ok: true, to: typeof to === "string" ? to : "/" };
}
