import type { Page } from "@playwright/test";
import { toast } from "./accounts-helpers";
import { expect } from "./fixtures";

const dialog = (page: Page) => page.getByRole("dialog");

/**
 * 'Pagar ahora' asks first for the consent to begin at once (withdrawal right), then leaves for
 * the payment page with it ticked.
 */
export async function payInDialog(page: Page) {
  const purchase = dialog(page);
  await expect(purchase.getByText("Total a pagar (IVA incluido)")).toBeVisible();
  await purchase.getByRole("button", { name: "Pagar ahora" }).click();
  await expect(toast(page, "Falta tu conformidad")).toBeVisible();
  const consent = purchase.getByRole("checkbox", { name: /empiece de inmediato/ });
  await expect(consent).toHaveAttribute("aria-invalid", "true");
  await expect(consent).toBeFocused();
  await consent.check();
  await purchase.getByRole("button", { name: "Pagar ahora" }).click();
}
