import { execFile, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { Locator, Page } from "@playwright/test";
import { formatPrice } from "../../app/features/catalogue/services";
import { formatCount } from "../../app/ui/numbers";
import type { AdminFigures } from "../support/admin-figures";
import { createVerifiedCustomer, signInAsStaff, toast } from "./accounts-helpers";
import { expect, openPage, rememberCookieChoice, test } from "./fixtures";
import { description, timesShown } from "./form-errors-helpers";
import { payInDialog } from "./purchase-helpers";

/**
 * Issue #14's panel as an administrator uses it, on a server of its own: the dashboard shows
 * what the seeded data add up to, the payments list searches, filters, pages (the back button
 * too) and exports exactly its filtered rows, an enquiry's dialog opens, answers by mail and is
 * marked handled (also without JavaScript), and a staff role is given, changed and taken. Then
 * issue #16's staff refund (refunded, corrective invoice, revenue reduced on the dashboard) and
 * the withdrawal period's end, which needs the server stopped while a purchase is aged.
 *
 * The shared e2e server's figures move with every parallel test, so this file seeds a data
 * directory (`npm run db:seed`, demo size, on the embedded database), counts what the panel
 * should show with plain SQL (tests/support/admin-figures.ts) before any server holds it, and
 * then starts the production build on it.
 */
test.describe.configure({ mode: "serial" });

const root = fileURLToPath(new URL("../..", import.meta.url));
const run = promisify(execFile);
const ADMIN = { email: "admin.panel@verticedigital.es", password: "admin-panel-password-e2e" };

let dataDir: string;
let baseURL: string;
let port: number;
let adminState: string;
let server: ChildProcess | undefined;
let figures: AdminFigures;

// Known once beforeAll has started the server and signed in.
test.use({
  // eslint-disable-next-line no-empty-pattern
  baseURL: async ({}, use) => use(baseURL),
  // eslint-disable-next-line no-empty-pattern
  storageState: async ({}, use) => use(adminState),
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** A TypeScript script of the repository, run by Node with tsx, in `env`; answers its stdout. */
async function script(file: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  const { stdout } = await run(process.execPath, ["--import", "tsx", file, ...args], {
    cwd: root,
    env,
  });
  return stdout;
}

/** The production build on `dataDir`, with playwright.config.ts's webServer environment. */
async function startServer() {
  let stderr = "";
  server = spawn(process.execPath, ["build/server/index.js"], {
    cwd: root,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      DATABASE_URL: "",
      PORT: String(port),
      HOST: "127.0.0.1",
      SITE_URL: baseURL,
      CONTACT_RATE_LIMIT: "1000",
      AUTH_ADDRESS_RATE_LIMIT: "1000",
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
  server.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const started = server;
  await expect
    .poll(
      async () => {
        if (started.exitCode !== null) throw new Error(`server exited: ${stderr}`);
        return fetch(`${baseURL}/readyz`).then(
          (response) => response.status,
          () => 0,
        );
      },
      { timeout: 60_000, message: "the admin panel's server answers /readyz" },
    )
    .toBe(200);
}

/** Stops the server (SIGTERM, as a supervisor does) and waits for it to exit. */
async function stopServer() {
  const running = server;
  if (!running || running.exitCode !== null) return;
  const exited = new Promise((resolve) => running.once("exit", resolve));
  running.kill("SIGTERM");
  await exited;
}

test.beforeAll(async ({ browser }, testInfo) => {
  testInfo.setTimeout(240_000);
  dataDir = mkdtempSync(path.join(tmpdir(), "e2e-admin-panel-"));
  const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "" };
  await script("scripts/db-seed.ts", [], env);
  figures = JSON.parse(await script("tests/support/admin-figures.ts", [dataDir], env));

  port = await freePort();
  baseURL = `http://localhost:${port}`;
  await startServer();

  // Signed in once as a browser does; each test's page starts from this state.
  adminState = path.join(dataDir, "admin-state.json");
  const context = await browser.newContext({ baseURL });
  await rememberCookieChoice(context, "rejected");
  const page = await context.newPage();
  await signInAsStaff(page, ADMIN.email, ADMIN.password);
  await expect(page).toHaveURL(/\/admin$/);
  await context.storageState({ path: adminState });
  await context.close();
});

test.afterAll(async () => {
  await stopServer();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** The figure under a dashboard card's label. */
const card = (page: Page, label: string) =>
  page
    .locator("dt")
    .filter({ hasText: new RegExp(`^${label}$`) })
    .locator("xpath=following-sibling::dd[1]");

const pager = (page: Page) => page.getByRole("navigation", { name: "Paginación" });

/** A query parameter of the page's address. */
const param = (page: Page, name: string) => new URL(page.url()).searchParams.get(name);

/**
 * The panel's state in the address, defaults filled in as the server reads them: a link leaves
 * them out, the search form (GET) sends every field.
 */
function viewOf(page: Page) {
  const query = new URL(page.url()).searchParams;
  return {
    path: new URL(page.url()).pathname,
    tab: query.get("tab"),
    q: query.get("q") ?? "",
    estado: query.get("estado") ?? "all",
    pagina: query.get("pagina") ?? "1",
    consulta: query.get("consulta"),
  };
}

/** Sends the list's search form with `q` and the Estado option labelled `estado`. */
async function searchList(page: Page, { q, estado }: { q: string; estado?: string }) {
  const form = page.getByRole("search");
  await form.getByLabel("Buscar").fill(q);
  if (estado) await form.getByLabel("Estado").selectOption({ label: estado });
  await form.getByRole("button", { name: "Buscar" }).click();
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The texts of one column of a list's rows. */
const column = (rows: Locator, index: number) => rows.locator(`td:nth-child(${index})`);

/** A semicolon-separated CSV (quotes doubled inside quoted cells), CRLF line ends. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const character = text[i]!;
    if (quoted) {
      if (character === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (character === '"') quoted = false;
      else cell += character;
    } else if (character === '"') quoted = true;
    else if (character === ";") {
      row.push(cell);
      cell = "";
    } else if (character === "\r" && text[i + 1] === "\n") {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
      i++;
    } else cell += character;
  }
  expect(row.length === 0 && cell === "", "the file ends with a line end").toBe(true);
  return rows;
}

test("the dashboard's figures are the seeded data's", async ({ page }) => {
  await openPage(page, "/admin");
  await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();

  const revenue = formatPrice(figures.revenueCents, { cents: "always" });
  expect(revenue).toMatch(/^\d{1,3}(\.\d{3})*,\d{2}€$/);
  await expect(card(page, "Ingresos")).toHaveText(revenue);
  await expect(card(page, "Pedidos")).toHaveText(formatCount(figures.orders));
  // The seed's accounts and the administrator the server ensured at start.
  await expect(card(page, "Usuarios")).toHaveText(formatCount(figures.users + 1));
  await expect(card(page, "Tickets abiertos")).toHaveText(formatCount(figures.openTickets));
  expect(figures.averageOrderCents).toBe(Math.round(figures.revenueCents / figures.orders));
  await expect(card(page, "Ticket medio")).toHaveText(
    formatPrice(figures.averageOrderCents!, { cents: "always" }),
  );

  // The chart's image is named by its totals; its table fallback holds the 90 days.
  const last90 = figures.last90Days;
  await expect(page.getByRole("img", { name: /^Gráfico de ingresos y pedidos/ })).toHaveAttribute(
    "aria-label",
    new RegExp(
      `: ${escapeRegExp(formatPrice(last90.revenueCents, { cents: "always" }))} en ${escapeRegExp(formatCount(last90.orders))} pedidos`,
    ),
  );
  await page.getByText("Ver los datos en una tabla").click();
  const days = page.getByRole("table", { name: "Ingresos y pedidos por día" }).locator("tbody tr");
  await expect(days).toHaveCount(90);
  await expect(days.first().locator("time")).toHaveAttribute("datetime", last90.today);
});

test("payments: filter, search, pages with the back button, and the CSV of the filtered rows", async ({
  page,
}) => {
  const counts = figures.payments;
  await openPage(page, "/admin");
  await page
    .getByRole("navigation", { name: "Secciones del panel" })
    .getByRole("link", { name: "Pagos" })
    .click();
  await expect(page).toHaveURL(/\/admin\?tab=pagos$/);
  const rows = page.getByRole("table", { name: "Pagos" }).locator("tbody tr");
  await expect(pager(page)).toContainText(`Mostrando 1–25 de ${formatCount(counts.all)}`);
  await expect(rows).toHaveCount(25);

  // Estado 'Reembolsados': only refunded payments, all of them.
  await searchList(page, { q: "", estado: "Reembolsados" });
  await expect.poll(() => viewOf(page)).toMatchObject({ tab: "pagos", estado: "refunded", q: "" });
  await expect(pager(page)).toContainText(`de ${formatCount(counts.refunded)}`);
  expect(counts.refunded).toBeLessThanOrEqual(25);
  await expect(column(rows, 5)).toHaveText(Array(counts.refunded).fill("Reembolsado"));

  // A search by an address: its payments, whatever their state.
  const { email, payments: paymentsOfEmail } = figures.searchEmail;
  await searchList(page, { q: email, estado: "Todos" });
  await expect.poll(() => viewOf(page)).toMatchObject({ tab: "pagos", estado: "all", q: email });
  await expect(pager(page)).toContainText(
    `Mostrando 1–${paymentsOfEmail} de ${formatCount(paymentsOfEmail)}`,
  );
  await expect(column(rows, 2)).toHaveText(Array(paymentsOfEmail).fill(email));

  // Paging through every payment: Siguiente, a page's number, and the browser's Back button.
  await searchList(page, { q: "" });
  await expect.poll(() => viewOf(page)).toMatchObject({ estado: "all", q: "", pagina: "1" });
  await expect(pager(page)).toContainText(`Mostrando 1–25 de ${formatCount(counts.all)}`);
  const firstOfPage1 = await rows.first().textContent();
  await pager(page).getByRole("link", { name: "Siguiente" }).click();
  await expect.poll(() => param(page, "pagina")).toBe("2");
  await expect(pager(page)).toContainText(`Mostrando 26–50 de ${formatCount(counts.all)}`);
  const firstOfPage2 = await rows.first().textContent();
  expect(firstOfPage2).not.toBe(firstOfPage1);
  await expect(rows).toHaveCount(25);
  await pager(page).getByRole("link", { name: "Página 3" }).click();
  await expect.poll(() => param(page, "pagina")).toBe("3");
  await expect(pager(page)).toContainText(`Mostrando 51–75 de ${formatCount(counts.all)}`);
  await expect(pager(page).getByRole("link", { name: "Página 3" })).toHaveAttribute(
    "aria-current",
    "page",
  );
  await page.goBack();
  await expect.poll(() => param(page, "pagina")).toBe("2");
  await expect(pager(page)).toContainText(`Mostrando 26–50 de ${formatCount(counts.all)}`);
  await expect(rows.first()).toHaveText(firstOfPage2!);

  // The CSV of a filtered list spanning pages, asked for from its second page: every row.
  await searchList(page, { q: "", estado: "Pendientes" });
  await expect.poll(() => viewOf(page)).toMatchObject({ estado: "pending", q: "", pagina: "1" });
  expect(counts.pending).toBeGreaterThan(50);
  await pager(page).getByRole("link", { name: "Siguiente" }).click();
  await expect.poll(() => viewOf(page)).toMatchObject({ estado: "pending", pagina: "2" });
  await expect(pager(page)).toContainText(`Mostrando 26–50 de ${formatCount(counts.pending)}`);
  const listTotal = Number(
    /de ([\d.]+)$/
      .exec((await pager(page).locator("p").textContent())!.trim())![1]!
      .replace(/\./g, ""),
  );
  expect(listTotal).toBe(counts.pending);

  const downloading = page.waitForEvent("download");
  await page.getByRole("link", { name: "Exportar CSV" }).click();
  const download = await downloading;
  await expect(toast(page, "CSV exportado")).toBeVisible();
  expect(download.suggestedFilename()).toMatch(/^pagos-\d{4}-\d{2}-\d{2}\.csv$/);
  const bytes = readFileSync(await download.path());
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const [header, ...lines] = parseCsv(bytes.subarray(3).toString("utf8"));
  expect(header).toEqual([
    "Fecha",
    "Email",
    "Servicio",
    "Factura",
    "Base imponible (€)",
    "IVA (€)",
    "Total (€)",
    "Estado",
  ]);
  expect(lines).toHaveLength(listTotal);
  for (const line of lines) {
    expect(line).toHaveLength(8);
    // A pending payment has no invoice yet; its total is a number a spreadsheet adds up.
    expect(line.slice(3, 6)).toEqual(["", "", ""]);
    expect(line[6]).toMatch(/^\d+,\d{2}$/);
    expect(line[7]).toBe("Pendiente");
  }
});

test("an enquiry's dialog: a real dialog, 'Responder' by mail, marked handled", async ({
  page,
}) => {
  const inquiry = figures.pendingInquiries[0]!;
  await openPage(page, "/admin?tab=consultas");
  await searchList(page, { q: "", estado: "Pendientes" });
  await expect.poll(() => viewOf(page)).toMatchObject({ tab: "consultas", estado: "pending" });
  const rows = page.getByRole("table", { name: "Consultas" }).locator("tbody tr");
  const row = rows.filter({ has: page.locator(`a[data-inquiry-link="${inquiry.id}"]`) });
  await expect(row).toHaveCount(1);
  const view = row.getByRole("link", { name: `Ver la consulta de ${inquiry.name}` });
  await view.click();
  await expect.poll(() => param(page, "consulta")).toBe(inquiry.id);

  // A modal dialog named by the customer, the focus inside, and kept there by Tab.
  const dialog = page.getByRole("dialog", { name: inquiry.name });
  await expect(dialog).toBeVisible();
  expect(await dialog.evaluate((element) => element.matches(":modal"))).toBe(true);
  // Where the focus is: in the dialog, on the page behind it, or out of the page (Chromium lets
  // Tab pass from a modal dialog's last control to its own address bar, then back to the first).
  const focus = () =>
    dialog.evaluate((element) => {
      const active = element.ownerDocument.activeElement;
      if (element.contains(active)) return "dialog";
      return active === null || active === element.ownerDocument.body ? "browser" : "page";
    });
  await expect.poll(focus).toBe("dialog");
  const stops: string[] = [];
  for (const key of [...Array<string>(8).fill("Tab"), ...Array<string>(4).fill("Shift+Tab")]) {
    await page.keyboard.press(key);
    stops.push(await focus());
  }
  expect(stops, "Tab and Shift+Tab never reach the page behind the dialog").not.toContain("page");
  expect(stops.filter((stop) => stop === "dialog").length).toBeGreaterThanOrEqual(8);
  await expect(dialog).toContainText(inquiry.email);

  // 'Responder' writes to the sender.
  const reply = dialog.getByRole("link", { name: "Responder" });
  const href = (await reply.getAttribute("href"))!;
  expect(href.startsWith(`mailto:${inquiry.email}?`)).toBe(true);
  expect(new URL(href).pathname).toBe(inquiry.email);

  // Escape closes it: the address loses consulta=, the focus goes back to the row's 'Ver'.
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect
    .poll(() => viewOf(page))
    .toMatchObject({ tab: "consultas", estado: "pending", consulta: null });
  await expect(view).toBeFocused();

  // Marked handled from the dialog: the toast, its state, gone from the pending list.
  await view.click();
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Marcar como atendida" }).click();
  await expect(toast(page, "Consulta marcada como atendida")).toBeVisible();
  await expect(dialog.getByRole("status")).toHaveText("Atendida");
  await expect(dialog.getByRole("button", { name: "Marcar como pendiente" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(row).toHaveCount(0);

  // The Atendidas filter shows it.
  await searchList(page, { q: inquiry.email, estado: "Atendidas" });
  await expect.poll(() => viewOf(page)).toMatchObject({ estado: "handled", q: inquiry.email });
  await expect(row).toHaveCount(1);
  await expect(row).toHaveAttribute("data-state", "handled");
  await expect(column(row, 5)).toHaveText("Atendida");
});

test("a staff role is given, changed and taken from Usuarios", async ({ page }) => {
  const { email } = figures.customer;
  await openPage(page, "/admin?tab=usuarios");
  await searchList(page, { q: email });
  await expect.poll(() => viewOf(page)).toMatchObject({ tab: "usuarios", q: email });
  const row = page.getByRole("table", { name: "Usuarios" }).locator("tbody tr");
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(email);
  await expect(column(row, 5)).toHaveText("Cliente");

  /** 'Cambiar rol': the role chosen, the change confirmed in its dialog, saved. */
  const changeRole = async (label: string, role: string) => {
    await row.locator("summary", { hasText: "Cambiar rol" }).click();
    await row.getByLabel("Nuevo rol").selectOption({ label });
    await row.getByRole("button", { name: "Cambiar rol", exact: true }).click();
    const dialog = page.getByRole("dialog");
    await expect(dialog).toContainText(email);
    await dialog.getByRole("button", { name: /^(Hacer|Quitar)/ }).click();
    await expect(dialog).toBeHidden();
    await expect(row).toHaveAttribute("data-role", role);
    await expect(toast(page, "Rol actualizado")).toBeVisible();
    expect(param(page, "q")).toBe(email);
  };
  await changeRole("Administrador", "admin");
  await expect(column(row, 5)).toHaveText("Administrador");
  await changeRole("Soporte", "support");
  await expect(column(row, 5)).toHaveText("Soporte");
  await changeRole("Cliente (sin rol del equipo)", "customer");
  await expect(column(row, 5)).toHaveText("Cliente");
});

test("without JavaScript the enquiry's dialog opens by its address and marks it handled", async ({
  browser,
}) => {
  const inquiry = figures.pendingInquiries[1]!;
  const context = await browser.newContext({
    baseURL,
    storageState: adminState,
    javaScriptEnabled: false,
  });
  try {
    const page = await context.newPage();
    await page.goto(`/admin?tab=consultas&consulta=${inquiry.id}`);
    const dialog = page.getByRole("dialog", { name: inquiry.name });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole("status")).toHaveText("Pendiente");
    const href = (await dialog.getByRole("link", { name: "Responder" }).getAttribute("href"))!;
    expect(href.startsWith(`mailto:${inquiry.email}?`)).toBe(true);

    await dialog.getByRole("button", { name: "Marcar como atendida" }).click();
    await expect(page).toHaveURL(new RegExp(`[?&]consulta=${inquiry.id}$`));
    await expect(dialog.getByRole("status")).toHaveText("Atendida");
    await expect(dialog.getByRole("button", { name: "Marcar como pendiente" })).toBeVisible();

    await dialog.getByRole("link", { name: "Cerrar" }).click();
    await expect(page).toHaveURL(/\/admin\?tab=consultas$/);
    await expect(dialog).toHaveCount(0);

    // The Atendidas filter, sent as the form sends it without JavaScript, lists it.
    const search = page.getByRole("search");
    await search.getByLabel("Buscar").fill(inquiry.email);
    await search.getByLabel("Estado").selectOption({ label: "Atendidas" });
    await search.getByRole("button", { name: "Buscar" }).click();
    await expect(page).toHaveURL(/[?&]estado=handled(&|$)/);
    const row = page
      .getByRole("table", { name: "Consultas" })
      .locator("tbody tr")
      .filter({ has: page.locator(`a[href$="consulta=${inquiry.id}"]`) });
    await expect(row).toHaveAttribute("data-state", "handled");
  } finally {
    await context.close();
  }
});

test("a staff refund: the purchase refunded, a corrective invoice, the revenue reduced", async ({
  page,
  browser,
}) => {
  // A customer of this server buys on the simulated checkout (issue #16).
  const shopper = await browser.newContext({ baseURL, storageState: undefined });
  const customerPage = await shopper.newPage();
  const { email } = await createVerifiedCustomer(customerPage);
  await openPage(customerPage, "/ciberseguridad");
  await customerPage.getByRole("button", { name: "Comprar ahora" }).click();
  await payInDialog(customerPage);
  await customerPage.getByRole("button", { name: "Pagar", exact: true }).click();
  await expect(customerPage).toHaveURL(/\/pago-exitoso/);

  await openPage(page, "/admin");
  const paid = await card(page, "Ingresos").textContent();
  const price = formatPrice(44_900, { cents: "always" });

  await openPage(page, "/admin?tab=pagos");
  await searchList(page, { q: email });
  const row = page.getByRole("table", { name: "Pagos" }).locator("tbody tr");
  await expect(row).toHaveCount(1);
  await row.getByRole("link", { name: /^Ver el pago de/ }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Pago de Ciberseguridad");
  const invoices = page.getByRole("region", { name: "Facturas" });
  await expect(invoices.getByRole("link", { name: /^F\d{4}-\d{6}$/ })).toBeVisible();

  const refund = page.getByRole("form", { name: "Reembolso" });
  await refund.getByLabel("Motivo del reembolso").fill("El cliente no necesita ya el servicio");
  await refund.getByRole("button", { name: `Reembolsar ${price}` }).click();
  // Said once, under the box to tick (decision 055).
  const tick = refund.getByLabel(/^Confirmo que devolvemos/);
  await expect(tick).toBeFocused();
  expect(await description(tick)).toContain("Confirma el reembolso.");
  expect(await timesShown(page, "Confirma el reembolso")).toBe(1);
  await tick.check();
  await refund.getByRole("button", { name: `Reembolsar ${price}` }).click();
  await expect(toast(page, "Pago reembolsado")).toBeVisible();
  // The timeline tells the reason once, without a doubled full stop (decision 050).
  await expect(
    page.getByText("Motivo: El cliente no necesita ya el servicio", { exact: true }),
  ).toBeVisible();
  const corrective = invoices.getByRole("link", { name: /^R\d{4}-\d{6}$/ });
  await expect(corrective).toBeVisible();
  const correctiveNumber = (await corrective.textContent())!;
  await expect(invoices).toContainText(`-${price}`);

  // The dashboard's revenue loses exactly the refunded amount.
  await openPage(page, "/admin");
  const cents = (text: string | null) =>
    Math.round(Number(text!.replace(/[.€]/g, "").replace(",", ".")) * 100);
  await expect
    .poll(async () => cents(await card(page, "Ingresos").textContent()))
    .toBe(cents(paid) - 44_900);

  // The customer sees it refunded, with the corrective invoice to download.
  await openPage(customerPage, "/mi-cuenta?tab=compras");
  await expect(customerPage.getByRole("main").getByText("Reembolsado")).toBeVisible();
  await expect(
    customerPage.getByRole("link", {
      name: `Factura rectificativa ${correctiveNumber}`,
    }),
  ).toBeVisible();
  await shopper.close();
});

test("past its 14 days, a purchase no longer offers 'Desistir del contrato'", async ({
  browser,
}) => {
  const shopper = await browser.newContext({ baseURL, storageState: undefined });
  const customerPage = await shopper.newPage();
  const { email } = await createVerifiedCustomer(customerPage);
  await openPage(customerPage, "/desarrollo-web");
  await customerPage.getByRole("button", { name: "Comprar ahora" }).click();
  await payInDialog(customerPage);
  await customerPage.getByRole("button", { name: "Pagar", exact: true }).click();
  await expect(customerPage).toHaveURL(/\/pago-exitoso/);
  await openPage(customerPage, "/mi-cuenta?tab=compras");
  const withdraw = customerPage.getByRole("link", { name: "Desistir del contrato" });
  await expect(withdraw).toBeVisible();
  const withdrawalPath = (await withdraw.getAttribute("href"))!;

  // Fifteen days later (the payment date moved back while the server is stopped).
  await stopServer();
  const aged = JSON.parse(
    await script("tests/support/age-purchases.ts", [dataDir, email, "15"], process.env),
  ) as { moved: number };
  expect(aged.moved).toBe(1);
  await startServer();

  await openPage(customerPage, "/mi-cuenta?tab=compras");
  await expect(customerPage.getByRole("main").getByText("Desarrollo Web")).toBeVisible();
  await expect(withdraw).toHaveCount(0);
  await openPage(customerPage, withdrawalPath);
  await expect(customerPage.getByRole("status")).toHaveText(
    "El plazo de desistimiento de esta compra ha terminado o el servicio ya se ha prestado por completo.",
  );
  await expect(customerPage.getByRole("button", { name: "Confirmar desistimiento" })).toHaveCount(
    0,
  );
  await shopper.close();
});
