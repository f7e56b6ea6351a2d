import type { AddressInfo } from "node:net";
import express from "express";
import { describe, expect, it } from "vitest";
import {
  constantSecurityHeaders,
  contentSecurityPolicy,
  createNonce,
  securityHeaders,
} from "./headers.server";

const directives = (policy: string) =>
  new Map(policy.split("; ").map((d) => [d.split(" ")[0]!, d]));

describe("content security policy", () => {
  it("allows inline scripts only with the response's nonce", () => {
    const policy = contentSecurityPolicy("abc123", { isProduction: false });
    const scriptSrc = policy.split("; ").find((d) => d.startsWith("script-src"));
    expect(scriptSrc).toBe("script-src 'self' 'nonce-abc123'");
    expect(policy).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).toContain("object-src 'none'");
  });

  it("allows a cached page's inline scripts by their hashes, and a page without any by 'self'", () => {
    const hashes = ["'sha256-uno='", "'sha256-dos='"];
    expect(
      directives(contentSecurityPolicy(null, { isProduction: true, scriptHashes: hashes })).get(
        "script-src",
      ),
    ).toBe("script-src 'self' 'sha256-uno=' 'sha256-dos='");
    expect(directives(contentSecurityPolicy(null, { isProduction: true })).get("script-src")).toBe(
      "script-src 'self'",
    );
  });

  it("spells out only what default-src 'self' does not already say", () => {
    const policy = directives(contentSecurityPolicy(null, { isProduction: false }));
    expect(policy.get("default-src")).toBe("default-src 'self'");
    // These fall back to default-src: repeating 'self' for them said nothing more.
    for (const implied of ["font-src", "connect-src", "manifest-src", "media-src"])
      expect(policy.has(implied), implied).toBe(false);
    // These do not fall back to it, and must be there.
    expect(policy.get("base-uri")).toBe("base-uri 'self'");
    expect(policy.get("form-action")).toBe("form-action 'self'");
    expect(policy.get("frame-ancestors")).toBe("frame-ancestors 'none'");
    // What differs from 'self': inline styles, data: images, no plugins.
    expect(policy.get("style-src")).toBe("style-src 'self' 'unsafe-inline'");
    expect(policy.get("img-src")).toBe("img-src 'self' data:");
    expect(policy.get("object-src")).toBe("object-src 'none'");
  });

  it("upgrades insecure requests only in production", () => {
    expect(contentSecurityPolicy("n", { isProduction: true })).toContain(
      "upgrade-insecure-requests",
    );
    expect(contentSecurityPolicy("n", { isProduction: false })).not.toContain(
      "upgrade-insecure-requests",
    );
  });

  it("creates a different nonce of 128 bits each time, across refills of its pool", () => {
    const nonces = Array.from({ length: 1_000 }, createNonce);
    expect(new Set(nonces).size).toBe(1_000);
    for (const nonce of nonces) expect(Buffer.from(nonce, "base64")).toHaveLength(16);
  });
});

describe("the security headers of every answer", () => {
  async function headersOf(isProduction: boolean) {
    const app = express();
    app.use(securityHeaders({ isProduction }));
    app.get("/", (_req, res) => {
      res.type("html").send(`<p>${String(res.locals.cspNonce)}</p>`);
    });
    const server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    try {
      const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
      return { headers: response.headers, body: await response.text() };
    } finally {
      server.close();
    }
  }

  it("are the CSP with the answer's nonce and the constant ones, HSTS only in production", async () => {
    const { headers, body } = await headersOf(true);
    const nonce = /<p>(.+)<\/p>/.exec(body)![1]!;
    expect(headers.get("content-security-policy")).toBe(
      contentSecurityPolicy(nonce, { isProduction: true }),
    );
    expect(headers.get("x-content-type-options")).toBe("nosniff");
    expect(headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(headers.get("cross-origin-opener-policy")).toBe("same-origin");
    expect(headers.get("permissions-policy")).toBe("camera=(), microphone=(), geolocation=()");
    expect(headers.get("strict-transport-security")).toBe(
      "max-age=63072000; includeSubDomains; preload",
    );
    expect((await headersOf(false)).headers.get("strict-transport-security")).toBeNull();
  });

  it("leave out what modern browsers ignore or another header already says", async () => {
    const { headers } = await headersOf(true);
    // frame-ancestors 'none' in the CSP replaces it (decision 041).
    expect(headers.get("x-frame-options")).toBeNull();
    // FLoC is gone; Chrome reports the feature as unrecognised.
    expect(headers.get("permissions-policy")).not.toContain("interest-cohort");
    expect(constantSecurityHeaders({ isProduction: true }).map(([name]) => name)).toEqual([
      "X-Content-Type-Options",
      "Referrer-Policy",
      "Cross-Origin-Opener-Policy",
      "Permissions-Policy",
      "Strict-Transport-Security",
    ]);
  });
});
