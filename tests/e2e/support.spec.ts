import type { Page } from "@playwright/test";
import { createVerifiedCustomer, toast } from "./accounts-helpers";
import { seriousViolations } from "./axe-helpers";
import { expect, openPage, test } from "./fixtures";

const tabs = ["Resumen", "Compras", "Soporte", "Configuración"] as const;

const tabList = (page: Page) => page.getByRole("tablist", { name: "Secciones de Mi Cuenta" });
const stat = (page: Page, label: string) =>
  page.getByRole("term").filter({ hasText: label }).locator("xpath=following-sibling::dd[1]");

/** Opens a ticket from the Soporte tab's 'Nuevo Ticket'; answers its number. */
async function openTicketFromSupportTab(page: Page, subject: string) {
  await openPage(page, "/mi-cuenta?tab=soporte");
  await page.getByRole("link", { name: "Nuevo Ticket" }).click();
  await expect(page).toHaveURL(/\/mi-cuenta\/tickets\/nuevo$/);
  await expect(page.locator("html[data-hydrated]")).toBeAttached();
  expect(await seriousViolations(page), "new ticket").toEqual([]);
  const form = page.getByRole("form", { name: "Nuevo ticket" });
  // The server's rules, checked before sending.
  await form.getByLabel("Asunto").fill("Ay");
  await form.getByRole("button", { name: "Crear ticket" }).click();
  await expect(form.getByLabel("Asunto")).toHaveAttribute("aria-invalid", "true");
  await expect(form.getByText("El asunto debe tener al menos 5 caracteres.")).toBeVisible();

  await form.getByLabel("Asunto").fill(subject);
  await form.getByLabel("Categoría").selectOption({ label: "Consulta técnica" });
  await form.getByLabel("Prioridad").selectOption({ label: "Alta" });
  await form.getByLabel("Mensaje").fill("Desde ayer el panel me dice que mi contraseña no vale.");
  await form.getByRole("button", { name: "Crear ticket" }).click();
  await expect(page).toHaveURL(/\/mi-cuenta\/tickets\/[0-9a-f-]{36}$/);
  await expect(toast(page, "Ticket creado")).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(subject);
  const number = (await page.getByText(/^TK-\d{4}-\d{6}$/).textContent())!;
  expect(await seriousViolations(page), "ticket").toEqual([]);
  return { number, url: page.url() };
}

test("a customer opens a ticket with 'Nuevo Ticket', finds it in Resumen and Soporte, and writes again", async ({
  page,
}) => {
  await createVerifiedCustomer(page);
  await openPage(page, "/mi-cuenta?tab=soporte");
  await expect(page.getByText("No tienes tickets de soporte")).toBeVisible();
  await expect(page.getByRole("link", { name: "Crear Ticket" })).toHaveAttribute(
    "href",
    "/mi-cuenta/tickets/nuevo",
  );
  await expect(stat(page, "Tickets activos")).toHaveText("0");

  const subject = `No puedo entrar al panel ${Date.now()}`;
  const { number, url } = await openTicketFromSupportTab(page, subject);
  const conversation = page
    .getByRole("list", { name: "Conversación" })
    .or(page.getByRole("region", { name: "Conversación" }));
  await expect(conversation.first()).toContainText("Tú");
  await expect(page.getByText("Abierto", { exact: true })).toBeVisible();
  await expect(page.getByText("Alta", { exact: true })).toBeVisible();

  const reply = page.getByRole("form", { name: "Añadir un mensaje" });
  await reply.getByLabel("Mensaje").fill("Lo he vuelto a probar esta mañana y sigue igual.");
  await reply.getByRole("button", { name: "Enviar mensaje" }).click();
  await expect(toast(page, "Mensaje enviado")).toBeVisible();
  await expect(page.getByText("Lo he vuelto a probar esta mañana y sigue igual.")).toBeVisible();

  await openPage(page, "/mi-cuenta");
  const summary = page.getByRole("tabpanel", { name: "Resumen" });
  await expect(summary.getByText(number)).toBeVisible();
  await expect(summary.getByRole("link", { name: subject })).toHaveAttribute(
    "href",
    new URL(url).pathname,
  );
  await expect(stat(page, "Tickets activos")).toHaveText("1");
  await expect(stat(page, "Tickets resueltos")).toHaveText("0");

  await tabList(page).getByRole("tab", { name: "Soporte" }).click();
  await expect(page).toHaveURL(/\/mi-cuenta\?tab=soporte$/);
  const support = page.getByRole("tabpanel", { name: "Soporte" });
  await expect(support.getByText(number)).toBeVisible();
  await expect(support.getByText("Consulta técnica", { exact: false })).toBeVisible();

  await support.getByRole("link", { name: subject }).click();
  await page.getByRole("button", { name: "Marcar como resuelto" }).click();
  await expect(toast(page, "Ticket marcado como resuelto")).toBeVisible();
  await expect(page.getByRole("button", { name: "Marcar como resuelto" })).toHaveCount(0);
  await openPage(page, "/mi-cuenta");
  await expect(stat(page, "Tickets activos")).toHaveText("0");
  await expect(stat(page, "Tickets resueltos")).toHaveText("1");
});

test("Mi Cuenta's tabs are tabs: links in the URL, one selected, arrows move between them; axe on each", async ({
  page,
}) => {
  await createVerifiedCustomer(page);
  await openPage(page, "/mi-cuenta");
  for (const name of tabs) {
    await tabList(page).getByRole("tab", { name }).click();
    const tab = tabList(page).getByRole("tab", { name });
    await expect(tab).toHaveAttribute("aria-selected", "true");
    await expect(tabList(page).getByRole("tab", { selected: true })).toHaveCount(1);
    const panel = page.getByRole("tabpanel", { name });
    await expect(panel).toBeVisible();
    await expect(tab).toHaveAttribute("aria-controls", (await panel.getAttribute("id"))!);
    expect(await seriousViolations(page), name).toEqual([]);
  }
  await expect(page).toHaveURL(/\?tab=configuracion$/);
  await expect(page.getByRole("region", { name: "Configuración y privacidad" })).toBeVisible();
  await expect(page.getByText("En mayúsculas, exactamente: ELIMINAR.")).toBeAttached();

  await tabList(page).getByRole("tab", { name: "Compras" }).click();
  await expect(page.getByRole("tabpanel", { name: "Compras" })).toContainText(
    "Aún no tienes compras",
  );
  await expect(
    page.getByRole("tabpanel", { name: "Compras" }).getByRole("link", { name: "Ver precios" }),
  ).toHaveAttribute("href", "/precios");

  await tabList(page).getByRole("tab", { name: "Compras" }).focus();
  await page.keyboard.press("ArrowRight");
  await expect(tabList(page).getByRole("tab", { name: "Soporte" })).toBeFocused();
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.press("ArrowLeft");
  await expect(tabList(page).getByRole("tab", { name: "Resumen" })).toBeFocused();
});

test("Mi Cuenta's tabs work without JavaScript", async ({ page, browser }) => {
  await createVerifiedCustomer(page);
  const context = await browser.newContext({
    javaScriptEnabled: false,
    storageState: await page.context().storageState(),
  });
  const plain = await context.newPage();
  await plain.goto("/mi-cuenta");
  await expect(tabList(plain).getByRole("tab", { name: "Resumen" })).toHaveAttribute(
    "aria-selected",
    "true",
  );
  for (const [name, query] of [
    ["Soporte", "soporte"],
    ["Compras", "compras"],
    ["Configuración", "configuracion"],
    ["Resumen", null],
  ] as const) {
    await tabList(plain).getByRole("tab", { name }).click();
    await expect(plain).toHaveURL(
      query ? new RegExp(`/mi-cuenta\\?tab=${query}$`) : /\/mi-cuenta$/,
    );
    await expect(tabList(plain).getByRole("tab", { name })).toHaveAttribute(
      "aria-selected",
      "true",
    );
    await expect(plain.getByRole("tabpanel", { name })).toBeVisible();
  }
  await tabList(plain).getByRole("tab", { name: "Soporte" }).click();
  await plain.getByRole("link", { name: "Nuevo Ticket" }).click();
  await expect(plain).toHaveURL(/\/mi-cuenta\/tickets\/nuevo$/);
  // Sent without the browser's check: the server refuses it, with its messages in the page.
  await plain.getByRole("button", { name: "Crear ticket" }).click();
  await expect(plain.getByRole("alert")).toContainText("Asunto demasiado corto");
  await context.close();
});

test("without JavaScript a reply lands on the new message, with its confirmation", async ({
  page,
  browser,
}) => {
  await createVerifiedCustomer(page);
  const { url } = await openTicketFromSupportTab(page, `Sin JavaScript ${Date.now()}`);
  const context = await browser.newContext({
    javaScriptEnabled: false,
    storageState: await page.context().storageState(),
    viewport: { width: 390, height: 700 },
  });
  const plain = await context.newPage();
  await plain.goto(url);
  const text = "Os escribo sin JavaScript: ¿llegó bien mi mensaje?";
  const reply = plain.getByRole("form", { name: "Añadir un mensaje" });
  await reply.getByLabel("Mensaje").fill(text);
  await reply.getByRole("button", { name: "Enviar" }).click();
  await expect(plain).toHaveURL(/\/mi-cuenta\/tickets\/[0-9a-f-]{36}#mensaje-[0-9a-f-]{36}$/);
  const anchor = new URL(plain.url()).hash.slice(1);
  const message = plain.locator(`li[id="${anchor}"]`);
  await expect(message).toContainText(text);
  await expect(message).toBeInViewport();
  await expect(plain.getByRole("status").filter({ hasText: "Mensaje enviado" })).toBeVisible();
  await context.close();
});
