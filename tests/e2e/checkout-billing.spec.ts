import { readFile } from "node:fs/promises";
import { extractText } from "unpdf";
import { createVerifiedCustomer, toast } from "./accounts-helpers";
import { expect, openPage, test } from "./fixtures";

/**
 * Issue #23: above 400 € the purchase dialog asks for the billing data of a complete invoice,
 * checks the NIF/NIE/CIF before paying, and the invoice of the paid purchase names the buyer.
 */
test("a 449 € purchase asks for the billing data, refuses a bad NIF inline, then pays", async ({
  page,
}) => {
  await createVerifiedCustomer(page);
  await openPage(page, "/ciberseguridad");
  await page.getByRole("button", { name: "Comprar ahora" }).click();
  const dialog = page.getByRole("dialog", { name: "Ciberseguridad" });
  await expect(dialog.getByText("Total a pagar (IVA incluido)")).toBeVisible();
  await expect(dialog).toContainText("Por encima de 400 € la factura es completa");
  const billing = dialog.getByRole("group", { name: "Datos de facturación" });
  await expect(billing).not.toHaveAttribute("aria-busy", "true");
  // A new profile holds no billing data: nothing is pre-filled.
  const name = billing.getByLabel("Nombre o razón social");
  const taxId = billing.getByLabel("NIF, NIE o CIF");
  const address = billing.getByLabel("Domicilio fiscal");
  await expect(name).toHaveValue("");

  // Nothing given: the first missing field is named and focused.
  await dialog.getByRole("checkbox", { name: /empiece de inmediato/ }).check();
  await dialog.getByRole("button", { name: "Pagar ahora" }).click();
  await expect(toast(page, "Falta el nombre o la razón social")).toBeVisible();
  await expect(name).toBeFocused();
  await expect(name).toHaveAttribute("aria-invalid", "true");
  await expect(address).toHaveAttribute("aria-invalid", "true");
  // A consumer need not give a NIF (RD 1619/2012 art. 6.1.d); a business is told it must.
  await expect(taxId).not.toHaveAttribute("aria-invalid", "true");
  await expect(taxId).toHaveAccessibleDescription(/Obligatorio para empresas y profesionales/);

  await name.fill("Ferretería Ejemplo S.L.");
  await taxId.fill("12345678A");
  await address.fill("Calle Mayor 1, 28013 Madrid");
  await dialog.getByRole("button", { name: "Pagar ahora" }).click();
  await expect(toast(page, "NIF, NIE o CIF no válido")).toBeVisible();
  await expect(taxId).toBeFocused();
  await expect(taxId).toHaveAttribute("aria-invalid", "true");
  await expect(taxId).toHaveAccessibleDescription(/letra de control no son correctos/);
  await expect(name).not.toHaveAttribute("aria-invalid", "true");
  await expect(page).toHaveURL(/\/ciberseguridad$/);

  await taxId.fill("b-12345674");
  await expect(taxId).not.toHaveAttribute("aria-invalid", "true");
  await dialog.getByRole("button", { name: "Pagar ahora" }).click();
  await expect(page).toHaveURL(/\/pago-simulado\/cs_sim_/);
  await page.getByRole("button", { name: "Pagar", exact: true }).click();
  await expect(page).toHaveURL(/\/pago-exitoso\?service=Ciberseguridad$/);

  // The invoice of the paid purchase is a complete one naming the buyer.
  await openPage(page, "/mi-cuenta?tab=compras");
  const invoiceLink = page.getByRole("link", { name: /^Factura F\d{4}-\d{6}$/ });
  const [download] = await Promise.all([page.waitForEvent("download"), invoiceLink.click()]);
  const bytes = await readFile((await download.path())!);
  const { text } = await extractText(new Uint8Array(bytes), { mergePages: true });
  expect(text).toContain("Ferretería Ejemplo S.L.");
  expect(text).toContain("B12345674");
});

test("under 400 € the billing data is asked only when the buyer needs a complete invoice", async ({
  page,
}) => {
  await createVerifiedCustomer(page);
  await openPage(page, "/precios");
  await page
    .locator("article#consultoria-puntual")
    .getByRole("button", { name: "Comprar ahora" })
    .click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByText("Total a pagar (IVA incluido)")).toBeVisible();
  await expect(dialog.getByLabel("NIF, NIE o CIF")).toHaveCount(0);
  await dialog
    .getByRole("checkbox", { name: "Necesito factura completa (empresa o profesional)" })
    .check();
  await expect(dialog.getByLabel("NIF, NIE o CIF")).toBeVisible();
  await dialog.getByRole("checkbox", { name: /empiece de inmediato/ }).check();
  await dialog.getByRole("button", { name: "Pagar ahora" }).click();
  await expect(toast(page, "Falta el nombre o la razón social")).toBeVisible();
  await expect(dialog.getByLabel("Nombre o razón social")).toBeFocused();
});
