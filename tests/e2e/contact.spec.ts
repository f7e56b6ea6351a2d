import type { Page } from "@playwright/test";
import { contactForm, NEEDS_JAVASCRIPT, postContactWithoutScript } from "./contact-helpers";
import { expect, openPage, test } from "./fixtures";
import { formBox } from "./form-errors-helpers";
import { challengeRequests, HUMAN_CHECK_SOLVED, humanCheckStatus } from "./human-check-helpers";

const toast = (page: Page, title: string) =>
  page.locator("[data-toast]").filter({ hasText: title }).first();

async function fill(
  page: Page,
  values: Partial<Record<"name" | "email" | "message", string>> & { service?: string },
) {
  const form = contactForm(page);
  if (values.name !== undefined) await form.getByLabel("Nombre completo").fill(values.name);
  if (values.email !== undefined) await form.getByLabel("Email").fill(values.email);
  if (values.service !== undefined)
    await form.getByLabel("Servicio de interés").selectOption({ label: values.service });
  if (values.message !== undefined) await form.getByLabel("Mensaje").fill(values.message);
}

/** Sends as a visitor does: reaching for the form starts its human check, then the button works. */
async function send(page: Page) {
  await contactForm(page).hover();
  await contactForm(page).getByRole("button", { name: "Enviar consulta" }).click();
}

test("the human check loads when the visitor reaches for the form, not with the page", async ({
  page,
}) => {
  const challenges = challengeRequests(page);
  await openPage(page, "/");
  const form = contactForm(page);
  await expect(form.getByRole("button", { name: "Cargando..." })).toBeDisabled();
  await expect(form.locator("noscript")).toBeHidden();
  await page.getByRole("heading", { level: 1 }).click();
  await page.keyboard.press("End");
  expect(challenges).toEqual([]);
  await form.getByLabel("Nombre completo").focus();
  await expect(form.getByRole("button", { name: "Enviar consulta" })).toBeEnabled();
  await expect(form.locator("input[name=altcha]")).toHaveValue(/.+/);
  await expect(humanCheckStatus(form)).toHaveText(HUMAN_CHECK_SOLVED);
});

test("a refused human check is said in the form and as a toast, and a new one is solved", async ({
  page,
}) => {
  await openPage(page, "/");
  await page.route("**/api/contacto", async (route) => {
    const fields = new URLSearchParams(route.request().postData() ?? "");
    fields.set("altcha", "caducada");
    await route.continue({ postData: fields.toString() });
  });
  await fill(page, {
    name: "Pablo Gil",
    email: "pablo@example.com",
    service: "Ciberseguridad",
    message: "Quiero una auditoría de seguridad.",
  });
  await send(page);
  // About no field, in a form whose errors the spec makes toasts: the toast alone says it.
  await expect(toast(page, "Verificación de seguridad fallida")).toContainText(
    "No hemos podido comprobar que eres una persona.",
  );
  await expect(formBox(contactForm(page))).toHaveCount(0);
  await expect(contactForm(page).getByLabel("Nombre completo")).toHaveValue("Pablo Gil");
  await expect(contactForm(page).getByRole("button", { name: "Enviar consulta" })).toBeEnabled();
  await page.unroute("**/api/contacto");
  const answer = page.waitForResponse("**/api/contacto");
  await send(page);
  expect((await answer).status()).toBe(200);
  await expect(toast(page, "¡Mensaje enviado!")).toBeVisible();
});

test("the form offers the five services of the catalogue and marks every field required", async ({
  page,
}) => {
  await openPage(page, "/");
  const options = await contactForm(page)
    .getByLabel("Servicio de interés")
    .locator("option:not([disabled])")
    .allTextContents();
  expect(options).toEqual([
    "Asistencia Informática",
    "Consultoría en IA",
    "Desarrollo Web",
    "Ciberseguridad",
    "Reputación Digital",
  ]);
  for (const label of ["Nombre completo", "Email", "Servicio de interés", "Mensaje"]) {
    await expect(contactForm(page).getByLabel(label)).toHaveAttribute("required", "");
  }
});

test("validation errors come as toasts, one rule after another in the spec's order", async ({
  page,
}) => {
  await openPage(page, "/");
  const steps: [Parameters<typeof fill>[1], string, string?][] = [
    [{}, "Nombre requerido", "Por favor, ingresa tu nombre completo."],
    [{ name: " A " }, "Nombre muy corto"],
    [{ name: "Ana García", email: "ana@example" }, "Email inválido"],
    [{ email: "ana@example.com" }, "Servicio requerido"],
    [{ service: "Ciberseguridad" }, "Mensaje requerido"],
    [{ message: "  Hola hola  " }, "Mensaje demasiado corto", "(actualmente 9)"],
    [{ message: "x".repeat(5001) }, "Mensaje demasiado largo"],
  ];
  for (const [values, title, detail] of steps) {
    await fill(page, values);
    await send(page);
    await expect(toast(page, title)).toBeVisible();
    if (detail) await expect(toast(page, title)).toContainText(detail);
  }
});

test("a valid enquiry: busy button, success toast, cleared form, and both mails in the dev mailbox", async ({
  page,
}) => {
  const name = `Prueba ${Date.now()}`;
  await openPage(page, "/ciberseguridad");
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let spent: string | null = null;
  await page.route("**/api/contacto", async (route) => {
    spent = new URLSearchParams(route.request().postData() ?? "").get("altcha");
    await held;
    await route.continue();
  });
  await fill(page, {
    name,
    email: "cliente@example.com",
    service: "Ciberseguridad",
    message: "Necesito una auditoría completa.",
  });
  await send(page);
  const busy = contactForm(page).getByRole("button", { name: "Enviando consulta..." });
  await expect(busy).toBeDisabled();
  release();
  await expect(toast(page, "¡Mensaje enviado!")).toBeVisible();
  await expect(toast(page, "¡Mensaje enviado!")).toContainText("confirmación");
  await expect(contactForm(page).getByLabel("Nombre completo")).toHaveValue("");
  await expect(contactForm(page).getByLabel("Email")).toHaveValue("");
  await expect(contactForm(page).getByLabel("Servicio de interés")).toHaveValue("");
  await expect(contactForm(page).getByLabel("Mensaje")).toHaveValue("");
  // The solution was spent: a new one is solved for the next enquiry.
  await expect(contactForm(page).getByRole("button", { name: "Enviar consulta" })).toBeEnabled();
  expect(spent).toMatch(/.+/);
  await expect(contactForm(page).locator("input[name=altcha]")).not.toHaveValue(spent!);

  await openPage(page, "/dev/correo");
  await expect(page.getByText(`Nueva consulta: Ciberseguridad - ${name}`)).toBeVisible();
  await page.getByText(`Nueva consulta: Ciberseguridad - ${name}`).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(
    `Nueva consulta: Ciberseguridad - ${name}`,
  );
  await expect(page.locator("pre")).toContainText("Necesito una auditoría completa.");
  await openPage(page, "/dev/correo");
  await expect(
    page.getByText("Hemos recibido tu consulta - Vértice Digital").first(),
  ).toBeVisible();
});

test("when sending fails, 'Error al enviar' is shown and the form is kept", async ({ page }) => {
  await openPage(page, "/");
  await page.route("**/api/contacto", (route) => route.abort("connectionreset"));
  const values = {
    name: "Marta Ruiz",
    email: "marta@example.com",
    service: "Desarrollo Web",
    message: "Quiero rehacer mi web.",
  };
  await fill(page, values);
  await send(page);
  await expect(toast(page, "Error al enviar")).toBeVisible();
  await expect(toast(page, "Error al enviar")).toContainText("Por favor, inténtalo de nuevo.");
  await expect(contactForm(page).getByLabel("Nombre completo")).toHaveValue(values.name);
  await expect(contactForm(page).getByLabel("Mensaje")).toHaveValue(values.message);
  await expect(contactForm(page).getByRole("button", { name: "Enviar consulta" })).toBeEnabled();
});

test("a pending purchase preselects its service, pre-fills the message and is then removed", async ({
  page,
}) => {
  await page.addInitScript(() => {
    if (!sessionStorage.getItem("seeded")) {
      sessionStorage.setItem("seeded", "1");
      localStorage.setItem(
        "pending_purchase",
        JSON.stringify({ service: "Reputación Digital", price: 299, timestamp: Date.now() }),
      );
    }
  });
  await openPage(page, "/");
  await expect(contactForm(page).getByText("Servicio Seleccionado")).toBeVisible();
  await expect(contactForm(page).getByLabel("Servicio de interés")).toHaveValue(
    "reputacion-digital",
  );
  await expect(contactForm(page).getByLabel("Mensaje")).toHaveValue(/Reputación Digital \(299€\)/);
  await expect(toast(page, "Servicio seleccionado")).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem("pending_purchase"))).toBeNull();
  await page.reload();
  await expect(page.locator("html[data-hydrated]")).toBeAttached();
  await expect(contactForm(page).getByText("Servicio Seleccionado")).toBeHidden();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the contact form and /registro say that their security check needs JavaScript", async ({
    page,
  }) => {
    for (const [path, name] of [
      ["/", "Formulario de contacto"],
      ["/desarrollo-web", "Formulario de contacto"],
      ["/contacto", "Formulario de contacto"],
      ["/registro", "Registro"],
    ] as const) {
      await page.goto(path);
      const form = page.getByRole("form", { name });
      // Text queries skip <noscript>, so the sentence is found by its element.
      const sentence = form.locator("noscript p");
      await expect(sentence).toBeVisible();
      await expect(sentence).toHaveText(NEEDS_JAVASCRIPT);
      await expect(form.getByRole("button", { name: "Cargando..." })).toBeDisabled();
    }
  });

  test("a post reaching the server is answered with the errors, keeping what was typed", async ({
    page,
  }) => {
    await postContactWithoutScript(page, {
      name: "Jo",
      email: "jo@",
      service: "ia",
      message: "corto",
    });
    await expect(page).toHaveURL(/\/contacto$/);
    const alert = contactForm(page).getByRole("alert");
    await expect(alert).toContainText("Email inválido");
    await expect(alert).toContainText("Mensaje demasiado corto");
    await expect(contactForm(page).getByLabel("Nombre completo")).toHaveValue("Jo");
  });
});
