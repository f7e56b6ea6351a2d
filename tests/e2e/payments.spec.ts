import type { Page } from "@playwright/test";
import { createVerifiedCustomer, toast } from "./accounts-helpers";
import { expect, openPage, test } from "./fixtures";
import { mailboxEntries } from "./mailbox";
import { payInDialog } from "./purchase-helpers";

const dialog = (page: Page) => page.getByRole("dialog");

async function buyFromServicePage(page: Page, path: string) {
  await openPage(page, path);
  await page.getByRole("button", { name: "Comprar ahora" }).click();
  await payInDialog(page);
  await expect(page).toHaveURL(/\/pago-simulado\/cs_sim_/);
  await expect(page.getByRole("heading", { name: "Pago simulado" })).toBeVisible();
}

async function purchaseStatusesOnTestPage(page: Page) {
  await openPage(page, "/test-pagos");
  return page
    .locator("tbody tr[data-status]")
    .evaluateAll((rows) => rows.map((row) => row.getAttribute("data-status")));
}

test("a verified customer pays on the simulated checkout and sees the purchase completed", async ({
  page,
}) => {
  await createVerifiedCustomer(page);
  await buyFromServicePage(page, "/ciberseguridad");
  await expect(page.getByRole("main").getByText("Ciberseguridad", { exact: true })).toBeVisible();
  await expect(page.getByRole("main").getByText("449€", { exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Pagar", exact: true }).click();
  await expect(page).toHaveURL(/\/pago-exitoso\?service=Ciberseguridad$/);
  await expect(page.getByText("Has contratado: Ciberseguridad")).toBeVisible();
  expect(await purchaseStatusesOnTestPage(page)).toEqual(["completed"]);
  await expect(page.getByTestId("completed-count")).toHaveText("1");
  await expect(page.getByTestId("pending-count")).toHaveText("0");
  await openPage(page, "/mi-cuenta");
  await expect(page.getByRole("main").getByText("Ciberseguridad")).toBeVisible();
  await expect(page.getByRole("main").getByText("Completado")).toBeVisible();
  const spent = page.getByRole("definition").filter({ hasText: "€" });
  await expect(spent).toHaveText("449,00€");
});

test("a simulated refund of a completed payment shows 'Reembolsado' and mails the customer", async ({
  page,
}) => {
  const customer = await createVerifiedCustomer(page);
  await buyFromServicePage(page, "/ciberseguridad");
  await page.getByRole("button", { name: "Pagar", exact: true }).click();
  await expect(page).toHaveURL(/\/pago-exitoso/);
  expect(await purchaseStatusesOnTestPage(page)).toEqual(["completed"]);
  await page.getByRole("link", { name: "Simular reembolso" }).click();
  await page.getByRole("button", { name: "Simular reembolso" }).click();
  await expect(page).toHaveURL(/\/test-pagos$/);
  await expect(page.locator("tbody tr[data-status]")).toHaveAttribute("data-status", "refunded");
  await expect(page.getByRole("link", { name: "Simular reembolso" })).toHaveCount(0);
  await openPage(page, "/mi-cuenta");
  await expect(page.getByRole("main").getByText("Reembolsado")).toBeVisible();
  await expect(page.getByRole("definition").filter({ hasText: "€" })).toHaveText("0,00€");
  await openPage(page, "/dev/correo");
  await expect(
    mailboxEntries(page, customer.email, "Reembolso de tu compra: Ciberseguridad"),
  ).toBeVisible();
});

test("a declined payment ends failed", async ({ page }) => {
  await createVerifiedCustomer(page);
  await buyFromServicePage(page, "/desarrollo-web");
  await page.getByRole("button", { name: "Simular pago rechazado" }).click();
  await expect(page.getByRole("alert")).toContainText("Pago rechazado");
  expect(await purchaseStatusesOnTestPage(page)).toEqual(["failed"]);
});

test("a cancelled checkout returns to /precios and the purchase ends cancelled", async ({
  page,
}) => {
  await createVerifiedCustomer(page);
  await buyFromServicePage(page, "/reputacion-digital");
  await page.getByRole("button", { name: "Cancelar" }).click();
  await expect(page).toHaveURL(/\/precios$/);
  expect(await purchaseStatusesOnTestPage(page)).toEqual(["cancelled"]);
});

test("a pending purchase shows that the webhook has not processed it yet", async ({ page }) => {
  await createVerifiedCustomer(page);
  await buyFromServicePage(page, "/ciberseguridad");
  expect(await purchaseStatusesOnTestPage(page)).toEqual(["pending"]);
  await expect(page.getByText("El webhook no ha procesado este pago")).toBeVisible();
});

test("'Consultar primero' takes the service to the contact form", async ({ page }) => {
  await createVerifiedCustomer(page);
  await openPage(page, "/inteligencia-artificial");
  await page.getByRole("button", { name: "Comprar ahora" }).click();
  await dialog(page).getByRole("button", { name: "Consultar primero" }).click();
  const form = page.getByRole("form", { name: "Formulario de contacto" });
  await expect(form.getByText("Servicio Seleccionado")).toBeVisible();
  await expect(form.getByLabel("Servicio de interés")).toHaveValue("ia");
  await expect(toast(page, "Servicio seleccionado")).toBeVisible();
  await expect
    .poll(() =>
      page.evaluate(() =>
        Math.round(document.getElementById("contacto")!.getBoundingClientRect().top),
      ),
    )
    .toBeLessThanOrEqual(110);
});

test("signed out, /test-pagos asks to sign in", async ({ page }) => {
  await openPage(page, "/test-pagos");
  await expect(page.getByText("Debes iniciar sesión para ver tus compras")).toBeVisible();
});
