import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import {
  expect,
  type APIRequestContext,
  type Browser,
  type Cookie,
  type Page,
} from "@playwright/test";
import { claimOnce, freshCode, rememberSecret, runDirectory, secretOf } from "../support/totp";
import { openPage, rememberCookieChoice } from "./fixtures";
import { linksOfLatestMail } from "./mailbox";

export const toast = (page: Page, title: string) =>
  page.locator("[data-toast]").filter({ hasText: title }).first();
export const nav = (page: Page) => page.getByRole("navigation", { name: "Principal" });
export const uniqueEmail = (label: string) =>
  `${label}.${Date.now()}.${Math.floor(Math.random() * 1e6)}@example.com`;

export async function signUp(page: Page, email: string, password: string) {
  await openPage(page, "/registro");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Contraseña", { exact: true }).fill(password);
  await page.getByLabel("Confirmar contraseña").fill(password);
  await page.getByRole("button", { name: "Crear Cuenta" }).click();
}

export async function verifyThroughMail(page: Page, email: string) {
  const links = await linksOfLatestMail(page, email, /^Confirma tu email/);
  const link = links.find((href) => href.includes("/api/auth/verify-email"));
  expect(link).toBeTruthy();
  await page.goto(link!);
}

export async function signIn(page: Page, email: string, password: string) {
  await openPage(page, "/login-cliente");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Contraseña").fill(password);
  await page.getByRole("button", { name: "Iniciar Sesión" }).click();
}

export async function createVerifiedCustomer(page: Page, password = "contraseña-segura-1") {
  const email = uniqueEmail("cliente");
  await signUp(page, email, password);
  await expect(page).toHaveURL(/\/verificar-email$/);
  await verifyThroughMail(page, email);
  await expect(page.getByRole("heading", { name: "¡Email verificado!" })).toBeVisible();
  return { email, password };
}

export const ADMIN_EMAIL = "admin@verticedigital.es";
export const ADMIN_PASSWORD = "admin-password-e2e";

/**
 * Signs the administrator of the test server (playwright.config.ts) in on `page`: with the
 * session kept from an earlier sign-in of the run when it still holds, else at /login. Each
 * sign-in spends a code of the account's authenticator, and the server takes a code once and at
 * most two at a time (this 30-second step's and the next): twenty sign-ins in a ten-minute run
 * queued for codes, once past a test's two minutes. Tests of signing in use `signInAsStaff`.
 */
export async function signInAsAdmin(page: Page) {
  const kept = keptSession(page, ADMIN_EMAIL);
  if (kept) {
    await page.context().addCookies(kept);
    await openPage(page, "/admin");
    if (new URL(page.url()).pathname === "/admin") return;
  }
  await signInAsStaff(page, ADMIN_EMAIL, ADMIN_PASSWORD);
  await expect(page).toHaveURL(/\/admin$/);
  keepSession(page, ADMIN_EMAIL, await page.context().cookies());
}

/**
 * Where the run keeps an account's session cookies, for every worker: by the server of the page,
 * or, for a page not opened yet, the run's own server (playwright.config.ts).
 */
const sessionFile = (page: Page, email: string) => {
  const port = new URL(page.url()).port || process.env.E2E_PORT;
  return path.join(runDirectory(), `session-${port}-${email}.json`);
};

/**
 * A kept session is reused for 5 minutes only: a refund, an export or a role change asks for a
 * proof of identity once a session is 10 minutes old (decision 063), and no test takes 5.
 */
const KEPT_SESSION_MS = 5 * 60_000;

function keptSession(page: Page, email: string): Cookie[] | undefined {
  try {
    const kept = JSON.parse(readFileSync(sessionFile(page, email), "utf8")) as {
      at: number;
      cookies: Cookie[];
    };
    return Date.now() - kept.at < KEPT_SESSION_MS ? kept.cookies : undefined;
  } catch {
    return undefined;
  }
}

/** The session's cookies only: the context's others (consent, analytics) stay its own. */
function keepSession(page: Page, email: string, cookies: Cookie[]) {
  const session = cookies.filter((cookie) => cookie.name.includes("session"));
  writeFileSync(sessionFile(page, email), JSON.stringify({ at: Date.now(), cookies: session }));
}

/** An account of the server `page` talks to: tests run more than one server (admin-panel). */
const accountKey = (page: Page, email: string) => `${new URL(page.url()).port}-${email}`;

/**
 * Verificación en dos pasos on the security page `page` is on (/admin/seguridad or
 * /mi-cuenta/seguridad): the password, the secret read as text, a code computed from it, and
 * the recovery codes shown once. The secret is kept for the run's other workers.
 */
export async function enrolSecondFactor(page: Page, email: string, password: string) {
  await page.getByLabel("Contraseña actual").fill(password);
  await page.getByRole("button", { name: "Empezar" }).click();
  const secretText = page.locator("[data-totp-secret]");
  await expect(secretText).toBeVisible();
  const secret = ((await secretText.textContent()) ?? "").replace(/\s/g, "");
  const key = accountKey(page, email);
  await page.getByLabel("Código de verificación").fill(await freshCode(key, secret));
  await page.getByRole("button", { name: "Activar" }).click();
  const list = page.locator("[data-recovery-codes] li");
  await expect(list).toHaveCount(10);
  rememberSecret(key, secret);
  return { secret, recoveryCodes: await list.allTextContents() };
}

/** The code step after a right password: a fresh code of the account's known secret. */
export async function passSecondFactor(page: Page, email: string) {
  await expect(page).toHaveURL(/\/verificacion(\?|$)/);
  const key = accountKey(page, email);
  await expect.poll(() => secretOf(key), { timeout: 60_000 }).not.toBeNull();
  await page.getByLabel("Código de verificación").fill(await freshCode(key, secretOf(key)!));
  await page.getByRole("button", { name: "Verificar" }).click();
}

/**
 * What follows a staff account's right password at /login: its code, or, for an account without
 * a factor yet (sent to /admin/seguridad), the enrolment (once per run: parallel workers signing
 * in the same administrator wait for the first one's secret). 'again' when the sign-in must
 * start again (another worker enrolled meanwhile, which ended this session).
 */
export async function afterStaffPassword(
  page: Page,
  email: string,
  password: string,
): Promise<"signed-in" | "enrolled" | "again"> {
  await expect(page).toHaveURL(/\/login\/verificacion$|\/admin\/seguridad$/);
  const key = accountKey(page, email);
  if (page.url().endsWith("/admin/seguridad")) {
    if (secretOf(key) === null && claimOnce(`enrolling-${key}`)) {
      await enrolSecondFactor(page, email, password);
      await page.getByRole("link", { name: "He guardado los códigos, continuar" }).click();
      await expect(page).toHaveURL(/\/admin(\?|$)/);
      return "enrolled";
    }
    await expect.poll(() => secretOf(key), { timeout: 60_000 }).not.toBeNull();
    return "again";
  }
  await passSecondFactor(page, email);
  await expect(page).toHaveURL(/\/admin(\?|$)/);
  return "signed-in";
}

/** A staff account's whole sign-in at /login: the password, then the second factor. */
export async function signInAsStaff(page: Page, email: string, password: string) {
  for (;;) {
    await openPage(page, "/login");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Contraseña").fill(password);
    await page.getByRole("button", { name: "Iniciar Sesión" }).click();
    if ((await afterStaffPassword(page, email, password)) !== "again") return;
  }
}

/**
 * A browser of its own for the administrator of the test server, signed in at /login; its
 * cookie choice stored, as the `page` fixture does.
 */
export async function signedInAdminPage(browser: Browser) {
  const context = await browser.newContext();
  await rememberCookieChoice(context, "rejected");
  const page = await context.newPage();
  await signInAsAdmin(page);
  await expect(page.locator("html[data-hydrated]")).toBeAttached();
  return page;
}

/**
 * Gives the account of `email` a staff role as an administrator does in Usuarios ('Cambiar rol',
 * confirmed), through `admin`, a request context signed in as one.
 */
export async function giveStaffRole(
  admin: APIRequestContext,
  email: string,
  role: "support" | "finance" | "admin",
  baseURL: string,
) {
  const list = await (await admin.get(`/admin?tab=usuarios&q=${encodeURIComponent(email)}`)).text();
  // The row's 'Cambiar rol' form goes to the account's confirmation page (decision 054).
  const userId = /action="\/admin\/usuarios\/([^/"]+)\/rol"/.exec(list)?.[1];
  expect(userId, `the account of ${email} in Usuarios`).toBeTruthy();
  const answer = await admin.post("/admin?tab=usuarios", {
    form: { intent: "set-role", userId: userId!, role, confirm: "yes" },
    headers: { Origin: baseURL },
    maxRedirects: 0,
  });
  expect(answer.status(), `${role} given to ${email}`).toBe(302);
}

/**
 * A customer's `page` made staff (`giveStaffRole`) must enrol a second factor before any staff
 * page opens: done here, on /admin/seguridad, with the account's password.
 */
export async function enrolStaffOnPage(page: Page, email: string, password: string) {
  await openPage(page, "/admin/seguridad");
  await enrolSecondFactor(page, email, password);
}
