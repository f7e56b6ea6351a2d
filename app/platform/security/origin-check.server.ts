import type { IncomingMessage } from "node:http";
import type { RequestHandler } from "express";
import type { Logger } from "pino";
import { SITE_LOCALE } from "~/platform/locale";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Refuses state-changing requests that a browser sent from another site (CSRF). Browsers send
 * Origin on every POST; server-to-server calls such as Stripe's webhook send none and pass.
 */
export function refuseForeignOrigin(siteUrl: string): RequestHandler {
  const isForeign = foreignOriginCheck(siteUrl);
  const site = new URL(siteUrl).origin;
  return (req, res, next) => {
    if (!isForeign(req)) return next();
    const received = req.headers.origin || null;
    // The operator's log says why: a site opened at another address than SITE_URL shows here.
    (res.locals.log as Logger | undefined)?.warn(
      {
        expectedOrigin: site,
        receivedOrigin: received,
        secFetchSite: req.headers["sec-fetch-site"] ?? null,
      },
      "a post from another origin was refused",
    );
    const text = refusalText(site, received);
    res.status(403);
    if (req.accepts(["text/plain", "text/html"]) === "text/html")
      res.type("html").send(refusalPage(site, text));
    else res.type("text/plain").send(`Origen no permitido: ${text}`);
  };
}

/** What the person is told: where the form came from, and the site's own address. */
function refusalText(site: string, received: string | null): string {
  const from = received && received !== "null" ? ` desde ${received}` : "";
  return `Este formulario se ha enviado${from}, pero el sitio está en ${site}. Abre el sitio en esa dirección y vuelve a intentarlo.`;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The refusal as a page, for a form sent without JavaScript: plain, as the site's own may not load. */
function refusalPage(site: string, text: string): string {
  const style =
    "body{font-family:system-ui,sans-serif;margin:0}main{max-width:36rem;margin:4rem auto;padding:0 1rem;line-height:1.6;color:#0f172a}a{color:#1d4ed8;font-weight:600}";
  return `<!doctype html><html lang="${SITE_LOCALE.lang}"><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Dirección no válida</title><style>${style}</style><main><h1>Dirección no válida</h1><p>${escapeHtml(text)}</p><p><a href="${escapeHtml(site)}/">Ir a ${escapeHtml(site)}</a></p></main></html>`;
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
