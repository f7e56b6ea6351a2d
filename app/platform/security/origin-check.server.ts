import type { IncomingMessage } from "node:http";
import type { RequestHandler } from "express";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Refuses state-changing requests that a browser sent from another site (CSRF). Browsers send
 * Origin on every POST; server-to-server calls such as Stripe's webhook send none and pass.
 */
export function refuseForeignOrigin(siteUrl: string): RequestHandler {
  const isForeign = foreignOriginCheck(siteUrl);
  return (req, res, next) => {
    if (isForeign(req)) {
      res.status(403).type("text/plain").send("Origen no permitido.");
      return;
    }
    next();
  };
}

/**
 * The test `refuseForeignOrigin` applies, for a request answered before Express (server.ts):
 * a state-changing request whose Origin is another site's or "null", or that the browser says
 * is cross-site.
 */
export function foreignOriginCheck(
  siteUrl: string,
): (req: Pick<IncomingMessage, "method" | "headers">) => boolean {
  const allowed = new URL(siteUrl).origin;
  return ({ method = "GET", headers }) => {
    if (SAFE_METHODS.has(method)) return false;
    const origin = headers.origin;
    const crossSite = headers["sec-fetch-site"] === "cross-site";
    return (origin !== undefined && origin !== "" && origin !== allowed) || crossSite;
  };
}
