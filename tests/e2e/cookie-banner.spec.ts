import type { Page } from "@playwright/test";
import { COOKIE_POLICY_VERSION } from "../../app/features/consent/cookie-consent";
import { expect, openPage, rememberCookieChoice, test } from "./fixtures";

test.use({ storedConsent: null });

const banner = (page: Page) => page.getByRole("dialog", { name: /cookies/i });

async function storedChoice(page: Page) {
  const stored = await page.evaluate(() => ({
    consent: window.localStorage.getItem("cookie-consent"),
    preferences: JSON.parse(window.localStorage.getItem("cookie-preferences") ?? "null"),
  }));
  if (stored.preferences) {
    // The record's date and version are checked once, in their own test, below.
    delete stored.preferences.policyVersion;
    delete stored.preferences.decidedAt;
  }
  return stored;
}

/** A record as an earlier visit left it. */
async function storeRecord(page: Page, preferences: Record<string, unknown>) {
  await page.addInitScript((value) => {
    window.localStorage.setItem("cookie-consent", "accepted");
    window.localStorage.setItem("cookie-preferences", value);
  }, JSON.stringify(preferences));
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

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
])
  test(`a toast shown while the banner is on screen leaves its buttons free (${viewport.width} px)`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    await openPage(page, "/");
    await expect(banner(page)).toBeVisible();
    // An enquiry sent empty: its problems are shown, the first one as a toast.
    const form = page.getByRole("form", { name: "Formulario de contacto" });
    await form.getByLabel("Nombre completo").focus();
    const send = form.getByRole("button", { name: "Enviar consulta" });
    await expect(send).toBeEnabled();
    await send.click();
    const toast = page.locator("[data-toast]").first();
    await expect(toast).toBeVisible();
    const [toastBox, panelBox] = [
      await toast.boundingBox(),
      await banner(page).locator(":scope > div").boundingBox(),
    ];
    const apart =
      toastBox!.y + toastBox!.height <= panelBox!.y ||
      panelBox!.y + panelBox!.height <= toastBox!.y ||
      toastBox!.x + toastBox!.width <= panelBox!.x ||
      panelBox!.x + panelBox!.width <= toastBox!.x;
    expect(apart, JSON.stringify({ toastBox, panelBox })).toBe(true);
    // The toast stays on screen, and the banner's buttons still take a tap.
    await banner(page).getByRole("button", { name: "Solo Esenciales" }).click();
    await expect(banner(page)).toBeHidden();
    await expect(toast).toBeVisible();
  });

test("the banner waits one second before appearing", async ({ page }) => {
  await stopTime(page);
  await openPage(page, "/");
  await page.clock.runFor(900);
  await expect(banner(page)).toHaveCount(0);
  await page.clock.runFor(100);
  await expect(banner(page)).toBeVisible();
});

test("staff pages do not ask (they set no cookie that needs consent); the public site still does", async ({
  page,
}) => {
  await stopTime(page);
  await openPage(page, "/login");
  await page.clock.runFor(5_000);
  await expect(page.getByRole("button", { name: "Iniciar Sesión" })).toBeVisible();
  await expect(banner(page)).toHaveCount(0);
  await openPage(page, "/");
  await page.clock.runFor(1_000);
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

test("the choice is recorded with its date and the cookie policy's version", async ({ page }) => {
  await openWithBanner(page);
  await banner(page).getByRole("button", { name: "Aceptar Todas" }).click();
  const record = await page.evaluate(() =>
    JSON.parse(window.localStorage.getItem("cookie-preferences") ?? "null"),
  );
  expect(record).toEqual({
    essential: true,
    analytics: true,
    policyVersion: COOKIE_POLICY_VERSION,
    decidedAt: "2026-11-22T10:00:02.000Z",
  });
  await openPage(page, "/cookies");
  await expect(page.getByText(/24 meses/).first()).toBeVisible();
});

test("a choice older than 24 months no longer holds: the banner asks again", async ({ page }) => {
  await storeRecord(page, {
    essential: true,
    analytics: true,
    policyVersion: COOKIE_POLICY_VERSION,
    decidedAt: "2024-11-21T10:00:00.000Z",
  });
  await openWithBanner(page);
});

test("a choice made under an earlier cookie policy no longer holds", async ({ page }) => {
  await storeRecord(page, {
    essential: true,
    analytics: false,
    policyVersion: "2025-01-01",
    decidedAt: "2026-11-01T10:00:00.000Z",
  });
  await openWithBanner(page);
});

test("a choice still valid keeps the banner away", async ({ page }) => {
  await storeRecord(page, {
    essential: true,
    analytics: false,
    policyVersion: COOKIE_POLICY_VERSION,
    decidedAt: "2024-11-23T10:00:00.000Z",
  });
  await stopTime(page);
  await openPage(page, "/");
  await page.clock.runFor(5_000);
  await expect(page.getByRole("button", { name: "Configurar cookies" })).toBeVisible();
  await expect(banner(page)).toHaveCount(0);
});

test("'Configurar cookies' in the footer reopens the settings with the stored choice, and withdrawing is one click", async ({
  page,
}) => {
  await rememberCookieChoice(page, "accepted");
  await openPage(page, "/precios");
  const opener = page.getByRole("contentinfo").getByRole("button", { name: "Configurar cookies" });
  await opener.click();
  const analytics = banner(page).getByRole("switch", { name: "Analítica" });
  await expect(analytics).toHaveAttribute("aria-checked", "true");
  await expect(analytics).toBeFocused();
  await page.keyboard.press("Space");
  await expect(analytics).toHaveAttribute("aria-checked", "false");
  await banner(page).getByRole("button", { name: "Guardar Preferencias" }).click();
  await expect(banner(page)).toHaveCount(0);
  await expect(opener).toBeFocused();
  expect(await storedChoice(page)).toEqual({
    consent: "custom",
    preferences: { essential: true, analytics: false },
  });
});

test("while open, the banner is the first stop of the keyboard, and focus moves on after a choice", async ({
  page,
}) => {
  await openWithBanner(page);
  await page.keyboard.press("Tab");
  await expect(banner(page).getByRole("link", { name: "Política de Cookies" })).toBeFocused();
  await page.keyboard.press("Tab");
  await page.keyboard.press("Tab");
  const onlyEssential = banner(page).getByRole("button", { name: "Solo Esenciales" });
  await expect(onlyEssential).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(banner(page)).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Saltar al contenido" })).toBeFocused();
});

test("Escape closes the banner without storing a choice", async ({ page }) => {
  await openWithBanner(page);
  await page.keyboard.press("Tab");
  await page.keyboard.press("Escape");
  await expect(banner(page)).toHaveCount(0);
  expect(await storedChoice(page)).toEqual({ consent: null, preferences: null });
});

test("on a phone the banner is compact: well under half of the screen", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openWithBanner(page);
  const box = await banner(page).boundingBox();
  expect(box!.height).toBeLessThanOrEqual(844 * 0.4);
  await banner(page).getByRole("button", { name: "Personalizar" }).click();
  const settings = await banner(page).boundingBox();
  expect(settings!.height).toBeLessThanOrEqual(844 * 0.5);
});
