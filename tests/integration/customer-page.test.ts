import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { CUSTOMER_PAGE_ROWS } from "~/features/admin/customer-page.server";
import { openTicket } from "~/features/support/customer-tickets.server";
import { getConfig } from "~/platform/config.server";
import {
  customers,
  payments,
  purchases,
  ticketAttachments,
  ticketMessages,
  userRoles,
} from "~/platform/db/schema";
import { loader } from "~/routes/admin-cliente";
import { enrolTotp, signedInAdmin, signedInCustomer, viewerOf } from "../support/customer-session";
import { paidPurchase } from "../support/paid-purchase";
import { insertPurchase } from "../support/purchases";
import { setupTestDatabase } from "../support/test-database";

/**
 * /admin/clientes/:customerId (decision 052): one customer with everything they have with us,
 * keyed by their Clientes row or their account, each section only for a role that may see it.
 */
const database = setupTestDatabase();

type Role = "support" | "finance" | "admin";
const cookies = {} as Record<Role, string>;
let customerCookie: string;
let accountId: string;
let ticketId: string;
let paidPaymentId: string;
let withdrawnPurchaseId: string;

const ACCOUNT_EMAIL = "ficha-cliente@example.com";
const GUEST_EMAIL = "invitado_ficha@example.com";

beforeAll(async () => {
  cookies.admin = (await signedInAdmin("jefa-ficha@example.com")).cookie;
  for (const [index, role] of (["support", "finance"] as const).entries()) {
    const made = await signedInCustomer(`${role}-ficha@example.com`, {
      clientAddress: `192.0.2.${120 + index}`,
    });
    await database.db.insert(userRoles).values({ userId: made.userId, role });
    cookies[role] = (await enrolTotp(made.cookie, "contraseña-de-prueba")).cookie;
  }
  const customer = await signedInCustomer(ACCOUNT_EMAIL, { clientAddress: "192.0.2.125" });
  customerCookie = customer.cookie;
  accountId = customer.userId;

  // Two paid purchases of the account; the customer withdrew from the second.
  const paid = await paidPurchase(
    database.db,
    { userId: accountId },
    { email: ACCOUNT_EMAIL, name: "Ana Ficha" },
  );
  const withdrawn = await paidPurchase(
    database.db,
    { userId: accountId, serviceName: "Ciberseguridad", serviceId: 4, price: 44_900 },
    { email: ACCOUNT_EMAIL, name: "Ana Ficha" },
  );
  withdrawnPurchaseId = withdrawn.purchase.id;
  await database.db
    .update(purchases)
    .set({ status: "withdrawn", withdrawalRequestedAt: new Date() })
    .where(eq(purchases.id, withdrawnPurchaseId));
  const [payment] = await database.db
    .select({ id: payments.id })
    .from(payments)
    .where(eq(payments.purchaseId, paid.purchase.id));
  paidPaymentId = payment!.id;

  const ticket = await openTicket((await viewerOf(customer.cookie))!, {
    subject: "Duda sobre la auditoría",
    category: "consulta_tecnica",
    priority: "medium",
    message: "¿Cuándo empieza la auditoría de seguridad?",
    purchaseId: "",
  });
  ticketId = ticket.id;

  // A guest, and a purchase of someone else paid with an address the guest's is a prefix of.
  await paidPurchase(database.db, {}, { email: GUEST_EMAIL, name: "Invitado Ficha" });
  await paidPurchase(database.db, {}, { email: `x${GUEST_EMAIL}`, name: "Otro" });
  await paidPurchase(database.db, {}, { email: `${GUEST_EMAIL}.es`, name: "Otro más" });
});

const customerIdOf = async (email: string) =>
  (await database.db.select().from(customers).where(eq(customers.email, email)))[0]!.id;

type Page = Awaited<ReturnType<typeof loader>>;

/** The page's loader as React Router calls it; a thrown or returned Response is returned. */
async function open(customerId: string, cookie: string): Promise<Page | Response> {
  try {
    return await loader({
      request: new Request(`${getConfig().siteUrl}/admin/clientes/${customerId}`, {
        headers: { Cookie: cookie, "Sec-Fetch-Site": "same-origin" },
      }),
      params: { customerId },
      context: { clientAddress: "192.0.2.126" },
    } as unknown as Parameters<typeof loader>[0]);
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

async function page(customerId: string, cookie = cookies.admin): Promise<Page> {
  const answer = await open(customerId, cookie);
  if (answer instanceof Response) throw new Error(`answered ${answer.status}`);
  return answer;
}

describe("a customer with an account", () => {
  it("brings profile, purchases, invoices, withdrawals, tickets and activity together", async () => {
    const data = await page(await customerIdOf(ACCOUNT_EMAIL));
    expect(data.email).toBe(ACCOUNT_EMAIL);
    expect(data.profile?.id).toBe(accountId);
    expect(data.totals.orders).toBeGreaterThanOrEqual(1);

    expect(data.purchases?.total).toBe(2);
    const bought = data.purchases!.rows.find((row) => row.paymentId === paidPaymentId);
    expect(bought).toMatchObject({ status: "completed", serviceName: "Asistencia Informática" });
    const gaveUp = data.purchases!.rows.find((row) => row.id === withdrawnPurchaseId);
    expect(gaveUp?.status).toBe("withdrawn");

    expect(data.invoices?.total).toBe(2);
    expect(data.invoices!.rows.map((invoice) => invoice.paymentId)).toContain(paidPaymentId);
    expect(data.invoices!.rows.every((invoice) => /^F\d{4}-\d{6}$/.test(invoice.number))).toBe(
      true,
    );

    expect(data.withdrawals?.total).toBe(1);
    expect(data.withdrawals!.rows.map((row) => row.id)).toEqual([withdrawnPurchaseId]);

    expect(data.tickets?.total).toBe(1);
    expect(data.tickets!.rows[0]).toMatchObject({
      id: ticketId,
      subject: "Duda sobre la auditoría",
    });

    expect(data.activity.map((entry) => entry.activityType)).toContain("purchase_completed");
  });

  it("is the same person by the account's id, as the ticket and Usuarios link it", async () => {
    const byAccount = await page(accountId);
    const byCustomer = await page(await customerIdOf(ACCOUNT_EMAIL));
    expect(byAccount).toEqual(byCustomer);
  });

  it("lists the newest purchases only, with the count of all", async () => {
    const other = await signedInCustomer("muchas-compras@example.com", {
      clientAddress: "192.0.2.127",
    });
    const extra = CUSTOMER_PAGE_ROWS + 3;
    for (let index = 0; index < extra; index++)
      await insertPurchase(database.db, {
        userId: other.userId,
        status: "cancelled",
        createdAt: new Date(Date.UTC(2026, 0, 1, 0, index)),
      });
    const data = await page(other.userId);
    expect(data.purchases?.total).toBe(extra);
    expect(data.purchases?.rows).toHaveLength(CUSTOMER_PAGE_ROWS);
    // Newest first: the three oldest are the ones left out.
    expect(data.purchases!.rows.at(-1)!.createdAt).toEqual(new Date(Date.UTC(2026, 0, 1, 0, 3)));
  });
});

describe("a guest customer", () => {
  it("finds the purchases paid with the e-mail, and nobody else's", async () => {
    const data = await page(await customerIdOf(GUEST_EMAIL));
    expect(data.profile).toBeNull();
    expect(data.activity).toEqual([]);
    expect(data.purchases?.total).toBe(1);
    expect(data.invoices?.total).toBe(1);
    expect(data.purchases!.rows[0]!.paymentId).toBeTruthy();
    expect(data.tickets).toEqual({ rows: [], total: 0 });
  });

  it("finds the guest's payments through the trigram index, not by reading every payment", async () => {
    // The planner picks a sequential scan on a small table; without one it must be able to use
    // payments_search_idx (a million payments must not be read for one customer).
    const plan = await database.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      const explained = await tx.execute(
        sql`explain select purchase_id from payments
            where (coalesce(customer_email, '') || ' ' || coalesce(service_name, '')) like ${`${GUEST_EMAIL.replace("_", "\\_")} %`}
              and customer_email = ${GUEST_EMAIL}`,
      );
      return JSON.stringify((explained as { rows: unknown[] }).rows);
    });
    expect(plan).toContain("payments_search_idx");
  });
});

describe("who may open it", () => {
  it("shows support the tickets but no money, and finance the money but no tickets", async () => {
    const id = await customerIdOf(ACCOUNT_EMAIL);
    const support = await page(id, cookies.support);
    expect(support.profile?.id).toBe(accountId);
    expect(support.tickets?.total).toBe(1);
    expect(support.purchases).toBeNull();
    expect(support.invoices).toBeNull();
    expect(support.withdrawals).toBeNull();

    const finance = await page(id, cookies.finance);
    expect(finance.purchases?.total).toBe(2);
    expect(finance.invoices?.total).toBe(2);
    expect(finance.tickets).toBeNull();
    expect(finance.attachments).toBeNull();
  });

  it("lists the files of the account's tickets, with their ticket, for who reads tickets", async () => {
    const [message] = await database.db
      .select({ id: ticketMessages.id })
      .from(ticketMessages)
      .where(eq(ticketMessages.ticketId, ticketId));
    const png = Buffer.from(
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
      "base64",
    );
    await database.db.insert(ticketAttachments).values({
      ticketId,
      messageId: message!.id,
      fileName: "captura.png",
      contentType: "image/png",
      size: png.length,
      content: png,
    });
    const id = await customerIdOf(ACCOUNT_EMAIL);
    for (const cookie of [cookies.support, cookies.admin]) {
      const data = await page(id, cookie);
      expect(data.attachments?.total).toBe(1);
      expect(data.attachments!.rows[0]).toMatchObject({
        fileName: "captura.png",
        contentType: "image/png",
        ticketId,
        ticketNumber: expect.stringMatching(/^TK-\d{4}-\d{6}$/),
      });
      // Never the bytes.
      expect(data.attachments!.rows[0]).not.toHaveProperty("content");
    }
    expect((await page(id, cookies.finance)).attachments).toBeNull();
  });

  it("refuses a customer, even their own page", async () => {
    const answer = await open(accountId, customerCookie);
    expect(answer).toBeInstanceOf(Response);
    expect((answer as Response).status).toBe(302);
    expect((answer as Response).headers.get("Location")).toBe("/login");
  });

  it("answers 404 for nobody, whatever the key looks like", async () => {
    for (const key of [
      "0b6f3c2e-4a1d-4e5f-9a7b-1c2d3e4f5a6b",
      "nadie",
      "' or 1=1 --",
      "x".repeat(500),
      "nadie\u0000",
    ]) {
      const answer = await open(key, cookies.admin);
      expect((answer as Response).status, key).toBe(404);
    }
  });
});
