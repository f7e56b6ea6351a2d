import { test as base, expect, type BrowserContext, type Page } from "@playwright/test";
import { COOKIE_POLICY_VERSION } from "../../app/features/consent/cookie-consent";

type Options = {
  /** Store a cookie choice before each page loads, so the banner stays out of the way. */
  storedConsent: "rejected" | null;
};

export const test = base.extend<Options>({
  storedConsent: ["rejected", { option: true }],
  page: async ({ page, storedConsent }, use) => {
    if (storedConsent) await rememberCookieChoice(page, storedConsent);
    await use(page);
  },
});

/**
 * Stores a valid consent record (current policy version, made today) before each page loads, as
 * a returning visitor has it, so the banner stays out of the way.
 */
export async function rememberCookieChoice(
  target: Page | BrowserContext,
  choice: "rejected" | "accepted",
) {
  const preferences = JSON.stringify({
    essential: true,
    analytics: choice === "accepted",
    policyVersion: COOKIE_POLICY_VERSION,
    decidedAt: new Date().toISOString(),
  });
  await target.addInitScript(
    ({ choice, preferences }) => {
      window.localStorage.setItem("cookie-consent", choice);
      window.localStorage.setItem("cookie-preferences", preferences);
    },
    { choice, preferences },
  );
}

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
