import type { Page } from "@playwright/test";
import { createVerifiedCustomer } from "./accounts-helpers";
import { expect, openPage, publicPaths, test } from "./fixtures";

/** The scripts a page asked for while loading (not those a later interaction fetches). */
function scriptRequests(page: Page): string[] {
  const scripts: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "script") scripts.push(new URL(request.url()).pathname);
  });
  return scripts;
}

test("an anonymous visitor's public pages load one small script and no React", async ({ page }) => {
  for (const path of publicPaths) {
    const scripts = scriptRequests(page);
    const response = await openPage(page, path);
    const html = await response!.text();
    expect(html, path).not.toContain("__reactRouterContext");
    expect(html, path).not.toMatch(/\snonce="/);
    expect(scripts, path).toEqual([expect.stringMatching(/^\/assets\/light-script-[\w-]+\.js$/)]);
    page.removeAllListeners("request");
  }
});

test("the page cache serves every instance's visitors the same bytes: no nonce, no inline script", async ({
  request,
}) => {
  const first = await request.get("/precios");
  // The cache keeps a page once its first answer has gone out: it may take a moment more.
  let cached = await request.get("/precios");
  await expect
    .poll(async () => {
      cached = await request.get("/precios");
      return cached.headers()["x-page-cache"];
    })
    .toBe("hit");
  const csp = cached.headers()["content-security-policy"]!;
  expect(csp).toMatch(/script-src 'self'(;|$)/);
  expect(await cached.text()).not.toMatch(
    /<script(?![^>]*\b(src|type="application\/(ld\+)?json")=?)/,
  );
  expect(first.status()).toBe(200);
});

test("two renders of a public page are the same bytes, whichever instance makes them", async ({
  request,
}) => {
  // A cookie of ours (nobody's session) makes each answer a fresh render, not the cached copy.
  const render = async () =>
    (await request.get("/", { headers: { cookie: "vd.render=1" } })).text();
  const [first, second] = [await render(), await render()];
  expect(first).toContain('name="submissionKey"');
  expect(second).toBe(first);
});

test("signed in, the same pages are React's again, and client navigation works from them", async ({
  page,
}) => {
  await createVerifiedCustomer(page);
  const scripts = scriptRequests(page);
  await openPage(page, "/precios");
  expect(scripts.some((path) => /\/assets\/light-script-/.test(path))).toBe(false);
  expect(scripts.some((path) => /entry\.client/.test(path))).toBe(true);
  await page
    .getByRole("navigation", { name: "Principal" })
    .getByRole("link", { name: "Mi Cuenta" })
    .first()
    .click();
  await expect(page).toHaveURL(/\/mi-cuenta/);
});

test("from a light page into the customer area: sign-in by a full page load", async ({ page }) => {
  await openPage(page, "/");
  await page.getByRole("link", { name: "Entrar" }).click();
  await expect(page).toHaveURL(/\/login-cliente/);
  await expect(page.locator("html[data-hydrated]")).toBeAttached();
  await expect(page.getByRole("button", { name: /Iniciar Sesión/ })).toBeVisible();
});

test("a toast carried by a redirect shows on the light page it lands on", async ({
  page,
  baseURL,
}) => {
  await createVerifiedCustomer(page);
  // Signed out by a post whose redirect is not followed: the toast waits in its cookie for the
  // next page, as after a form posted without JavaScript.
  const signedOut = await page.request.post("/cerrar-sesion", {
    headers: { origin: baseURL! },
    maxRedirects: 0,
  });
  expect(signedOut.status()).toBe(302);
  const scripts = scriptRequests(page);
  await openPage(page, "/");
  expect(scripts).toEqual([expect.stringMatching(/^\/assets\/light-script-/)]);
  await expect(page.locator("[data-toast]").filter({ hasText: "Sesión cerrada" })).toBeVisible();
});

test("the skip link moves focus to the content on a light page", async ({ page }) => {
  await openPage(page, "/desarrollo-web");
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Saltar al contenido" });
  await expect(skip).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/#contenido$/);
});
