import { createHash } from "node:crypto";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import type { Request, RequestHandler, Response } from "express";
import { contentSecurityPolicy } from "../security/headers.server";
import { negotiateEncoding } from "./precompressed-static.server";

/**
 * Public pages for anonymous visitors are the same for everyone: the first render is kept in
 * memory, compressed once at high quality, and served from there until the process restarts
 * (every deploy starts empty). Cached HTML cannot carry a fresh nonce, so its CSP allows its
 * inline scripts by their SHA-256 hashes instead.
 *
 * Being the same for everyone, they say so to shared caches (nginx, a CDN): `public` with a
 * short `s-maxage`, and a strong ETag per encoding (each variant has its own bytes), answered
 * with 304. Browsers keep them too but ask again each time (`max-age=0`). The first render, a
 * miss, says nothing of the kind: its bytes are not the cached ones, so a shared cache takes
 * the page from the second answer, with its ETag. See decision 022.
 */
type Variant = { body: Buffer; etag: string };
type Encoding = "identity" | "br" | "gzip";
type CachedPage = Record<Encoding, Variant> & { csp: string; contentType: string };

/** Shared caches may keep a public page a minute, and serve it stale while they refresh it. */
export const PUBLIC_PAGE_CACHE_CONTROL =
  "public, max-age=0, s-maxage=60, stale-while-revalidate=600";
/** A public page differs by encoding, and a visitor with cookies may be signed in. */
const PUBLIC_PAGE_VARY = "Accept-Encoding, Cookie";
const ENCODINGS = new Set(["br", "gzip"] as const);

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** A visitor with any of our cookies (session, flash, pending e-mail) gets a fresh render. */
const PERSONAL_COOKIE = /(?:^|;\s*)(?:__Secure-)?vd[._]/;

/**
 * What a signed-in visitor is served (documents, React Router's .data answers, downloads) shows
 * their account in the header at least, so it is `private, no-store`: no shared cache keeps it
 * and the browser does not keep it on disk. So is an answer to a visitor with a pending toast or
 * address, and any answer that sets a cookie (a sign-in). Mounted after the static files, which
 * are the same for everyone.
 */
export const privateWhenPersonal: RequestHandler = (req, res, next) => {
  const personal = PERSONAL_COOKIE.test(req.get("cookie") ?? "");
  const writeHead = res.writeHead;
  // The last moment before the headers leave: whatever the route set is replaced.
  res.writeHead = function (this: Response, ...args: unknown[]) {
    if (personal || res.hasHeader("set-cookie"))
      res.setHeader("Cache-Control", "private, no-store");
    return (writeHead as (...all: unknown[]) => Response).apply(this, args);
  } as Response["writeHead"];
  next();
};

const INLINE_SCRIPT =
  /<script(?![^>]*\bsrc=)(?![^>]*type="application\/ld\+json")[^>]*>([\s\S]*?)<\/script>/g;

export function scriptHashes(html: string): string[] {
  return [...html.matchAll(INLINE_SCRIPT)].map(
    (match) => `'sha256-${createHash("sha256").update(match[1]!).digest("base64")}'`,
  );
}

/** A strong validator: the hash of the exact bytes sent. */
function variant(body: Buffer): Variant {
  return { body, etag: `"${createHash("sha256").update(body).digest("base64url").slice(0, 32)}"` };
}

/** `If-None-Match` uses the weak comparison (RFC 9110, 13.1.2): `W/` is ignored. */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === "*") return true;
  return ifNoneMatch.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag);
}

/**
 * A public page's key is its path alone: its server render reads nothing from the query (the
 * `?comprar=` of the purchase dialog is read in the browser, after hydration), so
 * `/?utm_source=x&fbclid=y` is the same bytes as `/` and is served from the same entry, while the
 * browser keeps the address it asked for. A public page that one day renders from a query
 * parameter must not be in `publicPaths`, or must key by it here (decision 034).
 */
export function pageKey(req: Request): string {
  const queryStart = req.originalUrl.indexOf("?");
  return queryStart === -1 ? req.originalUrl : req.originalUrl.slice(0, queryStart);
}

/**
 * Two middlewares over one store: `serve` answers hits as early as possible; `capture` sits after
 * compression, so it sees the uncompressed HTML of a miss.
 */
export function createPageCache({
  paths,
  isProduction,
}: {
  paths: string[];
  isProduction: boolean;
}) {
  const cacheable = new Set(paths);
  const pages = new Map<string, CachedPage>();
  const applies = (req: Request) =>
    req.method === "GET" &&
    cacheable.has(pageKey(req)) &&
    !PERSONAL_COOKIE.test(req.get("cookie") ?? "");

  const serve: RequestHandler = (req, res, next) => {
    const cached = applies(req) ? pages.get(pageKey(req)) : undefined;
    if (!cached) return next();
    sendCached(
      res,
      cached,
      negotiateEncoding(req.get("accept-encoding"), ENCODINGS) ?? "identity",
      req.get("if-none-match"),
    );
  };

  const capture: RequestHandler = (req, res, next) => {
    if (!applies(req)) return next();
    const key = pageKey(req);
    captureBody(res, async (html) => {
      if (res.statusCode !== 200 || res.getHeader("set-cookie") || pages.has(key)) return;
      const csp = contentSecurityPolicy(null, {
        isProduction,
        scriptHashes: scriptHashes(html.toString("utf8")),
      });
      const [br, gz] = await Promise.all([
        brotli(html, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
        gzipAsync(html, { level: 9 }),
      ]);
      // Two misses at once render twice (each with its own nonce): the first stored stays, so
      // a page's bytes and ETags never change while the process lives.
      if (pages.has(key)) return;
      pages.set(key, {
        identity: variant(html),
        br: variant(br),
        gzip: variant(gz),
        csp,
        contentType: String(res.getHeader("content-type")),
      });
    });
    next();
  };

  return { serve, capture };
}

function sendCached(
  res: Response,
  page: CachedPage,
  encoding: Encoding,
  ifNoneMatch: string | undefined,
) {
  const { body, etag } = page[encoding];
  res.setHeader("Cache-Control", PUBLIC_PAGE_CACHE_CONTROL);
  res.setHeader("ETag", etag);
  res.setHeader("Vary", PUBLIC_PAGE_VARY);
  res.setHeader("X-Page-Cache", "hit");
  // Also on a 304: the browser replaces the stored page's headers with the 304's, and this
  // answer's own nonce policy would then block the stored page's scripts on a reload.
  res.setHeader("Content-Security-Policy", page.csp);
  if (etagMatches(ifNoneMatch, etag)) {
    res.status(304).end();
    return;
  }
  res.setHeader("Content-Type", page.contentType);
  if (encoding !== "identity") res.setHeader("Content-Encoding", encoding);
  res.setHeader("Content-Length", body.length);
  res.end(body);
}

/** Collects the uncompressed body as the app writes it, and hands it over once sent. */
function captureBody(res: Response, onBody: (body: Buffer) => Promise<void>) {
  const chunks: Buffer[] = [];
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => Response;
  const keep = (chunk: unknown, encoding?: unknown) => {
    if (chunk && typeof chunk !== "function") {
      chunks.push(
        Buffer.isBuffer(chunk)
          ? chunk
          : Buffer.from(
              chunk as string,
              (typeof encoding === "string" ? encoding : "utf8") as BufferEncoding,
            ),
      );
    }
  };
  res.write = ((chunk: unknown, ...rest: unknown[]) => {
    keep(chunk, rest[0]);
    return write(chunk, ...rest);
  }) as Response["write"];
  res.end = ((chunk?: unknown, ...rest: unknown[]) => {
    keep(chunk, rest[0]);
    return end(chunk, ...rest);
  }) as Response["end"];
  res.once("finish", () => {
    void onBody(Buffer.concat(chunks)).catch(() => undefined);
  });
}
