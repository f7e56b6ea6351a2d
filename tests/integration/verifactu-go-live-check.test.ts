import { execFile, execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { goLiveCheck, type CheckLine } from "~/features/verifactu/go-live-check.server";
import { getConfig, resetConfigForTests } from "~/platform/config.server";

/**
 * Issue 37, the go-live check (`npm run verifactu:check`): real PKCS#12 files made with openssl
 * as a Spanish qualified certificate names its holder (organizationIdentifier VATES-…, the
 * person's serialNumber IDCES-…), and a real HTTP listener standing for AEAT's endpoint.
 */
const saved = { ...process.env };
const PASSWORD = "clave-del-certificado";
let workDir = "";
let endpoint: http.Server;
let endpointUrl = "";
const certificates = { company: "", otherCompany: "" };

function makeCertificate(name: string, subject: string) {
  const key = path.join(workDir, `${name}.key`);
  const cert = path.join(workDir, `${name}.pem`);
  const p12 = path.join(workDir, `${name}.p12`);
  execFileSync(
    "openssl",
    [
      ...["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "365"],
      ...["-subj", subject, "-keyout", key, "-out", cert],
    ],
    { stdio: "ignore" },
  );
  execFileSync(
    "openssl",
    [
      ...["pkcs12", "-export", "-inkey", key, "-in", cert, "-out", p12],
      ...["-passout", `pass:${PASSWORD}`],
    ],
    { stdio: "ignore" },
  );
  return p12;
}

beforeAll(async () => {
  workDir = mkdtempSync(path.join(tmpdir(), "verifactu-check-"));
  certificates.company = makeCertificate(
    "empresa",
    "/C=ES/O=VERTICE DIGITAL SERVICIOS SL/organizationIdentifier=VATES-B12345674/serialNumber=IDCES-12345678Z/CN=12345678Z ANA PEREZ (R: B12345674)",
  );
  certificates.otherCompany = makeCertificate(
    "otra",
    "/C=ES/O=ASESORIA OTRA SL/organizationIdentifier=VATES-A58818501/CN=ASESORIA OTRA SL",
  );
  // AEAT's SOAP endpoint answers a GET with an error status; any answer means it is there.
  endpoint = http.createServer((_request, response) => response.writeHead(405).end());
  await new Promise<void>((resolve) => endpoint.listen(0, "127.0.0.1", resolve));
  endpointUrl = `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/wlpl/TIKE-CONT/ws/SistemaFacturacion/VerifactuSOAP`;
});

afterAll(async () => {
  await new Promise((resolve) => endpoint.close(resolve));
  rmSync(workDir, { recursive: true, force: true });
});

afterEach(() => {
  process.env = { ...saved };
  resetConfigForTests();
});

const READY = () => ({
  NODE_ENV: "test",
  VERIFACTU: "on",
  COMPANY_TAX_ID: "B12345674",
  VERIFACTU_CERT_FILE: certificates.company,
  VERIFACTU_CERT_PASSWORD: PASSWORD,
  VERIFACTU_ENVIRONMENT: "produccion",
  VERIFACTU_ENDPOINT: endpointUrl,
  VERIFACTU_DECLARATION_DATE: "2026-12-15",
  VERIFACTU_DECLARATION_PLACE: "Madrid, España",
});

async function check(env: Record<string, string | undefined>, now = new Date()) {
  process.env = { ...saved, ...env };
  resetConfigForTests();
  const lines = await goLiveCheck(getConfig(), { now, probeTimeoutMs: 2_000 });
  return Object.fromEntries(lines.map((line) => [line.label, line])) as Record<string, CheckLine>;
}

describe("npm run verifactu:check", () => {
  it("says a ready installation is ready, line by line", async () => {
    const lines = await check(READY());
    expect(Object.values(lines).map((line) => line.outcome)).toEqual(
      Object.values(lines).map(() => "ok"),
    );
    expect(lines["NIF del emisor"]!.detail).toBe("B12345674");
    expect(lines["Titular"]!.detail).toBe(
      "VERTICE DIGITAL SERVICIOS SL, NIF B12345674: el del emisor",
    );
    expect(lines["Validez"]!.detail).toMatch(/^hasta el \d{4}-\d{2}-\d{2}$/);
    expect(lines["Entorno"]!.detail).toBe(`produccion (${endpointUrl})`);
    expect(lines["Servicio de la AEAT"]!.detail).toBe("responde (HTTP 405)");
    expect(lines["Declaración responsable"]!.detail).toBe(
      "suscrita el 2026-12-15 en Madrid, España",
    );
  });

  it("says whose a certificate of another company is", async () => {
    const lines = await check({ ...READY(), VERIFACTU_CERT_FILE: certificates.otherCompany });
    expect(lines["Titular"]).toMatchObject({
      outcome: "warning",
      detail: expect.stringMatching(/^ASESORIA OTRA SL, NIF A58818501, no B12345674: /),
    });
  });

  it("fails a certificate that does not open, has expired, or is missing", async () => {
    const wrong = await check({ ...READY(), VERIFACTU_CERT_PASSWORD: "otra-clave" });
    expect(wrong["Certificado"]).toMatchObject({
      outcome: "failure",
      detail: expect.stringMatching(/no se abre/),
    });
    const inAYearAndADay = new Date(Date.now() + 367 * 24 * 60 * 60_000);
    const expired = await check(READY(), inAYearAndADay);
    expect(expired["Validez"]).toMatchObject({
      outcome: "failure",
      detail: expect.stringMatching(/^caducó el /),
    });
    const soon = await check(READY(), new Date(Date.now() + 350 * 24 * 60 * 60_000));
    expect(soon["Validez"]).toMatchObject({
      outcome: "warning",
      detail: expect.stringMatching(/renuévalo ya/),
    });
    const missing = await check({ ...READY(), VERIFACTU_CERT_FILE: "" });
    expect(missing["Certificado"]).toMatchObject({
      outcome: "failure",
      detail: expect.stringMatching(/sin definir/),
    });
  });

  it("fails the example NIF, an endpoint that does not answer and an unsigned declaración", async () => {
    const lines = await check({
      ...READY(),
      COMPANY_TAX_ID: "B00000000",
      VERIFACTU_ENDPOINT: "http://127.0.0.1:9/VerifactuSOAP",
      VERIFACTU_DECLARATION_PLACE: "",
      VERIFACTU_ENVIRONMENT: "pruebas",
    });
    expect(lines["NIF del emisor"]).toMatchObject({
      outcome: "failure",
      detail: expect.stringMatching(/B00000000/),
    });
    expect(lines["Servicio de la AEAT"]).toMatchObject({
      outcome: "failure",
      detail: expect.stringMatching(/no responde/),
    });
    expect(lines["Declaración responsable"]).toMatchObject({ outcome: "failure" });
    expect(lines["Entorno"]).toMatchObject({
      outcome: "warning",
      detail: expect.stringMatching(/sin efectos|no tienen efectos/),
    });
  });

  it("runs as a command that exits 1 until everything is fixed, and 0 then", async () => {
    const run = (env: Record<string, string | undefined>) =>
      new Promise<{ code: number; stdout: string }>((resolve) => {
        execFile(
          process.execPath,
          ["--import", "tsx", "scripts/verifactu-check.ts"],
          { env: { ...saved, ...env } },
          (error, stdout) => resolve({ code: error ? Number(error.code) : 0, stdout }),
        );
      });
    const ready = await run(READY());
    expect(ready.stdout).toContain("✔ Titular: VERTICE DIGITAL SERVICIOS SL, NIF B12345674");
    expect(ready.stdout).toContain("Listo para enviar registros a la AEAT.");
    expect(ready.code).toBe(0);
    const notReady = await run({ ...READY(), VERIFACTU_DECLARATION_DATE: "" });
    expect(notReady.stdout).toContain("✘ Declaración responsable");
    expect(notReady.code).toBe(1);
  });
});
