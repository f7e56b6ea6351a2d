import { readFile } from "node:fs/promises";
import type { Page } from "@playwright/test";
import { createVerifiedCustomer, toast } from "./accounts-helpers";
import { expect, openPage, test } from "./fixtures";
import { formBox, timesShown } from "./form-errors-helpers";

// A real 1×1 PNG.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);
const MESSAGE = "Adjunto una captura del error que aparece al entrar en el panel.";

async function fillNewTicket(page: Page, subject: string) {
  await openPage(page, "/mi-cuenta/tickets/nuevo");
  const form = page.getByRole("form", { name: "Nuevo ticket" });
  await form.getByLabel("Asunto").fill(subject);
  await form.getByLabel("Categoría").selectOption({ label: "Consulta técnica" });
  await form.getByLabel("Mensaje").fill(MESSAGE);
  return form;
}

test("a customer sends a screenshot with a new ticket and downloads it from the ticket page", async ({
  page,
}) => {
  await createVerifiedCustomer(page);
  const form = await fillNewTicket(page, `Error con captura ${Date.now()}`);
  await expect(page.locator("html[data-hydrated]")).toBeAttached();
  await form
    .getByLabel("Adjuntar archivos (opcional)")
    .setInputFiles({ name: "captura del error.png", mimeType: "image/png", buffer: PNG });
  await form.getByRole("button", { name: "Crear ticket" }).click();
  await expect(page).toHaveURL(/\/mi-cuenta\/tickets\/[0-9a-f-]{36}$/);
  await expect(toast(page, "Ticket creado")).toBeVisible();

  const files = page.getByRole("list", { name: "Archivos adjuntos" });
  const link = files.getByRole("link", { name: /captura del error\.png/ });
  await expect(link).toContainText(`(${PNG.length} B)`);
  const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
  expect(download.suggestedFilename()).toBe("captura del error.png");
  expect((await readFile((await download.path())!)).equals(PNG)).toBe(true);
});

test("a file that is not what its name says is refused in Spanish and the message stays", async ({
  page,
}) => {
  await createVerifiedCustomer(page);
  const form = await fillNewTicket(page, `Captura dudosa ${Date.now()}`);
  await expect(page.locator("html[data-hydrated]")).toBeAttached();
  const field = form.getByLabel("Adjuntar archivos (opcional)");
  await field.setInputFiles({
    name: "captura.png",
    mimeType: "image/png",
    buffer: Buffer.from("<html><script>alert(1)</script></html>"),
  });
  await form.getByRole("button", { name: "Crear ticket" }).click();
  const refusal = "Solo se admiten PNG, JPEG, WebP, PDF y texto. «captura.png» no se ha enviado.";
  // The words sit next to the file field, which is marked and focused, and only there.
  await expect(field).toHaveAttribute("aria-invalid", "true");
  await expect(field).toHaveAccessibleDescription(new RegExp(refusal.replace(/[.()]/g, "\\$&")));
  await expect(field).toBeFocused();
  await expect(formBox(form)).toHaveCount(0);
  expect(await timesShown(page, refusal)).toBe(1);
  await expect(page).toHaveURL(/\/mi-cuenta\/tickets\/nuevo$/);
  await expect(form.getByLabel("Mensaje")).toHaveValue(MESSAGE);
});

test("without JavaScript a refused file brings the form back with the text typed", async ({
  page,
  browser,
}) => {
  await createVerifiedCustomer(page);
  const context = await browser.newContext({
    javaScriptEnabled: false,
    storageState: await page.context().storageState(),
  });
  const plain = await context.newPage();
  const subject = `Sin JavaScript ${Date.now()}`;
  await plain.goto("/mi-cuenta/tickets/nuevo");
  const form = plain.getByRole("form", { name: "Nuevo ticket" });
  await form.getByLabel("Asunto").fill(subject);
  await form.getByLabel("Categoría").selectOption({ label: "Consulta técnica" });
  await form.getByLabel("Mensaje").fill(MESSAGE);
  await form.getByLabel("Adjuntar archivos (opcional)").setInputFiles({
    name: "factura.pdf",
    mimeType: "application/pdf",
    buffer: Buffer.concat([Buffer.from("MZ"), Buffer.alloc(64)]),
  });
  await form.getByRole("button", { name: "Crear ticket" }).click();
  const field = form.getByLabel("Adjuntar archivos (opcional)");
  await expect(field).toHaveAccessibleDescription(/«factura\.pdf» no se ha enviado\./);
  await expect(formBox(form)).toHaveCount(0);
  await expect(form.getByLabel("Asunto")).toHaveValue(subject);
  await expect(form.getByLabel("Mensaje")).toHaveValue(MESSAGE);
  await expect(form.getByLabel("Categoría")).toHaveValue("consulta_tecnica");
  await context.close();
});
