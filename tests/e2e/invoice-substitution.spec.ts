import { readFile } from "node:fs/promises";
import { extractText } from "unpdf";
import { createVerifiedCustomer, toast } from "./accounts-helpers";
import { lookAt } from "./axe-helpers";
import { expect, openPage, test } from "./fixtures";
import { payThroughSimulator } from "./purchase-helpers";

/**
 * Issue #37 (decision 070): a customer with a simplified invoice asks in Compras for a complete
 * one in its place, by keyboard, is told inline what AEAT would refuse, and downloads the F3,
 * which names the invoice it replaces. INVOICE_SHOTS_DIR=<dir> keeps the pages at 390 and 1280 px.
 */
const shots = process.env.INVOICE_SHOTS_DIR;

test("a simplified invoice replaced by a complete one from Compras", async ({ page, baseURL }) => {
  await createVerifiedCustomer(page);
  await payThroughSimulator(page, baseURL!, "1");
  await openPage(page, "/mi-cuenta?tab=compras");
  const simplified = page.getByRole("link", { name: /^Factura F\d{4}-\d{6}$/ });
  const simplifiedNumber = (await simplified.textContent())!.replace("Factura", "").trim();

  // By keyboard: the link is reached with Tab and opened with Enter.
  const ask = page.getByRole("link", { name: "Pedir factura completa" });
  await ask.focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/mi-cuenta\/facturas\/[0-9a-f-]+\/completa$/);
  await expect(page.getByRole("heading", { name: "Pedir factura completa" })).toBeVisible();
  await expect(page.getByText(`Factura simplificada ${simplifiedNumber}`)).toBeVisible();

  const form = page.getByRole("form", { name: "Datos de la factura completa" });
  const name = form.getByLabel("Nombre o razón social");
  const taxId = form.getByLabel("NIF, NIE o CIF");
  const address = form.getByLabel("Domicilio fiscal");
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await lookAt(page, `factura-completa-${width}`, shots);
  }
  await name.fill("Ruiz Consultores S.L.");
  await taxId.fill("B12345670");
  await address.fill("Calle Mayor 1, 28013 Madrid");
  await taxId.press("Enter");
  await expect(taxId).toHaveAttribute("aria-invalid", "true");
  await expect(taxId).toBeFocused();
  await expect(taxId).toHaveAccessibleDescription(/letra de control no son correctos/);

  await taxId.fill("b12345674");
  await taxId.press("Enter");
  await expect(page).toHaveURL(/\/mi-cuenta\?tab=compras$/);
  await expect(toast(page, "Factura completa emitida")).toBeVisible();
  const complete = page.getByRole("link", { name: /^Factura completa F\d{4}-\d{6}$/ });
  await expect(complete).toBeVisible();
  await expect(
    page.getByRole("link", { name: /^Factura simplificada F.*SUSTITUIDA$/ }),
  ).toBeVisible();
  await expect(ask).toHaveCount(0);
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await lookAt(page, `compras-sustituida-${width}`, shots);
  }

  const [download] = await Promise.all([page.waitForEvent("download"), complete.click()]);
  const bytes = await readFile((await download.path())!);
  const { text } = await extractText(new Uint8Array(bytes), { mergePages: true });
  expect(text).toContain("Ruiz Consultores S.L.");
  expect(text).toContain("NIF: B12345674");
  expect(text).toContain(`Sustituye a la factura simplificada ${simplifiedNumber}`);
});
