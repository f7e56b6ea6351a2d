import type { Page } from "@playwright/test";
import { expect, openPage, test } from "./fixtures";
import { toast, uniqueEmail } from "./accounts-helpers";
import { postContactWithoutScript } from "./contact-helpers";
import { description, formBox, timesShown, toasts } from "./form-errors-helpers";

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
  expect(await description(email)).toContain(
    "Email inválido. Por favor, introduce un email válido.",
  );
  expect(await description(password)).toContain("Por favor, introduce tu contraseña.");
  // Two errors: a summary links to each field (decision 055); the login form has no toasts.
  const summary = formBox(form);
  await expect(summary).toContainText("Hay 2 errores en el formulario");
  await summary.getByRole("link", { name: "Contraseña requerida" }).click();
  await expect(password).toBeFocused();
  // Counted now, not awaited: a toast goes by itself after six seconds.
  expect(await toasts(page).count()).toBe(0);
  expect(await timesShown(page, "Por favor, introduce tu contraseña.")).toBe(1);

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
  // About no field: the box says it, once, and takes the focus.
  const alert = form.getByRole("alert");
  await expect(alert).toContainText("Email o contraseña incorrectos");
  await expect(alert).toBeFocused();
  expect(await timesShown(page, "Email o contraseña incorrectos")).toBe(1);
  // Counted now, not awaited: a toast goes by itself after six seconds.
  expect(await toasts(page).count()).toBe(0);
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
    expect(await description(email)).toContain(
      "Email inválido. Por favor, ingresa un email válido.",
    );
    expect(await description(message)).toContain("al menos 10 caracteres (actualmente 5)");
    // Several errors: the summary names each, linking to its field; each sentence is said once.
    const summary = formBox(form);
    await expect(summary.getByRole("link", { name: "Email inválido" })).toHaveAttribute(
      "href",
      `#${await email.getAttribute("id")}`,
    );
    await expect(summary.getByRole("link", { name: "Mensaje demasiado corto" })).toBeVisible();
    expect(await timesShown(page, "Por favor, ingresa un email válido.")).toBe(1);
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
    expect(await description(password)).toContain(
      "Contraseña requerida. Por favor, introduce tu contraseña.",
    );
    // One error about one field: said there only, no box (decision 055).
    await expect(formBox(form)).toHaveCount(0);
    expect(await timesShown(page, "Contraseña requerida")).toBe(1);
  });
});
