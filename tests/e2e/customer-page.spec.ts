import { crc32, deflateSync } from "node:zlib";
import type { Page } from "@playwright/test";
import { createVerifiedCustomer, signedInAdminPage } from "./accounts-helpers";
import { seriousViolationsWithoutToasts as seriousViolations } from "./axe-helpers";
import { expect, test } from "./fixtures";
import { payThroughSimulator } from "./purchase-helpers";

/**
 * Issue #28, item 3 (decision 052): staff open a customer's page from Clientes, see their
 * purchase, invoice, ticket and activity together, follow the purchase to its payment page and
 * come back, at a phone's width and a laptop's. With CUSTOMER_PAGE_SCREENSHOTS set, each width
 * leaves a screenshot there.
 */

/** A real PNG of `width` × `height`: a brand-blue to teal gradient, for its thumbnail. */
function gradientPng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const framed = Buffer.alloc(body.length + 8);
    framed.writeUInt32BE(data.length, 0);
    body.copy(framed, 4);
    framed.writeUInt32BE(crc32(body), body.length + 4);
    return framed;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const rows = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++)
      rows.set(
        [37, Math.round(99 + (x / width) * 100), Math.round(235 - (y / height) * 80)],
        y * (width * 3 + 1) + 1 + x * 3,
      );
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(rows)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** A customer who paid for a service on the simulated checkout and opened a ticket with a PNG. */
async function customerWithPurchaseAndTicket(page: Page, baseURL: string) {
  const customer = await createVerifiedCustomer(page);
  await payThroughSimulator(page, baseURL);
  const ticket = await page.request.post("/mi-cuenta/tickets/nuevo", {
    multipart: {
      subject: "Pregunta sobre mi pedido",
      category: "consulta_tecnica",
      priority: "medium",
      message: "¿Cuándo empezáis con el servicio que he comprado?",
      attachments: { name: "captura.png", mimeType: "image/png", buffer: gradientPng(160, 100) },
    },
    headers: { Origin: baseURL },
    maxRedirects: 0,
  });
  expect(ticket.headers()["location"], "the new ticket").toMatch(/^\/mi-cuenta\/tickets\//);
  return customer;
}

for (const width of [390, 1280]) {
  test(`staff open a customer from Clientes, follow a purchase and come back (${width} px)`, async ({
    page,
    browser,
    baseURL,
  }) => {
    const customer = await customerWithPurchaseAndTicket(page, baseURL!);

    const staff = await signedInAdminPage(browser);
    await staff.setViewportSize({ width, height: 900 });
    await staff.goto("/admin?tab=clientes");
    const search = staff.getByRole("search");
    await search.getByLabel("Buscar").fill(customer.email);
    await search.getByRole("button", { name: "Buscar" }).click();
    await staff.waitForURL((url) => url.searchParams.get("q") === customer.email);
    await staff
      .getByRole("table", { name: "Clientes" })
      .getByRole("link", { name: customer.email })
      .click();
    await expect(staff).toHaveURL(/\/admin\/clientes\/[0-9a-f-]{36}$/);
    const customerPage = staff.url();

    await expect(staff.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(staff.getByText(/Con cuenta · 1 pedido/)).toBeVisible();
    const purchases = staff.getByRole("table", { name: "Compras" });
    await expect(purchases.locator("tbody tr")).toHaveCount(1);
    await expect(purchases).toContainText("Completado");
    await expect(
      staff.getByRole("table", { name: "Facturas" }).getByRole("link", { name: /^F\d{4}-\d{6}$/ }),
    ).toBeVisible();
    await expect(
      staff.getByRole("table", { name: "Tickets" }).getByRole("link", { name: /^TK-\d{4}-\d{6}$/ }),
    ).toBeVisible();
    await expect(staff.getByRole("table", { name: "Desistimientos" })).toContainText(
      "No ha desistido de ninguna compra.",
    );
    // The ticket's PNG as a thumbnail (decision 054): loaded, named by its file, opening it.
    const files = staff.locator('[data-section="adjuntos"]');
    await expect(files.getByRole("heading", { name: /^Archivos adjuntos/ })).toContainText("(1)");
    const thumbnail = files.getByRole("img", { name: "captura.png" });
    await thumbnail.scrollIntoViewIfNeeded();
    await expect(thumbnail).toBeVisible();
    await expect
      .poll(() => thumbnail.evaluate((image: HTMLImageElement) => image.naturalWidth))
      .toBe(160);
    await expect(thumbnail).toHaveAttribute("loading", "lazy");
    const preview = (await files
      .getByRole("link", { name: "captura.png" })
      .first()
      .getAttribute("href"))!;
    const served = await staff.request.get(preview);
    expect(served.headers()["content-disposition"]).toMatch(/^inline; /);
    expect(served.headers()["content-type"]).toBe("image/png");
    await expect(files.getByRole("link", { name: /^captura\.png \(/ })).toHaveAttribute(
      "download",
      "",
    );
    await expect(staff.getByRole("heading", { name: "Actividad reciente" })).toBeVisible();
    await expect(staff.getByText(/^Compra completada: /)).toBeVisible();
    expect(await seriousViolations(staff)).toEqual([]);
    const shots = process.env.CUSTOMER_PAGE_SCREENSHOTS;
    if (shots) await staff.screenshot({ path: `${shots}/cliente-${width}.png`, fullPage: true });

    // To the purchase's payment page, and back by the browser and by its 'Cliente' link.
    const serviceLink = purchases.getByRole("link").first();
    const serviceName = (await serviceLink.textContent())!;
    await serviceLink.click();
    await expect(staff).toHaveURL(/\/admin\/pagos\/[0-9a-f-]{36}$/);
    await expect(staff.getByRole("heading", { name: `Pago de ${serviceName}` })).toBeVisible();
    if (shots) await staff.screenshot({ path: `${shots}/pago-${width}.png`, fullPage: true });
    await staff.goBack();
    await expect(staff).toHaveURL(customerPage);
    await expect(purchases.locator("tbody tr")).toHaveCount(1);
    await purchases.getByRole("link").first().click();
    await expect(staff).toHaveURL(/\/admin\/pagos\//);
    await staff.getByRole("link", { name: customer.email }).click();
    await expect(staff).toHaveURL(customerPage);

    // And from the ticket: its customer is a link to the same page.
    await staff.getByRole("table", { name: "Tickets" }).getByRole("link").first().click();
    await expect(staff).toHaveURL(/\/admin\/tickets\/[0-9a-f-]{36}$/);
    // The ticket's conversation shows the same thumbnail.
    await expect(staff.getByRole("img", { name: "captura.png" })).toBeVisible();
    if (shots) await staff.screenshot({ path: `${shots}/ticket-${width}.png`, fullPage: true });
    await staff.getByRole("link", { name: customer.email }).click();
    await expect(staff).toHaveURL(/\/admin\/clientes\/\w+$/);
    await expect(staff.getByRole("table", { name: "Compras" }).locator("tbody tr")).toHaveCount(1);
    await staff.context().close();
  });
}
