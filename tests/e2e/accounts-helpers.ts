import { expect, type APIRequestContext, type Browser, type Page } from "@playwright/test";
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

/** Signs the administrator of the test server (playwright.config.ts) in at /login on `page`. */
export async function signInAsAdmin(page: Page) {
  await openPage(page, "/login");
  await page.getByLabel("Email").fill("admin@verticedigital.es");
  await page.getByLabel("Contraseña").fill("admin-password-e2e");
  await page.getByRole("button", { name: "Iniciar Sesión" }).click();
  await expect(page).toHaveURL(/\/admin$/);
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
  const userId = /name="userId" value="([^"]+)"/.exec(list)?.[1];
  expect(userId, `the account of ${email} in Usuarios`).toBeTruthy();
  const answer = await admin.post("/admin?tab=usuarios", {
    form: { intent: "set-role", userId: userId!, role, confirm: "yes" },
    headers: { Origin: baseURL },
    maxRedirects: 0,
  });
  expect(answer.status(), `${role} given to ${email}`).toBe(302);
}
