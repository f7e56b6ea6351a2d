import type { Browser, Page } from "@playwright/test";
import { createVerifiedCustomer, signInAsAdmin, toast } from "./accounts-helpers";
import { expect, openPage, test } from "./fixtures";
import { description, timesShown } from "./form-errors-helpers";
import { mailboxEntries } from "./mailbox";
import { payInDialog } from "./purchase-helpers";

/**
 * Issue #16 after the payment, as the customer and the staff see it: the delivery status the
 * staff set, and the withdrawal a customer can use inside its 14 days until the service is
 * delivered. Past the 14 days it is no longer offered: admin-panel.spec.ts, whose server of its
 * own can be stopped while a purchase's date is moved back.
 */

async function buy(page: Page, path: string) {
  await openPage(page, path);
  await page.getByRole("button", { name: "Comprar ahora" }).click();
  await payInDialog(page);
  await page.getByRole("button", { name: "Pagar", exact: true }).click();
  await expect(page).toHaveURL(/\/pago-exitoso/);
}

async function staffPaymentPage(browser: Browser, customerEmail: string) {
  const staff = await browser.newPage();
  await signInAsAdmin(staff);
  await openPage(staff, `/admin?tab=pagos&q=${encodeURIComponent(customerEmail)}`);
  await staff.getByRole("link", { name: /^Ver el pago de/ }).click();
  await expect(staff.getByRole("heading", { level: 1 })).toHaveText(/^Pago de /);
  return staff;
}

const purchaseItem = (page: Page, service: string) =>
  page.getByRole("main").getByRole("listitem").filter({ hasText: service });

test("a withdrawal inside 14 days is confirmed, mailed with its date and shown to the staff", async ({
  page,
  browser,
}) => {
  const { email } = await createVerifiedCustomer(page);
  await buy(page, "/desarrollo-web");

  await openPage(page, "/mi-cuenta?tab=compras");
  const item = purchaseItem(page, "Desarrollo Web");
  await expect(item).toContainText("Entrega: Pendiente de inicio");
  await item.getByRole("link", { name: "Desistir del contrato" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Desistir del contrato");
  const form = page.getByRole("form", { name: "Desistir del contrato" });
  await form.getByRole("button", { name: "Confirmar desistimiento" }).click();
  // Said once, under the box to tick (decision 055).
  const tick = form.getByLabel(/^Desisto del contrato/);
  await expect(tick).toBeFocused();
  expect(await description(tick)).toContain("Confirma el desistimiento.");
  expect(await timesShown(page, "Confirma el desistimiento")).toBe(1);
  await tick.check();
  await form.getByRole("button", { name: "Confirmar desistimiento" }).click();
  await expect(toast(page, "Desistimiento registrado")).toBeVisible();
  await expect(page).toHaveURL(/\/mi-cuenta\?tab=compras$/);
  await expect(item).toContainText(/Desististe el \d{1,2} de \w+ de \d{4} a las \d{1,2}:\d{2}/);
  await expect(item.getByRole("link", { name: "Desistir del contrato" })).toHaveCount(0);

  await openPage(page, "/dev/correo");
  await expect(
    mailboxEntries(page, email, "Hemos recibido tu desistimiento: Desarrollo Web"),
  ).toBeVisible();

  const staff = await staffPaymentPage(browser, email);
  await expect(staff.getByRole("status")).toContainText("El cliente ha desistido del contrato");
  await staff.close();
});

test("the staff move the delivery on, the customer sees it, and once delivered no withdrawal is offered", async ({
  page,
  browser,
}) => {
  const { email } = await createVerifiedCustomer(page);
  await buy(page, "/reputacion-digital");

  const staff = await staffPaymentPage(browser, email);
  const delivery = staff.getByRole("form", { name: "Entrega" });
  await delivery.getByLabel("Estado de la entrega").selectOption({ label: "Entregado" });
  await delivery.getByLabel("Nota para el cliente (opcional)").fill("Informe enviado por correo.");
  await delivery.getByRole("button", { name: "Guardar entrega" }).click();
  await expect(toast(staff, "Entrega actualizada")).toBeVisible();
  await expect(delivery.getByLabel("Estado de la entrega")).toHaveValue("delivered");
  await staff.close();

  await openPage(page, "/mi-cuenta?tab=compras");
  const item = purchaseItem(page, "Reputación Digital");
  await expect(item).toContainText("Entrega: Entregado · Informe enviado por correo.");
  await expect(item.getByRole("link", { name: "Desistir del contrato" })).toHaveCount(0);
  await openPage(page, "/dev/correo");
  await expect(
    mailboxEntries(page, email, /^Tu compra Reputación Digital: entregado/),
  ).toBeVisible();
});
