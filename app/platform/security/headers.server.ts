import { randomBytes } from "node:crypto";
import type { RequestHandler } from "express";

export type SecurityHeaderOptions = { isProduction: boolean; scriptHashes?: string[] };

/** A fresh nonce for each response; inline scripts without it are refused by the CSP. */
export function createNonce(): string {
  return randomBytes(16).toString("base64");
}

/** With a nonce for fresh renders; with script hashes for cached pages, which cannot have one. */
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
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ];
  if (isProduction) directives.push("upgrade-insecure-requests");
  return directives.join("; ");
}

/** Sets the security headers of every response and exposes the CSP nonce in res.locals. */
export function securityHeaders(options: SecurityHeaderOptions): RequestHandler {
  return (_req, res, next) => {
    const nonce = createNonce();
    res.locals.cspNonce = nonce;
    res.setHeader("Content-Security-Policy", contentSecurityPolicy(nonce, options));
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
    res.setHeader("X-Frame-Options", "DENY");
    res.setHeader("Cross-Origin-Opener-Policy", "same-origin");
    res.setHeader(
      "Permissions-Policy",
      "camera=(), microphone=(), geolocation=(), interest-cohort=()",
    );
    if (options.isProduction) {
      res.setHeader("Strict-Transport-Security", "max-age=63072000; includeSubDomains; preload");
    }
    next();
  };
}
