import type { Page } from "@playwright/test";
import { toast } from "./accounts-helpers";
import { expect } from "./fixtures";

const dialog = (page: Page) => page.getByRole("dialog");

/** The billing data a complete invoice needs, asked above 400 € (checkout-billing.spec.ts). */
export const TEST_BILLING = {
  "Nombre o razón social": "Cliente de Pruebas",
  "NIF, NIE o CIF": "12345678Z",
  "Domicilio fiscal": "Calle Mayor 1, 28013 Madrid",
};

/**
 * Fills the billing fields the dialog asks for (above 400 €) that the profile left empty, once
 * the profile's data is in; a dialog that asks for none is left as it is.
 */
export async function fillBillingIfAsked(page: Page, billing = TEST_BILLING) {
  const fields = dialog(page).getByRole("group", { name: "Datos de facturación" });
  if ((await fields.count()) === 0) return;
  await expect(fields).not.toHaveAttribute("aria-busy", "true");
  for (const [label, value] of Object.entries(billing)) {
    const field = fields.getByLabel(label);
    if ((await field.inputValue()) === "") await field.fill(value);
  }
}

/**
 * 'Pagar ahora' asks first for the consent to begin at once (withdrawal right), then leaves for
 * the payment page with it ticked.
 */
export async function payInDialog(page: Page) {
  const purchase = dialog(page);
  await expect(purchase.getByText("Total a pagar (IVA incluido)")).toBeVisible();
  await fillBillingIfAsked(page);
  await purchase.getByRole("button", { name: "Pagar ahora" }).click();
  await expect(toast(page, "Falta tu conformidad")).toBeVisible();
  const consent = purchase.getByRole("checkbox", { name: /empiece de inmediato/ });
  await expect(consent).toHaveAttribute("aria-invalid", "true");
  await expect(consent).toBeFocused();
  await consent.check();
  await purchase.getByRole("button", { name: "Pagar ahora" }).click();
}

/**
 * A purchase of the service `serviceId` by the signed-in customer of `page`, paid on the
 * simulated checkout through its requests (no dialog): for tests about what comes after a sale.
 */
export async function payThroughSimulator(page: Page, baseURL: string, serviceId = "1") {
  const checkout = await page.request.post("/checkout", {
    form: { serviceId, immediateStart: "yes" },
    headers: { Origin: baseURL },
  });
  const checkoutUrl = ((await checkout.json()) as { url: string }).url;
  const sessionId = new URL(checkoutUrl, baseURL).pathname.split("/").pop()!;
  const paid = await page.request.post(`/pago-simulado/${sessionId}`, {
    form: { outcome: "pay" },
    headers: { Origin: baseURL },
    maxRedirects: 0,
  });
  expect(paid.status(), "the simulated payment").toBe(302);
}
