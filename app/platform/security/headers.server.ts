import { randomBytes } from "node:crypto";
import type { RequestHandler } from "express";

export type SecurityHeaderOptions = { isProduction: boolean; scriptHashes?: string[] };

const NONCE_BYTES = 16;
/** Nonces drawn from the system's generator 256 at a time: one call instead of one each. */
const NONCE_POOL_SIZE = 256 * NONCE_BYTES;
let noncePool = Buffer.alloc(0);
let noncePoolOffset = 0;

/**
 * A fresh nonce for each response (128 random bits, never handed out twice); inline scripts
 * without it are refused by the CSP.
 */
export function createNonce(): string {
  if (noncePoolOffset === noncePool.length) {
    noncePool = randomBytes(NONCE_POOL_SIZE);
    noncePoolOffset = 0;
  }
  const nonce = noncePool.toString("base64", noncePoolOffset, noncePoolOffset + NONCE_BYTES);
  noncePoolOffset += NONCE_BYTES;
  return nonce;
}

/**
 * With a nonce for fresh renders; with script hashes for cached pages, which cannot have one (a
 * page without inline scripts needs neither). Directives that would only repeat `default-src
 * 'self'` (font-src, connect-src, …) are left to it: the browser falls back to it for them.
 * `base-uri`, `form-action` and `frame-ancestors` have no such fallback and are spelt out.
 */
export function contentSecurityPolicy(
  nonce: string | null,
  { isProduction, scriptHashes = [] }: SecurityHeaderOptions,
) {
  const scriptSources = ["'self'", ...(nonce ? [`'nonce-${nonce}'`] : []), ...scriptHashes];
  const directives = [
    "default-src 'self'",
    `script-src ${scriptSources.join(" ")}`,
    // React renders style attributes (e.g. progress widths); styles cannot run code.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    // No site may frame ours (clickjacking): what X-Frame-Options: DENY said, for every browser
    // that still gets security updates (decision 041).
    "frame-ancestors 'none'",
  ];
  if (isProduction) directives.push("upgrade-insecure-requests");
  return directives.join("; ");
}

/**
 * The security headers that are the same on every answer, as name/value pairs: set by
 * `securityHeaders` and written, with the page's own CSP, by the page cache.
 */
export function constantSecurityHeaders({ isProduction }: { isProduction: boolean }) {
  const headers: Array<[string, string]> = [
    ["X-Content-Type-Options", "nosniff"],
    ["Referrer-Policy", "strict-origin-when-cross-origin"],
    ["Cross-Origin-Opener-Policy", "same-origin"],
    ["Permissions-Policy", "camera=(), microphone=(), geolocation=()"],
  ];
  if (isProduction)
    headers.push(["Strict-Transport-Security", "max-age=63072000; includeSubDomains; preload"]);
  return headers;
}

/** Sets the security headers of every response and exposes the CSP nonce in res.locals. */
export function securityHeaders(options: SecurityHeaderOptions): RequestHandler {
  const constant = constantSecurityHeaders(options);
  return (_req, res, next) => {
    const nonce = createNonce();
    res.locals.cspNonce = nonce;
    res.setHeader("Content-Security-Policy", contentSecurityPolicy(nonce, options));
    for (const [name, value] of constant) res.setHeader(name, value);
    next();
  };
}
