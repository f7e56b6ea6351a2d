import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { adminExport, EXPORT_PAGE_ROWS } from "~/features/admin/admin-csv.server";
import { adminAction } from "~/features/admin/admin-actions.server";
import { adminPanel } from "~/features/admin/admin-panel.server";
import {
  sqlCsvText,
  sqlDecimalEuros,
  sqlEuros,
  sqlCsvDateTime,
} from "~/features/admin/tabs/csv-cells.server";
import { SEARCH_COUNT_CAP } from "~/features/admin/tabs/list-query.server";
import { setStaffRole } from "~/features/admin/admin-roles.server";
import type { Staff } from "~/features/identity/session.server";
import { getConfig } from "~/platform/config.server";
import { formatPrice } from "~/features/catalogue/services";
import {
  contactInquiries,
  invoices,
  paymentDayTotals,
  payments,
  purchases,
  supportTickets,
  userActivityLog,
  userRoles,
  users,
} from "~/platform/db/schema";
import { action as panelAction, loader as panelLoader } from "~/routes/admin";
import { loader as exportLoader } from "~/routes/admin-exportar";
import { action as ticketAction, loader as ticketLoader } from "~/routes/admin-ticket";
import { formPost, signedInAdmin, signedInCustomer } from "../support/customer-session";
import { mailsOfKind } from "../support/outbox-records";
import { paidPurchase } from "../support/paid-purchase";
import { setupTestDatabase } from "../support/test-database";

const database = setupTestDatabase();
const site = () => getConfig().siteUrl;

let admin: { cookie: string; userId: string };
let customer: { cookie: string; userId: string };

beforeAll(async () => {
  admin = await signedInAdmin("jefa@example.com");
  customer = await signedInCustomer("cliente-panel@example.com");
});

const staff = (): Staff => ({
  id: admin.userId,
  email: "jefa@example.com",
  emailVerified: true,
  createdAt: new Date().toISOString(),
  role: "admin",
  clientAddress: "192.0.2.9",
  userAgent: "vitest",
});

/** Another account acting as an administrator (the rules, not the guard, are under test). */
const actor = (id: string): Staff => ({ ...staff(), id, email: `${id}@example.com` });

/** What a route answers, thrown or returned. */
async function answerOf(run: () => unknown): Promise<Response> {
  try {
    const answer = await run();
    if (answer instanceof Response) return answer;
    const init = (answer as { init?: ResponseInit }).init;
    return new Response(JSON.stringify((answer as { data?: unknown }).data ?? answer), {
      status: init?.status ?? 200,
    });
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

/** A form the administrator posts to the panel's action. */
const staffPost = (path: string, fields: Record<string, string>) =>
  answerOf(() => adminAction(formPost(path, fields, admin.cookie), staff()));

const get = (path: string, cookie = "") =>
  new Request(`${site()}${path}`, {
    headers: { Cookie: cookie, "Sec-Fetch-Site": "same-origin" },
  });
const context = { clientAddress: "192.0.2.9" } as never;

describe("every admin loader and action", () => {
  const ticketId = "0b6f3c2e-4a1d-4e5f-9a7b-1c2d3e4f5a6b";
  const calls = {
    "GET /admin": (cookie: string) =>
      panelLoader({ request: get("/admin?tab=pagos", cookie), params: {}, context } as never),
    "POST /admin": (cookie: string) =>
      panelAction({
        request: formPost(
          "/admin?tab=usuarios",
          { intent: "set-role", userId: customer.userId, role: "admin", confirm: "yes" },
          cookie,
        ),
        params: {},
        context,
      } as never),
    "GET /admin/exportar": (cookie: string) =>
      exportLoader({
        request: get("/admin/exportar?tab=pagos", cookie),
        params: {},
        context,
      } as never),
    "GET /admin/tickets/:id": (cookie: string) =>
      ticketLoader({
        request: get(`/admin/tickets/${ticketId}`, cookie),
        params: { ticketId },
        context,
      } as never),
    "POST /admin/tickets/:id": (cookie: string) =>
      ticketAction({
        request: formPost(
          `/admin/tickets/${ticketId}`,
          { intent: "reply", message: "Hola, ya está." },
          cookie,
        ),
        params: { ticketId },
        context,
      } as never),
  };

  for (const [index, [name, call]] of Object.entries(calls).entries()) {
    it(`${name}: sends a visitor without a session to /login`, async () => {
      const answer = await answerOf(() => call(""));
      expect(answer.status).toBe(302);
      expect(answer.headers.get("Location")).toBe("/login");
    });

    it(`${name}: refuses a signed-in customer, who is sent to /login`, async () => {
      const { cookie } = await signedInCustomer(`intruso-${index}@example.com`, {
        clientAddress: `192.0.2.${100 + index}`,
      });
      const answer = await answerOf(() => call(cookie));
      expect(answer.status).toBe(302);
      expect(answer.headers.get("Location")).toBe("/login");
      // Nothing was granted on the way.
      const roles = await database.db
        .select()
        .from(userRoles)
        .where(eq(userRoles.userId, customer.userId));
      expect(roles).toEqual([]);
    });
  }
});

describe("staff roles", () => {
  const roleChange = (userId: string, role: string, path = "/admin?tab=usuarios") =>
    staffPost(path, { intent: "set-role", userId, role, confirm: "yes" });
  const rolesOf = (userId: string) =>
    database.db.select().from(userRoles).where(eq(userRoles.userId, userId));

  it("are never taken from the last administrator, nor by oneself", async () => {
    const admins = await database.db.select().from(userRoles).where(eq(userRoles.role, "admin"));
    expect(admins.map((row) => row.userId)).toEqual([admin.userId]);
    // Someone else asking (a script, a stale page): the rule, not the guard, says no.
    for (const role of [null, "support", "finance"] as const)
      expect(await setStaffRole(database.db, actor(customer.userId), admin.userId, role)).toEqual({
        ok: false,
        reason: "lastAdmin",
      });
    expect(await setStaffRole(database.db, staff(), admin.userId, null)).toEqual({
      ok: false,
      reason: "ownRole",
    });
    const answer = await roleChange(admin.userId, "");
    expect(answer.status).toBe(409);
    expect(await rolesOf(admin.userId)).toHaveLength(1);
  });

  it("are given only to a verified account, one at a time, and every change is logged", async () => {
    const unverified = await signedInCustomer("sin-verificar@example.com", { verified: false });
    expect(await setStaffRole(database.db, staff(), unverified.userId, "support")).toEqual({
      ok: false,
      reason: "unverifiedStaff",
    });
    const granted = await roleChange(customer.userId, "support", "/admin?tab=usuarios&q=cliente");
    expect(granted.status).toBe(302);
    expect(granted.headers.get("Location")).toBe("/admin?tab=usuarios&q=cliente");
    expect((await rolesOf(customer.userId)).map((row) => row.role)).toEqual(["support"]);
    // Another role replaces it: one role per account.
    expect((await roleChange(customer.userId, "finance")).status).toBe(302);
    expect((await rolesOf(customer.userId)).map((row) => row.role)).toEqual(["finance"]);
    // The same role again changes nothing and logs nothing.
    expect((await roleChange(customer.userId, "finance")).status).toBe(302);
    const revoked = await roleChange(customer.userId, "");
    expect(revoked.status).toBe(302);
    const log = await database.db
      .select({ type: userActivityLog.activityType, metadata: userActivityLog.metadata })
      .from(userActivityLog)
      .where(eq(userActivityLog.userId, customer.userId))
      .orderBy(userActivityLog.createdAt);
    expect(log).toEqual([
      { type: "staff_role_granted", metadata: { by: admin.userId, from: null, to: "support" } },
      {
        type: "staff_role_granted",
        metadata: { by: admin.userId, from: "support", to: "finance" },
      },
      { type: "staff_role_revoked", metadata: { by: admin.userId, from: "finance", to: null } },
    ]);
    expect(await rolesOf(customer.userId)).toEqual([]);
    // Issue 39, item 5: each change told the account, by mail; the repeated one told nothing.
    const told = (await mailsOfKind(database.db, "staff-role-changed"))
      .filter((mail) => mail.recipient === "cliente-panel@example.com")
      .map((mail) => [mail.subject, mail.text]);
    const brand = getConfig().company.brandName;
    expect(told.map(([subject]) => subject)).toEqual([
      `Ya formas parte del equipo de ${brand}`,
      `Tu rol en el equipo de ${brand} ha cambiado`,
      `Ya no tienes acceso al panel de ${brand}`,
    ]);
    expect(told[0]![1]).toContain("te ha dado el rol Soporte");
    expect(told[0]![1]).toContain(`${getConfig().siteUrl}/login`);
    expect(told[1]![1]).toContain("antes Soporte, ahora Finanzas");
    expect(told[2]![1]).toContain("Tu cuenta sigue activa como cuenta de cliente.");
    // The database holds one role per account, and only the three staff roles.
    await database.db.insert(userRoles).values({ userId: customer.userId, role: "support" });
    await expect(
      database.db.insert(userRoles).values({ userId: customer.userId, role: "finance" }),
    ).rejects.toThrow();
    await expect(
      database.db.execute(
        sql`insert into user_roles (user_id, role) values (${unverified.userId}, 'superadmin')`,
      ),
    ).rejects.toThrow();
    await database.db.delete(userRoles).where(eq(userRoles.userId, customer.userId));
  });

  it("refuse a change without its confirmation, or a role that does not exist", async () => {
    const unconfirmed = await staffPost("/admin?tab=usuarios", {
      intent: "set-role",
      userId: customer.userId,
      role: "support",
    });
    expect(unconfirmed.status).toBe(400);
    expect(await roleChange(customer.userId, "superadmin")).toHaveProperty("status", 400);
    expect(await rolesOf(customer.userId)).toEqual([]);
  });

  it("survive two administrators demoting each other at once: one always stays", async () => {
    const pair = await Promise.all(
      ["primera", "segunda"].map(async (name) => {
        const [user] = await database.db
          .insert(users)
          .values({ id: `admin-${name}`, name, email: `${name}@example.com`, emailVerified: true })
          .returning();
        return user!.id;
      }),
    );
    const [first, second] = pair as [string, string];
    // Many rounds: without the lock, two demotions that read before either writes leave none.
    for (let round = 0; round < 25; round++) {
      await database.db.delete(userRoles);
      await database.db
        .insert(userRoles)
        .values(pair.map((userId) => ({ userId, role: "admin" as const })));
      const results = await Promise.all([
        setStaffRole(database.db, actor(first), second, round % 2 ? null : "finance"),
        setStaffRole(database.db, actor(second), first, round % 2 ? "support" : null),
      ]);
      expect(
        results.filter((result) => !result.ok),
        `round ${round}`,
      ).toEqual([{ ok: false, reason: "lastAdmin" }]);
      expect(
        await database.db.select().from(userRoles).where(eq(userRoles.role, "admin")),
      ).toHaveLength(1);
    }
    await database.db.delete(userRoles);
    await database.db.insert(userRoles).values({ userId: admin.userId, role: "admin" });
  });

  it("refuse ids that are no account", async () => {
    for (const userId of ["", "' or 1=1 --", "x".repeat(65)]) {
      const answer = await roleChange(userId, "support");
      expect(answer.status, userId).toBe(400);
    }
    const missing = await roleChange("no-existe", "support");
    expect(missing.status).toBe(404);
  });
});

describe("an enquiry's handled state", () => {
  it("is set and cleared by staff, and filters the list", async () => {
    const [inquiry] = await database.db
      .insert(contactInquiries)
      .values({
        name: "Marta",
        email: "marta@example.com",
        service: "ia",
        message: "¿Podéis ayudarme con IA?",
      })
      .returning();
    const post = (intent: string, inquiryId = inquiry!.id) =>
      staffPost(`/admin?tab=consultas&consulta=${inquiryId}`, { intent, inquiryId });
    const pendingBefore = await adminPanel(new URL(`${site()}/admin?tab=consultas&estado=pending`));
    expect(pendingBefore.listing!.rows.map((row) => row.id)).toContain(inquiry!.id);

    const handled = await post("inquiry-handled");
    expect(handled.status).toBe(302);
    expect(handled.headers.get("Location")).toBe(`/admin?tab=consultas&consulta=${inquiry!.id}`);
    const [afterHandled] = await database.db
      .select()
      .from(contactInquiries)
      .where(eq(contactInquiries.id, inquiry!.id));
    expect(afterHandled!.handledBy).toBe(admin.userId);
    expect(afterHandled!.handledAt).toBeInstanceOf(Date);

    const handledList = await adminPanel(
      new URL(`${site()}/admin?tab=consultas&estado=handled&consulta=${inquiry!.id}`),
    );
    expect(handledList.listing!.rows.map((row) => row.id)).toEqual([inquiry!.id]);
    expect(handledList.inquiry!.id).toBe(inquiry!.id);

    expect((await post("inquiry-pending")).status).toBe(302);
    const [afterPending] = await database.db
      .select()
      .from(contactInquiries)
      .where(eq(contactInquiries.id, inquiry!.id));
    expect(afterPending!.handledAt).toBeNull();

    expect((await post("inquiry-handled", "0b6f3c2e-4a1d-4e5f-9a7b-1c2d3e4f5a6b")).status).toBe(
      404,
    );
    expect((await post("inquiry-handled", "no-es-un-id")).status).toBe(400);
    expect((await post("borrar-todo")).status).toBe(400);
  });
});

async function insertPayments(
  count: number,
  { email = "lote@example.com", status = "completed" } = {},
) {
  await database.db.execute(sql`
    with made as (
      insert into ${purchases} (user_id, service_id, service_name, price, status, provider, created_at)
      select null, 4, 'Ciberseguridad', 44900, ${status}, 'simulated', now() - make_interval(mins => n)
      from generate_series(1, ${count}) as n
      returning id, created_at
    )
    insert into ${payments} (purchase_id, customer_email, service_name, amount, status, created_at)
    select id, ${email}, 'Ciberseguridad', 44900, ${status}, created_at from made`);
}

describe("the lists at scale", () => {
  it("page on the server with an exact total, and a page past the end shows the last", async () => {
    await insertPayments(60, { email: "paginas@example.com", status: "failed" });
    const page = (query: string) =>
      adminPanel(new URL(`${site()}/admin?tab=pagos&estado=failed${query}`));
    const third = await page("&pagina=3");
    expect(third.listing!.page).toEqual({
      number: 3,
      size: 25,
      total: 60,
      totalCapped: false,
      pages: 3,
    });
    expect(third.listing!.rows).toHaveLength(10);
    const all = [
      ...(await page("")).listing!.rows,
      ...(await page("&pagina=2")).listing!.rows,
      ...third.listing!.rows,
    ].map((row) => row.id);
    expect(new Set(all).size).toBe(60);
    const beyond = await page("&pagina=999");
    expect(beyond.listing!.page.number).toBe(3);
    expect(beyond.view.page).toBe(3);
    expect((await page("&por=50&pagina=2")).listing!.rows).toHaveLength(10);
  });

  it(`count a search up to ${SEARCH_COUNT_CAP} and then say "more than"`, async () => {
    await insertPayments(SEARCH_COUNT_CAP + 5, { email: "muchos@example.com" });
    await insertPayments(5_001, { email: "lote-grande@example.com" });
    const searched = await adminPanel(new URL(`${site()}/admin?tab=pagos&q=muchos`));
    expect(searched.listing!.page).toMatchObject({ total: SEARCH_COUNT_CAP, totalCapped: true });
    const exact = await adminPanel(new URL(`${site()}/admin?tab=pagos&q=paginas`));
    expect(exact.listing!.page).toMatchObject({ total: 60, totalCapped: false });
  });

  it("page 'Vencidos primero' as one queue: overdue by due time, then the rest newest first", async () => {
    await database.db.execute(sql`
      insert into ${supportTickets} (ticket_number, user_id, subject, category, priority, status,
        first_response_due_at, first_staff_reply_at, created_at)
      select 'TK-2099-' || lpad(n::text, 6, '0'), ${customer.userId}, 'Cola ' || n, 'consulta_tecnica',
        'medium', (array['open', 'in_progress', 'resolved', 'open'])[1 + n % 4],
        now() + make_interval(hours => (n * 7) % 61 - 30),
        case when n % 5 = 0 then now() end,
        now() - make_interval(mins => (n * 13) % 97)
      from generate_series(1, 70) as n`);
    const queue = async (page: number) =>
      (
        await adminPanel(
          new URL(`${site()}/admin?tab=tickets&q=Cola&orden=vencidos&pagina=${page}`),
        )
      ).listing!.rows as {
        ticketNumber: string;
        overdue: boolean;
        firstResponseDueAt: Date;
        createdAt: Date;
      }[];
    const paged = [...(await queue(1)), ...(await queue(2)), ...(await queue(3))];
    expect(paged).toHaveLength(70);
    const expected = [...paged].sort(
      (a, b) =>
        Number(b.overdue) - Number(a.overdue) ||
        (a.overdue ? a.firstResponseDueAt.getTime() - b.firstResponseDueAt.getTime() : 0) ||
        b.createdAt.getTime() - a.createdAt.getTime() ||
        b.ticketNumber.localeCompare(a.ticketNumber),
    );
    expect(paged.map((row) => row.ticketNumber)).toEqual(expected.map((row) => row.ticketNumber));
    expect(paged.filter((row) => row.overdue).length).toBeGreaterThan(5);
    expect(paged.filter((row) => !row.overdue).length).toBeGreaterThan(5);
  });

  it("keep the per-day totals in step with every payment change", async () => {
    const totalsOf = async (status: string) => {
      const [row] = await database.db
        .select({
          payments: sql<number>`coalesce(sum(${paymentDayTotals.payments}), 0)`.mapWith(Number),
          amount: sql<number>`coalesce(sum(${paymentDayTotals.amount}), 0)`.mapWith(Number),
        })
        .from(paymentDayTotals)
        .where(eq(paymentDayTotals.status, status));
      const [live] = await database.db
        .select({
          payments: sql<number>`count(*)`.mapWith(Number),
          amount: sql<number>`coalesce(sum(${payments.amount}), 0)`.mapWith(Number),
        })
        .from(payments)
        .where(eq(payments.status, status as never));
      return { kept: row, live };
    };
    await insertPayments(3, { email: "cambios@example.com", status: "pending" });
    await database.db
      .update(payments)
      .set({ status: "completed" })
      .where(and(eq(payments.customerEmail, "cambios@example.com")));
    await database.db
      .update(payments)
      .set({ status: "refunded" })
      .where(
        eq(
          payments.id,
          sql`(select id from ${payments} where ${payments.customerEmail} = 'cambios@example.com' limit 1)`,
        ),
      );
    for (const status of ["pending", "completed", "refunded", "failed"]) {
      const { kept, live } = await totalsOf(status);
      expect(kept, status).toEqual(live);
    }
    const { dashboard } = await adminPanel(new URL(`${site()}/admin`));
    const completed = await totalsOf("completed");
    expect(dashboard!.revenueCents).toBe(completed.live!.amount);
    expect(dashboard!.orders).toBe(completed.live!.payments);
    expect(dashboard!.averageOrderCents).toBe(
      Math.round(completed.live!.amount / completed.live!.payments),
    );
    expect(dashboard!.daily).toHaveLength(90);
    expect(dashboard!.daily.reduce((sum, day) => sum + day.orders, 0)).toBe(
      completed.live!.payments,
    );
    expect(dashboard!.daily.at(-1)!.day).toBe(
      new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Madrid" }).format(new Date()),
    );
  });
});

describe("the CSV export", () => {
  it("writes dates as a spreadsheet reads them, on Madrid's clock in summer and winter time", async () => {
    const moments = {
      "2026-01-02T08:05:00Z": "02/01/2026 09:05",
      "2026-11-22T23:30:00Z": "23/11/2026 00:30",
      "2026-03-29T00:59:00Z": "29/03/2026 01:59",
      "2026-03-29T01:00:00Z": "29/03/2026 03:00",
      "2026-10-25T00:59:00Z": "25/10/2026 02:59",
      "2026-10-25T01:01:00Z": "25/10/2026 02:01",
      "2027-12-31T23:59:59Z": "01/01/2028 00:59",
    };
    for (const [moment, text] of Object.entries(moments)) {
      const [row] = await database.db
        .select({ text: sqlCsvDateTime(sql`${moment}::timestamptz`) })
        .from(sql`(select 1) as one`);
      expect(row!.text, moment).toBe(text);
    }
  });

  it("writes cells in the database: quoted when needed, never a formula, euros as the panel", async () => {
    const cellOf = async (value: string) => {
      const [row] = await database.db
        .select({ cell: sqlCsvText(sql`${value}::text`) })
        .from(sql`(select 1) as one`);
      return row!.cell;
    };
    expect(await cellOf('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(await cellOf('Hola; "precio"\ny plazos')).toBe(`"Hola; ""precio""\ny plazos"`);
    for (const start of ["=", "+", "-", "@"])
      expect(await cellOf(`${start}1+1`)).toBe(`'${start}1+1`);
    expect(await cellOf("\t=1")).toBe("'\t=1");
    expect(await cellOf("\r=1")).toBe(`"'\r=1"`);
    expect(await cellOf("ana=1")).toBe("ana=1");
    expect(await cellOf("Ñandú, 'ok'")).toBe("Ñandú, 'ok'");

    for (const cents of [0, 5, 90, 44_900, 999_999, 1_000_000, 123_456_789, -44_900, -1_000_050]) {
      const [row] = await database.db
        .select({ text: sqlEuros(sql`${cents}::bigint`) })
        .from(sql`(select 1) as one`);
      expect(row!.text, String(cents)).toBe(formatPrice(cents, { cents: "always" }));
    }
    const decimals = await database.db
      .select({
        some: sqlDecimalEuros(sql`123456789::bigint`),
        small: sqlDecimalEuros(sql`5::integer`),
        negative: sqlDecimalEuros(sql`-44900::integer`),
        none: sqlDecimalEuros(sql`null::integer`),
      })
      .from(sql`(select 1) as one`);
    expect(decimals[0]).toEqual({
      some: "1234567,89",
      small: "0,05",
      negative: "-449,00",
      none: "",
    });
  });

  it("exports a paid payment with its invoice's number, base and IVA as numbers", async () => {
    const { purchase } = await paidPurchase(
      database.db,
      { serviceId: 4, serviceName: "Ciberseguridad", price: 44_900 },
      { email: "factura-csv@example.com" },
    );
    const [invoice] = await database.db
      .select()
      .from(invoices)
      .where(eq(invoices.purchaseId, purchase.id));
    const response = await adminExport(
      new URL(`${site()}/admin/exportar?tab=pagos&q=factura-csv%40example`),
    );
    const [header, line] = (await response.text())
      .replace(/^\uFEFF/, "")
      .trimEnd()
      .split("\r\n");
    expect(header).toBe("Fecha;Email;Servicio;Factura;Base imponible (€);IVA (€);Total (€);Estado");
    expect(line!.split(";").slice(1)).toEqual([
      "factura-csv@example.com",
      "Ciberseguridad",
      invoice!.number,
      "371,07",
      "77,93",
      "449,00",
      "Completado",
    ]);
  });

  it("pages by keyset without losing or repeating rows that share a timestamp", async () => {
    const rows = EXPORT_PAGE_ROWS * 2 + 1;
    await database.db.execute(sql`
      with made as (
        insert into ${purchases} (user_id, service_id, service_name, price, status, provider, created_at)
        select null, 4, 'Ciberseguridad', 44900, 'completed', 'simulated', '2026-06-01 10:00:00.123456+00'
        from generate_series(1, ${rows}) as n
        returning id, created_at
      )
      insert into ${payments} (purchase_id, customer_email, service_name, amount, status, created_at)
      select id, 'empate-' || row_number() over () || '@example.com', 'Ciberseguridad', 44900,
        'completed', created_at from made`);
    const response = await adminExport(new URL(`${site()}/admin/exportar?tab=pagos&q=empate-`));
    const lines = (await response.text()).trimEnd().split("\r\n").slice(1);
    expect(lines).toHaveLength(rows);
    expect(new Set(lines.map((line) => line.split(";")[1])).size).toBe(rows);
    expect(lines[0]).toBe(
      "01/06/2026 12:00;" + lines[0]!.split(";")[1] + ";Ciberseguridad;;;;449,00;Completado",
    );
  });

  it("streams exactly the filtered rows, with formulas neutralised", async () => {
    await database.db.insert(contactInquiries).values(
      ["=cmd|' /C calc'!A0", "+SUM(A1)", "-2+3", "@HYPERLINK(1)"].map((name) => ({
        name,
        email: "formula@example.com",
        service: "otro",
        message: "Un mensaje con fórmula en el nombre.",
      })),
    );
    const response = await exportLoader({
      request: get("/admin/exportar?tab=consultas&q=formula%40example", admin.cookie),
      params: {},
      context,
    } as never);
    expect(response.headers.get("X-Total-Rows")).toBe("4");
    const lines = (await response.text())
      .replace(/^\uFEFF/, "")
      .trimEnd()
      .split("\r\n");
    expect(lines).toHaveLength(5);
    for (const line of lines.slice(1)) expect(line.split(";")[1]).toMatch(/^"?'[=+\-@]/);

    const payments = await adminExport(
      new URL(`${site()}/admin/exportar?tab=pagos&estado=failed&q=paginas`),
    );
    const paymentLines = (await payments.text()).trimEnd().split("\r\n");
    expect(paymentLines).toHaveLength(61);
    expect(paymentLines.slice(1).every((line) => line.includes(";paginas@example.com;"))).toBe(
      true,
    );
  });

  it("streams a list larger than one cursor batch, all of it, in order", async () => {
    const response = await adminExport(new URL(`${site()}/admin/exportar?tab=pagos&q=lote-grande`));
    // More matches than a search counts: the download cannot give a percentage.
    expect(response.headers.get("X-Total-Rows")).toBeNull();
    const lines = (await response.text()).trimEnd().split("\r\n");
    expect(lines).toHaveLength(5_001 + 1);
    expect(lines.slice(1).every((line) => line.includes(";lote-grande@example.com;"))).toBe(true);
  });

  it("is refused to anyone but staff before a byte is read", async () => {
    const answer = await answerOf(() =>
      exportLoader({
        request: get("/admin/exportar?tab=usuarios", customer.cookie),
        params: {},
        context,
      } as never),
    );
    expect(answer.status).toBe(302);
    expect(
      await database.db.select().from(users).where(eq(users.id, customer.userId)),
    ).toHaveLength(1);
  });
});
