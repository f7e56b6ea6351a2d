import type { Locator, Page } from "@playwright/test";
import { expect, openPage, test } from "./fixtures";
import { toast, uniqueEmail } from "./accounts-helpers";
import { postContactWithoutScript } from "./contact-helpers";

/** The text of the elements that describe a control (its error, its hint). */
async function description(control: Locator): Promise<string> {
  const ids = (await control.getAttribute("aria-describedby")) ?? "";
  const page = control.page();
  const texts = await Promise.all(
    ids
      .split(" ")
      .filter(Boolean)
      .map((id) => page.locator(`[id="${id}"]`).innerText()),
  );
  return texts.join(" ");
}

const loginForm = (page: Page) => page.getByRole("form", { name: "Inicio de sesión" });
const contactForm = (page: Page) => page.getByRole("form", { name: "Formulario de contacto" });

test("each faulty field is marked, described and focused, and corrected fields lose their error", async ({
  page,
}) => {
  await openPage(page, "/login-cliente");
  const form = loginForm(page);
  const email = form.getByLabel("Email");
  const password = form.getByLabel("Contraseña");
  await email.fill("ana@example");
  await form.getByRole("button", { name: "Iniciar Sesión" }).click();

  await expect(email).toHaveAttribute("aria-invalid", "true");
  await expect(password).toHaveAttribute("aria-invalid", "true");
  await expect(email).toBeFocused();
  expect(await description(email)).toContain("Por favor, introduce un email válido.");
  expect(await description(password)).toContain("Por favor, introduce tu contraseña.");
  await expect(toast(page, "Email inválido")).toBeVisible();

  await email.fill("ana@example.com");
  await expect(email).not.toHaveAttribute("aria-invalid");
  await expect(password).toHaveAttribute("aria-invalid", "true");
});

test("a new toast of a form replaces the previous one instead of stacking", async ({ page }) => {
  await openPage(page, "/");
  const form = contactForm(page);
  const send = form.getByRole("button", { name: "Enviar consulta" });
  // Reaching for the form starts its human check; the button works once it is done.
  await form.hover();
  await send.click();
  await expect(toast(page, "Nombre requerido")).toBeVisible();
  await form.getByLabel("Nombre completo").fill("Ana García");
  await send.click();
  await expect(toast(page, "Email inválido")).toBeVisible();
  await expect(page.locator("[data-toast]")).toHaveCount(1);
  await expect(form.getByLabel("Email")).toBeFocused();
});

test("the server's refusal is shown in the form and focus moves to it", async ({ page }) => {
  await openPage(page, "/login-cliente");
  const form = loginForm(page);
  await form.getByLabel("Email").fill(uniqueEmail("nadie"));
  await form.getByLabel("Contraseña").fill("una-contraseña-cualquiera");
  await form.getByRole("button", { name: "Iniciar Sesión" }).click();
  const alert = form.getByRole("alert");
  await expect(alert).toContainText("Email o contraseña incorrectos");
  await expect(alert).toBeFocused();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the server marks and describes each faulty field next to it", async ({ page }) => {
    await postContactWithoutScript(page, {
      name: "Ana García",
      email: "ana@",
      service: "ciberseguridad",
      message: "corto",
    });
    const form = contactForm(page);
    await expect(page).toHaveURL(/\/contacto$/);
    const email = form.getByLabel("Email");
    const message = form.getByLabel("Mensaje");
    await expect(email).toHaveAttribute("aria-invalid", "true");
    await expect(message).toHaveAttribute("aria-invalid", "true");
    await expect(form.getByLabel("Nombre completo")).not.toHaveAttribute("aria-invalid");
    expect(await description(email)).toContain("Por favor, ingresa un email válido.");
    expect(await description(message)).toContain("al menos 10 caracteres (actualmente 5)");
  });

  test("an account form's field error comes back from the server next to its field", async ({
    page,
  }) => {
    await page.goto("/login-cliente");
    const form = loginForm(page);
    await form.getByLabel("Email").fill("ana@example.com");
    await form.getByRole("button", { name: "Iniciar Sesión" }).click();
    const password = form.getByLabel("Contraseña");
    await expect(password).toHaveAttribute("aria-invalid", "true");
    expect(await description(password)).toContain("Por favor, introduce tu contraseña.");
    await expect(form.getByRole("alert")).toContainText("Contraseña requerida");
  });
});
