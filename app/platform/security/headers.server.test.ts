import { describe, expect, it } from "vitest";
import { contentSecurityPolicy, createNonce } from "./headers.server";

describe("content security policy", () => {
  it("allows inline scripts only with the response's nonce", () => {
    const policy = contentSecurityPolicy("abc123", { isProduction: false });
    const scriptSrc = policy.split("; ").find((d) => d.startsWith("script-src"));
    expect(scriptSrc).toBe("script-src 'self' 'nonce-abc123'");
    expect(policy).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).toContain("object-src 'none'");
  });

  it("upgrades insecure requests only in production", () => {
    expect(contentSecurityPolicy("n", { isProduction: true })).toContain(
      "upgrade-insecure-requests",
    );
    expect(contentSecurityPolicy("n", { isProduction: false })).not.toContain(
      "upgrade-insecure-requests",
    );
  });

  it("creates a different nonce each time", () => {
    const nonces = new Set(Array.from({ length: 50 }, createNonce));
    expect(nonces.size).toBe(50);
  });
});
