import type { Page } from "@playwright/test";
import { createVerifiedCustomer, toast, uniqueEmail, verifyThroughMail } from "./accounts-helpers";
import { expect, openPage, test } from "./fixtures";

/** Fills the login form already on screen and sends it. */
async function signInHere(page: Page, email: string, password: string) {
  await expect(page.locator("html[data-hydrated]")).toBeAttached();
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Contraseña").fill(password);
  await page.getByRole("button", { name: "Iniciar Sesión" }).click();
}

/** A verified customer, signed out again: an anonymous visitor who has an account. */
async function returningCustomer(page: Page) {
  const customer = await createVerifiedCustomer(page);
  await page.context().clearCookies();
  return customer;
}

async function chooseService(page: Page, slug: string) {
  await openPage(page, "/precios");
  await page.locator(`article#${slug}`).getByRole("button", { name: "Comprar ahora" }).click();
  return page.getByRole("dialog", { name: "Registro Requerido" });
}

test("an anonymous visitor sent from /perfil to the login comes back to /perfil", async ({
  page,
}) => {
  const { email, password } = await returningCustomer(page);
  await openPage(page, "/perfil");
  await expect(page).toHaveURL(/\/login-cliente\?volver=%2Fperfil$/);
  await signInHere(page, email, password);
  await expect(page).toHaveURL(/\/perfil$/);
  await expect(page.getByRole("heading", { name: "Mi perfil" })).toBeVisible();
});

test("'Ya tengo cuenta' in the purchase dialog brings the customer back to the service, dialog open", async ({
  page,
}) => {
  const { email, password } = await returningCustomer(page);
  const dialog = await chooseService(page, "ciberseguridad");
  await dialog.getByRole("link", { name: "Ya tengo cuenta" }).click();
  await expect(page).toHaveURL(/\/login-cliente\?volver=/);
  await signInHere(page, email, password);
  await expect(page).toHaveURL(/\/precios\?comprar=ciberseguridad#ciberseguridad$/);
  const purchase = page.getByRole("dialog", { name: "Ciberseguridad" });
  await expect(purchase).toBeVisible();
  await expect(purchase.getByRole("button", { name: "Pagar ahora" })).toBeEnabled();
  await expect(toast(page, "Bienvenido")).toBeVisible();
  // Closed, it stays closed.
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toHaveCount(0);
});

test("'Crear cuenta' in the purchase dialog keeps the service through sign-up and verification", async ({
  page,
}) => {
  const dialog = await chooseService(page, "desarrollo-web");
  await dialog.getByRole("link", { name: "Crear cuenta" }).click();
  await expect(page).toHaveURL(/\/registro\?volver=/);
  // The login link of the sign-up page keeps the way back too.
  await expect(page.getByRole("link", { name: "Inicia sesión" })).toHaveAttribute(
    "href",
    /\/login-cliente\?volver=%2Fprecios%3Fcomprar%3Ddesarrollo-web/,
  );
  const email = uniqueEmail("vuelve");
  await expect(page.locator("html[data-hydrated]")).toBeAttached();
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Contraseña", { exact: true }).fill("contraseña-segura-1");
  await page.getByLabel("Confirmar contraseña").fill("contraseña-segura-1");
  await page.getByRole("button", { name: "Crear Cuenta" }).click();
  await expect(page).toHaveURL(/\/verificar-email$/);
  await verifyThroughMail(page, email);
  await expect(page.getByRole("heading", { name: "¡Email verificado!" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Continuar" })).toBeVisible();
  await expect(page).toHaveURL(/\/precios\?comprar=desarrollo-web#desarrollo-web$/);
  await expect(page.getByRole("dialog", { name: "Desarrollo Web" })).toBeVisible();
});

test("an open-redirect attempt in ?volver= lands on /precios", async ({ page }) => {
  const { email, password } = await returningCustomer(page);
  for (const hostile of ["//evil.example", "https://evil.example/", "/%2F%2Fevil.example"]) {
    await openPage(page, `/login-cliente?volver=${encodeURIComponent(hostile)}`);
    await signInHere(page, email, password);
    await expect(page).toHaveURL(/^http:\/\/(localhost|127\.0\.0\.1):\d+\/precios$/);
    await page.context().clearCookies();
  }
});

test("without JavaScript, the buy button leads to sign-up with the way back to the card", async ({
  browser,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/precios");
  const buy = page
    .locator("article#inteligencia-artificial")
    .getByRole("button", { name: "Comprar ahora" });
  await expect(buy).toHaveAttribute(
    "href",
    "/registro?volver=%2Fprecios%3Fcomprar%3Dinteligencia-artificial%23inteligencia-artificial",
  );
  await context.close();
});

test("a signed-in customer finds the contact form filled in; the cached page anonymous visitors get never is", async ({
  page,
  browser,
  playwright,
  baseURL,
}) => {
  const customer = await createVerifiedCustomer(page);
  const fullName = `Clienta Prellenada ${Date.now()}`;
  await openPage(page, "/perfil");
  const profile = page.getByRole("form", { name: "Datos del perfil" });
  await profile.getByLabel("Nombre completo").fill(fullName);
  await profile.getByRole("button", { name: "Guardar" }).click();
  await expect(toast(page, "Perfil actualizado")).toBeVisible();

  for (const path of ["/", "/contacto"]) {
    await openPage(page, path);
    const contact = page.getByRole("form", { name: "Formulario de contacto" });
    await expect(contact.getByLabel("Nombre completo")).toHaveValue(fullName);
    await expect(contact.getByLabel("Email")).toHaveValue(customer.email);
  }

  // Anonymous visitors of the cached home page, before and after, see an empty form.
  const anonymous = await playwright.request.newContext({ baseURL });
  for (let visit = 0; visit < 2; visit++) {
    const response = await anonymous.get("/");
    const html = await response.text();
    expect(html).not.toContain(fullName);
    expect(html).not.toContain(customer.email);
  }
  expect((await anonymous.get("/")).headers()["x-page-cache"]).toBe("hit");
  await anonymous.dispose();

  const strangerContext = await browser.newContext();
  const stranger = await strangerContext.newPage();
  await openPage(stranger, "/");
  const strangers = stranger.getByRole("form", { name: "Formulario de contacto" });
  await expect(strangers.getByLabel("Nombre completo")).toHaveValue("");
  await expect(strangers.getByLabel("Email")).toHaveValue("");
  await strangerContext.close();
});
