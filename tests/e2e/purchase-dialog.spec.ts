import { expect, openPage, test } from "./fixtures";

test("signed out, a buy button opens 'Registro Requerido' leading to sign-up", async ({ page }) => {
  await openPage(page, "/precios");
  await page
    .locator("article#ciberseguridad")
    .getByRole("button", { name: "Comprar ahora" })
    .click();
  const dialog = page.getByRole("dialog", { name: "Registro Requerido" });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText("Ciberseguridad");
  // Both remember the chosen service (tests/e2e/return-paths.spec.ts follows them).
  const back = encodeURIComponent("/precios?comprar=ciberseguridad#ciberseguridad");
  await expect(dialog.getByRole("link", { name: "Ya tengo cuenta" })).toHaveAttribute(
    "href",
    `/login-cliente?volver=${back}`,
  );
  await dialog.getByRole("link", { name: "Crear cuenta" }).click();
  await expect(page).toHaveURL(`/registro?volver=${back}`);
  await expect(page.getByRole("dialog")).toHaveCount(0);
});

test("the dialog closes with Escape and with its close button", async ({ page }) => {
  await openPage(page, "/desarrollo-web");
  await page.getByRole("button", { name: "Comprar ahora" }).click();
  await expect(page.getByRole("dialog", { name: "Registro Requerido" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await page.getByRole("button", { name: "Comprar ahora" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Cerrar" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
});
