/**
 * Where a visitor goes back to after signing in or confirming the address: a page of this site
 * they were on (a guarded page, or the service they chose). It travels in the query parameter
 * `volver` and, across the verification mail, in a cookie. Browser-safe: no server imports.
 */

export const RETURN_PARAM = "volver";
/** Spec: a successful login, without a page to go back to, lands on /precios. */
export const DEFAULT_RETURN_PATH = "/precios";
/** Longer values are nobody's page of this site. */
export const RETURN_PATH_MAX = 512;

const ORIGIN = "https://return-path.invalid";
/** C0 controls, DEL, C1 controls, and the backslash some browsers read as a slash. */
// eslint-disable-next-line no-control-regex -- exactly the control characters are refused
const FORBIDDEN = /[\u0000-\u001f\u007f-\u009f\\]/;

function sameSitePath(value: string): boolean {
  return value.startsWith("/") && value[1] !== "/" && value[1] !== "\\" && !FORBIDDEN.test(value);
}

/**
 * The same-site path to send the visitor back to, or `fallback`. Only an absolute path of this
 * site passes ('/' followed by neither '/' nor '\'), without control characters or backslashes,
 * checked as given, once decoded, and as the URL parser normalises it ('/a/..//evil.com' becomes
 * '//evil.com'); at most RETURN_PATH_MAX characters. Anything else (another site, a scheme such as
 * javascript:, a protocol-relative address) is never followed.
 */
export function safeReturnPath(value: unknown, fallback: string = DEFAULT_RETURN_PATH): string {
  if (typeof value !== "string" || value.length > RETURN_PATH_MAX) return fallback;
  let decoded: string;
  try {
    decoded = decodeURIComponent(value);
  } catch {
    return fallback;
  }
  if (!sameSitePath(value) || !sameSitePath(decoded)) return fallback;
  let url: URL;
  try {
    url = new URL(value, ORIGIN);
  } catch {
    return fallback;
  }
  const path = `${url.pathname}${url.search}${url.hash}`;
  if (url.origin !== ORIGIN || !sameSitePath(path) || path.length > RETURN_PATH_MAX)
    return fallback;
  // The parser may have made a new path ('/%2e/%2Fevil.com' becomes '/%2Fevil.com', which
  // decodes to '//evil.com'): what it made must pass the same checks.
  return path === value ? path : safeReturnPath(path, fallback);
}

/** `to` with the return path in its query, when there is one. */
export function withReturnPath(to: string, returnPath: string | null | undefined): string {
  if (!returnPath) return to;
  const separator = to.includes("?") ? "&" : "?";
  return `${to}${separator}${RETURN_PARAM}=${encodeURIComponent(returnPath)}`;
}

/** The return path a page's URL carries, if it is a safe one. */
export function returnPathOf(url: string | URL): string | null {
  const value = new URL(url, ORIGIN).searchParams.get(RETURN_PARAM);
  const path = safeReturnPath(value, "");
  return path || null;
}
