import { createVerifiedCustomer, signInAsAdmin } from "./accounts-helpers";
import { seriousViolations } from "./axe-helpers";
import { expect, openPage, publicPaths, test } from "./fixtures";

for (const path of [
  ...publicPaths,
  "/contacto",
  "/pago-exitoso",
  "/no-existe",
  "/dev/correo",
  "/login",
  "/login-cliente",
  "/registro",
  "/verificar-email",
  "/recuperar-password",
  "/actualizar-password?token=x",
]) {
  test(`${path} has no serious or critical axe violations`, async ({ page }) => {
    await openPage(page, path);
    expect(await seriousViolations(page)).toEqual([]);
  });
}

test.describe("with the cookie banner and the purchase dialog open", () => {
  test.use({ storedConsent: null });

  test("no serious or critical axe violations", async ({ page }) => {
    await page.clock.install({ time: new Date("2026-11-22T10:00:00Z") });
    await page.clock.pauseAt(new Date("2026-11-22T10:00:01Z"));
    await openPage(page, "/precios");
    await page.clock.runFor(1_000);
    await expect(page.getByRole("dialog", { name: /cookies/i })).toBeVisible();
    // axe schedules its own timers: let time flow again.
    await page.clock.resume();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "Personalizar" }).click();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "Cerrar" }).click();
    await page
      .locator("article#desarrollo-web")
      .getByRole("button", { name: "Comprar ahora" })
      .click();
    await expect(page.getByRole("dialog", { name: "Registro Requerido" })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  });
});

test("the customer area has no serious or critical axe violations", async ({ page }) => {
  await createVerifiedCustomer(page);
  for (const path of ["/mi-cuenta", "/perfil", "/test-pagos"]) {
    await openPage(page, path);
    expect(await seriousViolations(page), path).toEqual([]);
  }
});

test("the admin panel's tabs have no serious or critical axe violations", async ({ page }) => {
  await signInAsAdmin(page);
  for (const path of [
    "/admin",
    "/admin?tab=consultas",
    "/admin?tab=pagos",
    "/admin?tab=tickets",
    "/admin?tab=usuarios",
    "/admin/auditoria",
  ]) {
    await openPage(page, path);
    expect(await seriousViolations(page), path).toEqual([]);
  }
});
