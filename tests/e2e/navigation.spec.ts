import type { Page } from "@playwright/test";
import { expect, openPage, test } from "./fixtures";

const nav = (page: Page) => page.getByRole("navigation", { name: "Principal" });

async function sectionIsInView(page: Page, id: string) {
  await expect
    .poll(() =>
      page.evaluate((sectionId) => {
        // The URL may change a moment before the new page is on screen.
        const section = document.getElementById(sectionId);
        if (!section) return false;
        const top = section.getBoundingClientRect().top;
        return top >= -5 && top < window.innerHeight / 2;
      }, id),
    )
    .toBe(true);
}

test("the current page is highlighted in the navigation bar", async ({ page }) => {
  await openPage(page, "/");
  await expect(nav(page).getByRole("link", { name: "Inicio", exact: true })).toHaveAttribute(
    "aria-current",
    "page",
  );
  await expect(nav(page).getByRole("link", { name: "Precios" })).not.toHaveAttribute(
    "aria-current",
  );
  await nav(page).getByRole("link", { name: "Precios" }).click();
  await expect(page).toHaveURL(/\/precios$/);
  await expect(nav(page).getByRole("link", { name: "Precios" })).toHaveAttribute(
    "aria-current",
    "page",
  );
  await expect(nav(page).getByRole("link", { name: "Inicio", exact: true })).not.toHaveAttribute(
    "aria-current",
  );
  await openPage(page, "/desarrollo-web");
  await expect(nav(page).getByRole("link", { name: "Servicios" })).toHaveAttribute(
    "aria-current",
    "page",
  );
});

test("desktop shows Entrar and Registro", async ({ page }) => {
  await openPage(page, "/");
  await expect(nav(page).getByRole("link", { name: "Entrar" })).toHaveAttribute(
    "href",
    "/login-cliente",
  );
  await expect(nav(page).getByRole("link", { name: "Registro" })).toHaveAttribute(
    "href",
    "/registro",
  );
});

test("Servicios and Contacto scroll on home without leaving it", async ({ page }) => {
  await openPage(page, "/");
  await nav(page).getByRole("link", { name: "Contacto" }).click();
  await sectionIsInView(page, "contacto");
  await nav(page).getByRole("link", { name: "Servicios" }).click();
  await sectionIsInView(page, "servicios");
  expect(new URL(page.url()).pathname).toBe("/");
});

test("the hero buttons scroll to services and contact", async ({ page }) => {
  await openPage(page, "/");
  await page.getByRole("link", { name: "Contactar" }).first().click();
  await sectionIsInView(page, "contacto");
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.getByRole("link", { name: "Ver servicios" }).click();
  await sectionIsInView(page, "servicios");
});

test("from another page, Servicios and Contacto go to the home sections", async ({ page }) => {
  await openPage(page, "/precios");
  await nav(page).getByRole("link", { name: "Servicios" }).click();
  await expect(page).toHaveURL(/\/#servicios$/);
  await sectionIsInView(page, "servicios");
  await openPage(page, "/terminos");
  await nav(page).getByRole("link", { name: "Contacto" }).click();
  await expect(page).toHaveURL(/\/#contacto$/);
  await sectionIsInView(page, "contacto");
});

test("'Hablar con un experto' leads to the contact section of home", async ({ page }) => {
  await openPage(page, "/precios");
  await page.getByRole("link", { name: "Hablar con un experto" }).click();
  await expect(page).toHaveURL(/\/#contacto$/);
  await sectionIsInView(page, "contacto");
});

test("the scroll-progress bar follows the page", async ({ page }) => {
  await openPage(page, "/terminos");
  const progress = page.getByRole("progressbar", { name: "Progreso de lectura" });
  await expect(progress).toHaveAttribute("aria-valuenow", "0");
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await expect(progress).toHaveAttribute("aria-valuenow", "100");
  await page.evaluate(() =>
    window.scrollTo(0, (document.documentElement.scrollHeight - window.innerHeight) / 2),
  );
  await expect
    .poll(async () => Number(await progress.getAttribute("aria-valuenow")))
    .toBeGreaterThan(40);
  expect(Number(await progress.getAttribute("aria-valuenow"))).toBeLessThan(60);
});
