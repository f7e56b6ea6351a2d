import { readFileSync } from "node:fs";
import path from "node:path";
import type { Browser, Page } from "@playwright/test";
import { formatPrice } from "../../app/features/catalogue/services";
import {
  afterStaffPassword,
  createVerifiedCustomer,
  signedInAdminPage,
  toast,
  uniqueEmail,
} from "./accounts-helpers";
import { expect, openPage, rememberCookieChoice, test } from "./fixtures";
import { mailboxEntries } from "./mailbox";
import { payInDialog } from "./purchase-helpers";

/**
 * Issue 26, items 2 and 3, as staff use them: an administrator gives roles in Usuarios; a support
 * member sees only the support desk and is refused the rest (403); each kind of staff action,
 * done in the browser by support and finance, appears on Auditoría, which filters and exports
 * them as a CSV. Screenshots of the page at a phone's and a desktop's width go to
 * AUDIT_SCREENSHOTS when set.
 */
test.describe.configure({ mode: "serial" });

const PASSWORD = "contraseña-segura-1";
const sections = (page: Page) => page.getByRole("navigation", { name: "Secciones del panel" });

/** A browser of its own with a new verified account in it (its session a customer's). */
async function newAccount(browser: Browser) {
  const context = await browser.newContext();
  await rememberCookieChoice(context, "rejected");
  const page = await context.newPage();
  const account = await createVerifiedCustomer(page, PASSWORD);
  return { page, ...account };
}

/** Usuarios: 'Cambiar rol' of `email` to the role labelled `label`, confirmed in its dialog. */
async function giveRole(admin: Page, email: string, label: string) {
  await openPage(admin, `/admin?tab=usuarios&q=${encodeURIComponent(email)}`);
  const row = admin.getByRole("table", { name: "Usuarios" }).locator("tbody tr");
  await expect(row).toHaveCount(1);
  await row.locator("summary", { hasText: "Cambiar rol" }).click();
  await row.getByLabel("Nuevo rol").selectOption({ label });
  await row.getByRole("button", { name: "Cambiar rol", exact: true }).click();
  const dialog = admin.getByRole("dialog");
  await expect(dialog).toContainText(email);
  await dialog.getByRole("button", { name: `Hacer ${label}` }).click();
  await expect(row.getByRole("cell", { name: label, exact: true })).toBeVisible();
  await expect(toast(admin, "Rol actualizado")).toBeVisible();
}

/** The staff door, in a fresh browser: first a wrong password, then the right one. */
async function staffSignIn(browser: Browser, email: string) {
  const context = await browser.newContext();
  await rememberCookieChoice(context, "rejected");
  const page = await context.newPage();
  await openPage(page, "/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Contraseña").fill("no-es-la-buena");
  await page.getByRole("button", { name: "Iniciar Sesión" }).click();
  await expect(page.getByRole("alert")).toContainText("Usuario o contraseña incorrectos");
  await page.getByLabel("Contraseña").fill(PASSWORD);
  await page.getByRole("button", { name: "Iniciar Sesión" }).click();
  // Their first staff sign-in: the second factor is enrolled on the way in (decision 044).
  await afterStaffPassword(page, email, PASSWORD);
  await expect(page).toHaveURL(/\/admin(\?|$)/);
  await expect(page.locator("html[data-hydrated]")).toBeAttached();
  return page;
}

let admin: Page;
let supportEmail: string;
let financeEmail: string;
let support: Page;
let finance: Page;

test.beforeAll(async ({ browser }) => {
  admin = await signedInAdminPage(browser);
});

test.afterAll(async () => {
  for (const page of [admin, support, finance]) await page?.context().close();
});

test("roles from Usuarios: support sees the support desk only, and gets 403 for the rest", async ({
  browser,
}) => {
  const supportAccount = await newAccount(browser);
  const financeAccount = await newAccount(browser);
  supportEmail = supportAccount.email;
  financeEmail = financeAccount.email;
  await giveRole(admin, supportEmail, "Soporte");
  await giveRole(admin, financeEmail, "Finanzas");
  await supportAccount.page.context().close();
  await financeAccount.page.context().close();

  support = await staffSignIn(browser, supportEmail);
  // No dashboard for support (it shows revenue): its first section instead.
  await expect(support).toHaveURL(/\/admin\?tab=consultas$/);
  await expect(sections(support).getByRole("link")).toHaveText([
    "Consultas",
    "Tickets",
    "Clientes",
  ]);
  for (const address of [
    "/admin?tab=pagos",
    "/admin?tab=usuarios",
    "/admin?tab=analitica",
    "/admin/verifactu",
    "/admin/auditoria",
  ]) {
    const response = await support.goto(address);
    expect(response?.status(), address).toBe(403);
    await expect(support.getByRole("heading", { level: 1 })).toHaveText("Sin permiso");
    await expect(sections(support).getByRole("link")).toHaveCount(3);
  }
  const csv = await support.request.get("/admin/exportar?tab=pagos");
  expect(csv.status()).toBe(403);

  finance = await staffSignIn(browser, financeEmail);
  await expect(finance).toHaveURL(/\/admin$/);
  await expect(sections(finance).getByRole("link")).toHaveText([
    "Dashboard",
    "Pagos",
    "Clientes",
    "Analítica",
    "Verifactu",
  ]);
  await expect(sections(admin).getByRole("link", { name: "Auditoría" })).toBeVisible();
  // Issue 39, item 5: each was told by mail, and the public site shows staff the way back in.
  await openPage(admin, "/dev/correo");
  await expect(
    mailboxEntries(admin, financeEmail, "Ya formas parte del equipo de Vértice Digital"),
  ).toBeVisible();
  await openPage(finance, "/precios");
  await shoot(finance, "precios-equipo");
  const header = finance.getByRole("navigation", { name: "Principal" });
  await header.getByRole("link", { name: "Panel" }).click();
  await expect(finance).toHaveURL(/\/admin$/);
});

test("each kind of staff action is on Auditoría, which filters and exports it", async ({
  browser,
}) => {
  // A customer's enquiry, purchase and ticket for the staff to act on.
  const customer = await newAccount(browser);
  const shopper = customer.page;
  const enquirer = `Consulta auditada ${Date.now()}`;
  await openPage(shopper, "/contacto");
  const contact = shopper.getByRole("form", { name: "Formulario de contacto" });
  await contact.getByLabel("Nombre completo").fill(enquirer);
  await contact.getByLabel("Email").fill(uniqueEmail("consulta"));
  await contact.getByLabel("Servicio de interés").selectOption({ label: "Ciberseguridad" });
  await contact.getByLabel("Mensaje").fill("Quiero saber quién lee mi consulta.");
  await contact.getByRole("button", { name: "Enviar consulta" }).click();
  await expect(toast(shopper, "¡Mensaje enviado!")).toBeVisible();
  await openPage(shopper, "/ciberseguridad");
  await shopper.getByRole("button", { name: "Comprar ahora" }).click();
  await payInDialog(shopper);
  await shopper.getByRole("button", { name: "Pagar", exact: true }).click();
  await expect(shopper).toHaveURL(/\/pago-exitoso/);
  await openPage(shopper, "/mi-cuenta?tab=compras");
  const invoiceLink = shopper.getByRole("link", { name: /^Factura F\d{4}-\d{6}$/ });
  const invoiceNumber = (await invoiceLink.textContent())!.replace("Factura ", "").trim();
  await openPage(shopper, "/mi-cuenta/tickets/nuevo");
  const newTicket = shopper.getByRole("form", { name: "Nuevo ticket" });
  const subject = `Ticket auditado ${Date.now()}`;
  await newTicket.getByLabel("Asunto").fill(subject);
  await newTicket.getByLabel("Categoría").selectOption({ label: "Facturación" });
  await newTicket.getByLabel("Mensaje").fill("¿Quién ha visto mi ticket?");
  await newTicket.getByRole("button", { name: "Crear ticket" }).click();
  await expect(shopper).toHaveURL(/\/mi-cuenta\/tickets\/[0-9a-f-]{36}$/);
  const ticketPath = new URL(shopper.url()).pathname.replace("/mi-cuenta/", "/admin/");
  await customer.page.context().close();

  // Support: the enquiry handled, the ticket answered, resolved and made urgent, a CSV.
  await openPage(support, `/admin?tab=consultas&q=${encodeURIComponent(enquirer)}`);
  await support.locator("tbody tr").getByRole("link", { name: "Ver" }).click();
  const dialog = support.getByRole("dialog", { name: enquirer });
  await dialog.getByRole("button", { name: "Marcar como atendida" }).click();
  await expect(toast(support, "Consulta marcada como atendida")).toBeVisible();
  await openPage(support, ticketPath);
  const reply = support.getByRole("form", { name: "Responder al cliente" });
  await reply.getByLabel("Respuesta").fill("Lo hemos visto nosotros, el equipo de soporte.");
  await reply.getByRole("button", { name: "Enviar respuesta" }).click();
  await expect(toast(support, "Respuesta enviada")).toBeVisible();
  const change = support.getByRole("form", { name: "Estado y prioridad" });
  await change.getByLabel("Estado").selectOption({ label: "Resuelto" });
  await change.getByLabel("Prioridad").selectOption({ label: "Urgente" });
  await change.getByRole("button", { name: "Guardar cambios" }).click();
  await expect(toast(support, "Ticket actualizado")).toBeVisible();
  await openPage(support, `/admin?tab=tickets&q=${encodeURIComponent(subject)}`);
  const ticketsCsv = support.waitForEvent("download");
  await support.getByRole("link", { name: "Exportar CSV" }).click();
  await ticketsCsv;

  // Finance: the delivery and a refund, the invoice book, no anulación, and the XML.
  await openPage(finance, `/admin?tab=pagos&q=${encodeURIComponent(customer.email)}`);
  await finance.getByRole("link", { name: /^Ver el pago de/ }).click();
  await expect(finance.getByRole("heading", { level: 1 })).toHaveText("Pago de Ciberseguridad");
  const delivery = finance.getByRole("form", { name: "Entrega" });
  await delivery.getByLabel("Estado de la entrega").selectOption({ label: "En curso" });
  await delivery.getByRole("button", { name: "Guardar entrega" }).click();
  await expect(toast(finance, "Entrega actualizada")).toBeVisible();
  const refund = finance.getByRole("form", { name: "Reembolso" });
  const price = formatPrice(44_900, { cents: "always" });
  await refund.getByLabel("Motivo del reembolso").fill("Prueba de auditoría");
  await refund.getByLabel(/^Confirmo que devolvemos/).check();
  await refund.getByRole("button", { name: `Reembolsar ${price}` }).click();
  await expect(finance.getByText("Motivo: Prueba de auditoría", { exact: true })).toBeVisible();
  await openPage(finance, "/admin?tab=pagos");
  const book = finance.waitForEvent("download");
  await finance.getByRole("button", { name: "Libro de facturas (XLSX)" }).click();
  expect((await book).suggestedFilename()).toMatch(/\.xlsx$/);
  await openPage(finance, `/admin/verifactu?factura=${invoiceNumber}&tipo=alta`);
  // A sale that was charged (and here refunded, with its rectificativa) is never annulled: the
  // page does not offer it (decision 064).
  const record = finance.locator("tbody tr[data-record-id]").first();
  await expect(record).toContainText(invoiceNumber);
  await expect(record.getByText("Anular registro")).toHaveCount(0);
  const today = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Madrid" }).format(new Date());
  const period = finance.getByRole("form", { name: "Exportar registros (XML)" });
  await period.getByLabel("Desde").fill(today);
  await period.getByLabel("Hasta").fill(today);
  const xml = finance.waitForEvent("download");
  await period.getByRole("button", { name: "Descargar XML" }).click();
  await xml;

  // Auditoría: who did what, filtered.
  const rowsOf = async (query: string) => {
    await openPage(admin, `/admin/auditoria?${query}`);
    return admin
      .getByRole("region", { name: "Registro de auditoría" })
      .locator("tbody tr[data-audit-action]");
  };
  const actionsOf = async (query: string) =>
    (await rowsOf(query)).evaluateAll((rows) =>
      rows.map((row) => row.getAttribute("data-audit-action")),
    );
  await expect
    .poll(() => actionsOf(`quien=${encodeURIComponent(supportEmail)}&por=100`))
    .toEqual([
      "export.csv",
      "ticket.priority",
      "ticket.status",
      "ticket.reply",
      "enquiry.handled",
      // Signed in with the password alone, the gate sent them to enrol a second factor first.
      "factor.enrolled",
      "staff.sign_in",
      "staff.sign_in_failed",
    ]);
  expect(await actionsOf(`quien=${encodeURIComponent(financeEmail)}&por=100`)).toEqual([
    "export.verifactu",
    "export.invoice_book",
    "payment.refund",
    "payment.delivery",
    "factor.enrolled",
    "staff.sign_in",
    "staff.sign_in_failed",
  ]);
  // The role changes are the admin's, naming each account.
  const roleChanges = await rowsOf("accion=role.change&por=100");
  await expect(roleChanges.filter({ hasText: supportEmail })).toContainText("Cliente → Soporte");
  await expect(roleChanges.filter({ hasText: financeEmail })).toContainText(
    "admin@verticedigital.es",
  );

  // The filter form, as a person uses it: who and what.
  await openPage(admin, "/admin/auditoria");
  const filters = admin.getByRole("search", { name: "Filtrar el registro" });
  await filters.getByLabel("Quién (email)").fill(financeEmail);
  await filters.getByLabel("Acción").selectOption({ label: "Reembolso" });
  await filters.getByRole("button", { name: "Filtrar" }).click();
  await expect(admin).toHaveURL(/accion=payment\.refund/);
  const refunds = admin.locator("tbody tr[data-audit-action]");
  await expect(refunds).toHaveCount(1);
  await expect(refunds).toContainText("Finanzas");
  await expect(refunds).toContainText("Motivo: Prueba de auditoría");

  // Its CSV: the filtered rows, semicolon-separated.
  await filters.getByLabel("Acción").selectOption({ label: "Todas" });
  await filters.getByRole("button", { name: "Filtrar" }).click();
  await expect(admin).toHaveURL(/accion=(&|$)/);
  // Finance's seven rows: their own listed above (no anulación since decision 064).
  await expect(admin.locator("tbody tr[data-audit-action]")).toHaveCount(7);
  await shoot(admin, "auditoria");
  const download = admin.waitForEvent("download");
  await admin.getByRole("link", { name: "Exportar CSV" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^auditoria-\d{4}-\d{2}-\d{2}\.csv$/);
  const text = readFileSync((await file.path())!, "utf8").replace(/^\uFEFF/, "");
  const lines = text.trimEnd().split("\r\n");
  expect(lines[0]).toBe("Fecha;Quién;Rol;Acción;Código;Objeto;Detalles;Dirección IP;Navegador");
  expect(lines.slice(1)).toHaveLength(7);
  for (const line of lines.slice(1)) expect(line.split(";")[1]).toBe(financeEmail);
  expect(lines.some((line) => line.includes(";Reembolso;payment.refund;"))).toBe(true);
  // The export is itself on the log, with its filter.
  await expect(
    (await rowsOf("accion=export.audit&quien=admin%40verticedigital.es")).filter({
      hasText: `Quién: ${financeEmail}`,
    }),
  ).not.toHaveCount(0);
});

/** The page at a phone's and a desktop's width, into AUDIT_SCREENSHOTS when set. */
async function shoot(page: Page, name: string) {
  const folder = process.env.AUDIT_SCREENSHOTS;
  if (!folder) return;
  const size = page.viewportSize();
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.screenshot({ path: path.join(folder, `${name}-${width}.png`), fullPage: true });
  }
  if (size) await page.setViewportSize(size);
}
