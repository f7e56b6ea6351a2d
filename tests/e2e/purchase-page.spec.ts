import { createVerifiedCustomer } from "./accounts-helpers";
import { expect, test } from "./fixtures";
import { TEST_BILLING } from "./purchase-helpers";

/**
 * Issue #28, item 5: without JavaScript a signed-in customer's 'Comprar ahora' leads to the
 * purchase page, with the dialog's price breakdown, billing data and consent, then to the
 * payment page.
 */
test("without JavaScript a signed-in customer buys from the purchase page", async ({
  page,
  browser,
}) => {
  await createVerifiedCustomer(page);
  const noScript = await browser.newContext({
    javaScriptEnabled: false,
    storageState: await page.context().storageState(),
  });
  const plain = await noScript.newPage();
  await plain.goto("/ciberseguridad");
  await plain.getByRole("button", { name: "Comprar ahora" }).first().click();
  await expect(plain).toHaveURL(/\/comprar\/ciberseguridad$/);
  await expect(plain.getByRole("heading", { level: 1, name: "Ciberseguridad" })).toBeVisible();
  const breakdown = plain.locator("dl").filter({ hasText: "Base imponible" });
  await expect(breakdown).toContainText("371,07€");
  await expect(breakdown).toContainText("77,93€");
  await expect(breakdown).toContainText("449,00€");

  // Sent as it is: the server names each missing piece next to its field.
  const form = plain.getByRole("form", { name: "Comprar Ciberseguridad" });
  await form.getByRole("button", { name: "Pagar ahora" }).click();
  await expect(plain).toHaveURL(/\/comprar\/ciberseguridad$/);
  const consent = form.getByRole("checkbox", { name: /empiece de inmediato/ });
  await expect(consent).toHaveAttribute("aria-invalid", "true");
  await expect(form.getByLabel("Domicilio fiscal")).toHaveAttribute("aria-invalid", "true");

  for (const [label, value] of Object.entries(TEST_BILLING))
    await form.getByLabel(label).fill(value);
  // Issue 39, item 13: on a phone the answer opens at the missing consent, not at the top.
  await plain.setViewportSize({ width: 390, height: 844 });
  await form.getByRole("button", { name: "Pagar ahora" }).click();
  await expect(consent).toHaveAttribute("aria-invalid", "true");
  await expect(consent).toBeFocused();
  await expect(consent).toBeInViewport();
  await consent.check();
  await form.getByRole("button", { name: "Pagar ahora" }).click();
  await expect(plain).toHaveURL(/\/pago-simulado\/[\w-]+$/);
  await plain.getByRole("button", { name: "Pagar", exact: true }).click();
  await expect(plain).toHaveURL(/\/pago-exitoso\?service=Ciberseguridad$/);
  await expect(plain.getByRole("heading", { name: "¡Pago completado!" })).toBeVisible();
  await noScript.close();
});

test("the purchase page asks an anonymous visitor to sign in, and knows only the catalogue", async ({
  page,
}) => {
  await page.goto("/comprar/ciberseguridad");
  await expect(page).toHaveURL(/\/login-cliente\?volver=%2Fcomprar%2Fciberseguridad$/);
  await createVerifiedCustomer(page);
  const missing = await page.goto("/comprar/no-existe");
  expect(missing?.status()).toBe(404);
});
