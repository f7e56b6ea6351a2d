import type { Page } from "@playwright/test";
import { createVerifiedCustomer } from "./accounts-helpers";
import { expect, openPage, test } from "./fixtures";

/** The phone menu is a native disclosure: its toggle is the <summary>, its state `open`. */
const menuButton = (page: Page) => page.locator("details[data-mobile-menu] > summary");
const menu = (page: Page) => page.locator("#mobile-menu");
const menuOpen = (page: Page) =>
  page
    .locator("details[data-mobile-menu]")
    .evaluate((details) => (details as HTMLDetailsElement).open);

test("the mobile menu opens, shows the links and closes on any tap", async ({ page }) => {
  await openPage(page, "/precios");
  await expect(menu(page)).toBeHidden();
  await expect(menuButton(page)).toHaveAccessibleName("Abrir menú");
  await menuButton(page).click();
  await expect(menuButton(page)).toHaveAccessibleName("Cerrar menú");
  for (const name of [
    "Inicio",
    "Servicios",
    "Precios",
    "Contacto",
    "Iniciar Sesión",
    "Registrarse",
  ]) {
    await expect(menu(page).getByRole("link", { name })).toBeVisible();
  }
  await menu(page).getByRole("link", { name: "Inicio" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(menu(page)).toBeHidden();
  expect(await menuOpen(page)).toBe(false);
});

test("Escape closes the mobile menu and gives focus back to its toggle; so does a tap outside", async ({
  page,
}) => {
  await openPage(page, "/precios");
  await menuButton(page).focus();
  await page.keyboard.press("Enter");
  await expect(menu(page).getByRole("link", { name: "Precios" })).toBeVisible();
  await page.keyboard.press("Tab");
  await page.keyboard.press("Escape");
  await expect(menu(page)).toBeHidden();
  await expect(menuButton(page)).toBeFocused();
  await expect(menuButton(page)).toHaveAccessibleName("Abrir menú");
  await menuButton(page).click();
  await expect(menu(page)).toBeVisible();
  await page.mouse.click(200, 700);
  await expect(menu(page)).toBeHidden();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the mobile menu opens and closes, and its links lead on", async ({ page }) => {
    await page.goto("/desarrollo-web");
    await expect(menu(page)).toBeHidden();
    await menuButton(page).click();
    await expect(menu(page).getByRole("link", { name: "Registrarse" })).toBeVisible();
    await menuButton(page).click();
    await expect(menu(page)).toBeHidden();
    await menuButton(page).click();
    await menu(page).getByRole("link", { name: "Precios" }).click();
    await expect(page).toHaveURL(/\/precios$/);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  });
});

test("on home, a section link closes the menu and then scrolls to the section", async ({
  page,
}) => {
  await openPage(page, "/");
  await menuButton(page).click();
  await menu(page).getByRole("link", { name: "Contacto" }).click();
  await expect(menu(page)).toBeHidden();
  await expect
    .poll(() =>
      page.evaluate(() => document.getElementById("contacto")!.getBoundingClientRect().top),
    )
    .toBeLessThan(120);
});

test("/precios shows one column of cards on a phone", async ({ page }) => {
  await openPage(page, "/precios");
  const lefts = await page
    .locator("article")
    .evaluateAll((cards) => cards.map((card) => Math.round(card.getBoundingClientRect().left)));
  expect(new Set(lefts).size).toBe(1);
});

test("pages do not scroll sideways on a 360 px screen", async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  for (const path of ["/", "/precios", "/desarrollo-web", "/privacidad"]) {
    await openPage(page, path);
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - window.innerWidth,
    );
    expect(overflow, path).toBeLessThanOrEqual(0);
  }
});

test("signed in, the mobile menu shows the e-mail and 'Cerrar Sesión'", async ({ page }) => {
  const customer = await createVerifiedCustomer(page);
  await openPage(page, "/precios");
  await menuButton(page).click();
  await expect(menu(page)).toContainText(customer.email);
  await menu(page).getByRole("button", { name: "Cerrar Sesión" }).click();
  await expect(page).toHaveURL(/\/$/);
  await menuButton(page).click();
  await expect(menu(page).getByRole("link", { name: "Iniciar Sesión" })).toBeVisible();
});

test("a form's faulty field is shown clear of the header and of the toast", async ({ page }) => {
  await openPage(page, "/registro");
  await page.getByLabel("Email").fill("persona@example.com");
  await page.getByRole("button", { name: "Crear Cuenta" }).click();
  const field = page.getByLabel("Contraseña", { exact: true });
  await expect(field).toBeFocused();
  const toast = page.locator("[data-toast]").first();
  await expect(toast).toBeVisible();
  // The toast slides in and the page scrolls smoothly: read the boxes once both are still.
  await toast.evaluate((element) =>
    Promise.all(
      [...element.getAnimations({ subtree: true }), ...document.getAnimations()].map(
        (animation) => animation.finished,
      ),
    ),
  );
  await page.waitForFunction(
    () =>
      new Promise((done) => {
        const before = scrollY;
        requestAnimationFrame(() => requestAnimationFrame(() => done(scrollY === before)));
      }),
  );
  const header = (await page.locator("header").first().boundingBox())!;
  const [fieldBox, toastBox] = [(await field.boundingBox())!, (await toast.boundingBox())!];
  expect(fieldBox.y).toBeGreaterThanOrEqual(header.y + header.height);
  expect(fieldBox.y + fieldBox.height).toBeLessThanOrEqual(toastBox.y);
});

test("Mi Cuenta's four tabs fit a 390 px screen", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await createVerifiedCustomer(page);
  await openPage(page, "/mi-cuenta");
  const tabs = page.getByRole("tablist", { name: "Secciones de Mi Cuenta" });
  await expect(tabs.getByRole("tab")).toHaveCount(4);
  await expect(tabs.getByRole("tab", { name: "Configuración" })).toBeInViewport();
  expect(await tabs.evaluate((strip) => strip.scrollWidth - strip.clientWidth)).toBeLessThanOrEqual(
    0,
  );
});
