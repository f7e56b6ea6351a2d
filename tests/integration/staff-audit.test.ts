import { randomUUID } from "node:crypto";
import { and, asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminSignIn, customerSignIn } from "~/features/accounts/account-actions.server";
import { secondFactorSignIn } from "~/features/accounts/second-factor-sign-in.server";
import { ensureAdmin } from "~/features/accounts/admin-accounts.server";
import { adminAction } from "~/features/admin/admin-actions.server";
import { staffExport } from "~/features/admin/admin-csv.server";
import { staffDesk } from "~/features/accounts/staff-desk.server";
import { staffVerifactuExport, verifactuAction } from "~/features/verifactu/staff-page.server";
import { auditLogExport, auditLogPage, AUDIT_CSV_COLUMNS } from "~/features/audit/audit-log.server";
import { pruneStaffAuditLog, recordStaffAction } from "~/features/audit/audit.server";
import { staffInvoiceBookDownload } from "~/features/billing/invoice-book.server";
import { getAuth } from "~/features/identity/auth.server";
import type { Staff } from "~/features/identity/session.server";
import type { StaffRole } from "~/features/identity/staff-roles";
import { staffPaymentAction } from "~/features/payments/after-sale.server";
import { createTicketAction } from "~/features/support/customer-tickets.server";
import { staffTicketAction } from "~/features/support/staff-tickets.server";
import { getConfig, resetConfigForTests } from "~/platform/config.server";
import {
  contactInquiries,
  payments,
  purchases,
  staffAuditLog,
  ticketMessages,
  userRoles,
  users,
  verifactuRecords,
} from "~/platform/db/schema";
import {
  adminLoginAnswer,
  formPost,
  partyOf,
  signedInAdmin,
  signedInCustomer,
} from "../support/customer-session";
import { paidPurchase } from "../support/paid-purchase";
import { setupTestDatabase } from "../support/test-database";
import { totpCode, totpStep } from "../support/totp";

/**
 * Issue 26, item 3: the staff audit log. Every staff action writes one row (who, when, what,
 * from where) in the action's own transaction; the table refuses any change, and any deletion
 * but the retention job's of rows past two years; admins read it at /admin/auditoria, filtered,
 * and as a CSV (decision 043).
 */
const database = setupTestDatabase();
const saved = { ...process.env };
const PASSWORD = "contraseña-de-prueba";

let admin: Staff;
let adminSecret: string;
let support: Staff;
let finance: Staff;

/** Each staff member's session cookie: refunds, anulaciones and role changes ask for one (063). */
const sessionOf = new Map<string, string>();

async function staffMember(email: string, role: StaffRole, clientAddress: string): Promise<Staff> {
  const made =
    role === "admin"
      ? await signedInAdmin(email, { password: PASSWORD, clientAddress })
      : await signedInCustomer(email, { clientAddress });
  if (role !== "admin") await database.db.insert(userRoles).values({ userId: made.userId, role });
  if ("secret" in made && typeof made.secret === "string") adminSecret = made.secret;
  const { viewer } = await partyOf(email, made.cookie);
  sessionOf.set(viewer.id, made.cookie);
  return { ...viewer, role, clientAddress, userAgent: `navegador de ${role}` };
}

beforeAll(async () => {
  // A company tax id: each paid invoice gets its Verifactu record. No Stripe key: the refunds
  // go through the simulated provider, as locally.
  process.env.COMPANY_TAX_ID = "B12345674";
  resetConfigForTests();
  admin = await staffMember("jefa-auditoria@example.com", "admin", "192.0.2.101");
  support = await staffMember("soporte-auditoria@example.com", "support", "192.0.2.102");
  finance = await staffMember("finanzas-auditoria@example.com", "finance", "192.0.2.103");
});

afterAll(() => {
  process.env = saved;
  resetConfigForTests();
});

const rowsOf = (action: string) =>
  database.db
    .select()
    .from(staffAuditLog)
    .where(eq(staffAuditLog.action, action))
    .orderBy(asc(staffAuditLog.id));

const lastOf = async (action: string) => (await rowsOf(action)).at(-1);

/** The VERI*FACTU XML export as `staff` asks for it, with their fresh session. */
function verifactuExportAs(staff: Staff, query: string) {
  const request = new Request(`${getConfig().siteUrl}/admin/verifactu/exportar${query}`, {
    headers: { Cookie: sessionOf.get(staff.id) ?? "" },
  });
  return staffVerifactuExport(request, staffDesk(request, staff));
}

describe("the audit log table", () => {
  it("stamps every row with the database's clock, whatever the insert says", async () => {
    await database.db.execute(
      sql`insert into staff_audit_log (action, at, actor_email) values ('export.csv', now() - interval '5 years', 'reloj@example.com')`,
    );
    const [row] = await database.db
      .select({ age: sql<number>`extract(epoch from now() - ${staffAuditLog.at})`.mapWith(Number) })
      .from(staffAuditLog)
      .where(eq(staffAuditLog.actorEmail, "reloj@example.com"));
    expect(row!.age).toBeLessThan(60);
  });

  it("refuses to change, delete or empty its rows", async () => {
    await recordStaffAction(database.db, {
      actor: admin,
      action: "export.csv",
      details: { tab: "pagos" },
    });
    const [row] = await rowsOf("export.csv");
    await expect(
      database.db
        .update(staffAuditLog)
        .set({ actorEmail: "otra@example.com" })
        .where(eq(staffAuditLog.id, row!.id)),
    ).rejects.toThrow();
    await expect(
      database.db.execute(sql`update staff_audit_log set details = '{}' where id = ${row!.id}`),
    ).rejects.toThrow();
    await expect(
      database.db.delete(staffAuditLog).where(eq(staffAuditLog.id, row!.id)),
    ).rejects.toThrow();
    await expect(database.db.execute(sql`truncate staff_audit_log`)).rejects.toThrow();
    const [still] = await database.db
      .select()
      .from(staffAuditLog)
      .where(eq(staffAuditLog.id, row!.id));
    expect(still).toEqual(row);
  });

  it("lets the retention job delete the rows past two years, and only those", async () => {
    // Rows of long ago, written the only way they can be: with the clock trigger off.
    await database.db.execute(
      sql`alter table staff_audit_log disable trigger staff_audit_log_stamp`,
    );
    await database.db.execute(sql`
      insert into staff_audit_log (action, actor_email, at) values
        ('export.csv', 'antigua-1@example.com', now() - interval '2 years 1 day'),
        ('export.csv', 'antigua-2@example.com', now() - interval '3 years'),
        ('export.csv', 'reciente@example.com', now() - interval '2 years' + interval '1 day')`);
    await database.db.execute(
      sql`alter table staff_audit_log enable trigger staff_audit_log_stamp`,
    );
    const aged = (email: string) =>
      database.db.select().from(staffAuditLog).where(eq(staffAuditLog.actorEmail, email));
    // Not yet two years old: no one deletes it, the retention job included.
    await expect(
      database.db.delete(staffAuditLog).where(eq(staffAuditLog.actorEmail, "reciente@example.com")),
    ).rejects.toThrow();
    const before = await database.db.select({ id: staffAuditLog.id }).from(staffAuditLog);
    expect(await pruneStaffAuditLog(database.db)).toBe(2);
    expect(await aged("antigua-1@example.com")).toEqual([]);
    expect(await aged("antigua-2@example.com")).toEqual([]);
    expect(await aged("reciente@example.com")).toHaveLength(1);
    const after = await database.db.select({ id: staffAuditLog.id }).from(staffAuditLog);
    expect(after).toHaveLength(before.length - 2);
    expect(await pruneStaffAuditLog(database.db)).toBe(0);
  });
});

describe("each staff action writes its row", () => {
  it("sign-ins at /login, good and bad, with who and where from", async () => {
    const login = (email: string, password: string, address: string) =>
      adminLoginAnswer(email, password, address);
    // The right password asks for the code; the sign-in is the code's, from the same address.
    const signInsBefore = (await rowsOf("staff.sign_in")).length;
    const password = (await adminSignIn({
      request: formPost("/login", { email: admin.email, password: PASSWORD }),
      clientAddress: "192.0.2.111",
    })) as Response;
    expect(password.headers.get("Location")).toBe("/login/verificacion");
    expect(await rowsOf("staff.sign_in")).toHaveLength(signInsBefore);
    const pending = password.headers
      .getSetCookie()
      .map((cookie) => cookie.split(";")[0]!)
      .join("; ");
    // The next step's code: the enrolment took this step's.
    const code = totpCode(adminSecret, totpStep() + 1);
    const coded = (await secondFactorSignIn(
      {
        request: formPost("/login/verificacion", { code }, pending),
        clientAddress: "192.0.2.111",
      },
      "staff",
    )) as Response;
    expect(coded.headers.get("Location")).toBe("/admin");
    const signIn = await lastOf("staff.sign_in");
    expect(signIn).toMatchObject({
      actorId: admin.id,
      actorEmail: admin.email,
      actorRole: "admin",
      targetId: admin.id,
      clientAddress: "192.0.2.111",
      details: { puerta: "/login" },
    });

    expect((await login(admin.email, "no-es-la-contraseña", "192.0.2.112")).status).toBe(401);
    expect(await lastOf("staff.sign_in_failed")).toMatchObject({
      actorId: admin.id,
      actorEmail: admin.email,
      actorRole: "admin",
      clientAddress: "192.0.2.112",
      details: { motivo: "wrong_credentials", puerta: "/login" },
    });

    // A customer's right password at the staff door: refused, and recorded.
    const customer = await signedInCustomer("cliente-en-login@example.com", {
      password: PASSWORD,
      clientAddress: "192.0.2.113",
    });
    expect((await login("cliente-en-login@example.com", PASSWORD, "192.0.2.113")).status).toBe(403);
    expect(await lastOf("staff.sign_in_failed")).toMatchObject({
      actorId: customer.userId,
      actorRole: null,
      details: { motivo: "not_staff", puerta: "/login" },
    });

    // An address nobody has: the attempt, with the address typed.
    expect((await login("nadie-aqui@example.com", PASSWORD, "192.0.2.114")).status).toBe(401);
    expect(await lastOf("staff.sign_in_failed")).toMatchObject({
      actorId: null,
      actorEmail: "nadie-aqui@example.com",
      details: { motivo: "wrong_credentials" },
    });
  });

  it("sign-ins of staff at /login-cliente, but not a customer's", async () => {
    const count = async () => (await database.db.select().from(staffAuditLog)).length;
    const signIn = (email: string, password: string, clientAddress: string) =>
      customerSignIn({ request: formPost("/login-cliente", { email, password }), clientAddress });
    const before = await count();
    await signedInCustomer("solo-cliente@example.com", { clientAddress: "192.0.2.121" });
    await signIn("solo-cliente@example.com", "equivocada-1234", "192.0.2.121");
    // The customer signed in (signedInCustomer) and failed once: neither is a staff action.
    expect(await count()).toBe(before);

    await signIn(support.email, PASSWORD, "192.0.2.122");
    expect(await lastOf("staff.sign_in")).toMatchObject({
      actorId: support.id,
      actorRole: "support",
      details: { puerta: "/login-cliente" },
    });
    await signIn(support.email, "equivocada-1234", "192.0.2.123");
    expect(await lastOf("staff.sign_in_failed")).toMatchObject({
      actorId: support.id,
      details: { motivo: "wrong_credentials", puerta: "/login-cliente" },
    });
  });

  it("a role change, from the panel and from the operator's bootstrap", async () => {
    const target = await signedInCustomer("nuevo-equipo@example.com", {
      clientAddress: "192.0.2.131",
    });
    const answer = await adminAction(
      formPost(
        "/admin?tab=usuarios",
        {
          intent: "set-role",
          userId: target.userId,
          role: "support",
          confirm: "yes",
        },
        sessionOf.get(admin.id),
      ),
      admin,
    );
    expect((answer as Response).status).toBe(302);
    expect(await lastOf("role.change")).toMatchObject({
      actorId: admin.id,
      actorEmail: admin.email,
      actorRole: "admin",
      targetId: target.userId,
      clientAddress: admin.clientAddress,
      userAgent: admin.userAgent,
      details: { from: "cliente", to: "support", email: "nuevo-equipo@example.com" },
    });

    // ADMIN_EMAIL (or admin:create) for a support account: administrator now, by no account.
    await ensureAdmin(await getAuth(), database.db, "nuevo-equipo@example.com");
    expect(await lastOf("role.change")).toMatchObject({
      actorId: null,
      actorEmail: null,
      targetId: target.userId,
      details: { from: "support", to: "admin" },
    });
    const roles = await database.db
      .select({ role: userRoles.role })
      .from(userRoles)
      .where(eq(userRoles.userId, target.userId));
    expect(roles).toEqual([{ role: "admin" }]);
    // Run again (every start): nothing changes, nothing is written.
    const changes = (await rowsOf("role.change")).length;
    await ensureAdmin(await getAuth(), database.db, "nuevo-equipo@example.com");
    expect(await rowsOf("role.change")).toHaveLength(changes);
  });

  it("an enquiry marked handled and pending again", async () => {
    const [inquiry] = await database.db
      .insert(contactInquiries)
      .values({ name: "Eva", email: "eva@example.com", service: "ia", message: "Una consulta." })
      .returning();
    const mark = (intent: string) =>
      adminAction(formPost("/admin?tab=consultas", { intent, inquiryId: inquiry!.id }), support);
    await mark("inquiry-handled");
    await mark("inquiry-handled"); // Already handled: no change, no row.
    await mark("inquiry-pending");
    const rows = await database.db
      .select({ action: staffAuditLog.action, actor: staffAuditLog.actorEmail })
      .from(staffAuditLog)
      .where(eq(staffAuditLog.targetId, inquiry!.id))
      .orderBy(asc(staffAuditLog.id));
    expect(rows).toEqual([
      { action: "enquiry.handled", actor: support.email },
      { action: "enquiry.pending", actor: support.email },
    ]);
  });

  it("a ticket's reply, status and priority; and no reply without its row", async () => {
    const customer = await signedInCustomer("cliente-ticket@example.com", {
      clientAddress: "192.0.2.141",
    });
    const party = await partyOf("cliente-ticket@example.com", customer.cookie);
    const opened = await createTicketAction(
      formPost(
        "/mi-cuenta/tickets/nuevo",
        {
          subject: "No puedo entrar",
          category: "consulta_tecnica",
          priority: "medium",
          message: "No puedo entrar en mi cuenta desde ayer.",
        },
        customer.cookie,
      ),
      party.viewer,
    );
    const ticketId = (opened as Response).headers.get("Location")!.split("/").pop()!;
    const post = (fields: Record<string, string>) =>
      staffTicketAction(formPost(`/admin/tickets/${ticketId}`, fields), support, ticketId);
    await post({ intent: "reply", message: "Ya lo hemos revisado: prueba ahora." });
    await post({ intent: "update", status: "resolved", priority: "high" });
    await post({ intent: "update", status: "resolved", priority: "low" });
    const rows = await database.db
      .select({ action: staffAuditLog.action, details: staffAuditLog.details })
      .from(staffAuditLog)
      .where(eq(staffAuditLog.targetId, ticketId))
      .orderBy(asc(staffAuditLog.id));
    expect(rows.map((row) => row.action)).toEqual([
      "ticket.reply",
      "ticket.status",
      "ticket.priority",
      "ticket.priority",
    ]);
    expect(rows[0]!.details).toMatchObject({ adjuntos: 0 });
    // After the reply the ticket was in progress.
    expect(rows[1]!.details).toMatchObject({ from: "in_progress", to: "resolved" });
    expect(rows[3]!.details).toMatchObject({ from: "high", to: "low" });

    // The row is written in the reply's transaction: if it cannot be, there is no reply either.
    await database.db.execute(
      sql`alter table staff_audit_log add constraint no_replies_for_now check (action <> 'ticket.reply') not valid`,
    );
    try {
      const messages = async () =>
        (
          await database.db
            .select()
            .from(ticketMessages)
            .where(eq(ticketMessages.ticketId, ticketId))
        ).length;
      const before = await messages();
      const answer = (await post({
        intent: "reply",
        message: "Esta respuesta no debe quedar.",
      })) as {
        init: { status?: number } | null;
      };
      expect(answer.init?.status).toBe(503);
      expect(await messages()).toBe(before);
    } finally {
      await database.db.execute(
        sql`alter table staff_audit_log drop constraint no_replies_for_now`,
      );
    }
  });

  it("a delivery change and a refund, with the payment as target", async () => {
    const { purchase, status } = await paidPurchase(
      database.db,
      { provider: "simulated" },
      { email: "reembolso@example.com", paymentIntent: `pi_${randomUUID()}` },
    );
    expect(status).toBe(200);
    const [payment] = await database.db
      .select()
      .from(payments)
      .where(eq(payments.purchaseId, purchase.id));
    const post = (fields: Record<string, string>) =>
      staffPaymentAction(
        formPost(`/admin/pagos/${payment!.id}`, fields, sessionOf.get(finance.id)),
        finance,
        payment!.id,
      );
    expect(
      ((await post({ intent: "delivery", deliveryStatus: "in_progress" })) as Response).status,
    ).toBe(302);
    expect(await lastOf("payment.delivery")).toMatchObject({
      actorId: finance.id,
      actorRole: "finance",
      targetId: payment!.id,
      details: { from: "pending", to: "in_progress", compra: purchase.id },
    });
    const refund = await post({ intent: "refund", reason: "Servicio no prestado", confirm: "yes" });
    expect((refund as Response).status).toBe(302);
    expect(await lastOf("payment.refund")).toMatchObject({
      actorId: finance.id,
      targetId: payment!.id,
      details: { motivo: "Servicio no prestado", importe: "149,00€", proveedor: "simulated" },
    });
    expect(await rowsOf("payment.refund_failed")).toEqual([]);
  });

  it("a refund the provider could not make: its request and its failure", async () => {
    const { purchase } = await paidPurchase(
      database.db,
      { provider: "simulated" },
      { email: "sin-simulador@example.com", paymentIntent: `pi_${randomUUID()}` },
    );
    const [payment] = await database.db
      .select()
      .from(payments)
      .where(eq(payments.purchaseId, purchase.id));
    // With a Stripe key the simulator is off: a simulated purchase cannot be refunded.
    process.env.STRIPE_SECRET_KEY = "sk_test_sin_simulador";
    resetConfigForTests();
    try {
      const answer = (await staffPaymentAction(
        formPost(
          `/admin/pagos/${payment!.id}`,
          {
            intent: "refund",
            reason: "Prueba sin simulador",
            confirm: "yes",
          },
          sessionOf.get(finance.id),
        ),
        finance,
        payment!.id,
      )) as { init: { status?: number } | null };
      expect(answer.init?.status).toBe(502);
    } finally {
      delete process.env.STRIPE_SECRET_KEY;
      resetConfigForTests();
    }
    const rows = await database.db
      .select({ action: staffAuditLog.action, details: staffAuditLog.details })
      .from(staffAuditLog)
      .where(eq(staffAuditLog.targetId, payment!.id))
      .orderBy(asc(staffAuditLog.id));
    expect(rows).toEqual([
      {
        action: "payment.refund",
        details: { motivo: "Prueba sin simulador", importe: "149,00€", proveedor: "simulated" },
      },
      { action: "payment.refund_failed", details: { proveedor: "simulated" } },
    ]);
  });

  it("an anulación of a Verifactu record", async () => {
    const { purchase } = await paidPurchase(
      database.db,
      { provider: "simulated" },
      { email: "anular@example.com" },
    );
    // Only an invoice whose sale was never charged is annulled (decision 064).
    await database.db
      .update(purchases)
      .set({ status: "failed" })
      .where(eq(purchases.id, purchase.id));
    const [record] = await database.db
      .select()
      .from(verifactuRecords)
      .where(eq(verifactuRecords.kind, "alta"))
      .orderBy(sql`${verifactuRecords.id} desc`)
      .limit(1);
    const cancellation = formPost(
      "/admin/verifactu",
      {
        intent: "cancel-record",
        recordId: String(record!.id),
        confirm: "yes",
        reason: "Factura de una compra que no llegó a cobrarse",
      },
      sessionOf.get(finance.id),
    );
    const answer = await verifactuAction(cancellation, staffDesk(cancellation, finance));
    expect((answer as Response).status).toBe(302);
    expect(await lastOf("verifactu.cancel")).toMatchObject({
      actorId: finance.id,
      targetId: String(record!.id),
      details: {
        factura: record!.invoiceNumber,
        motivo: "Factura de una compra que no llegó a cobrarse",
      },
    });
  });

  it("every export, with its filters", async () => {
    const site = getConfig().siteUrl;
    await (
      await staffExport(
        new URL(`${site}/admin/exportar?tab=tickets&q=entrar&orden=vencidos`),
        support,
      )
    ).text();
    expect(await lastOf("export.csv")).toMatchObject({
      actorId: support.id,
      details: { tab: "tickets", q: "entrar", estado: null, orden: "vencidos" },
    });
    await (
      await staffInvoiceBookDownload(
        new URL(`${site}/admin/libro-facturas?desde=2026-01-01&hasta=2026-03-31&formato=xlsx`),
        finance,
      )
    ).arrayBuffer();
    expect(await lastOf("export.invoice_book")).toMatchObject({
      actorId: finance.id,
      details: { desde: "2026-01-01", hasta: "2026-03-31", formato: "xlsx" },
    });
    await (await verifactuExportAs(finance, "?desde=2026-02-01&hasta=2026-02-28")).text();
    expect(await lastOf("export.verifactu")).toMatchObject({
      details: { desde: "2026-02-01", hasta: "2026-02-28" },
    });
    // A period that is none is refused, and exports nothing to record.
    const refused = await verifactuExportAs(finance, "");
    expect(refused.status).toBe(400);
    expect(await rowsOf("export.verifactu")).toHaveLength(1);
    await (
      await auditLogExport(new URL(`${site}/admin/auditoria/exportar?accion=role.change`), admin)
    ).text();
    expect(await lastOf("export.audit")).toMatchObject({
      actorId: admin.id,
      details: { accion: "role.change", quien: null, desde: null, hasta: null },
    });
  });
});

describe("the audit page", () => {
  const page = (query: string) =>
    auditLogPage(new URL(`${getConfig().siteUrl}/admin/auditoria${query}`));

  it("filters by who, by action and by Madrid day, newest first", async () => {
    const bySupport = await page(`?quien=${encodeURIComponent("soporte-aud")}`);
    expect(bySupport.rows.length).toBeGreaterThan(0);
    expect(bySupport.rows.every((row) => row.actorEmail === support.email)).toBe(true);
    const refunds = await page("?accion=payment.refund");
    // The refund made and the one the provider failed.
    expect(refunds.rows.map((row) => row.action)).toEqual(["payment.refund", "payment.refund"]);
    const newest = (await page("?por=100")).rows;
    for (const [index, row] of newest.slice(1).entries()) {
      const before = newest[index]!;
      expect(
        before.at > row.at || (before.at.getTime() === row.at.getTime() && before.id > row.id),
      ).toBe(true);
    }
    const today = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Madrid" }).format(
      new Date(),
    );
    expect((await page(`?desde=${today}&hasta=${today}&accion=payment.refund`)).rows).toHaveLength(
      2,
    );
    expect((await page(`?hasta=2020-01-01&accion=payment.refund`)).rows).toHaveLength(0);
    // A day that is none is left out, and said so.
    const wrong = await page("?desde=2026-02-30&accion=payment.refund");
    expect(wrong.view.invalid).toEqual(["desde"]);
    expect(wrong.rows).toHaveLength(2);
    // Unknown actions and other text are no filter.
    expect((await page("?accion=borrar-todo")).view.action).toBeNull();
  });

  it("pages like the other lists, the last page for an address beyond it", async () => {
    for (let index = 0; index < 60; index++)
      await recordStaffAction(database.db, {
        actor: { ...finance, email: "paginas@example.com" },
        action: "export.csv",
        details: { n: index },
      });
    const third = await page("?quien=paginas&pagina=3");
    expect(third.page).toMatchObject({ number: 3, size: 25, total: 60, pages: 3, capped: false });
    expect(third.rows).toHaveLength(10);
    expect((await page("?quien=paginas&pagina=99")).page.number).toBe(3);
    expect((await page("?quien=paginas&por=50&pagina=2")).rows).toHaveLength(10);
  });

  it("exports its rows as a semicolon CSV, formulas neutralised", async () => {
    await recordStaffAction(database.db, {
      actor: {
        id: null,
        email: '=HYPERLINK("http://x")@example.com',
        clientAddress: "192.0.2.150",
      },
      action: "staff.sign_in_failed",
      details: { motivo: "wrong_credentials", nota: "a;b" },
    });
    const response = await auditLogExport(
      new URL(`${getConfig().siteUrl}/admin/auditoria/exportar?quien=HYPERLINK`),
      admin,
    );
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toMatch(
      /filename="auditoria-\d{4}-\d{2}-\d{2}\.csv"/,
    );
    const bytes = new Uint8Array(await response.arrayBuffer());
    // The byte order mark a Spanish Excel needs (Response.text() would drop it).
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = new TextDecoder().decode(bytes).trimEnd().split("\r\n");
    expect(lines[0]).toBe(AUDIT_CSV_COLUMNS.join(";"));
    expect(lines).toHaveLength(2);
    const line = lines[1]!;
    expect(line).toContain(`;"'=HYPERLINK(""http://x"")@example.com";`);
    expect(line).toContain(";Inicio de sesión fallido;staff.sign_in_failed;");
    // jsonb keeps its keys shortest first.
    expect(line).toContain(
      `;"Nota: a;b · Motivo: Contraseña incorrecta o cuenta desconocida";192.0.2.150;`,
    );
  });

  it("streams every row of a large export, in order", async () => {
    await database.db.execute(sql`
      insert into staff_audit_log (action, actor_email, details)
      select 'export.csv', 'lote@example.com', jsonb_build_object('n', n) from generate_series(1, 2100) as n`);
    const response = await auditLogExport(
      new URL(`${getConfig().siteUrl}/admin/auditoria/exportar?quien=lote%40example.com`),
      admin,
    );
    const lines = (await response.text()).trimEnd().split("\r\n").slice(1);
    expect(lines).toHaveLength(2100);
    // All share one time (one statement): the id breaks the tie, newest first, none twice.
    const numbers = lines.map((line) => Number(/n: (\d+)/.exec(line)![1]));
    expect(new Set(numbers).size).toBe(2100);
    expect(numbers[0]).toBe(2100);
    expect(numbers.at(-1)).toBe(1);
  });
});

describe("the audit rows outlive their accounts", () => {
  it("keep who acted after the account is deleted", async () => {
    const gone = await staffMember("se-va@example.com", "support", "192.0.2.160");
    await recordStaffAction(database.db, { actor: gone, action: "export.csv" });
    await database.db.delete(users).where(eq(users.id, gone.id));
    const [row] = await database.db
      .select()
      .from(staffAuditLog)
      .where(and(eq(staffAuditLog.actorId, gone.id), eq(staffAuditLog.action, "export.csv")));
    expect(row).toMatchObject({ actorEmail: "se-va@example.com", actorRole: "support" });
  });
});
