import { createHash } from "node:crypto";
import type { IncomingMessage, OutgoingHttpHeader, ServerResponse } from "node:http";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import type { RequestHandler, Response } from "express";
import { constantSecurityHeaders, contentSecurityPolicy } from "../security/headers.server";
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
 *
 * A hit is the site's most frequent answer, so it is made as cheap as it can be: each variant's
 * headers are put together once, when the page is stored, and written in one call, and `answer`
 * can take the request before Express does (server.ts). A hit carries what the browser needs and
 * nothing else: the security headers, the page's own CSP, the cache's headers, and X-Page-Cache
 * (which the shipped nginx drops). See decision 041.
 */
type Variant = {
  body: Buffer;
  etag: string;
  /** Every header of the 200 answer, as name, value, name, value… for `writeHead`. */
  headers: OutgoingHttpHeader[];
  /** Those of the 304, the same less the body's. */
  notModifiedHeaders: OutgoingHttpHeader[];
};
type Encoding = "identity" | "br" | "gzip";
type CachedPage = Record<Encoding, Variant> & {
  /** The route pattern that rendered it: the request metrics' label for its hits. */
  route: string;
};

/** What /metrics reports of the cache: its hit ratio (decision 049). */
export type PageCacheStats = {
  /** Answers from the cache, before Express or in it. */
  hits: number;
  /** Renders of a cacheable page for a visitor without cookies: the first, or a concurrent one. */
  misses: number;
};

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

/** Whether a Cookie header carries one of the site's cookies (`privateWhenPersonal`). */
export function hasPersonalCookie(cookie: string | undefined): boolean {
  return PERSONAL_COOKIE.test(cookie ?? "");
}

/**
 * What a signed-in visitor is served (documents, React Router's .data answers, downloads) shows
 * their account in the header at least, so it is `private, no-store`: no shared cache keeps it
 * and the browser does not keep it on disk. So is an answer to a visitor with a pending toast or
 * address, and any answer that sets a cookie (a sign-in). Mounted after the static files, which
 * are the same for everyone.
 */
export const privateWhenPersonal: RequestHandler = (req, res, next) => {
  const personal = hasPersonalCookie(req.get("cookie"));
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
function strongEtag(body: Buffer): string {
  return `"${createHash("sha256").update(body).digest("base64url").slice(0, 32)}"`;
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
export function pageKey(target: string): string {
  const queryStart = target.indexOf("?");
  return queryStart === -1 ? target : target.slice(0, queryStart);
}

/**
 * The encoding for a request's Accept-Encoding: browsers send a handful of distinct values, so
 * each is worked out once (the few hundred kept are cleared when more arrive).
 */
const encodingByAccept = new Map<string, Encoding>();
const MAX_ACCEPT_VALUES = 512;

function encodingFor(accept: string | undefined): Encoding {
  if (!accept) return "identity";
  let encoding = encodingByAccept.get(accept);
  if (encoding === undefined) {
    if (encodingByAccept.size >= MAX_ACCEPT_VALUES) encodingByAccept.clear();
    encoding = negotiateEncoding(accept, ENCODINGS) ?? "identity";
    encodingByAccept.set(accept, encoding);
  }
  return encoding;
}

/**
 * Two middlewares over one store: `serve` answers hits as early as Express can; `capture` sits
 * after compression, so it sees the uncompressed HTML of a miss. `answer` is `serve` for a plain
 * Node request, for a server that answers hits before Express (server.ts).
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
  const securityHeaders = constantSecurityHeaders({ isProduction });
  const stats: PageCacheStats = { hits: 0, misses: 0 };

  /**
   * Answers the request from the cache and gives the route pattern of the page it sent, or
   * gives undefined and leaves the request alone.
   */
  const answer = (
    req: IncomingMessage & { originalUrl?: string },
    res: ServerResponse,
  ): string | undefined => {
    if (req.method !== "GET") return undefined;
    const cached = pages.get(pageKey(req.originalUrl ?? req.url ?? ""));
    if (!cached || PERSONAL_COOKIE.test(req.headers.cookie ?? "")) return undefined;
    stats.hits++;
    sendCached(
      res,
      cached[encodingFor(req.headers["accept-encoding"])],
      req.headers["if-none-match"],
    );
    return cached.route;
  };

  const serve: RequestHandler = (req, res, next) => {
    const route = answer(req, res);
    if (route === undefined) next();
    else res.locals.route = route;
  };

  const storedPage = (
    html: Buffer,
    br: Buffer,
    gz: Buffer,
    csp: string,
    contentType: string,
    route: string,
  ): CachedPage => {
    const shared: OutgoingHttpHeader[] = [
      ...securityHeaders.flat(),
      // Also on a 304: the browser replaces the stored page's headers with the 304's, and a
      // fresh render's nonce policy would then block the stored page's scripts on a reload.
      "Content-Security-Policy",
      csp,
      "Cache-Control",
      PUBLIC_PAGE_CACHE_CONTROL,
      "Vary",
      PUBLIC_PAGE_VARY,
      "X-Page-Cache",
      "hit",
    ];
    const variant = (body: Buffer, encoding: Encoding): Variant => {
      const etag = strongEtag(body);
      const notModifiedHeaders = [...shared, "ETag", etag];
      return {
        body,
        etag,
        notModifiedHeaders,
        headers: [
          ...notModifiedHeaders,
          "Content-Type",
          contentType,
          ...(encoding === "identity" ? [] : ["Content-Encoding", encoding]),
          "Content-Length",
          String(body.length),
        ],
      };
    };
    return {
      route,
      identity: variant(html, "identity"),
      br: variant(br, "br"),
      gzip: variant(gz, "gzip"),
    };
  };

  const capture: RequestHandler = (req, res, next) => {
    const key = pageKey(req.originalUrl);
    if (
      req.method !== "GET" ||
      !cacheable.has(key) ||
      PERSONAL_COOKIE.test(req.get("cookie") ?? "")
    )
      return next();
    if (!pages.has(key)) stats.misses++;
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
      pages.set(
        key,
        storedPage(
          html,
          br,
          gz,
          csp,
          String(res.getHeader("content-type")),
          typeof res.locals.route === "string" ? res.locals.route : key,
        ),
      );
    });
    next();
  };

  return { answer, serve, capture, stats };
}

/** The variant's answer, its headers written at once: a 304 when the client holds its bytes. */
function sendCached(res: ServerResponse, variant: Variant, ifNoneMatch: string | undefined) {
  if (etagMatches(ifNoneMatch, variant.etag)) {
    res.writeHead(304, variant.notModifiedHeaders);
    res.end();
    return;
  }
  res.writeHead(200, variant.headers);
  res.end(variant.body);
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
