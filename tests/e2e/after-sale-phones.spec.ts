import type { Browser, Page } from "@playwright/test";
import { pageNameOf } from "../../app/features/admin/page-names";
import { createVerifiedCustomer, signedInAdminPage } from "./accounts-helpers";
import {
  heightFor,
  lookAt,
  phoneAndLaptop,
  seriousViolationsWithoutToasts as seriousViolations,
} from "./axe-helpers";
import { expect, openPage, test } from "./fixtures";
import { payThroughSimulator } from "./purchase-helpers";

/**
 * Issue #28 items 5, 6 and 7 at a phone's width (390 px) and a laptop's (1280 px), with axe:
 * buying and replying to a ticket without JavaScript, Mi Cuenta's tabs and an admin table on a
 * phone, and Analítica's figures as people read them (days, euros, page names). Items 1 to 4 and
 * item 6's one-error rule have their own files (order-timeline, customer-page,
 * role-confirmation, form-errors). AFTER_SALE_SHOTS_DIR=<dir> keeps a screenshot of each state.
 */

const SHOTS = process.env.AFTER_SALE_SHOTS_DIR;

/** `signedIn`'s session in a browser of its own that runs no JavaScript, `width` px wide. */
async function withoutScript(browser: Browser, signedIn: Page, width: number) {
  const context = await browser.newContext({
    javaScriptEnabled: false,
    storageState: await signedIn.context().storageState(),
    viewport: { width, height: heightFor(width) },
  });
  return context.newPage();
}

async function atWidth(page: Page, width: number) {
  await page.setViewportSize({ width, height: heightFor(width) });
}

/** A ticket the signed-in customer of `page` opened; answers its address. */
async function openTicket(page: Page, baseURL: string) {
  const answer = await page.request.post("/mi-cuenta/tickets/nuevo", {
    multipart: {
      subject: "Duda sobre la entrega",
      category: "consulta_tecnica",
      priority: "medium",
      message: "¿Cuándo recibiré el informe del servicio que he comprado?",
    },
    headers: { Origin: baseURL },
    maxRedirects: 0,
  });
  const location = answer.headers()["location"] ?? "";
  expect(location, "the new ticket").toMatch(/^\/mi-cuenta\/tickets\/[0-9a-f-]{36}$/);
  return location;
}

test("item 5: the purchase page without JavaScript, on a phone and a laptop", async ({
  page,
  browser,
}) => {
  await createVerifiedCustomer(page);
  for (const width of phoneAndLaptop) {
    const plain = await withoutScript(browser, page, width);
    await plain.goto("/ciberseguridad");
    await plain.getByRole("button", { name: "Comprar ahora" }).first().click();
    await expect(plain).toHaveURL(/\/comprar\/ciberseguridad$/);
    await expect(plain.getByRole("heading", { level: 1, name: "Ciberseguridad" })).toBeVisible();
    await expect(plain.locator("dl").filter({ hasText: "Base imponible" })).toContainText(
      "449,00€",
    );
    const form = plain.getByRole("form", { name: "Comprar Ciberseguridad" });
    await expect(form.getByLabel("NIF, NIE o CIF")).toBeVisible();
    await lookAt(plain, `comprar-sin-js-${width}`, SHOTS);
    // Sent empty: the server's answer names each missing piece next to its field.
    await form.getByRole("button", { name: "Pagar ahora" }).click();
    const consent = form.getByRole("checkbox", { name: /empiece de inmediato/ });
    await expect(consent).toHaveAttribute("aria-invalid", "true");
    await expect(form.getByLabel("Domicilio fiscal")).toHaveAttribute("aria-invalid", "true");
    await lookAt(plain, `comprar-sin-js-errores-${width}`, SHOTS);
    await plain.context().close();

    // axe runs as a script: the same page, and the same refusal, where scripts run.
    await atWidth(page, width);
    await openPage(page, "/comprar/ciberseguridad");
    const checked = page.getByRole("form", { name: "Comprar Ciberseguridad" });
    await expect(checked.getByRole("button", { name: "Pagar ahora" })).toBeVisible();
    expect(await seriousViolations(page), `purchase page at ${width} px`).toEqual([]);
    await checked.getByRole("button", { name: "Pagar ahora" }).click();
    await expect(checked.getByRole("checkbox", { name: /empiece de inmediato/ })).toHaveAttribute(
      "aria-invalid",
      "true",
    );
    expect(await seriousViolations(page), `its errors at ${width} px`).toEqual([]);
    await lookAt(page, `comprar-errores-${width}`, SHOTS);
  }
});

test("item 5: a reply without JavaScript lands on the new message, below the header, confirmed", async ({
  page,
  browser,
  baseURL,
}) => {
  await createVerifiedCustomer(page);
  const ticket = await openTicket(page, baseURL!);
  for (const width of phoneAndLaptop) {
    const plain = await withoutScript(browser, page, width);
    await plain.goto(ticket);
    const text = `Os escribo sin JavaScript desde ${width} px: ¿llegó bien mi mensaje?`;
    const reply = plain.getByRole("form", { name: "Añadir un mensaje" });
    await reply.getByLabel("Mensaje").fill(text);
    await reply.getByRole("button", { name: "Enviar" }).click();
    await expect(plain).toHaveURL(/\/mi-cuenta\/tickets\/[0-9a-f-]{36}#mensaje-[0-9a-f-]{36}$/);
    const anchor = new URL(plain.url()).hash.slice(1);
    const message = plain.locator(`li[id="${anchor}"]`);
    await expect(message).toContainText(text);
    await expect(message).toBeInViewport();
    const confirmation = plain.getByRole("status").filter({ hasText: "Mensaje enviado" });
    await expect(confirmation).toBeVisible();
    // Read as a person reads it: the window glides (scroll-behavior: smooth) until the message
    // starts just below the sticky header, and the confirmation in its corner does not sit on
    // the message's text.
    const header = (await plain.locator("header").first().boundingBox())!;
    const below = header.y + header.height;
    await expect
      .poll(() => message.evaluate((element) => element.getBoundingClientRect().top), {
        message: "the message's top, just under the header",
      })
      .toBeGreaterThanOrEqual(below);
    await expect
      .poll(() => message.evaluate((element) => element.getBoundingClientRect().top))
      .toBeLessThanOrEqual(below + 32);
    const said = (await message.getByText(text).boundingBox())!;
    const corner = (await confirmation.boundingBox())!;
    expect(
      said.y + said.height <= corner.y || corner.y + corner.height <= said.y,
      "the confirmation leaves the message's text uncovered",
    ).toBe(true);
    await lookAt(plain, `ticket-respuesta-sin-js-${width}`, SHOTS, { window: true });
    await plain.context().close();

    // The ticket's address without the anchor: with it, the page already on the ticket would
    // only move to the anchor, not load the new message.
    await atWidth(page, width);
    await openPage(page, ticket);
    await expect(page.locator(`li[id="${anchor}"]`)).toContainText(text);
    expect(await seriousViolations(page), `ticket at ${width} px`).toEqual([]);
  }
});

test("item 6: Mi Cuenta's four tabs are all there at 390 px, and the page never scrolls sideways", async ({
  page,
}) => {
  await createVerifiedCustomer(page);
  for (const width of phoneAndLaptop) {
    await atWidth(page, width);
    await openPage(page, "/mi-cuenta");
    const strip = page.getByRole("tablist", { name: "Secciones de Mi Cuenta" });
    const tabs = strip.getByRole("tab");
    await expect(tabs).toHaveText(["Resumen", "Compras", "Soporte", "Configuración"]);
    // Each whole across, inside the strip and the window: none cut off at the edge. (Upright,
    // the strip's edge clips the pixel of underline a tab lays over the strip's own line.)
    const across = await strip.boundingBox();
    for (const tab of await tabs.all()) {
      await expect(tab).toBeInViewport();
      const box = (await tab.boundingBox())!;
      expect(box.x, "the tab starts inside the strip").toBeGreaterThanOrEqual(across!.x - 0.5);
      expect(box.x + box.width, "and ends inside it").toBeLessThanOrEqual(
        Math.min(across!.x + across!.width, width) + 0.5,
      );
    }
    expect(await seriousViolations(page), `Resumen at ${width} px`).toEqual([]);
    await lookAt(page, `mi-cuenta-${width}`, SHOTS);

    // From the keyboard: the arrows walk the strip to its last tab, Enter opens it.
    await tabs.first().focus();
    for (const name of ["Compras", "Soporte", "Configuración"]) {
      await page.keyboard.press("ArrowRight");
      await expect(strip.getByRole("tab", { name })).toBeFocused();
    }
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/mi-cuenta\?tab=configuracion$/);
    await expect(strip.getByRole("tab", { name: "Configuración" })).toHaveAttribute(
      "aria-selected",
      "true",
    );
    await expect(page.getByRole("region", { name: "Configuración y privacidad" })).toBeVisible();
    expect(await seriousViolations(page), `Configuración at ${width} px`).toEqual([]);
    await lookAt(page, `mi-cuenta-configuracion-${width}`, SHOTS);
  }
});

test("item 6: on a phone an admin table scrolls inside itself with its first column in place", async ({
  page,
  browser,
  baseURL,
}) => {
  const { email } = await createVerifiedCustomer(page);
  await payThroughSimulator(page, baseURL!);
  const staff = await signedInAdminPage(browser);
  for (const width of phoneAndLaptop) {
    await atWidth(staff, width);
    await openPage(staff, `/admin?tab=pagos&q=${encodeURIComponent(email)}`);
    const table = staff.getByRole("table", { name: "Pagos" });
    await expect(table.locator("tbody tr")).toHaveCount(1);
    await expect(table.locator("tbody tr")).toContainText(email);
    const see = table.getByRole("link", { name: /^Ver el pago de/ });
    expect(await seriousViolations(staff), `Pagos at ${width} px`).toEqual([]);
    await lookAt(staff, `pagos-${width}`, SHOTS);
    if (width > 640) {
      await expect(see).toBeInViewport({ ratio: 1 });
      continue;
    }

    // More columns than fit: the table's region scrolls, the page does not (lookAt).
    const scroller = staff.getByRole("region", { name: "Pagos", exact: true });
    const hidden = await scroller.evaluate((region) => region.scrollWidth - region.clientWidth);
    expect(hidden, "columns hidden at the table's end").toBeGreaterThan(0);
    await expect(see).not.toBeInViewport();
    // The hint that more is hidden: the table's end fades while there is more to scroll.
    const fade = () =>
      scroller.evaluate((region) => getComputedStyle(region).getPropertyValue("--fade-end").trim());
    expect(await scroller.evaluate((region) => getComputedStyle(region).animationName)).toBe(
      "scroll-fade-end",
    );
    expect(await fade()).toBe("32px");
    // Scrolled sideways as a finger or a trackpad does, to the end: 'Ver' comes into view.
    await scroller.hover();
    await staff.mouse.wheel(hidden + 100, 0);
    await expect
      .poll(() => scroller.evaluate((region) => region.scrollLeft))
      .toBeGreaterThanOrEqual(hidden - 1);
    await expect(see).toBeInViewport({ ratio: 1 });
    // Nothing more to the right: no fade.
    await expect.poll(fade).toBe("0px");
    // The first column stayed at the region's left edge, header and row alike.
    const edge = (await scroller.boundingBox())!.x;
    for (const cell of [table.locator("thead th").first(), table.locator("tbody td").first()]) {
      await expect(cell).toBeVisible();
      expect(
        Math.abs((await cell.boundingBox())!.x - edge),
        "the first column in place",
      ).toBeLessThan(2);
    }
    await expect(table.locator("thead th").first()).toHaveText("Fecha");
    await lookAt(staff, `pagos-desplazada-${width}`, SHOTS);
  }
  await staff.context().close();
});

test("item 7: Analítica and the dashboard's chart speak in days, euros and page names", async ({
  page,
  browser,
}) => {
  // A view of a named page, counted, so the list of pages has one whatever else ran before.
  const counted = page.waitForResponse(
    (response) =>
      new URL(response.url()).pathname === "/api/analitica" &&
      response.request().postDataJSON().path === "/precios",
  );
  await openPage(page, "/precios");
  expect((await counted).status()).toBe(204);

  const staff = await signedInAdminPage(browser);
  for (const width of phoneAndLaptop) {
    await atWidth(staff, width);
    await openPage(staff, "/admin?tab=analitica");
    await expect(staff.getByRole("heading", { level: 1, name: "Analítica" })).toBeVisible();
    // The visits chart: three days along the bottom, a count scale up the side.
    await expect(staff.locator('[data-chart-axis="x"] span')).toHaveText(
      Array(3).fill(/^\d{1,2} \p{L}+\.?$/u),
    );
    const scaleTop = await staff.locator('[data-chart-axis="y"] span').first().innerText();
    expect(Number(scaleTop.replace(/\D/g, ""))).toBeGreaterThan(0);
    await expect(staff.getByRole("img", { name: /^Gráfico de páginas vistas/ })).toBeVisible();
    // Pages by their names, each with its path under it; an unknown path stays as it is.
    const pages = staff.getByRole("table", { name: "Páginas más vistas" });
    await expect(
      pages.locator("tbody tr").filter({ hasText: "/precios" }).locator("td").first(),
    ).toHaveText("Precios/precios");
    const cells = await pages.locator("tbody tr td:first-child").allInnerTexts();
    for (const lines of cells.map((text) => text.split("\n").map((line) => line.trim()))) {
      const path = lines.at(-1)!;
      expect(lines).toEqual(pageNameOf(path) === path ? [path] : [pageNameOf(path), path]);
    }
    await expect(
      staff.locator("dl > div").filter({ hasText: "Ingresos del periodo" }),
    ).toContainText(/\d,\d{2}€/);
    expect(await seriousViolations(staff), `Analítica at ${width} px`).toEqual([]);
    await lookAt(staff, `analitica-${width}`, SHOTS);

    // The dashboard's revenue chart (drawn in the browser): days along the bottom, euros up
    // the left, orders up the right. recharts draws each axis's labels in a layer of its own.
    await openPage(staff, "/admin");
    const chart = staff.getByRole("img", { name: /^Gráfico de ingresos y pedidos/ });
    const days = chart.locator(".recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-value");
    await expect(days.first()).toBeVisible();
    for (const day of await days.allTextContents())
      expect(day.trim()).toMatch(/^\d{1,2} \p{L}+\.?$/u);
    const euros = chart
      .locator(".recharts-yAxis-tick-labels")
      .filter({ hasText: "€" })
      .locator(".recharts-cartesian-axis-tick-value");
    expect(await euros.count(), "an axis of euros").toBeGreaterThan(1);
    for (const tick of await euros.allTextContents())
      expect(tick.trim()).toMatch(/^[\d.,]+(\s(mil|M))?\s€$/);
    expect(await seriousViolations(staff), `dashboard at ${width} px`).toEqual([]);
    await lookAt(staff, `dashboard-${width}`, SHOTS);
  }
  await staff.context().close();
});
