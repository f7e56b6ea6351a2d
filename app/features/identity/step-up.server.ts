import { redirectWithToast } from "~/platform/http/toast.server";
import { getAuth, hasSessionCookie } from "./auth.server";
import { identityMessages } from "./identity-rules";
import { safeReturnPath, withReturnPath } from "./return-path";

/**
 * Step-up (decision 063, OWASP ASVS 5.0 V6/V7): what can hurt the most if a session is stolen
 * or a browser is left open (adding or removing a factor or a passkey, role changes, factor
 * resets, refunds, exports, anulaciones) asks the owner to prove who they are again when the
 * session is older than STEP_UP_WINDOW_MS: a session starts at a sign-in, and a confirmation at
 * /confirmar-identidad replaces it with a new one. The rule is the server's: every such loader and action calls
 * `requireRecentAuthentication`, whatever the page showed.
 */

/** How long a proof lasts: a batch of related changes, well inside the staff's 30 idle minutes. */
export const STEP_UP_WINDOW_MS = 10 * 60_000;

/** The page where the owner confirms who they are. */
export const STEP_UP_PATH = "/confirmar-identidad";

/**
 * When the request's session was made, or null without one: a sign-in, or a proof of identity
 * inside the session, which renews it (`renewSessionAfterProof`).
 */
async function provedAt(request: Request): Promise<Date | null> {
  if (!hasSessionCookie(request)) return null;
  const found = await (await getAuth()).api.getSession({ headers: request.headers });
  return found ? new Date(found.session.createdAt) : null;
}

/**
 * After a proof of identity: a new session (OWASP ASVS 5.0, 7.2.4: re-authentication gets a new
 * token), whose headers set its cookie. Its age starts again, as a sign-in's does.
 */
export async function renewSessionAfterProof(request: Request): Promise<Headers> {
  const { headers } = await (
    await getAuth()
  ).api.renewSession({ headers: request.headers, returnHeaders: true });
  return headers;
}

/**
 * Where the owner goes back after confirming: a page asked for (GET), else the same-site page
 * the form or the download link was on (Referer), else `fallback`. A download or a post itself
 * is never the way back: the browser would stay on the confirmation page.
 */
function wayBack(request: Request, fallback: string, download: boolean): string {
  const url = new URL(request.url);
  if (request.method === "GET" && !download)
    return safeReturnPath(`${url.pathname}${url.search}`, fallback);
  const referer = request.headers.get("Referer");
  if (!referer) return fallback;
  try {
    const from = new URL(referer);
    if (from.origin !== url.origin) return fallback;
    return safeReturnPath(`${from.pathname}${from.search}`, fallback);
  } catch {
    return fallback;
  }
}

export type StepUpOptions = {
  /** Where to return when the request says nothing better (the section's own page). */
  fallback: string;
  /** A file download (CSV, XML): back to the page of its link, not to the file. */
  download?: boolean;
  /** A script's JSON request: answered 403 with `{ error: "stepUpRequired", to }` instead. */
  json?: boolean;
};

/**
 * Passes when the request's session proved its owner within STEP_UP_WINDOW_MS; otherwise throws
 * the way to /confirmar-identidad (a redirect with a toast, or the JSON answer), which brings
 * the person back to where they were.
 */
export async function requireRecentAuthentication(request: Request, options: StepUpOptions) {
  const proved = await provedAt(request);
  if (proved && Date.now() - proved.getTime() <= STEP_UP_WINDOW_MS) return;
  const to = withReturnPath(STEP_UP_PATH, wayBack(request, options.fallback, !!options.download));
  if (options.json)
    throw Response.json(
      { error: "stepUpRequired", to },
      { status: 403, headers: { "Cache-Control": "no-store" } },
    );
  throw await redirectWithToast(to, { kind: "info", ...identityMessages.stepUpRequired });
}
