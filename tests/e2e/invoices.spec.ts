import { readFile } from "node:fs/promises";
import type { Download, Page } from "@playwright/test";
import { extractText } from "unpdf";
import { createVerifiedCustomer, toast } from "./accounts-helpers";
import { expect, openPage, test } from "./fixtures";
import { description, timesShown } from "./form-errors-helpers";
import { payInDialog } from "./purchase-helpers";

/** The text of a downloaded PDF, as a PDF text extractor reads it. */
async function pdfText(download: Download): Promise<string> {
  const bytes = await readFile((await download.path())!);
  const { text } = await extractText(new Uint8Array(bytes), { mergePages: true });
  return text;
}

/** Euros as the invoice prints them ('371,07€') back to cents. */
const cents = (text: string) => Math.round(Number(text.replace("€", "").replace(",", ".")) * 100);

async function saveBillingData(page: Page, taxId: string, billingName: string) {
  const form = page.getByRole("form", { name: "Datos del perfil" });
  await form.getByLabel("NIF, NIE o CIF").fill(taxId);
  await form.getByLabel("Nombre o razón social para la factura").fill(billingName);
  await form.getByRole("button", { name: "Guardar" }).click();
}

test("a purchase with a NIF gives a complete invoice whose PDF adds up", async ({ page }) => {
  await createVerifiedCustomer(page);

  // The NIF's control letter is checked before anything is stored.
  await openPage(page, "/perfil");
  await saveBillingData(page, "12345678A", "Laura Gómez Peña");
  // Said once, under the field (decision 055).
  await expect(page.getByLabel("NIF, NIE o CIF")).toHaveAttribute("aria-invalid", "true");
  expect(await description(page.getByLabel("NIF, NIE o CIF"))).toContain(
    "NIF, NIE o CIF no válido.",
  );
  expect(await timesShown(page, "NIF, NIE o CIF no válido")).toBe(1);
  await saveBillingData(page, "12345678-z", "Laura Gómez Peña");
  await expect(toast(page, "Perfil actualizado")).toBeVisible();
  await expect(page.getByLabel("NIF, NIE o CIF")).toHaveValue("12345678Z");

  // Prices say that IVA is included, and the dialog shows the total before paying.
  await openPage(page, "/ciberseguridad");
  await expect(page.getByRole("complementary", { name: "Precio" })).toContainText("IVA incluido");
  await page.getByRole("button", { name: "Comprar ahora" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toContainText("Base imponible371,07€");
  await expect(dialog).toContainText("IVA (21 %)77,93€");
  await expect(dialog.getByRole("link", { name: /derecho de desistimiento/ })).toHaveAttribute(
    "href",
    "/terminos#desistimiento",
  );
  await payInDialog(page);
  await page.getByRole("button", { name: "Pagar", exact: true }).click();
  await expect(page).toHaveURL(/\/pago-exitoso/);

  await openPage(page, "/mi-cuenta?tab=compras");
  const invoiceLink = page.getByRole("link", { name: /^Factura F\d{4}-\d{6}$/ });
  await expect(invoiceLink).toBeVisible();
  const number = (await invoiceLink.textContent())!.replace("Factura ", "").trim();
  const [download] = await Promise.all([page.waitForEvent("download"), invoiceLink.click()]);
  expect(download.suggestedFilename()).toBe(`factura-${number}.pdf`);
  const text = await pdfText(download);

  expect(text).toContain(`Factura ${number}`);
  expect(text).toContain("NIF: 12345678Z");
  expect(text).toContain("Laura Gómez Peña");
  const amount = (label: string) => {
    const found = new RegExp(`${label}\\s*(-?[\\d.]+,\\d{2}€)`).exec(text);
    expect(found, `${label} in the invoice`).toBeTruthy();
    return cents(found![1]!);
  };
  const base = amount("Base imponible");
  const vat = amount("IVA \\(21 %\\)");
  const total = amount("Total");
  expect({ base, vat, total }).toEqual({ base: 37_107, vat: 7_793, total: 44_900 });
  expect(base + vat).toBe(total);
});
