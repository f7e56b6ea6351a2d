import type { IncomingMessage } from "node:http";
import type { RequestHandler } from "express";

/**
 * The address a request names, as everything past Express sees it (React Router's Fetch
 * request): this site's scheme and host, then the request's path and query. Built so that the
 * path can never become the authority (`new URL("//evil.com/precios", base)` names evil.com) and
 * a host that is not one (`a b`) is refused with a 400 rather than thrown as a 500. See decision
 * 034.
 */

/**
 * A host as RFC 9110 7.2 allows it in `Host` (and as a proxy writes it in X-Forwarded-Host): a
 * name of letters, digits, dots, hyphens (and underscores, which internal names such as compose
 * services use), or an IPv4 address, or a bracketed IPv6 address, with an optional port.
 * Nothing that could end the authority (`/`, `?`, `#`, `@`, `\`) or hide in it (spaces, `%`).
 */
const HOST =
  /^(?:[A-Za-z0-9_](?:[A-Za-z0-9_.-]{0,251}[A-Za-z0-9_])?\.?|\[[0-9A-Fa-f:.]{2,45}\])(?::(\d{1,5}))?$/;
const MAX_PORT = 65_535;

export function isValidHost(host: string): boolean {
  const match = HOST.exec(host);
  if (!match) return false;
  return match[1] === undefined || Number(match[1]) <= MAX_PORT;
}

/**
 * The request's address, or null when it names no valid one: a scheme other than http/https, a
 * malformed host, or a request target that is not a path (`*`, `precios`). Express reads the
 * scheme and host from X-Forwarded-Proto/-Host only when 'trust proxy' says the proxy is ours;
 * an HTTP/1.0 request without Host is taken as localhost.
 */
export function requestUrl(req: {
  protocol: string;
  host: string | undefined;
  originalUrl: string;
}): URL | null {
  if (req.protocol !== "http" && req.protocol !== "https") return null;
  const host = req.host || "localhost";
  if (!isValidHost(host)) return null;
  const target = pathAndQuery(req.originalUrl);
  if (target === null) return null;
  // Appended to the origin, a path that starts with `//` or `/\` stays a path.
  try {
    return new URL(`${req.protocol}://${host}${target}`);
  } catch {
    return null;
  }
}

/**
 * The origin-form target (`/precios?x=1`) as sent; the absolute form (`http://host/precios`),
 * which a client may also send (RFC 9112 3.2.2), gives its path and query only, never its host.
 */
function pathAndQuery(target: string): string | null {
  if (target.startsWith("/")) return target;
  if (!/^https?:\/\//i.test(target)) return null;
  try {
    const url = new URL(target);
    return `${url.pathname}${url.search}`;
  } catch {
    return null;
  }
}

export const BAD_REQUEST_TEXT = "Petición no válida";
export const URI_TOO_LONG_TEXT = "La dirección es demasiado larga.";

/**
 * The longest request target served: nginx's own limit for a request line (8 KB), which covers
 * React Router's route discovery (`/__manifest?paths=…`, up to 7,680 characters) and any
 * campaign link. A redirect echoing a longer one would not fit the proxy's buffer for an
 * answer's headers: nginx would answer 502 and count the instance as failing.
 */
export const MAX_TARGET_LENGTH = 8_192;

/**
 * A request whose address cannot be built (malformed Host or X-Forwarded-Host, a scheme we do
 * not serve, a target that is no path) gets a 400 before any handler tries; one too long, 414.
 */
export const refuseMalformedAddress: RequestHandler = (req, res, next) => {
  if (req.originalUrl.length > MAX_TARGET_LENGTH) {
    res.status(414).type("text/plain").send(URI_TOO_LONG_TEXT);
    return;
  }
  if (requestUrl(req)) return next();
  res.status(400).type("text/plain").send(BAD_REQUEST_TEXT);
};

/**
 * Whether `refuseMalformedAddress` lets this request through whichever proxy is trusted: a path
 * within the limit, Host (and X-Forwarded-Host, read as Express reads it) a host, and
 * X-Forwarded-Proto, if any, http or https. For a server that answers some requests before
 * Express (server.ts): a request that fails here goes the long way, and gets its 400 or 414.
 */
export function addressIsPlain({ url = "", headers }: IncomingMessage): boolean {
  if (!url.startsWith("/") || url.length > MAX_TARGET_LENGTH) return false;
  if (headers.host !== undefined && !isValidHost(headers.host)) return false;
  // Node joins repeated headers other than Set-Cookie into one string.
  const forwardedHost = headers["x-forwarded-host"] as string | undefined;
  if (forwardedHost !== undefined) {
    const comma = forwardedHost.indexOf(",");
    if (!isValidHost(comma === -1 ? forwardedHost : forwardedHost.slice(0, comma).trimEnd()))
      return false;
  }
  const forwardedProto = headers["x-forwarded-proto"] as string | undefined;
  if (forwardedProto !== undefined) {
    const comma = forwardedProto.indexOf(",");
    const proto = (comma === -1 ? forwardedProto : forwardedProto.slice(0, comma)).trim();
    if (proto !== "http" && proto !== "https") return false;
  }
  return true;
}
