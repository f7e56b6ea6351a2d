import type { RequestHandler } from "express";

/**
 * One URL per page, for caches and search engines: `/precios/` answers 301 to `/precios`, its
 * query kept (308 for other methods, which keeps the method and body). The target is always a
 * path on this site: leading slashes and backslashes collapse into one, so `//evil.com/` goes to
 * `/evil.com`, never to another host.
 */
export const redirectTrailingSlash: RequestHandler = (req, res, next) => {
  const url = req.originalUrl;
  const queryStart = url.indexOf("?");
  const pathname = queryStart === -1 ? url : url.slice(0, queryStart);
  if (pathname === "/" || !pathname.endsWith("/")) return next();
  const query = queryStart === -1 ? "" : url.slice(queryStart);
  const target = `/${pathname.replace(/^[/\\]+/, "").replace(/\/+$/, "")}${query}`;
  res.redirect(req.method === "GET" || req.method === "HEAD" ? 301 : 308, target);
};
