import { readFileSync } from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import type { APIRequestContext, Page } from "@playwright/test";
import ts from "typescript";
import { expect, test } from "./fixtures";

/**
 * The toast helper (app/ui/toast.ts) alone in a real browser: a page with the site's stylesheet,
 * a sticky header like the site's and the helper's own code, nothing else (no React, no router),
 * so what is tested is the helper and not a page that uses it.
 */

const helper = ts.transpileModule(readFileSync("app/ui/toast.ts", "utf8"), {
  compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
}).outputText;

const HARNESS = "/__toast-harness";

let siteStyles: string | undefined;
async function stylesheet(request: APIRequestContext) {
  if (siteStyles === undefined) {
    const html = await (await request.get("/terminos")).text();
    siteStyles = /<style id="site-styles">([\s\S]*?)<\/style>/.exec(html)?.[1] ?? "";
    expect(siteStyles).toContain("tailwindcss");
  }
  return siteStyles;
}

/** Opens the harness; `pageToast` is the JSON a server-rendered page would carry. */
async function openHarness(page: Page, request: APIRequestContext, pageToast?: object) {
  const css = await stylesheet(request);
  const carried = pageToast
    ? `<script type="application/json" id="page-toast">${JSON.stringify(pageToast)}</script>`
    : "";
  await page.route(`**${HARNESS}`, (route) =>
    route.fulfill({
      contentType: "text/html; charset=utf-8",
      body: `<!doctype html><html lang="es"><head><meta name="viewport" content="width=device-width, initial-scale=1"><title>Avisos</title><style>${css}</style></head>
<body><header class="sticky top-0 z-40 h-16 border-b bg-white"><nav aria-label="Principal"><a href="#">Inicio</a></nav></header>
<main><h1>Página</h1><button type="button">Otro control</button></main>${carried}
<script type="module">${helper}
window.toasts = { showToast, showToastFromDocument };</script></body></html>`,
    }),
  );
  await page.goto(HARNESS);
  await page.waitForFunction(() => "toasts" in window);
}

type Kind = "success" | "error" | "info";
const show = (page: Page, kind: Kind, text: { title: string; description?: string }, id?: string) =>
  page.evaluate(
    ([kind, text, id]) =>
      (
        window as unknown as {
          toasts: { showToast: (k: string, t: object, o: object) => void };
        }
      ).toasts.showToast(kind, text, { id }),
    [kind, text, id] as const,
  );

const toasts = (page: Page) => page.locator("[data-toast]");
/** What screen readers are told, politely and at once. */
const polite = (page: Page) => page.locator("[data-toast-host] [aria-live=polite]");
const assertive = (page: Page) => page.locator("[data-toast-host] [aria-live=assertive]");

test("a toast shows its title and description, says its tone, and closes with its button", async ({
  page,
  request,
}) => {
  await openHarness(page, request);
  await show(page, "success", { title: "Perfil actualizado", description: "Ya está guardado." });
  const shown = toasts(page);
  await expect(shown).toHaveCount(1);
  await expect(shown).toHaveAttribute("data-kind", "success");
  await expect(shown).toContainText("Perfil actualizado");
  await expect(shown).toContainText("Ya está guardado.");
  // In a labelled region, said politely; an error is said at once.
  await expect(page.getByRole("region", { name: "Notificaciones" })).toContainText(
    "Perfil actualizado",
  );
  await expect(polite(page)).toHaveText("Perfil actualizado. Ya está guardado.");
  await show(page, "error", { title: "Error al enviar", description: "Inténtalo de nuevo." });
  await expect(assertive(page)).toHaveText("Error al enviar. Inténtalo de nuevo.");
  await expect(toasts(page).first()).toHaveAttribute("data-kind", "error");

  await shown
    .filter({ hasText: "Perfil actualizado" })
    .getByRole("button", { name: "Cerrar notificación" })
    .click();
  await expect(toasts(page)).toHaveCount(1);
  await expect(polite(page)).toHaveText("");
  await expect(assertive(page)).toHaveText("Error al enviar. Inténtalo de nuevo.");
});

test("a toast with the id of one on screen replaces it; at most three, the newest on top", async ({
  page,
  request,
}) => {
  await openHarness(page, request);
  await show(page, "error", { title: "Nombre requerido" }, "contact-form");
  await show(page, "error", { title: "Email inválido" }, "contact-form");
  await expect(toasts(page)).toHaveCount(1);
  await expect(toasts(page)).toHaveText("Email inválido");
  // Said again, though in place: each answer of the form is heard.
  await expect(assertive(page)).toHaveText("Email inválido");
  await show(page, "success", { title: "¡Mensaje enviado!" }, "contact-form");
  await expect(toasts(page)).toHaveCount(1);
  await expect(toasts(page)).toHaveAttribute("data-kind", "success");
  await expect(assertive(page)).toHaveText("");
  await expect(polite(page)).toHaveText("¡Mensaje enviado!");

  for (const title of ["Uno", "Dos", "Tres"]) await show(page, "info", { title });
  await expect(toasts(page)).toHaveText(["Tres", "Dos", "Uno"]);
});

test("a toast goes after 6 s, but not while it is hovered or focused; Escape closes it", async ({
  page,
  request,
}) => {
  await page.clock.install();
  await openHarness(page, request);
  await show(page, "info", { title: "Servicio seleccionado" });
  await page.clock.runFor(5_000);
  await expect(toasts(page)).toHaveCount(1);
  await page.clock.runFor(1_500);
  await expect(toasts(page)).toHaveCount(0);
  await expect(polite(page)).toHaveText("");

  await show(page, "info", { title: "Leído despacio" });
  await page.clock.runFor(4_000);
  await toasts(page).hover();
  await page.clock.runFor(20_000);
  await expect(toasts(page)).toHaveCount(1);
  await page.mouse.move(5, 400);
  await page.clock.runFor(1_500);
  await expect(toasts(page)).toHaveCount(1);
  await page.clock.runFor(1_000);
  await expect(toasts(page)).toHaveCount(0);

  await show(page, "info", { title: "Con el teclado" });
  await page.getByRole("button", { name: "Cerrar notificación" }).focus();
  await page.clock.runFor(20_000);
  await expect(toasts(page)).toHaveCount(1);
  await page.keyboard.press("Escape");
  await expect(toasts(page)).toHaveCount(0);
});

test("the page's toast is shown once from its JSON, and answered for its milestone", async ({
  page,
  request,
}) => {
  const carried = { kind: "success", title: "Registro exitoso", milestone: "sign-up" };
  await openHarness(page, request, carried);
  const answers = await page.evaluate(() => {
    const { showToastFromDocument } = (
      window as unknown as { toasts: { showToastFromDocument: () => unknown } }
    ).toasts;
    return [showToastFromDocument(), showToastFromDocument()];
  });
  expect(answers).toEqual([carried, null]);
  await expect(toasts(page)).toHaveCount(1);
  await expect(toasts(page)).toHaveText("Registro exitoso");
  // Shown as the page loads, and still heard: the live region was in the page before it.
  await expect(polite(page)).toHaveText("Registro exitoso");
});

test("the space between toasts leaves the page under them usable", async ({ page, request }) => {
  await openHarness(page, request);
  await show(page, "success", { title: "Sesión cerrada" });
  await show(page, "info", { title: "Servicio seleccionado" });
  const [newer, older] = [
    await toasts(page).nth(0).boundingBox(),
    await toasts(page).nth(1).boundingBox(),
  ];
  const between = { x: newer!.x + newer!.width / 2, y: (newer!.y + newer!.height + older!.y) / 2 };
  const under = await page.evaluate(
    ({ x, y }) => document.elementFromPoint(x, y)?.closest("[data-toast-host]") ?? null,
    between,
  );
  expect(under).toBeNull();
});

test("with reduced motion a toast neither slides nor fades", async ({ page, request }) => {
  await page.emulateMedia({ reducedMotion: "reduce" });
  await openHarness(page, request);
  await show(page, "success", { title: "Sin movimiento" });
  expect(await toasts(page).evaluate((node) => getComputedStyle(node).transitionProperty)).toBe(
    "none",
  );
  await page.getByRole("button", { name: "Cerrar notificación" }).click();
  await expect(page.locator("[data-leaving]")).toHaveCount(0);
});

for (const width of [390, 1280]) {
  test(`toasts of every tone have no serious or critical axe violations at ${width} px`, async ({
    page,
    request,
  }) => {
    await page.setViewportSize({ width, height: 800 });
    await page.emulateMedia({ reducedMotion: "reduce" });
    await openHarness(page, request);
    await show(page, "success", { title: "Perfil actualizado", description: "Ya está guardado." });
    await show(page, "info", { title: "Servicio seleccionado", description: "Desarrollo Web." });
    await show(page, "error", { title: "Error al enviar", description: "Inténtalo de nuevo." });
    await expect(toasts(page)).toHaveCount(3);
    const results = await new AxeBuilder({ page }).analyze();
    const serious = results.violations.filter(
      (violation) => violation.impact === "serious" || violation.impact === "critical",
    );
    expect(serious.map((violation) => violation.id)).toEqual([]);
  });
}

test("a toast leaves the header uncovered, on a phone and on a desktop", async ({
  page,
  request,
}) => {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    await openHarness(page, request);
    await show(page, "error", { title: "Error al enviar", description: "Inténtalo de nuevo." });
    await expect(toasts(page)).toHaveCount(1);
    const header = (await page.locator("header").boundingBox())!;
    const toast = (await toasts(page).first().boundingBox())!;
    expect(toast.y, `${width} px`).toBeGreaterThanOrEqual(header.y + header.height);
    expect(toast.y + toast.height, `${width} px`).toBeLessThanOrEqual(800);
  }
});
