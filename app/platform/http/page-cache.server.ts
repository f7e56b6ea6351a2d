import { createHash } from "node:crypto";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import type { Request, RequestHandler, Response } from "express";
import { contentSecurityPolicy } from "../security/headers.server";

/**
 * Public pages for anonymous visitors are the same for everyone: the first render is kept in
 * memory, compressed once at high quality, and served from there until the process restarts
 * (every deploy starts empty). Cached HTML cannot carry a fresh nonce, so its CSP allows its
 * inline scripts by their SHA-256 hashes instead.
 */
type CachedPage = { html: Buffer; br: Buffer; gzip: Buffer; csp: string; contentType: string };

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

function preferredEncoding(accept: string | undefined): "br" | "gzip" | undefined {
  if (!accept) return undefined;
  if (/\bbr\b/.test(accept)) return "br";
  if (/\bgzip\b/.test(accept)) return "gzip";
  return undefined;
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
    cacheable.has(req.originalUrl) &&
    !PERSONAL_COOKIE.test(req.get("cookie") ?? "");

  const serve: RequestHandler = (req, res, next) => {
    const cached = applies(req) ? pages.get(req.originalUrl) : undefined;
    if (!cached) return next();
    sendCached(res, cached, preferredEncoding(req.get("accept-encoding")));
  };

  const capture: RequestHandler = (req, res, next) => {
    if (!applies(req)) return next();
    captureBody(res, async (html) => {
      if (res.statusCode !== 200 || res.getHeader("set-cookie") || pages.has(req.originalUrl))
        return;
      const csp = contentSecurityPolicy(null, {
        isProduction,
        scriptHashes: scriptHashes(html.toString("utf8")),
      });
      const [br, gz] = await Promise.all([
        brotli(html, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
        gzipAsync(html, { level: 9 }),
      ]);
      pages.set(req.originalUrl, {
        html,
        br,
        gzip: gz,
        csp,
        contentType: String(res.getHeader("content-type")),
      });
    });
    next();
  };

  return { serve, capture };
}

function sendCached(res: Response, page: CachedPage, encoding: "br" | "gzip" | undefined) {
  const body = encoding ? page[encoding] : page.html;
  res.setHeader("Content-Security-Policy", page.csp);
  res.setHeader("Content-Type", page.contentType);
  res.setHeader("Vary", "Accept-Encoding, Cookie");
  res.setHeader("X-Page-Cache", "hit");
  if (encoding) res.setHeader("Content-Encoding", encoding);
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
