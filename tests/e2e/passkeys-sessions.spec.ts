import { execFile, spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { Browser, BrowserContext, Page } from "@playwright/test";
import { createVerifiedCustomer, signIn, toast } from "./accounts-helpers";
import { expect, openPage, rememberCookieChoice, test } from "./fixtures";

/**
 * Issue #26's passkeys and sessions (decision 045) in Chromium, with its virtual authenticator
 * (DevTools protocol WebAuthn: CTAP2, internal transport, user verification on): a passkey
 * added from the security page and used to sign in at both doors, a customer's passkey refused
 * at the staff door and at another account's second step, the list of sessions ending one
 * session and all of them, and the staff's 30 idle minutes. That last one needs the server
 * stopped while the session's last activity is moved back, so this file runs its own server.
 * Without JavaScript the sign-in pages say passkeys need it.
 *
 * PASSKEYS_SHOTS_DIR=<dir> also saves screenshots of the pages at 390 and 1280 px.
 */
test.describe.configure({ mode: "serial" });

const root = fileURLToPath(new URL("../..", import.meta.url));
const run = promisify(execFile);
const STAFF = { email: "llaves.admin@verticedigital.es", password: "llaves-admin-password-e2e" };
const shots = process.env.PASSKEYS_SHOTS_DIR;

let dataDir: string;
let baseURL: string;
let port: number;
let server: ChildProcess | undefined;

// eslint-disable-next-line no-empty-pattern
test.use({ baseURL: async ({}, use) => use(baseURL) });

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

async function startServer() {
  let stderr = "";
  server = spawn(process.execPath, ["build/server/index.js"], {
    cwd: root,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      DATABASE_URL: "",
      PORT: String(port),
      HOST: "127.0.0.1",
      SITE_URL: baseURL,
      CONTACT_RATE_LIMIT: "1000",
      AUTH_ADDRESS_RATE_LIMIT: "1000",
      ADMIN_EMAIL: STAFF.email,
      ADMIN_PASSWORD: STAFF.password,
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
  server.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const started = server;
  await expect
    .poll(
      async () => {
        if (started.exitCode !== null) throw new Error(`server exited: ${stderr}`);
        return fetch(`${baseURL}/readyz`).then(
          (response) => response.status,
          () => 0,
        );
      },
      { timeout: 60_000, message: "the passkeys server answers /readyz" },
    )
    .toBe(200);
}

async function stopServer() {
  const running = server;
  if (!running || running.exitCode !== null) return;
  const exited = new Promise((resolve) => running.once("exit", resolve));
  running.kill("SIGTERM");
  await exited;
}

// eslint-disable-next-line no-empty-pattern
test.beforeAll(async ({}, testInfo) => {
  testInfo.setTimeout(120_000);
  dataDir = mkdtempSync(path.join(tmpdir(), "e2e-passkeys-"));
  port = await freePort();
  baseURL = `http://localhost:${port}`;
  await startServer();
});

test.afterAll(async () => {
  await stopServer();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/**
 * Chromium's virtual authenticator on `page`: a platform authenticator (fingerprint or PIN)
 * that keeps discoverable credentials and verifies its user, as a phone or laptop does.
 */
async function addAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return {
    credentials: async () =>
      (await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials,
  };
}

async function newPage(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL });
  await rememberCookieChoice(context, "rejected");
  return { context, page: await context.newPage() };
}

async function screenshot(page: Page, name: string) {
  if (!shots) return;
  mkdirSync(shots, { recursive: true });
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: path.join(shots, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 720 });
}

/** The staff's password at /login, from any state: answers the page after it. */
async function staffPassword(page: Page) {
  await openPage(page, "/login");
  await page.getByLabel("Email").fill(STAFF.email);
  await page.getByLabel("Contraseña").fill(STAFF.password);
  await page.getByRole("button", { name: "Iniciar Sesión" }).click();
}

async function addPasskeyOnSecurityPage(page: Page) {
  const section = page.getByRole("region", { name: "Llaves de acceso" });
  await section.getByRole("button", { name: "Añadir llave de acceso" }).click();
  await expect(toast(page, "Llave de acceso añadida")).toBeVisible();
  await expect(
    section.getByRole("list", { name: "Tus llaves de acceso" }).locator("li"),
  ).toHaveCount(1);
}

async function passkeyButton(page: Page, name: string) {
  const button = page.getByRole("button", { name });
  await expect(button).toBeEnabled();
  return button;
}

let staffPage: Page;
let staffAuthenticator: Awaited<ReturnType<typeof addAuthenticator>>;

test("staff enrol a passkey as their factor and sign in with it alone", async ({ browser }) => {
  ({ page: staffPage } = await newPage(browser));
  const page = staffPage;
  staffAuthenticator = await addAuthenticator(page);
  await staffPassword(page);
  // No factor yet: the gate sends the account to enrol one.
  await expect(page).toHaveURL(/\/admin\/seguridad$/);
  await expect(page.locator("noscript p").first()).toBeHidden();
  await addPasskeyOnSecurityPage(page);
  expect(await staffAuthenticator.credentials()).toHaveLength(1);
  const sessions = page.getByRole("list", { name: "Tus sesiones activas" });
  await expect(sessions.locator("li").filter({ hasText: "Esta sesión" })).toHaveCount(1);
  await screenshot(page, "admin-seguridad");
  // The passkey is a factor: the panel opens.
  await openPage(page, "/admin");
  await expect(page).toHaveURL(/\/admin$/);

  await page.context().clearCookies();
  await openPage(page, "/login");
  await screenshot(page, "login");
  await (await passkeyButton(page, "Entrar con llave de acceso")).click();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(toast(page, `Bienvenido, ${STAFF.email}`)).toBeVisible();

  await openPage(page, "/admin/auditoria");
  const rows = page.getByRole("table", { name: "Registro de auditoría" }).getByRole("row");
  await expect(
    rows.filter({ hasText: "Llave de acceso añadida" }).filter({ hasText: "llave: Chrome en" }),
  ).toHaveCount(1);
  await expect(
    rows.filter({ hasText: "Inicio de sesión" }).filter({ hasText: "Método: llave de acceso" }),
  ).toHaveCount(1);
});

test("a customer's passkey signs them in, and is refused at the staff door and on another account's second step", async ({
  browser,
}) => {
  const { context, page } = await newPage(browser);
  await addAuthenticator(page);
  // The verification link signs in the browser that asked for it.
  await createVerifiedCustomer(page);
  await openPage(page, "/mi-cuenta/seguridad");
  await addPasskeyOnSecurityPage(page);
  await screenshot(page, "mi-cuenta-seguridad");

  await context.clearCookies();
  await openPage(page, "/login-cliente?volver=%2Fmi-cuenta");
  await (await passkeyButton(page, "Entrar con llave de acceso")).click();
  await expect(page).toHaveURL(/\/mi-cuenta$/);

  // The staff door: a customer's passkey opens nothing.
  await context.clearCookies();
  await openPage(page, "/login");
  await (await passkeyButton(page, "Entrar con llave de acceso")).click();
  await expect(toast(page, "Acceso denegado")).toBeVisible();
  await openPage(page, "/admin");
  await expect(page).toHaveURL(/\/login$/);

  // The staff's password, then this browser's passkey (the customer's): refused.
  await staffPassword(page);
  await expect(page).toHaveURL(/\/login\/verificacion$/);
  await (await passkeyButton(page, "Usar una llave de acceso")).click();
  await expect(toast(page, "Esa llave de acceso es de otra cuenta")).toBeVisible();
  await openPage(page, "/admin");
  await expect(page).toHaveURL(/\/login$/);
  await context.close();
});

test("without JavaScript the sign-in pages say that passkeys need it", async ({ browser }) => {
  const context = await browser.newContext({ baseURL, javaScriptEnabled: false });
  const page = await context.newPage();
  for (const path of ["/login", "/login-cliente"]) {
    await page.goto(path);
    // Text queries skip <noscript>, so the sentence is found by its element.
    const sentence = page.locator("noscript p");
    await expect(sentence).toBeVisible();
    await expect(sentence).toContainText("Las llaves de acceso necesitan JavaScript");
    await expect(page.getByRole("button", { name: "Entrar con llave de acceso" })).toBeDisabled();
  }
  await context.close();
});

test("a session ended from the list, and 'Cerrar sesión en todos los dispositivos', sign the other browser out", async ({
  browser,
}) => {
  const laptop = await newPage(browser);
  const { email, password } = await createVerifiedCustomer(laptop.page);
  const phone = await newPage(browser);
  await signIn(phone.page, email, password);
  await expect(phone.page).not.toHaveURL(/\/login-cliente/);

  await openPage(laptop.page, "/mi-cuenta/seguridad");
  const list = laptop.page.getByRole("list", { name: "Tus sesiones activas" });
  await expect(list.locator("li")).toHaveCount(2);
  await list
    .locator("li")
    .filter({ hasNotText: "Esta sesión" })
    .getByRole("button", { name: /^Cerrar sesión/ })
    .click();
  await expect(toast(laptop.page, "Sesión cerrada en ese dispositivo")).toBeVisible();
  await expect(list.locator("li")).toHaveCount(1);
  await openPage(phone.page, "/mi-cuenta");
  await expect(phone.page).toHaveURL(/\/login-cliente/);

  await signIn(phone.page, email, password);
  await expect(phone.page).not.toHaveURL(/\/login-cliente/);
  await openPage(laptop.page, "/mi-cuenta/seguridad");
  await laptop.page
    .getByRole("button", { name: "Cerrar sesión en todos los dispositivos" })
    .click();
  await expect(laptop.page).toHaveURL(/\/login-cliente$/);
  await expect(toast(laptop.page, "Has cerrado sesión en todos los dispositivos")).toBeVisible();
  await openPage(phone.page, "/mi-cuenta");
  await expect(phone.page).toHaveURL(/\/login-cliente/);
  await laptop.context.close();
  await phone.context.close();
});

/** Moves the staff's sessions `minutes` back, with the server stopped (PGlite: one process). */
async function ageStaffSessions(minutes: number) {
  await stopServer();
  const { stdout } = await run(
    process.execPath,
    ["--import", "tsx", "tests/support/age-sessions.ts", dataDir, STAFF.email, String(minutes)],
    { cwd: root, env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "" } },
  );
  expect(JSON.parse(stdout).moved).toBeGreaterThan(0);
  await startServer();
}

test("an 11-minute-old staff session confirms who it is before an export, by keyboard and without JavaScript", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const page = staffPage;
  await openPage(page, "/admin/auditoria");
  await ageStaffSessions(11);

  await openPage(page, "/admin/auditoria");
  await page.getByRole("link", { name: "Exportar CSV" }).click();
  await expect(page).toHaveURL(/\/confirmar-identidad\?volver=%2Fadmin%2Fauditoria$/);
  await expect(page.getByRole("heading", { name: "Confirma tu identidad" })).toBeVisible();
  await expect(toast(page, "Confirma tu identidad")).toBeVisible();
  await screenshot(page, "confirmar-identidad");
  // By keyboard: the password (a passkey-only account is asked nothing else), then Enter.
  await page.getByLabel("Contraseña actual").focus();
  await page.keyboard.type(STAFF.password);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/admin\/auditoria$/);
  await expect(toast(page, "Identidad confirmada")).toBeVisible();
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Exportar CSV" }).click();
  expect((await download).suggestedFilename()).toMatch(/\.csv$/);
  await expect(
    page
      .getByRole("table", { name: "Registro de auditoría" })
      .getByRole("row")
      .filter({ hasText: "Identidad confirmada" }),
  ).toHaveCount(1);

  // Without JavaScript: the plain link, the plain form, the same way back.
  await ageStaffSessions(11);
  const plain = await browser.newContext({ baseURL, javaScriptEnabled: false });
  await plain.addCookies(await page.context().cookies());
  const noScript = await plain.newPage();
  await noScript.goto("/admin/auditoria");
  await noScript.getByRole("link", { name: "Exportar CSV" }).click();
  await expect(noScript).toHaveURL(/\/confirmar-identidad\?volver=%2Fadmin%2Fauditoria$/);
  await noScript.getByLabel("Contraseña actual").fill("no-es-la-contraseña");
  await noScript.getByRole("button", { name: "Confirmar" }).click();
  await expect(noScript.getByText("Contraseña incorrecta")).toBeVisible();
  await noScript.getByLabel("Contraseña actual").fill(STAFF.password);
  await noScript.getByRole("button", { name: "Confirmar" }).click();
  await expect(noScript).toHaveURL(/\/admin\/auditoria$/);
  // The confirmation renewed the session: the JavaScript browser takes the new one.
  await page.context().addCookies(await plain.cookies());
  await plain.close();
});

test("a staff session unused for 30 minutes ends", async () => {
  test.setTimeout(180_000);
  const page = staffPage;
  await openPage(page, "/admin");
  await expect(page).toHaveURL(/\/admin$/);
  await ageStaffSessions(31);
  await page.goto("/admin");
  await expect(page).toHaveURL(/\/login$/);
  await expect(toast(page, "Tu sesión ha caducado")).toBeVisible();
  // The passkey still opens a new session.
  await (await passkeyButton(page, "Entrar con llave de acceso")).click();
  await expect(page).toHaveURL(/\/admin$/);
});
