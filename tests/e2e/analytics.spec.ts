import type { Page, Request } from "@playwright/test";
import { pageNameOf } from "../../app/features/admin/page-names";
import { ANALYTICS_COOKIE } from "../../app/features/consent/cookie-consent";
import { signedInAdminPage } from "./accounts-helpers";
import { contactForm } from "./contact-helpers";
import { expect, openPage, test } from "./fixtures";

/**
 * Issue #17 as the owners and a visitor see it: views counted without consent and without a
 * cookie, a consented visit followed through the funnel to an enquiry, and consent withdrawn.
 * Other tests browse the same server at the same time, so the dashboard's figures are compared
 * as "at least this many more", never as totals.
 */
test.describe.configure({ mode: "serial" });

const isBeacon = (request: Request) => new URL(request.url()).pathname === "/api/analitica";

/** The dashboard's figures as numbers, read as a person reads them. */
async function analyticsFigures(admin: Page) {
  await openPage(admin, "/admin?tab=analitica");
  await expect(admin.getByRole("heading", { level: 1, name: "Analítica" })).toBeVisible();
  const number = (text: string) => Number(text.replace(/\D/g, ""));
  const card = (label: string) =>
    admin
      .locator("dl > div")
      .filter({ has: admin.locator("dt", { hasText: label }) })
      .locator("dd");
  const step = (label: string) =>
    admin.getByRole("listitem").filter({ hasText: label }).locator("span").last();
  return {
    views: number(await card("Páginas vistas").innerText()),
    consentedVisits: number(await card("Visitas con analítica aceptada").innerText()),
    converted: number((await step("Enviaron una consulta").innerText()).split("(")[0]!),
  };
}

/** Opens `path` and waits for its view to be recorded; returns the beacon's request. */
async function viewAndWaitForBeacon(page: Page, path: string) {
  const recorded = page.waitForResponse(
    (response) => isBeacon(response.request()) && response.request().postDataJSON().path === path,
  );
  await openPage(page, path);
  const response = await recorded;
  expect(response.status()).toBe(204);
  return response.request();
}

test.describe("before any cookie choice", () => {
  test.use({ storedConsent: null });

  test("views are counted with no cookie read, written or sent, and show in the dashboard", async ({
    page,
    browser,
  }) => {
    const admin = await signedInAdminPage(browser);
    const before = await analyticsFigures(admin);

    for (const path of ["/precios", "/desarrollo-web"]) {
      const beacon = await viewAndWaitForBeacon(page, path);
      expect(await beacon.headerValue("cookie")).toBeNull();
      expect(beacon.postDataJSON()).not.toHaveProperty("visit");
    }
    expect(await page.context().cookies()).toEqual([]);

    const after = await analyticsFigures(admin);
    expect(after.views).toBeGreaterThanOrEqual(before.views + 2);
    // Pages by their names (the path under it), and a chart with its days and a scale.
    const pageCells = await admin
      .getByRole("table", { name: "Páginas más vistas" })
      .locator("tbody tr td:first-child")
      .allInnerTexts();
    const named = pageCells.map((text) => text.split("\n").map((line) => line.trim()));
    for (const lines of named) {
      const path = lines.at(-1)!;
      expect(path).toMatch(/^\//);
      expect(lines).toEqual(pageNameOf(path) === path ? [path] : [pageNameOf(path), path]);
    }
    expect(named.filter((lines) => lines.length === 2).length).toBeGreaterThan(0);
    await expect(admin.locator('[data-chart-axis="x"] span')).toHaveText([
      /^\d{1,2} \p{L}+\.?$/u,
      /^\d{1,2} \p{L}+\.?$/u,
      /^\d{1,2} \p{L}+\.?$/u,
    ]);
    const scaleTop = await admin.locator('[data-chart-axis="y"] span').first().innerText();
    expect(Number(scaleTop.replace(/\D/g, ""))).toBeGreaterThan(0);
    await admin.context().close();
  });
});

test("with consent, a visit that ends in an enquiry shows in the funnel; withdrawing deletes the cookie", async ({
  browser,
}) => {
  const admin = await signedInAdminPage(browser);
  const before = await analyticsFigures(admin);

  // The visitor accepts analytics in the banner, as a person does (a stored choice would be
  // stored again on every page, and withdrawing it could not be seen).
  const context = await browser.newContext();
  const page = await context.newPage();
  await openPage(page, "/");
  await page
    .getByRole("dialog", { name: /cookies/i })
    .getByRole("button", { name: "Aceptar Todas" })
    .click();
  const landing = await viewAndWaitForBeacon(page, "/desarrollo-web");
  const visit = landing.postDataJSON().visit as string;
  expect(visit).toMatch(/^[a-f0-9]{32}$/);
  const cookie = async () =>
    (await context.cookies()).find((each) => each.name === ANALYTICS_COOKIE);
  expect((await cookie())?.value).toContain(visit);

  // The same visit goes on to the contact form and sends an enquiry.
  expect((await viewAndWaitForBeacon(page, "/contacto")).postDataJSON().visit).toBe(visit);
  const form = contactForm(page);
  await form.getByLabel("Nombre completo").fill("Lucía Analítica");
  await form.getByLabel("Email").fill("lucia.analitica@example.com");
  await form.getByLabel("Servicio de interés").selectOption({ label: "Desarrollo Web" });
  await form.getByLabel("Mensaje").fill("Quiero una web nueva para mi tienda, ¿me llamáis?");
  const enquiry = page.waitForResponse(
    (response) =>
      isBeacon(response.request()) && response.request().postDataJSON().kind === "enquiry",
  );
  await form.hover();
  await form.getByRole("button", { name: "Enviar consulta" }).click();
  await expect(page.locator("[data-toast]").filter({ hasText: "¡Mensaje enviado!" })).toBeVisible();
  expect((await enquiry).request().postDataJSON().visit).toBe(visit);

  const after = await analyticsFigures(admin);
  expect(after.consentedVisits).toBeGreaterThanOrEqual(before.consentedVisits + 1);
  expect(after.converted).toBeGreaterThanOrEqual(before.converted + 1);

  // Withdrawn in the footer's settings: the cookie goes at once, and views carry no visit.
  await page.getByRole("button", { name: "Configurar cookies" }).click();
  const settings = page.getByRole("dialog", { name: /cookies/i });
  await settings.getByRole("switch", { name: "Analítica" }).click();
  await settings.getByRole("button", { name: "Guardar Preferencias" }).click();
  expect(await cookie()).toBeUndefined();
  const afterWithdrawal = await viewAndWaitForBeacon(page, "/precios");
  expect(afterWithdrawal.postDataJSON()).not.toHaveProperty("visit");
  expect(await cookie()).toBeUndefined();
  await context.close();
  await admin.context().close();
});
