import { describe, expect, it } from "vitest";
import { createLogger } from "./logger.server";
import { LOG_REDACTION, maskCardNumbers, REDACTED, redactUrl } from "./log-redaction";

const jwt = "eyJhbGciOiJIUzI1NiJ9.eyJlbWFpbCI6ImFAYi5lcyJ9.ZmlybWE";

describe("redactUrl", () => {
  it("hides the token segment of a reset link, relative or absolute, and keeps the rest", () => {
    expect(
      redactUrl("/api/auth/reset-password/Xq7PzR3kLm9T?callbackURL=%2Factualizar-password"),
    ).toBe("/api/auth/reset-password/[Redacted]?callbackURL=%2Factualizar-password");
    expect(redactUrl("https://www.example.es/api/auth/reset-password/Xq7PzR3kLm9T")).toBe(
      "https://www.example.es/api/auth/reset-password/[Redacted]",
    );
  });

  it("hides secret query parameters whatever their case", () => {
    expect(redactUrl(`/api/auth/verify-email?token=${jwt}&callbackURL=/verificar-email`)).toBe(
      "/api/auth/verify-email?token=[Redacted]&callbackURL=/verificar-email",
    );
    expect(redactUrl("/actualizar-password?TOKEN=abc123&error=x")).toBe(
      "/actualizar-password?TOKEN=[Redacted]&error=x",
    );
    expect(redactUrl("/cb?code=c0de&state=st4te&password=p4ss&api_key=k3y&newPassword=n3w")).toBe(
      "/cb?code=[Redacted]&state=[Redacted]&password=[Redacted]&api_key=[Redacted]&newPassword=[Redacted]",
    );
  });

  it("redacts inside URLs carried by a parameter (callbackURL, redirectTo) and the fragment", () => {
    const inner = encodeURIComponent("/actualizar-password?token=s3cr3t&x=1");
    const redacted = redactUrl(`/api/auth/reset-password/abc?callbackURL=${inner}`);
    expect(redacted).not.toContain("s3cr3t");
    expect(decodeURIComponent(redacted.split("callbackURL=")[1]!)).toBe(
      "/actualizar-password?token=[Redacted]&x=1",
    );
    expect(redactUrl("/x?redirectTo=/y/reset-password/t0k3n")).toBe(
      `/x?redirectTo=${encodeURIComponent("/y/reset-password/[Redacted]")}`,
    );
    expect(redactUrl("/vuelta#access_token=t0k3n&type=bearer")).toBe(
      "/vuelta#access_token=[Redacted]&type=bearer",
    );
  });

  it("hides a signed token (JWT) wherever it appears", () => {
    expect(redactUrl(`/enlace/${jwt}/fin?otro=${jwt}`)).toBe(
      "/enlace/[Redacted]/fin?otro=[Redacted]",
    );
  });

  it("leaves ordinary paths and queries untouched, and is idempotent", () => {
    for (const url of [
      "/",
      "/precios?servicio=ciberseguridad",
      "/admin?tab=pagos&q=ana%40example.es",
      "/pago-simulado/5f0c2c8e-8f4e-4c1e-9a51-0c7e4f0d2a11",
      "/verificar-email?error=INVALID_TOKEN",
      "/api/auth/reset-password/",
    ])
      expect(redactUrl(url)).toBe(url);
    const once = redactUrl(`/api/auth/reset-password/abc?callbackURL=%2Fa%3Ftoken%3Db`);
    expect(redactUrl(once)).toBe(once);
  });

  it("survives malformed escapes", () => {
    expect(redactUrl("/x?%E0%A4%A=1&token=t0k3n")).toBe("/x?%E0%A4%A=1&token=[Redacted]");
  });
});

describe("LOG_REDACTION", () => {
  const censor = LOG_REDACTION.censor;

  it("censors secret fields and passes URL fields through redactUrl", () => {
    expect(LOG_REDACTION.paths).toEqual(
      expect.arrayContaining([
        "password",
        "*.password",
        "token",
        "*.token",
        "*.headers.cookie",
        "*.headers.authorization",
        "url",
        "*.url",
      ]),
    );
    expect(censor("p4ss", ["form", "password"])).toBe(REDACTED);
    expect(censor("/api/auth/reset-password/abc", ["url"])).toBe(
      "/api/auth/reset-password/[Redacted]",
    );
    expect(censor(42, ["url"])).toBe(REDACTED);
  });
});

describe("maskCardNumbers", () => {
  it("masks a run of 13 to 19 digits that passes Luhn, typed with spaces or dashes too", () => {
    expect(maskCardNumbers("evt i{=79007199254740993%%")).toBe(`evt i{=${REDACTED}%%`);
    expect(maskCardNumbers("pago 4242 4242 4242 4242 ok")).toBe(`pago ${REDACTED} ok`);
    expect(maskCardNumbers("5555-5555-5555-4444")).toBe(REDACTED);
  });

  it("keeps numbers that are no card: ids, timestamps, a failed Luhn check", () => {
    expect(maskCardNumbers("TK-2026-000042 at 1764100000000")).toBe(
      "TK-2026-000042 at 1764100000000",
    );
    expect(maskCardNumbers("4242424242424241")).toBe("4242424242424241");
  });

  it("is applied to every line the site's logger writes", () => {
    const lines: string[] = [];
    const logger = createLogger("info", { write: (line: string) => void lines.push(line) });
    logger.warn({ eventId: "evt_4242424242424242", nested: { note: "4242424242424242" } }, "x");
    expect(lines.join("")).not.toContain("4242424242424242");
    expect(lines.join("")).toContain(REDACTED);
  });
});
