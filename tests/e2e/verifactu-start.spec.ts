import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";

/**
 * Issue #23: production sends billing records with the company's certificate, or does not start.
 * The production build, started as a supervisor would, with a real PKCS#12 file (made here with
 * openssl), with a wrong password, with none, and with VERIFACTU=off said out loud.
 */
const root = path.resolve(import.meta.dirname, "../..");
let workDir: string;
let certificate: string;

test.beforeAll(() => {
  workDir = mkdtempSync(path.join(tmpdir(), "e2e-verifactu-start-"));
  const key = path.join(workDir, "key.pem");
  const cert = path.join(workDir, "cert.pem");
  certificate = path.join(workDir, "certificado.p12");
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-days",
      "1",
      "-subj",
      "/CN=VERTICE DIGITAL SERVICIOS SL/serialNumber=B12345674",
      "-keyout",
      key,
      "-out",
      cert,
    ],
    { stdio: "ignore" },
  );
  execFileSync(
    "openssl",
    [
      "pkcs12",
      "-export",
      "-inkey",
      key,
      "-in",
      cert,
      "-out",
      certificate,
      "-passout",
      "pass:clave-del-certificado",
    ],
    { stdio: "ignore" },
  );
});

test.afterAll(() => rmSync(workDir, { recursive: true, force: true }));

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

type Outcome = { exitCode: number | null; ready: boolean; stderr: string; stdout: string };

/** Starts build/server/index.js in production; answers once it is ready or has exited. */
async function startProduction(env: Record<string, string>): Promise<Outcome> {
  const port = await freePort();
  const child = spawn(process.execPath, ["build/server/index.js"], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? "",
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: mkdtempSync(path.join(workDir, "data-")),
      SITE_URL: "https://www.example.es",
      AUTH_SECRET: "s".repeat(40),
      SMTP_URL: "smtp://127.0.0.1:1",
      STRIPE_SECRET_KEY: "sk_live_verifactu_start",
      STRIPE_WEBHOOK_SECRET: "whsec_verifactu_start",
      COMPANY_TAX_ID: "B12345674",
      LOG_LEVEL: "info",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const outcome: Outcome = { exitCode: null, ready: false, stderr: "", stdout: "" };
  child.stderr.on("data", (chunk: Buffer) => (outcome.stderr += chunk.toString()));
  child.stdout.on("data", (chunk: Buffer) => (outcome.stdout += chunk.toString()));
  const exited = new Promise<void>((resolve) =>
    child.once("exit", (code) => {
      outcome.exitCode = code;
      resolve();
    }),
  );
  await expect
    .poll(
      async () => {
        if (child.exitCode !== null) return "exited";
        const status = await fetch(`http://127.0.0.1:${port}/readyz`).then(
          (response) => response.status,
          () => 0,
        );
        return status === 200 ? "ready" : "starting";
      },
      { timeout: 30_000, message: "the production server is ready or has exited" },
    )
    .not.toBe("starting");
  outcome.ready = child.exitCode === null;
  if (outcome.ready) {
    child.kill("SIGTERM");
    await exited;
  }
  return outcome;
}

test("starts with the company's certificate", async () => {
  const outcome = await startProduction({
    VERIFACTU_CERT_FILE: certificate,
    VERIFACTU_CERT_PASSWORD: "clave-del-certificado",
  });
  expect(outcome.ready).toBe(true);
  expect(outcome.stdout + outcome.stderr).not.toContain("VERIFACTU=off");
});

test("refuses to start without a certificate, or with one it cannot open", async () => {
  const none = await startProduction({});
  expect(none).toMatchObject({ ready: false, exitCode: 1 });
  expect(none.stderr).toContain("VERIFACTU_CERT_FILE: obligatorio en producción");

  const wrongPassword = await startProduction({
    VERIFACTU_CERT_FILE: certificate,
    VERIFACTU_CERT_PASSWORD: "otra-clave",
  });
  expect(wrongPassword).toMatchObject({ ready: false, exitCode: 1 });
  expect(wrongPassword.stdout + wrongPassword.stderr).toContain("VERI*FACTU");

  const missing = await startProduction({
    VERIFACTU_CERT_FILE: path.join(workDir, "no-existe.p12"),
    VERIFACTU_CERT_PASSWORD: "clave-del-certificado",
  });
  expect(missing).toMatchObject({ ready: false, exitCode: 1 });
});

test("starts with VERIFACTU=off and says, as a warning, that nothing goes to AEAT", async () => {
  const outcome = await startProduction({ VERIFACTU: "off" });
  expect(outcome.ready).toBe(true);
  const warning = (outcome.stdout + outcome.stderr)
    .split("\n")
    .filter((line) => line.includes("VERIFACTU=off"))
    .map((line) => JSON.parse(line) as { level: number; msg: string });
  expect(warning).toHaveLength(1);
  expect(warning[0]!.level).toBe(40);
});
