import {
  request as http,
  type APIRequestContext,
  type APIResponse,
  type Page,
} from "@playwright/test";
import routes from "../../app/routes";
import { expressRoutes } from "../../app/platform/http/express-routes";
import {
  createVerifiedCustomer,
  enrolStaffOnPage,
  giveStaffRole,
  signInAsAdmin,
} from "./accounts-helpers";
import { expect, test } from "./fixtures";
import { linksOfLatestMail } from "./mailbox";
import {
  authorizationMatrix,
  outcomeProblem,
  type MatrixIds,
  type Role,
  roles,
} from "./authorization-matrix";

/**
 * Every route of the site (React Router's table and Express's own paths) tried by every role:
 * an anonymous visitor, a customer, another customer with the first one's ids, and the three
 * staff roles (support and finance are customers an admin gave the role, as Usuarios does).
 */
test.describe.configure({ mode: "serial" });

let sessions: Record<Role, APIRequestContext>;
let ids: MatrixIds;

test.beforeAll(async ({ browser, baseURL }) => {
  const contextFor = async (page?: Page) =>
    http.newContext({
      baseURL,
      storageState: page ? await page.context().storageState() : undefined,
      maxRedirects: 0,
    });

  const customerPage = await browser.newPage();
  const customer = await createVerifiedCustomer(customerPage);
  const otherPage = await browser.newPage();
  await createVerifiedCustomer(otherPage);
  const adminPage = await browser.newPage();
  await signInAsAdmin(adminPage);
  const admin = await contextFor(adminPage);
  const supportPage = await browser.newPage();
  const supportMember = await createVerifiedCustomer(supportPage);
  await giveStaffRole(admin, supportMember.email, "support", baseURL!);
  // Staff open no staff page before their second factor (decision 044).
  await enrolStaffOnPage(supportPage, supportMember.email, supportMember.password);
  const financePage = await browser.newPage();
  const financeMember = await createVerifiedCustomer(financePage);
  await giveStaffRole(admin, financeMember.email, "finance", baseURL!);
  await enrolStaffOnPage(financePage, financeMember.email, financeMember.password);

  sessions = {
    anonymous: await contextFor(),
    customer: await contextFor(customerPage),
    otherCustomer: await contextFor(otherPage),
    support: await contextFor(supportPage),
    finance: await contextFor(financePage),
    admin,
  };

  // The customer's own ids, which the others will try: a checkout session, a mail, a ticket and
  // the file sent with it.
  const checkout = await sessions.customer.post("/checkout", {
    form: { serviceId: "1", immediateStart: "yes" },
    headers: { Origin: baseURL! },
  });
  const checkoutUrl = ((await checkout.json()) as { url: string }).url;
  // Paid on the simulated checkout: the purchase gets its invoice.
  const checkoutSessionId = new URL(checkoutUrl, baseURL).pathname.split("/").pop()!;
  const payment = await sessions.customer.post(`/pago-simulado/${checkoutSessionId}`, {
    form: { outcome: "pay" },
    headers: { Origin: baseURL! },
  });
  expect(payment.status(), "the simulated payment").toBe(302);
  const purchasesPage = await (await sessions.customer.get("/mi-cuenta?tab=compras")).text();
  const invoiceId = /\/mi-cuenta\/facturas\/([0-9a-f-]{36})/.exec(purchasesPage)?.[1];
  expect(invoiceId, "the invoice of the customer's purchase").toBeTruthy();
  const paymentsList = await (
    await sessions.admin.get(`/admin?tab=pagos&q=${encodeURIComponent(customer.email)}`)
  ).text();
  const paymentId = /\/admin\/pagos\/([0-9a-f-]{36})/.exec(paymentsList)?.[1];
  expect(paymentId, "the customer's payment in the staff's list").toBeTruthy();
  const customersList = await (
    await sessions.admin.get(`/admin?tab=clientes&q=${encodeURIComponent(customer.email)}`)
  ).text();
  const customerId = /\/admin\/clientes\/([0-9a-f-]{36})/.exec(customersList)?.[1];
  expect(customerId, "the customer's row in Clientes").toBeTruthy();
  const purchaseId = /\/mi-cuenta\/compras\/([0-9a-f-]{36})\/desistir/.exec(purchasesPage)?.[1];
  expect(purchaseId, "the customer's purchase, which can still be withdrawn").toBeTruthy();
  const ticket = await sessions.customer.post("/mi-cuenta/tickets/nuevo", {
    multipart: {
      subject: "Ticket de la matriz",
      category: "consulta_tecnica",
      priority: "medium",
      message: "Un ticket del cliente para probar quién puede abrirlo.",
      attachments: {
        name: "registro.txt",
        mimeType: "text/plain",
        buffer: Buffer.from("Error 500 al entrar\n"),
      },
    },
    headers: { Origin: baseURL! },
  });
  const ticketPath = ticket.headers()["location"] ?? "";
  expect(ticketPath, "the customer's new ticket").toMatch(/^\/mi-cuenta\/tickets\/[0-9a-f-]{36}$/);
  const ticketPage = await (await sessions.customer.get(ticketPath)).text();
  const attachmentId = /\/soporte\/adjuntos\/([0-9a-f-]{36})/.exec(ticketPage)?.[1];
  expect(attachmentId, "the file of the customer's ticket").toBeTruthy();
  await linksOfLatestMail(customerPage, customer.email, /^Confirma tu email/);
  ids = {
    checkoutSessionId,
    mailId: new URL(customerPage.url()).pathname.split("/").pop()!,
    ticketId: ticketPath.split("/").pop()!,
    attachmentId: attachmentId!,
    invoiceId: invoiceId!,
    purchaseId: purchaseId!,
    paymentId: paymentId!,
    customerId: customerId!,
  };
  for (const page of [customerPage, otherPage, adminPage, supportPage, financePage])
    await page.close();
});

test.afterAll(async () => {
  for (const session of Object.values(sessions ?? {})) await session.dispose();
});

type RouteEntry = (typeof routes)[number];

/**
 * The paths the route table serves, in the matrix's spelling (no leading slash); a layout
 * (no path, such as the admin shell's) serves its children's.
 */
function routePaths(entries: readonly RouteEntry[] = routes): string[] {
  return entries.flatMap((entry) => {
    if (entry.index) return [""];
    if (entry.path === undefined) return routePaths(entry.children ?? []);
    return [entry.path];
  });
}

const expressPaths = Object.values(expressRoutes);

test("every route of app/routes.ts and of Express has its row in the matrix", () => {
  const rows = new Set(authorizationMatrix.map((row) => row.route));
  const missing = [...routePaths(), ...expressPaths].filter((path) => !rows.has(path));
  expect(missing, "routes without a row in tests/e2e/authorization-matrix.ts").toEqual([]);
  const unknown = [...rows].filter(
    (path) => !routePaths().includes(path) && !expressPaths.includes(path as never),
  );
  expect(unknown, "rows for routes that no longer exist").toEqual([]);
});

test("each role gets exactly what the matrix allows, with other people's ids too", async ({
  baseURL,
}) => {
  const problems: string[] = [];
  let tried = 0;
  // Rows that end a session (sign-out, a customer at /admin) run after all the others.
  const ordered = [...authorizationMatrix].sort(
    (a, b) => Number(Boolean(a.endsSessions)) - Number(Boolean(b.endsSessions)),
  );
  for (const row of ordered) {
    const url = row.url(ids);
    for (const role of roles) {
      for (const method of ["GET", "POST"] as const) {
        const expected = method === "GET" ? row.get[role] : row.post[role];
        const response: APIResponse =
          method === "GET"
            ? await sessions[role].get(url)
            : await sessions[role].post(url, {
                form: row.form?.(ids) ?? {},
                headers: { Origin: baseURL! },
              });
        tried++;
        const problem = await outcomeProblem(response, expected);
        if (problem) problems.push(`${method} ${url} as ${role}: ${problem}`);
      }
    }
  }
  expect(problems).toEqual([]);
  test.info().annotations.push({ type: "pairs tried", description: String(tried) });
  console.log(`authorisation matrix: ${tried} route × role × method pairs tried`);
});

test("a POST from another site, or from an opaque origin, is refused with 403 on every route", async () => {
  const problems: string[] = [];
  for (const row of authorizationMatrix) {
    for (const origin of ["https://evil.example", "null"]) {
      const response = await sessions.customer.post(row.url(ids), {
        form: row.form?.(ids) ?? {},
        headers: { Origin: origin },
      });
      if (response.status() !== 403)
        problems.push(`POST ${row.url(ids)} from ${origin}: ${response.status()}`);
    }
  }
  expect(problems).toEqual([]);
});
