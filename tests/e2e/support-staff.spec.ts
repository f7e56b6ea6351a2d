import type { Page } from "@playwright/test";
import { createVerifiedCustomer, signedInAdminPage, toast } from "./accounts-helpers";
import { seriousViolationsWithoutToasts as seriousViolations } from "./axe-helpers";
import { expect, openPage, test } from "./fixtures";
import { description, formBox, timesShown } from "./form-errors-helpers";
import { linksOfLatestMail } from "./mailbox";

/**
 * Staff answer a customer's ticket: they find it in the admin panel's Tickets tab by status and
 * by search, reply, and resolve it; the customer sees the reply, the mail and the stats change.
 */

const stat = (page: Page, label: string) =>
  page.getByRole("term").filter({ hasText: label }).locator("xpath=following-sibling::dd[1]");

/** A customer's ticket, opened through the customer's own form; answers its number and path. */
async function customerOpensTicket(page: Page, subject: string) {
  await openPage(page, "/mi-cuenta/tickets/nuevo");
  const form = page.getByRole("form", { name: "Nuevo ticket" });
  await form.getByLabel("Asunto").fill(subject);
  await form.getByLabel("Categoría").selectOption({ label: "Facturación" });
  await form.getByLabel("Mensaje").fill("La factura de este mes me ha llegado dos veces.");
  await form.getByRole("button", { name: "Crear ticket" }).click();
  await expect(page).toHaveURL(/\/mi-cuenta\/tickets\/[0-9a-f-]{36}$/);
  const number = (await page.getByText(/^TK-\d{4}-\d{6}$/).textContent())!;
  return { number, path: new URL(page.url()).pathname };
}

const ticketRows = (page: Page) => page.getByRole("table", { name: "Tickets" }).locator("tbody tr");

const statusLabels = {
  all: "Todos",
  open: "Abierto",
  in_progress: "En curso",
  resolved: "Resuelto",
  closed: "Cerrado",
} as const;

/** Sends the Tickets tab's search form and waits for the address to carry it. */
async function searchTickets(
  page: Page,
  { q, estado }: { q?: string; estado?: keyof typeof statusLabels },
) {
  const search = page.getByRole("search");
  if (q !== undefined) await search.getByLabel("Buscar").fill(q);
  if (estado) await search.getByLabel("Estado").selectOption({ label: statusLabels[estado] });
  await search.getByRole("button", { name: "Buscar" }).click();
  await page.waitForURL(
    (url) =>
      (q === undefined || url.searchParams.get("q") === q) &&
      (!estado || url.searchParams.get("estado") === estado),
  );
  await expect(search.getByLabel("Buscar")).toHaveValue(url(page).searchParams.get("q") ?? "");
}

const url = (page: Page) => new URL(page.url());

test("staff find a customer's ticket by status and by search, reply and resolve it; the customer sees it", async ({
  page,
  browser,
}) => {
  const customer = await createVerifiedCustomer(page);
  const subject = `Factura duplicada ${Date.now()}`;
  const { number, path } = await customerOpensTicket(page, subject);

  const staff = await signedInAdminPage(browser);
  await expect(staff.getByText("Tickets abiertos")).toBeVisible();
  const latest = staff.getByRole("table", { name: "Últimos tickets" });
  await expect(latest.getByRole("link", { name: number })).toBeVisible();

  await staff
    .getByRole("navigation", { name: "Secciones del panel" })
    .getByRole("link", { name: "Tickets" })
    .click();
  await expect(staff).toHaveURL(/\/admin\?tab=tickets$/);

  // By status: open tickets list it, resolved ones do not.
  await searchTickets(staff, { estado: "open" });
  await expect(ticketRows(staff).filter({ hasText: number })).toHaveCount(1);
  await expect(ticketRows(staff).filter({ hasText: "En curso" })).toHaveCount(0);
  await searchTickets(staff, { estado: "resolved" });
  await expect(ticketRows(staff).filter({ hasText: number })).toHaveCount(0);

  // By search: its subject, its number, its customer's address.
  await searchTickets(staff, { q: subject, estado: "all" });
  await expect(ticketRows(staff)).toHaveCount(1);
  await expect(ticketRows(staff).first()).toContainText(customer.email);
  await searchTickets(staff, { q: customer.email.toUpperCase() });
  await expect(ticketRows(staff)).toHaveCount(1);
  await searchTickets(staff, { q: number });
  const row = ticketRows(staff).filter({ hasText: number });
  await expect(row).toContainText("Abierto");
  await expect(row).toContainText("Facturación");
  expect(await seriousViolations(staff)).toEqual([]);

  // Another tab starts with an empty search.
  await staff.getByRole("link", { name: "Pagos" }).click();
  await expect(staff).toHaveURL(/\/admin\?tab=pagos$/);
  await expect(staff.getByLabel("Buscar")).toHaveValue("");
  await staff.goBack();
  await expect(staff.getByLabel("Buscar")).toHaveValue(number);

  await row.getByRole("link", { name: number }).click();
  await expect(staff).toHaveURL(/\/admin\/tickets\/[0-9a-f-]{36}$/);
  const ticketId = staff.url().split("/").pop()!;
  expect(path).toBe(`/mi-cuenta/tickets/${ticketId}`);
  await expect(staff.getByRole("heading", { level: 1 })).toHaveText(subject);
  const conversation = staff.getByRole("list", { name: "Conversación" });
  await expect(conversation.getByRole("listitem")).toHaveCount(1);
  await expect(conversation).toContainText("Cliente");
  await expect(conversation).toContainText("La factura de este mes me ha llegado dos veces.");
  await expect(staff.getByText(customer.email)).toBeVisible();
  await expect(staff.getByText("Sin responder")).toBeVisible();
  expect(await seriousViolations(staff)).toEqual([]);

  // The server's rules are checked before sending.
  const reply = staff.getByRole("form", { name: "Responder al cliente" });
  await reply.getByLabel("Respuesta").fill("Vale");
  await reply.getByRole("button", { name: "Enviar respuesta" }).click();
  await expect(reply.getByLabel("Respuesta")).toHaveAttribute("aria-invalid", "true");

  const answer = "Hola, hemos anulado la factura duplicada. Disculpa las molestias.";
  await reply.getByLabel("Respuesta").fill(answer);
  await reply.getByRole("button", { name: "Enviar respuesta" }).click();
  await expect(toast(staff, "Respuesta enviada")).toBeVisible();
  await expect(conversation.getByRole("listitem")).toHaveCount(2);
  await expect(conversation.getByRole("listitem").last()).toContainText("Equipo de soporte");
  await expect(conversation.getByRole("listitem").last()).toContainText(answer);
  await expect(reply.getByLabel("Respuesta")).toHaveValue("");
  await expect(staff.getByText("Sin responder")).toHaveCount(0);
  const change = staff.getByRole("form", { name: "Estado y prioridad" });
  await expect(change.getByLabel("Estado")).toHaveValue("in_progress");

  await change.getByLabel("Estado").selectOption({ label: "Resuelto" });
  await change.getByLabel("Prioridad").selectOption({ label: "Alta" });
  await change.getByRole("button", { name: "Guardar cambios" }).click();
  await expect(toast(staff, "Ticket actualizado")).toBeVisible();
  await expect(change.getByLabel("Estado")).toHaveValue("resolved");
  await expect(change.getByLabel("Prioridad")).toHaveValue("high");

  await staff.getByRole("link", { name: "Volver a Tickets" }).click();
  await expect(staff).toHaveURL(/\/admin\?tab=tickets$/);
  await searchTickets(staff, { q: number, estado: "resolved" });
  await expect(ticketRows(staff).filter({ hasText: number })).toContainText("Resuelto");
  await staff.context().close();

  // The customer: the reply on the ticket page, the mails, and the stats.
  await openPage(page, path);
  await expect(page.getByText(answer)).toBeVisible();
  await expect(page.getByText("Resuelto", { exact: true }).first()).toBeVisible();
  const replyLinks = await linksOfLatestMail(page, customer.email, /^Respuesta a tu ticket TK-/);
  expect(replyLinks.some((href) => new URL(href).pathname === path)).toBe(true);
  await expect(page.getByText(answer)).toBeVisible();
  const statusLinks = await linksOfLatestMail(page, customer.email, /^Tu ticket TK-.* resuelto/);
  expect(statusLinks.some((href) => new URL(href).pathname === path)).toBe(true);
  await openPage(page, "/mi-cuenta");
  await expect(stat(page, "Tickets activos")).toHaveText("0");
  await expect(stat(page, "Tickets resueltos")).toHaveText("1");
});

test("the Tickets tab filters, orders overdue first and exports without JavaScript", async ({
  page,
  browser,
}) => {
  await createVerifiedCustomer(page);
  const subject = `Sin JavaScript ${Date.now()}`;
  const { number } = await customerOpensTicket(page, subject);

  const staff = await signedInAdminPage(browser);
  const plain = await browser.newContext({
    javaScriptEnabled: false,
    storageState: await staff.context().storageState(),
  });
  const admin = await plain.newPage();
  await admin.goto("/admin?tab=tickets");
  await admin.getByRole("search").getByLabel("Buscar").fill(subject);
  await admin.getByRole("search").getByLabel("Estado").selectOption({ label: "Abierto" });
  await admin.getByRole("search").getByLabel("Orden").selectOption({ label: "Vencidos primero" });
  await admin.getByRole("search").getByRole("button", { name: "Buscar" }).click();
  await expect(admin).toHaveURL(/tab=tickets.*estado=open.*orden=vencidos/);
  await expect(ticketRows(admin)).toHaveCount(1);
  await expect(ticketRows(admin).first()).toContainText(number);
  // Just opened: due in 24 hours, not overdue.
  await expect(ticketRows(admin).first()).not.toContainText("Vencido");

  const exported = await admin
    .context()
    .request.get(
      (await admin.getByRole("link", { name: "Exportar CSV" }).getAttribute("href")) ?? "",
    );
  expect(exported.headers()["content-type"]).toBe("text/csv; charset=utf-8");
  const lines = (await exported.text())
    .replace(/^\uFEFF/, "")
    .trimEnd()
    .split("\r\n");
  expect(lines[0]).toBe(
    "Número;Asunto;Categoría;Prioridad;Estado;Cliente;Creado;Responder antes de;Vencido",
  );
  expect(lines).toHaveLength(2);
  expect(lines[1]).toMatch(new RegExp(`^${number};${subject};Facturación;Media;Abierto;`));

  // A reply without JavaScript: the server's refusal in the page, then the reply itself.
  await ticketRows(admin).getByRole("link", { name: number }).click();
  const reply = admin.getByRole("form", { name: "Responder al cliente" });
  await reply.getByRole("button", { name: "Enviar respuesta" }).click();
  // One error about one field: under it only, also without JavaScript (decision 055).
  expect(await description(reply.getByLabel("Respuesta"))).toContain("Mensaje demasiado corto");
  await expect(formBox(reply)).toHaveCount(0);
  expect(await timesShown(admin, "Mensaje demasiado corto")).toBe(1);
  await reply.getByLabel("Respuesta").fill("Respondido desde un navegador sin JavaScript.");
  await reply.getByRole("button", { name: "Enviar respuesta" }).click();
  await expect(admin.getByRole("list", { name: "Conversación" })).toContainText(
    "Respondido desde un navegador sin JavaScript.",
  );
  await plain.close();
  await staff.context().close();
});
