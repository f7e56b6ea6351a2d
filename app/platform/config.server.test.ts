import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "./config.server";
import { embeddedDataDirIn } from "./data-dir";

const tempDir = () => mkdtempSync(path.join(tmpdir(), "config-test-"));

/** A complete, valid production environment, for tests that change one thing in it. */
const production = {
  NODE_ENV: "production",
  AUTH_SECRET: "x".repeat(40),
  SITE_URL: "https://www.example.es",
  SMTP_URL: "smtps://user:pass@smtp.example.es:465",
  STRIPE_SECRET_KEY: "sk_live_123",
  STRIPE_WEBHOOK_SECRET: "whsec_123",
  VERIFACTU_CERT_FILE: "/run/secrets/aeat.p12",
  VERIFACTU_CERT_PASSWORD: "clave-del-certificado",
  COMPANY_TAX_ID: "B12345674",
};

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

  it("names the embedded database's directory as the production entry reads it before parsing", () => {
    // The entry starts the embedded database from the raw environment (decision 060): wherever
    // the configuration then puts it, the entry must have started it there, or not at all.
    const environments: Record<string, string>[] = [
      {},
      { DATA_DIR: "/srv/sitio/datos" },
      { DATA_DIR: "  /srv/sitio/datos  " },
      { DATA_DIR: "datos/relativos" },
      { DATABASE_URL: "   " },
      { DATABASE_URL: "postgres://app@db.internal:5432/app" },
      { DATABASE_URL: " postgres://app@db.internal:5432/app ", DATA_DIR: "/srv/otro" },
    ];
    for (const environment of environments) {
      const config = parseConfig({ ...production, ...environment });
      expect(embeddedDataDirIn(environment), JSON.stringify(environment)).toBe(
        config.databaseUrl ? undefined : config.dataDir,
      );
    }
    // A blank DATA_DIR is refused: the entry starts nothing for it.
    expect(embeddedDataDirIn({ DATA_DIR: "  " })).toBeUndefined();
    expect(() => parseConfig({ ...production, DATA_DIR: "  " })).toThrowError(ConfigError);
  });

  it("generates the local secret once and keeps it in the data directory", () => {
    const dataDir = tempDir();
    const first = parseConfig({ DATA_DIR: dataDir }).authSecret;
    const second = parseConfig({ DATA_DIR: dataDir }).authSecret;
    expect(first).toHaveLength(64);
    expect(second).toBe(first);
    expect(readFileSync(path.join(dataDir, "auth-secret"), "utf8")).toBe(first);
  });

  it("derives SITE_URL from HOST and PORT and drops a trailing slash", () => {
    expect(parseConfig({ PORT: "4321", DATA_DIR: tempDir() }).siteUrl).toBe(
      "http://localhost:4321",
    );
    // Issue 39, item 1: started on one address, the site must not call itself another.
    expect(parseConfig({ HOST: "127.0.0.1", PORT: "4321", DATA_DIR: tempDir() }).siteUrl).toBe(
      "http://127.0.0.1:4321",
    );
    expect(parseConfig({ HOST: "::1", PORT: "4321", DATA_DIR: tempDir() }).siteUrl).toBe(
      "http://[::1]:4321",
    );
    expect(parseConfig({ HOST: "::", PORT: "4321", DATA_DIR: tempDir() }).siteUrl).toBe(
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

  it("refuses in production the example NIF and one whose control character is wrong", () => {
    // B00000000's control digit is right: only the placeholder check keeps it off invoices.
    expect(() => parseConfig({ ...production, COMPANY_TAX_ID: undefined })).toThrowError(
      /^Configuración inválida: COMPANY_TAX_ID: obligatorio en producción \(B00000000/,
    );
    expect(() => parseConfig({ ...production, COMPANY_TAX_ID: "B-00000000" })).toThrowError(
      /COMPANY_TAX_ID: obligatorio/,
    );
    for (const wrong of ["B12345678", "12345678A", "X1234567A", "empresa"])
      expect(() => parseConfig({ ...production, COMPANY_TAX_ID: wrong })).toThrowError(
        /^Configuración inválida: COMPANY_TAX_ID: no es un NIF válido/,
      );
    for (const right of ["B12345674", "12345678Z", "X1234567L"])
      expect(parseConfig({ ...production, COMPANY_TAX_ID: right }).company.taxId).toBe(right);
    // Locally the example stays, so that the site runs with nothing set.
    expect(parseConfig({ DATA_DIR: tempDir() }).company.taxId).toBe("B00000000");
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
      VERIFACTU_CERT_FILE: "/run/secrets/aeat.p12",
      VERIFACTU_CERT_PASSWORD: "clave-del-certificado",
      COMPANY_TAX_ID: "b-12345674",
    });
    expect(config.verifactu).toMatchObject({ enabled: true, environment: "produccion" });
    // Written as people write it, used as AEAT reads it.
    expect(config.company.taxId).toBe("B12345674");
    expect(config.stripe.priceIds).toEqual({ STRIPE_PRICE_CIBERSEGURIDAD: "price_123" });
    expect(config.isProduction).toBe(true);
    expect(config.authSecret).toBe("x".repeat(40));
  });

  describe("TRUST_PROXY", () => {
    it.each([
      [undefined, false],
      ["loopback", ["loopback"]],
      ["2", 2],
      ["10.0.0.0/8, 192.168.1.10", ["10.0.0.0/8", "192.168.1.10"]],
      ["uniquelocal,fd00::/8,::1", ["uniquelocal", "fd00::/8", "::1"]],
    ])("accepts %s as Express's trust proxy value %j", (value, expected) => {
      expect(parseConfig({ TRUST_PROXY: value, DATA_DIR: tempDir() }).trustProxy).toEqual(expected);
      expect(parseConfig({ ...production, TRUST_PROXY: value }).trustProxy).toEqual(expected);
    });

    it.each(["yes", "10.0.0.0/33", "10.0.0.300", "loopback,,", "-1", "1.5", "proxy.internal"])(
      "refuses the malformed value %s in any mode, naming TRUST_PROXY",
      (value) => {
        expect(() => parseConfig({ TRUST_PROXY: value, DATA_DIR: tempDir() })).toThrowError(
          /^Configuración inválida: TRUST_PROXY:/,
        );
      },
    );

    it.each([
      "true",
      "0.0.0.0/0",
      "loopback, ::/0",
      "0.0.0.0/1,128.0.0.0/1",
      "10.0.0.0/7",
      "8.8.8.8",
      "203.0.113.0/24",
      "loopback, 172.0.0.0/8",
      "2001:db8::/32",
      "fc00::/6",
      "::ffff:8.8.8.0/120",
      "::ffff:0:0/96",
    ])(
      "refuses %s in production: a range beyond the private networks could forge X-Forwarded-For",
      (value) => {
        expect(() => parseConfig({ ...production, TRUST_PROXY: value })).toThrowError(
          /^Configuración inválida: TRUST_PROXY: .*X-Forwarded-For/,
        );
        expect(parseConfig({ TRUST_PROXY: value, DATA_DIR: tempDir() }).trustProxy).toBeTruthy();
      },
    );

    it.each([
      "127.0.0.1",
      "10.0.0.0/8",
      "172.16.0.0/12",
      "172.20.0.5/32",
      "192.168.0.0/16",
      "169.254.169.254",
      "::1",
      "fc00::/7",
      "fd12:3456::/48",
      "fe80::/10",
      "::ffff:10.0.0.0/104",
      "::ffff:192.168.1.1",
      "loopback,linklocal,uniquelocal",
      "3",
    ])("accepts %s in production: it stays inside the private networks", (value) => {
      expect(parseConfig({ ...production, TRUST_PROXY: value }).trustProxy).toBeTruthy();
    });
  });

  it("refuses HUMAN_CHECK=off in production unless HUMAN_CHECK_OFF_IN_PRODUCTION=1 says so", () => {
    expect(() => parseConfig({ ...production, HUMAN_CHECK: "off" })).toThrowError(
      /^Configuración inválida: HUMAN_CHECK: .*HUMAN_CHECK_OFF_IN_PRODUCTION=1/,
    );
    expect(() =>
      parseConfig({ ...production, HUMAN_CHECK: "off", HUMAN_CHECK_OFF_IN_PRODUCTION: "0" }),
    ).toThrowError(/HUMAN_CHECK/);
    expect(() =>
      parseConfig({ ...production, HUMAN_CHECK: "off", HUMAN_CHECK_OFF_IN_PRODUCTION: "sí" }),
    ).toThrowError(/^Configuración inválida: HUMAN_CHECK_OFF_IN_PRODUCTION:/);
    const allowed = parseConfig({
      ...production,
      HUMAN_CHECK: "off",
      HUMAN_CHECK_OFF_IN_PRODUCTION: "1",
    });
    expect(allowed.humanCheck).toBe("off");
    expect(allowed.startWarnings).toEqual([expect.stringContaining("HUMAN_CHECK=off")]);
    expect(parseConfig(production).startWarnings).toEqual([]);
    // Locally (and in tests) switching it off is the normal case.
    expect(parseConfig({ HUMAN_CHECK: "off", DATA_DIR: tempDir() }).humanCheck).toBe("off");
  });

  it("refuses production without AEAT's certificate unless VERIFACTU=off says so", () => {
    const {
      VERIFACTU_CERT_FILE: _file,
      VERIFACTU_CERT_PASSWORD: _password,
      ...uncertified
    } = production;
    expect(() => parseConfig(uncertified)).toThrowError(/VERIFACTU_CERT_FILE: obligatorio/);
    expect(() => parseConfig({ ...production, VERIFACTU_CERT_PASSWORD: "" })).toThrowError(
      /VERIFACTU_CERT_PASSWORD: obligatorio/,
    );
    expect(parseConfig({ ...uncertified, VERIFACTU: "off" }).verifactu.enabled).toBe(false);
    expect(parseConfig({}).verifactu).toMatchObject({ enabled: true, environment: "pruebas" });
  });

  it("refuses Stripe test keys in production unless STRIPE_ALLOW_TEST_KEYS=1", () => {
    const testKeys = { ...production, STRIPE_SECRET_KEY: "sk_test_123" };
    expect(() => parseConfig(testKeys)).toThrowError(
      /^Configuración inválida: STRIPE_SECRET_KEY: .*STRIPE_ALLOW_TEST_KEYS=1/,
    );
    expect(() => parseConfig({ ...testKeys, STRIPE_ALLOW_TEST_KEYS: "0" })).toThrowError(
      /STRIPE_SECRET_KEY/,
    );
    expect(parseConfig({ ...testKeys, STRIPE_ALLOW_TEST_KEYS: "1" }).stripe.secretKey).toBe(
      "sk_test_123",
    );
    expect(() => parseConfig({ ...testKeys, STRIPE_ALLOW_TEST_KEYS: "sí" })).toThrowError(
      /^Configuración inválida: STRIPE_ALLOW_TEST_KEYS:/,
    );
    // Locally a test key is the normal case.
    expect(
      parseConfig({ STRIPE_SECRET_KEY: "sk_test_123", DATA_DIR: tempDir() }).stripe.secretKey,
    ).toBe("sk_test_123");
  });

  it("never echoes a secret value in its error", () => {
    expect(() =>
      parseConfig({ AUTH_SECRET: "short-secret-value", DATA_DIR: tempDir() }),
    ).toThrowError(/^Configuración inválida: AUTH_SECRET: (?!.*short-secret-value)/);
  });
});
