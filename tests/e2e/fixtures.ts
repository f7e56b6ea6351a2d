import { test as base, expect, type Page } from "@playwright/test";

type Options = {
  /** Store a cookie choice before each page loads, so the banner stays out of the way. */
  storedConsent: "rejected" | null;
};

export const test = base.extend<Options>({
  storedConsent: ["rejected", { option: true }],
  page: async ({ page, storedConsent }, use) => {
    if (storedConsent) {
      await page.addInitScript((choice) => {
        window.localStorage.setItem("cookie-consent", choice);
        window.localStorage.setItem(
          "cookie-preferences",
          JSON.stringify({ essential: true, analytics: false }),
        );
      }, storedConsent);
    }
    await use(page);
  },
});

export { expect };

/** Opens a page and waits until React has hydrated it, as a person waits for a usable page. */
export async function openPage(page: Page, path: string) {
  const response = await page.goto(path);
  await expect(page.locator("html[data-hydrated]")).toBeAttached();
  return response;
}

export const publicPaths = [
  "/",
  "/asistencia-digital",
  "/inteligencia-artificial",
  "/desarrollo-web",
  "/ciberseguridad",
  "/reputacion-digital",
  "/precios",
  "/terminos",
  "/privacidad",
  "/cookies",
  "/aviso-legal",
] as const;
