import type { RequestHandler } from "express";

/**
 * One URL per page, for caches and search engines: `/precios/` answers 301 to `/precios`, its
 * query kept (308 for other methods, which keeps the method and body). So does a path that starts
 * with more than one slash or a backslash: `//evil.com/precios` goes to `/evil.com/precios`,
 * never to another host and never rendered as `/precios` (decision 034). The target is always a
 * path on this site: leading slashes and backslashes collapse into one, as a browser would
 * otherwise read `//host` and `/\host` as another site.
 */
export const redirectExtraSlashes: RequestHandler = (req, res, next) => {
  const url = req.originalUrl;
  const queryStart = url.indexOf("?");
  const pathname = queryStart === -1 ? url : url.slice(0, queryStart);
  const extraLeading = /^[/\\]{2}/.test(pathname);
  const extraTrailing = pathname !== "/" && pathname.endsWith("/");
  if (!extraLeading && !extraTrailing) return next();
  const query = queryStart === -1 ? "" : url.slice(queryStart);
  const target = `/${pathname.replace(/^[/\\]+/, "").replace(/\/+$/, "")}${query}`;
  res.redirect(req.method === "GET" || req.method === "HEAD" ? 301 : 308, target);
};
