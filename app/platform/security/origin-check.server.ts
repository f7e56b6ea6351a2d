import type { RequestHandler } from "express";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Refuses state-changing requests that a browser sent from another site (CSRF). Browsers send
 * Origin on every POST; server-to-server calls such as Stripe's webhook send none and pass.
 */
export function refuseForeignOrigin(siteUrl: string): RequestHandler {
  const allowed = new URL(siteUrl).origin;
  return (req, res, next) => {
    if (SAFE_METHODS.has(req.method)) return next();
    const origin = req.get("origin");
    const crossSite = req.get("sec-fetch-site") === "cross-site";
    if ((origin && origin !== "null" && origin !== allowed) || crossSite || origin === "null") {
      res.status(403).type("text/plain").send("Origen no permitido.");
      return;
    }
    next();
  };
}
