import { createVerifiedCustomer, signedInAdminPage } from "./accounts-helpers";
import { expect, openPage, test } from "./fixtures";
import { payInDialog } from "./purchase-helpers";

/**
 * Issue #23, item 6, as staff use it: a customer's payment gives an invoice and its billing
 * record; the Verifactu page lists it, finds it by number and state, and 'Comprobar cadena'
 * says the chain is whole. Screenshots at a phone's and a desktop's width go to
 * VERIFACTU_SCREENSHOTS when set.
 */
test("staff find a new invoice's record on the Verifactu page and check the chain", async ({
  page,
  browser,
}) => {
  await createVerifiedCustomer(page);
  await openPage(page, "/ciberseguridad");
  await page.getByRole("button", { name: "Comprar ahora" }).click();
  await payInDialog(page);
  await page.getByRole("button", { name: "Pagar", exact: true }).click();
  await expect(page).toHaveURL(/\/pago-exitoso/);
  await openPage(page, "/mi-cuenta?tab=compras");
  const invoiceLink = page.getByRole("link", { name: /^Factura F\d{4}-\d{6}$/ });
  await expect(invoiceLink).toBeVisible();
  const number = (await invoiceLink.textContent())!.replace("Factura ", "").trim();

  const staff = await signedInAdminPage(browser);
  await staff
    .getByRole("navigation", { name: "Secciones del panel" })
    .getByRole("link", { name: "Verifactu" })
    .click();
  await expect(staff).toHaveURL(/\/admin\/verifactu$/);
  await expect(staff.getByRole("heading", { name: "Verifactu", level: 1 })).toBeVisible();
  await expect(staff.getByText("Pendientes de envío")).toBeVisible();
  const list = staff.getByRole("region", { name: "Registros de facturación" });
  await expect(list.getByRole("link", { name: number })).toBeVisible();

  // Filter: the invoice by its number, then an alta in its state.
  await staff.getByLabel("Número de factura").fill(number.toLowerCase());
  await staff.getByRole("button", { name: "Filtrar" }).click();
  await expect(staff).toHaveURL(new RegExp(`factura=${number}`, "i"));
  const row = list.locator("tbody tr[data-record-id]");
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(number);
  await expect(row).toContainText("Alta");
  await expect(row).toContainText("449,00 €");
  // The record may leave the queue at any moment (the sender works meanwhile): the filters are
  // tried with a state it never reaches here (the local AEAT stand-in accepts) and with none.
  // Each filter waits for its own URL: the form is re-mounted when the page's filters change, so
  // choosing the next filter before the last one has loaded would be undone by that re-mount.
  await staff.getByLabel("Estado").selectOption("rejected");
  await staff.getByLabel("Tipo").selectOption("alta");
  await staff.getByRole("button", { name: "Filtrar" }).click();
  await expect(staff).toHaveURL(/estado=rejected/);
  await expect(list.getByText("No hay registros con estos filtros.")).toBeVisible();
  await staff.getByLabel("Estado").selectOption("");
  await staff.getByLabel("Tipo").selectOption("anulacion");
  await staff.getByRole("button", { name: "Filtrar" }).click();
  await expect(staff).toHaveURL(/^(?!.*estado=rejected).*tipo=anulacion/);
  await expect(list.getByText("No hay registros con estos filtros.")).toBeVisible();
  await staff.getByLabel("Tipo").selectOption("alta");
  await staff.getByRole("button", { name: "Filtrar" }).click();
  await expect(staff).toHaveURL(/^(?!.*estado=rejected).*tipo=alta/);
  await expect(row).toHaveCount(1);
  await expect(row).toHaveAttribute("data-status", /^(pending|accepted)$/);

  // The invoice number opens the staff's payment page, which shows the record's state.
  await row.getByRole("link", { name: number }).click();
  await expect(staff).toHaveURL(/\/admin\/pagos\/[0-9a-f-]{36}$/);
  await expect(staff.locator(`[data-record-status]`)).toContainText(/Verifactu: /);
  await staff.goBack();

  await staff.getByRole("link", { name: "Quitar filtros" }).click();
  await expect(staff).toHaveURL(/\/admin\/verifactu$/);
  await staff.getByRole("button", { name: "Comprobar cadena" }).click();
  await expect(staff.getByRole("status").filter({ hasText: "Cadena íntegra" })).toHaveText(
    /^Cadena íntegra: [\d.]+ registros? comprobados? en [\d,]+ s$/,
  );

  await staff.getByRole("link", { name: "Declaración responsable" }).click();
  await expect(
    staff.getByRole("heading", { level: 1, name: "Declaración responsable del sistema" }),
  ).toBeVisible();
  await expect(
    staff.getByRole("heading", {
      level: 2,
      name: "DECLARACIÓN RESPONSABLE DEL SISTEMA INFORMÁTICO DE FACTURACIÓN",
    }),
  ).toBeVisible();
  // Filled from this installation's configuration; its date and place are not configured here.
  await expect(staff.getByRole("status")).toContainText("Falta suscribir la declaración");
  await expect(staff.getByText("{{")).toHaveCount(0);
  const shots = process.env.VERIFACTU_SCREENSHOTS;
  if (shots)
    for (const width of [390, 1280]) {
      await staff.setViewportSize({ width, height: 900 });
      await staff.screenshot({ path: `${shots}/declaracion-${width}.png` });
    }
  await staff.goBack();
  await expect(staff.getByRole("heading", { name: "Verifactu", level: 1 })).toBeVisible();

  if (shots) {
    for (const width of [390, 1280]) {
      await staff.setViewportSize({ width, height: 900 });
      await staff.screenshot({ path: `${shots}/verifactu-${width}.png`, fullPage: true });
    }
  }
});
