import type { Page } from "@playwright/test";
import { expect, openPage, test } from "./fixtures";

test.use({ storedConsent: null });

const banner = (page: Page) => page.getByRole("dialog", { name: /cookies/i });

async function storedChoice(page: Page) {
  return page.evaluate(() => ({
    consent: window.localStorage.getItem("cookie-consent"),
    preferences: JSON.parse(window.localStorage.getItem("cookie-preferences") ?? "null"),
  }));
}

/** Fake time that only moves when the test moves it, however slow the machine. */
async function stopTime(page: Page) {
  const start = new Date("2026-11-22T10:00:00Z");
  await page.clock.install({ time: start });
  await page.clock.pauseAt(new Date(start.getTime() + 1_000));
}

async function openWithBanner(page: Page, path = "/") {
  await stopTime(page);
  await openPage(page, path);
  await page.clock.runFor(1_000);
  await expect(banner(page)).toBeVisible();
}

test("the banner waits one second before appearing", async ({ page }) => {
  await stopTime(page);
  await openPage(page, "/");
  await page.clock.runFor(900);
  await expect(banner(page)).toHaveCount(0);
  await page.clock.runFor(100);
  await expect(banner(page)).toBeVisible();
});

test("'Aceptar Todas' stores accepted with analytics, and the banner stays hidden after reload", async ({
  page,
}) => {
  await openWithBanner(page);
  await banner(page).getByRole("button", { name: "Aceptar Todas" }).click();
  await expect(banner(page)).toHaveCount(0);
  expect(await storedChoice(page)).toEqual({
    consent: "accepted",
    preferences: { essential: true, analytics: true },
  });
  await page.reload();
  await expect(page.locator("html[data-hydrated]")).toBeAttached();
  await page.clock.runFor(5_000);
  await expect(banner(page)).toHaveCount(0);
});

test("'Solo Esenciales' stores rejected without analytics", async ({ page }) => {
  await openWithBanner(page);
  await banner(page).getByRole("button", { name: "Solo Esenciales" }).click();
  await expect(banner(page)).toHaveCount(0);
  expect(await storedChoice(page)).toEqual({
    consent: "rejected",
    preferences: { essential: true, analytics: false },
  });
});

test("'Personalizar' offers analytics off by default; 'Cancelar' goes back; saving stores custom", async ({
  page,
}) => {
  await openWithBanner(page);
  await banner(page).getByRole("button", { name: "Personalizar" }).click();
  const analytics = banner(page).getByRole("switch", { name: "Analítica" });
  await expect(analytics).toHaveAttribute("aria-checked", "false");
  await banner(page).getByRole("button", { name: "Cancelar" }).click();
  await expect(banner(page).getByRole("button", { name: "Aceptar Todas" })).toBeVisible();
  await banner(page).getByRole("button", { name: "Personalizar" }).click();
  await banner(page).getByRole("switch", { name: "Analítica" }).click();
  await expect(banner(page).getByRole("switch", { name: "Analítica" })).toHaveAttribute(
    "aria-checked",
    "true",
  );
  await banner(page).getByRole("button", { name: "Guardar Preferencias" }).click();
  await expect(banner(page)).toHaveCount(0);
  expect(await storedChoice(page)).toEqual({
    consent: "custom",
    preferences: { essential: true, analytics: true },
  });
});

test("saving custom preferences untouched keeps analytics off", async ({ page }) => {
  await openWithBanner(page);
  await banner(page).getByRole("button", { name: "Personalizar" }).click();
  await banner(page).getByRole("button", { name: "Guardar Preferencias" }).click();
  expect(await storedChoice(page)).toEqual({
    consent: "custom",
    preferences: { essential: true, analytics: false },
  });
});

test("the close button hides the banner without storing a choice, so it returns", async ({
  page,
}) => {
  await openWithBanner(page);
  await banner(page).getByRole("button", { name: "Cerrar" }).click();
  await expect(banner(page)).toHaveCount(0);
  expect(await storedChoice(page)).toEqual({ consent: null, preferences: null });
  await page.reload();
  await expect(page.locator("html[data-hydrated]")).toBeAttached();
  await page.clock.runFor(1_000);
  await expect(banner(page)).toBeVisible();
});

test("before any choice: no cookies and no request to another origin", async ({
  page,
  context,
  baseURL,
}) => {
  const foreign: string[] = [];
  page.on("request", (request) => {
    if (!request.url().startsWith(baseURL!)) foreign.push(request.url());
  });
  await openWithBanner(page, "/");
  await openPage(page, "/precios");
  await openPage(page, "/desarrollo-web");
  expect(foreign).toEqual([]);
  expect(await context.cookies()).toEqual([]);
});
