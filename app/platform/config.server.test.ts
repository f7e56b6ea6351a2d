import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "./config.server";

const tempDir = () => mkdtempSync(path.join(tmpdir(), "config-test-"));

describe("configuration", () => {
  it("runs locally with nothing set", () => {
    const dataDir = tempDir();
    const config = parseConfig({ DATA_DIR: dataDir });
    expect(config.port).toBe(3000);
    expect(config.host).toBe("0.0.0.0");
    expect(config.siteUrl).toBe("http://localhost:3000");
    expect(config.databaseUrl).toBeUndefined();
    expect(config.humanCheck).toBe("altcha");
    expect(config.isProduction).toBe(false);
  });

  it("generates the local secret once and keeps it in the data directory", () => {
    const dataDir = tempDir();
    const first = parseConfig({ DATA_DIR: dataDir }).authSecret;
    const second = parseConfig({ DATA_DIR: dataDir }).authSecret;
    expect(first).toHaveLength(64);
    expect(second).toBe(first);
    expect(readFileSync(path.join(dataDir, "auth-secret"), "utf8")).toBe(first);
  });

  it("derives SITE_URL from PORT and drops a trailing slash", () => {
    expect(parseConfig({ PORT: "4321", DATA_DIR: tempDir() }).siteUrl).toBe(
      "http://localhost:4321",
    );
    expect(parseConfig({ SITE_URL: "https://example.es/", DATA_DIR: tempDir() }).siteUrl).toBe(
      "https://example.es",
    );
  });

  it.each([
    ["PORT", "abc"],
    ["PORT", "70000"],
    ["DATABASE_URL", "mysql://localhost/db"],
    ["SMTP_URL", "http://mail"],
    ["HUMAN_CHECK", "maybe"],
    ["ADMIN_EMAIL", "not-an-email"],
    ["STRIPE_SECRET_KEY", "pk_live_123"],
  ])("refuses %s=%s with a message naming the variable", (name, value) => {
    expect(() => parseConfig({ [name]: value, DATA_DIR: tempDir() })).toThrowError(
      new RegExp(`^Configuración inválida: ${name}:`),
    );
  });

  it("refuses to start in production on unsafe defaults, naming each variable", () => {
    let error: unknown;
    try {
      parseConfig({ NODE_ENV: "production" });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain("AUTH_SECRET");
    expect((error as Error).message).toContain("SITE_URL");
    expect((error as Error).message).toContain("SMTP_URL");
    expect((error as Error).message.split("\n")).toHaveLength(1);
  });

  it("refuses to start in production without SMTP_URL, which would keep every mail (and its links) in the log", () => {
    expect(() =>
      parseConfig({
        NODE_ENV: "production",
        AUTH_SECRET: "x".repeat(40),
        SITE_URL: "https://www.example.es",
        STRIPE_SECRET_KEY: "sk_live_123",
        STRIPE_WEBHOOK_SECRET: "whsec_123",
      }),
    ).toThrowError(/^Configuración inválida: SMTP_URL: obligatorio en producción/);
  });

  it("accepts a complete production configuration", () => {
    const config = parseConfig({
      NODE_ENV: "production",
      AUTH_SECRET: "x".repeat(40),
      SITE_URL: "https://www.example.es",
      DATABASE_URL: "postgres://app@db:5432/app",
      SMTP_URL: "smtps://user:pass@smtp.example.es:465",
      STRIPE_SECRET_KEY: "sk_live_123",
      STRIPE_WEBHOOK_SECRET: "whsec_123",
      STRIPE_PRICE_CIBERSEGURIDAD: "price_123",
    });
    expect(config.stripe.priceIds).toEqual({ STRIPE_PRICE_CIBERSEGURIDAD: "price_123" });
    expect(config.isProduction).toBe(true);
    expect(config.authSecret).toBe("x".repeat(40));
  });

  it("never echoes a secret value in its error", () => {
    expect(() =>
      parseConfig({ AUTH_SECRET: "short-secret-value", DATA_DIR: tempDir() }),
    ).toThrowError(/^Configuración inválida: AUTH_SECRET: (?!.*short-secret-value)/);
  });
});
