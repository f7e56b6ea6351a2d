import type { Browser, Page } from "@playwright/test";
import { createVerifiedCustomer, signInAsAdmin, toast } from "./accounts-helpers";
import { seriousViolations } from "./axe-helpers";
import { expect, openPage, test } from "./fixtures";
import { payInDialog } from "./purchase-helpers";

/**
 * Issue #28 items 1 and 2 (decision 050), as a customer and the staff see them at 390 and
 * 1280 px: one order timeline on Compras and on the staff's payment page (withdrawn with the
 * date the refund is due, then refunded with its date, reason and who), the withdrawn and
 * refunded purchases out of 'Total gastado', 'Intentar de nuevo' after a declined card, and
 * /pago-exitoso as a receipt that waits for the confirmation, with JavaScript and without.
 */

const SHOTS = "/tmp/timeline-shots";
const widths = [390, 1280] as const;

/** Looks at the page at each width, as a person would, and checks nothing overflows it. */
async function atEachWidth(page: Page, name: string) {
  for (const width of widths) {
    await page.setViewportSize({ width, height: 900 });
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow, `${name} at ${width} px scrolls sideways`).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

async function startPurchase(page: Page, path: string) {
  await openPage(page, path);
  await page.getByRole("button", { name: "Comprar ahora" }).click();
  await payInDialog(page);
  await expect(page).toHaveURL(/\/pago-simulado\//);
}

async function staffPaymentPage(browser: Browser, customerEmail: string) {
  // A context of its own: axe needs a page of one (browser.newPage() gives none).
  const staff = await (await browser.newContext({ storageState: undefined })).newPage();
  await signInAsAdmin(staff);
  await openPage(staff, `/admin?tab=pagos&q=${encodeURIComponent(customerEmail)}`);
  await staff.getByRole("link", { name: /^Ver el pago de/ }).click();
  await expect(staff.getByRole("heading", { level: 1 })).toHaveText(/^Pago de /);
  return staff;
}

const purchaseItem = (page: Page, service: string) =>
  page.getByRole("main").getByRole("listitem").filter({ hasText: service });
const timelineOf = (scope: Page | ReturnType<typeof purchaseItem>) =>
  scope.getByRole("list", { name: "Historial del pedido" });

test("a withdrawal, then its refund: the same timeline for the customer and the staff, out of every total", async ({
  page,
  browser,
}) => {
  const { email } = await createVerifiedCustomer(page);
  await startPurchase(page, "/ciberseguridad");
  await page.getByRole("button", { name: "Pagar", exact: true }).click();
  await expect(page).toHaveURL(/\/pago-exitoso/);

  await openPage(page, "/mi-cuenta?tab=compras");
  const item = purchaseItem(page, "Ciberseguridad");
  await expect(timelineOf(item).getByRole("listitem")).toHaveText([
    /^Pagado · \d/,
    "En curso (pendiente)",
    "Entregado (pendiente)",
  ]);
  await expect(item).toContainText(/Desistir del contrato \(hasta el \d{1,2} \w+ \d{4}\)/);
  await item.getByRole("link", { name: "Desistir del contrato" }).click();
  const form = page.getByRole("form", { name: "Desistir del contrato" });
  await form.getByLabel(/^Desisto del contrato/).check();
  await form.getByRole("button", { name: "Confirmar desistimiento" }).click();
  await expect(toast(page, "Desistimiento registrado")).toBeVisible();

  await expect(item.locator("[data-purchase-status]")).toHaveText("Desistido");
  await expect(item).toContainText("No cuenta en el total");
  await expect(timelineOf(item).getByRole("listitem")).toHaveText([
    /^Pagado · /,
    /^Desistimiento del contrato · \d/,
    /^Devolución del importe \(pendiente\)A más tardar el \d{1,2} \w+ \d{4} \(14 días naturales/,
  ]);
  await openPage(page, "/mi-cuenta");
  await expect(page.getByRole("definition").filter({ hasText: "€" })).toHaveText("0,00€");
  await openPage(page, "/mi-cuenta?tab=compras");
  expect(await seriousViolations(page)).toEqual([]);
  await atEachWidth(page, "compras-desistida");

  // The staff: its own status and filter, the date the refund is due, no delivery form.
  const staff = await staffPaymentPage(browser, email);
  await expect(staff.getByRole("status")).toContainText(
    /El cliente ha desistido del contrato.*a más tardar el \d{1,2} \w+ \d{4}/,
  );
  await expect(staff.locator("[data-purchase-status]")).toHaveText("Desistido");
  await expect(staff.getByRole("main")).toContainText("No cuenta en el total de ingresos");
  await expect(staff.getByRole("form", { name: "Entrega" })).toHaveCount(0);
  await expect(timelineOf(staff).getByRole("listitem")).toHaveText([
    /^Pagado · /,
    /^Desistimiento del contrato · /,
    /^Devolución del importe \(pendiente\)/,
  ]);
  expect(await seriousViolations(staff)).toEqual([]);
  await atEachWidth(staff, "staff-desistida");
  await openPage(staff, `/admin?tab=pagos&estado=withdrawn&q=${encodeURIComponent(email)}`);
  await expect(staff.getByLabel("Estado")).toHaveValue("withdrawn");
  const rows = staff.getByRole("table", { name: "Pagos" }).locator("tbody tr");
  await expect(rows).toHaveCount(1);
  await expect(rows).toContainText("Desistido");
  await rows.getByRole("link", { name: /^Ver el pago de/ }).click();

  // The refund the withdrawal obliges; its reason typed with a full stop is shown with one.
  const refund = staff.getByRole("form", { name: "Reembolso" });
  await refund.getByLabel("Motivo del reembolso").fill("Desistimiento del cliente.");
  await refund.getByLabel(/^Confirmo que devolvemos/).check();
  await refund.getByRole("button", { name: /^Reembolsar/ }).click();
  await expect(toast(staff, "Pago reembolsado")).toBeVisible();
  const refunded = timelineOf(staff).locator('[data-step="refunded"]');
  await expect(refunded).toContainText(/^Importe devuelto · \d/);
  await expect(staff.getByText("Motivo: Desistimiento del cliente", { exact: true })).toHaveCount(
    1,
  );
  await expect(refunded).toContainText(/Por (.+ \()?admin@verticedigital\.es/);
  await expect(staff.getByRole("main")).not.toContainText("..");
  await expect(staff.getByRole("form", { name: "Reembolso" })).toHaveCount(0);
  await atEachWidth(staff, "staff-reembolsada");
  await staff.context().close();

  await openPage(page, "/mi-cuenta?tab=compras");
  await expect(item.locator("[data-purchase-status]")).toHaveText("Reembolsado");
  const done = timelineOf(item).locator('[data-step="refunded"]');
  await expect(done).toContainText(/^Importe devuelto · \d/);
  await expect(done).toContainText("Motivo: Desistimiento del cliente");
  await expect(done).toContainText("Por nuestro equipo");
  await expect(item).not.toContainText("En curso");
  await atEachWidth(page, "compras-reembolsada");
});

test("a declined card offers 'Intentar de nuevo', which opens the same service's purchase dialog", async ({
  page,
}) => {
  await createVerifiedCustomer(page);
  await startPurchase(page, "/ciberseguridad");
  await page.getByRole("button", { name: "Simular pago rechazado" }).click();
  await expect(page.getByText("Tu banco ha rechazado el pago")).toBeVisible();

  await openPage(page, "/mi-cuenta?tab=compras");
  const item = purchaseItem(page, "Ciberseguridad");
  await expect(item.locator("[data-purchase-status]")).toHaveText("Fallido");
  await expect(item).toContainText("No se ha cobrado nada");
  await atEachWidth(page, "compras-fallida");
  await item.getByRole("link", { name: "Intentar de nuevo" }).click();
  await expect(page).toHaveURL(/\/ciberseguridad\?comprar=ciberseguridad/);
  await expect(page.getByRole("dialog")).toContainText("Ciberseguridad");
  await payInDialog(page);
  await page.getByRole("button", { name: "Pagar", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Recibo de tu compra" })).toBeVisible();
});

test("/pago-exitoso waits for the confirmation, then is the buyer's receipt, with and without JavaScript; nobody else sees it", async ({
  page,
  browser,
}) => {
  await createVerifiedCustomer(page);
  await startPurchase(page, "/ciberseguridad");
  const checkout = page.url();

  // JavaScript off, signed in as the same customer, before the payment is confirmed.
  const noScript = await browser.newContext({
    javaScriptEnabled: false,
    storageState: await page.context().storageState(),
    viewport: { width: 390, height: 900 },
  });
  const plain = await noScript.newPage();
  await plain.goto("/pago-exitoso?service=Ciberseguridad");
  await expect(plain.getByRole("heading", { name: "¡Pago completado!" })).toBeVisible();
  await expect(plain.getByText("Has contratado: Ciberseguridad")).toBeVisible();
  await expect(plain.getByRole("status")).toContainText(
    "Estamos recibiendo la confirmación de tu pago",
  );
  await expect(plain.locator('meta[http-equiv="refresh"]')).toHaveAttribute("content", "4");
  await plain.screenshot({ path: `${SHOTS}/recibo-esperando-390.png`, fullPage: true });

  // The payment goes through; the page without JavaScript reloads itself into the receipt.
  expect(page.url()).toBe(checkout);
  await page.getByRole("button", { name: "Pagar", exact: true }).click();
  await expect(page).toHaveURL(/\/pago-exitoso\?service=Ciberseguridad$/);
  await expect(plain.getByRole("heading", { name: "Recibo de tu compra" })).toBeVisible({
    timeout: 30_000,
  });
  await expect(plain.locator('meta[http-equiv="refresh"]')).toHaveCount(0);
  await expect(plain.getByText("449,00€")).toBeVisible();
  await plain.screenshot({ path: `${SHOTS}/recibo-sin-js-390.png`, fullPage: true });
  await noScript.close();

  const receipt = page.getByRole("region", { name: "Recibo de tu compra" });
  await expect(receipt).toContainText("449,00€");
  await expect(receipt).toContainText(/Referencia del pedido[0-9a-f-]{36}/);
  const invoice = receipt.getByRole("link", { name: /^Descargar factura F\d{4}-\d{6}$/ });
  await expect(invoice).toHaveAttribute("href", /^\/mi-cuenta\/facturas\//);
  const download = page.waitForEvent("download");
  await invoice.click();
  expect((await download).suggestedFilename()).toMatch(/\.pdf$/);
  await expect(receipt.getByRole("link", { name: "Soporte" })).toHaveAttribute(
    "href",
    "/mi-cuenta?tab=soporte",
  );
  // The spec's texts stay.
  await expect(page.getByText("Has contratado: Ciberseguridad")).toBeVisible();
  await expect(page.getByRole("link", { name: "Volver al inicio" })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await atEachWidth(page, "recibo");

  // An anonymous visitor and another customer get the spec's generic page only.
  const strangers = [
    await browser.newContext({ storageState: undefined }),
    await browser.newContext({ storageState: undefined }),
  ];
  const anonymous = await strangers[0]!.newPage();
  const otherCustomer = await strangers[1]!.newPage();
  await createVerifiedCustomer(otherCustomer);
  for (const stranger of [anonymous, otherCustomer]) {
    await openPage(stranger, "/pago-exitoso?service=Ciberseguridad");
    await expect(stranger.getByText("Has contratado: Ciberseguridad")).toBeVisible();
    await expect(stranger.getByRole("main")).not.toContainText("Recibo");
    await expect(stranger.getByRole("main")).not.toContainText("449,00€");
    await expect(stranger.getByRole("main")).not.toContainText("Referencia");
  }
  for (const context of strangers) await context.close();
});
