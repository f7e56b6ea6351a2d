import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { sectionsFor } from "~/features/admin/admin-tabs";
import type { SignInFailure } from "~/features/accounts/staff-sign-ins.server";
import {
  actorRoleLabels,
  auditDetailsText,
  auditValueLabels,
} from "~/features/audit/audit-actions";
import { deliveryStatuses, deliveryStatusLabel } from "~/features/payments/after-sale-status";
import {
  priorityLabel,
  ticketPriorities,
  ticketStatuses,
  ticketStatusLabel,
} from "~/features/support/ticket-rules";
import {
  accountRoleLabel,
  staffCan,
  staffCapabilities,
  staffRoleLabels,
  staffRoles,
  type StaffCapability,
  type StaffRole,
} from "~/features/identity/staff-roles";
import { getConfig } from "~/platform/config.server";
import { userRoles } from "~/platform/db/schema";
import * as adminRoute from "~/routes/admin";
import * as auditRoute from "~/routes/admin-auditoria";
import * as auditExportRoute from "~/routes/admin-auditoria-exportar";
import * as exportRoute from "~/routes/admin-exportar";
import * as invoiceRoute from "~/routes/admin-factura";
import * as invoiceBookRoute from "~/routes/admin-libro-facturas";
import * as paymentRoute from "~/routes/admin-pago";
import * as ticketRoute from "~/routes/admin-ticket";
import * as verifactuRoute from "~/routes/admin-verifactu";
import * as declarationRoute from "~/routes/admin-verifactu-declaracion";
import * as verifactuExportRoute from "~/routes/admin-verifactu-exportar";
import { enrolTotp, formPost, signedInAdmin, signedInCustomer } from "../support/customer-session";
import { setupTestDatabase } from "../support/test-database";

/**
 * Issue 26, item 2: least privilege for staff. One table says which role may do what
 * (identity/staff-roles.ts); every staff loader and action asks it, and a role without the
 * capability gets 403 before anything is read or changed (decision 043).
 */
const database = setupTestDatabase();

const everyCapability = Object.keys(staffCapabilities) as StaffCapability[];

/** What each role may do: the words, written out once more to hold the table to them. */
const expected: Record<StaffRole, StaffCapability[]> = {
  support: [
    "enquiries.view",
    "enquiries.handle",
    "enquiries.export",
    "tickets.view",
    "tickets.answer",
    "tickets.export",
    "customers.view",
  ],
  finance: [
    "dashboard.view",
    "customers.view",
    "customers.export",
    "payments.view",
    "payments.refund",
    "payments.delivery",
    "payments.export",
    "analytics.view",
    "verifactu.view",
    "verifactu.manage",
    "verifactu.export",
  ],
  admin: everyCapability,
};

describe("the capability table", () => {
  it("gives each role exactly its capabilities, and a customer none", () => {
    for (const role of staffRoles)
      expect(
        everyCapability.filter((capability) => staffCan(role, capability)),
        role,
      ).toEqual(expected[role]);
    for (const nobody of [null, undefined])
      expect(everyCapability.filter((capability) => staffCan(nobody, capability))).toEqual([]);
    // Never by accident: a value that is no role has nothing.
    expect(staffCan("superadmin" as StaffRole, "payments.refund")).toBe(false);
  });

  it("keeps money, roles and the audit log away from support, and roles from finance", () => {
    for (const capability of everyCapability.filter((each) =>
      /^(payments|verifactu|analytics|dashboard|users|roles|audit)\./.test(each),
    ))
      expect(staffCan("support", capability), capability).toBe(false);
    expect(staffCan("support", "customers.export")).toBe(false);
    for (const capability of ["roles.manage", "users.view", "audit.view"] as const)
      expect(staffCan("finance", capability), capability).toBe(false);
  });

  it("shows each role only the sections it may open", () => {
    const ids = (role: StaffRole | null) => sectionsFor(role).map((section) => section.id);
    expect(ids("support")).toEqual(["consultas", "tickets", "clientes"]);
    expect(ids("finance")).toEqual(["dashboard", "pagos", "clientes", "analitica", "verifactu"]);
    expect(ids("admin")).toEqual([
      "dashboard",
      "consultas",
      "pagos",
      "tickets",
      "usuarios",
      "clientes",
      "analitica",
      "verifactu",
      "auditoria",
    ]);
    expect(ids(null)).toEqual([]);
  });

  it("names the roles in the audit log as identity does", () => {
    expect(actorRoleLabels).toEqual(staffRoleLabels);
  });

  it("words the audit log's changes as their owners do: tickets, deliveries (issue 39, item 8)", () => {
    const { ticketStatus, ticketPriority, delivery, role } = auditValueLabels;
    for (const status of ticketStatuses)
      expect(ticketStatus![status]).toBe(ticketStatusLabel(status));
    for (const priority of ticketPriorities)
      expect(ticketPriority![priority]).toBe(priorityLabel(priority));
    for (const status of deliveryStatuses)
      expect(delivery![status]).toBe(deliveryStatusLabel(status));
    expect(role!.cliente).toBe(accountRoleLabel(null));
    expect(
      auditDetailsText({ from: "cliente", to: "finance", email: "x@example.com" }, "role.change"),
    ).toBe("Cliente → Finanzas · Email: x@example.com");
    expect(auditDetailsText({ motivo: "r", metodo: "app", proveedor: "simulated" })).toBe(
      "Motivo: r · Método: app · Proveedor: Simulado (local)",
    );
    const failures: Record<SignInFailure, true> = {
      wrong_credentials: true,
      email_not_verified: true,
      not_staff: true,
    };
    for (const reason of Object.keys(failures))
      expect(auditValueLabels.signInFailure![reason], reason).toBeDefined();
    expect(auditDetailsText({ from: "open", to: "resolved" }, "ticket.status")).toBe(
      "Abierto → Resuelto",
    );
  });
});

type Role = "support" | "finance" | "admin";
const cookies = {} as Record<Role, string>;
let customerId: string;

beforeAll(async () => {
  cookies.admin = (await signedInAdmin("jefa-roles@example.com")).cookie;
  for (const [index, role] of (["support", "finance"] as const).entries()) {
    const made = await signedInCustomer(`${role}-roles@example.com`, {
      clientAddress: `192.0.2.${80 + index}`,
    });
    await database.db.insert(userRoles).values({ userId: made.userId, role });
    // Staff open no staff page without a second factor (decision 044).
    cookies[role] = (await enrolTotp(made.cookie, "contraseña-de-prueba")).cookie;
  }
  customerId = (
    await signedInCustomer("cliente-roles@example.com", { clientAddress: "192.0.2.85" })
  ).userId;
});

const site = () => getConfig().siteUrl;
const NO_SUCH_ID = "0b6f3c2e-4a1d-4e5f-9a7b-1c2d3e4f5a6b";
const context = { clientAddress: "192.0.2.90" } as never;

const get = (path: string, cookie: string) =>
  new Request(`${site()}${path}`, { headers: { Cookie: cookie, "Sec-Fetch-Site": "same-origin" } });

type Answer = { status: number; location: string | null };

/** What a route answered, thrown or returned: its status, and where a redirect goes. */
async function settle(run: () => unknown): Promise<Answer> {
  let answer: unknown;
  try {
    answer = await run();
  } catch (thrown) {
    answer = thrown;
  }
  if (answer instanceof Response) {
    await answer.body?.cancel();
    return { status: answer.status, location: answer.headers.get("Location") };
  }
  const init = (answer as { init?: ResponseInit | null } | null)?.init;
  return { status: init?.status ?? 200, location: null };
}

type RouteModule = { loader?: unknown; action?: unknown };
type Call = {
  name: string;
  route: RouteModule;
  method: "GET" | "POST";
  path: string;
  params?: Record<string, string>;
  form?: Record<string, string>;
  /** The status each role gets (302 for a redirect). */
  expect: Record<Role, number>;
};

const forbiddenTo =
  (roles: Role[], allowed: number, others = allowed) =>
  (role: Role) =>
    roles.includes(role) ? 403 : role === "admin" ? allowed : others;

function row(
  name: string,
  route: RouteModule,
  method: "GET" | "POST",
  path: string,
  statusOf: (role: Role) => number,
  extra: Pick<Call, "params" | "form"> = {},
): Call {
  return {
    name,
    route,
    method,
    path,
    ...extra,
    expect: {
      support: statusOf("support"),
      finance: statusOf("finance"),
      admin: statusOf("admin"),
    },
  };
}

const ticket = { ticketId: NO_SUCH_ID };
const payment = { paymentId: NO_SUCH_ID };

/** Every staff route, and what each role gets (a missing id is 404 only once the role may ask). */
const calls: Call[] = [
  row("the dashboard", adminRoute, "GET", "/admin", (role) => (role === "support" ? 302 : 200)),
  row("Consultas", adminRoute, "GET", "/admin?tab=consultas", forbiddenTo(["finance"], 200)),
  row("Pagos", adminRoute, "GET", "/admin?tab=pagos", forbiddenTo(["support"], 200)),
  row("Tickets", adminRoute, "GET", "/admin?tab=tickets", forbiddenTo(["finance"], 200)),
  row(
    "Usuarios",
    adminRoute,
    "GET",
    "/admin?tab=usuarios",
    forbiddenTo(["support", "finance"], 200),
  ),
  row("Clientes", adminRoute, "GET", "/admin?tab=clientes", () => 200),
  row("Analítica", adminRoute, "GET", "/admin?tab=analitica", forbiddenTo(["support"], 200)),
  row(
    "a role change",
    adminRoute,
    "POST",
    "/admin?tab=usuarios",
    forbiddenTo(["support", "finance"], 400),
    {
      form: { intent: "set-role", userId: "", role: "admin", confirm: "yes" },
    },
  ),
  row(
    "an enquiry handled",
    adminRoute,
    "POST",
    "/admin?tab=consultas",
    forbiddenTo(["finance"], 404),
    {
      form: { intent: "inquiry-handled", inquiryId: NO_SUCH_ID },
    },
  ),
  ...(
    [
      ["consultas", ["finance"]],
      ["pagos", ["support"]],
      ["tickets", ["finance"]],
      ["usuarios", ["support", "finance"]],
      ["clientes", ["support"]],
    ] as const
  ).map(([tab, refused]) =>
    row(
      `the CSV of ${tab}`,
      exportRoute,
      "GET",
      `/admin/exportar?tab=${tab}`,
      forbiddenTo([...refused], 200),
    ),
  ),
  row(
    "the invoice book",
    invoiceBookRoute,
    "GET",
    "/admin/libro-facturas?desde=2026-01-01&hasta=2026-03-31",
    forbiddenTo(["support"], 200),
  ),
  row(
    "a payment",
    paymentRoute,
    "GET",
    `/admin/pagos/${NO_SUCH_ID}`,
    forbiddenTo(["support"], 404),
    { params: payment },
  ),
  row(
    "a refund",
    paymentRoute,
    "POST",
    `/admin/pagos/${NO_SUCH_ID}`,
    forbiddenTo(["support"], 404),
    {
      params: payment,
      form: { intent: "refund", reason: "Prueba", confirm: "yes" },
    },
  ),
  row(
    "an invoice",
    invoiceRoute,
    "GET",
    `/admin/facturas/${NO_SUCH_ID}`,
    forbiddenTo(["support"], 404),
    {
      params: { invoiceId: NO_SUCH_ID },
    },
  ),
  row(
    "a ticket",
    ticketRoute,
    "GET",
    `/admin/tickets/${NO_SUCH_ID}`,
    forbiddenTo(["finance"], 404),
    { params: ticket },
  ),
  row(
    "a ticket reply",
    ticketRoute,
    "POST",
    `/admin/tickets/${NO_SUCH_ID}`,
    forbiddenTo(["finance"], 404),
    {
      params: ticket,
      form: { intent: "reply", message: "Hola, ya está resuelto." },
    },
  ),
  row("Verifactu", verifactuRoute, "GET", "/admin/verifactu", forbiddenTo(["support"], 200)),
  row("an anulación", verifactuRoute, "POST", "/admin/verifactu", forbiddenTo(["support"], 400), {
    form: { intent: "cancel-record", recordId: "1", confirm: "" },
  }),
  row(
    "the Verifactu XML",
    verifactuExportRoute,
    "GET",
    "/admin/verifactu/exportar?desde=2026-01-01&hasta=2026-01-31",
    forbiddenTo(["support"], 200),
  ),
  row(
    "the declaración",
    declarationRoute,
    "GET",
    "/admin/verifactu/declaracion",
    forbiddenTo(["support"], 200),
  ),
  row("Auditoría", auditRoute, "GET", "/admin/auditoria", forbiddenTo(["support", "finance"], 200)),
  row(
    "the audit CSV",
    auditExportRoute,
    "GET",
    "/admin/auditoria/exportar",
    forbiddenTo(["support", "finance"], 200),
  ),
];

describe("every staff route", () => {
  for (const call of calls)
    it(`${call.method} ${call.path} (${call.name}): ${JSON.stringify(call.expect)}`, async () => {
      for (const role of ["support", "finance", "admin"] as const) {
        const cookie = cookies[role];
        const request =
          call.method === "GET"
            ? get(call.path, cookie)
            : formPost(call.path, call.form ?? {}, cookie);
        const handler = (call.method === "GET" ? call.route.loader : call.route.action) as (
          args: unknown,
        ) => unknown;
        const answer = await settle(() => handler({ request, params: call.params ?? {}, context }));
        expect(answer.status, `${role}`).toBe(call.expect[role]);
      }
    });

  it("refuses an intent named like an object's own property (found by the hostile flood)", async () => {
    for (const intent of ["constructor", "__proto__", "toString", "hasOwnProperty"])
      for (const role of ["support", "admin"] as const) {
        const answer = await settle(() =>
          adminRoute.action({
            request: formPost("/admin", { intent }, cookies[role]),
            params: {},
            context,
          } as never),
        );
        expect(answer.status, `${intent} as ${role}`).toBe(400);
      }
    expect(staffCan("admin", "constructor" as StaffCapability)).toBe(false);
  });

  it("sends support from the dashboard to its first section", async () => {
    const answer = await settle(() =>
      adminRoute.loader({ request: get("/admin", cookies.support), params: {}, context } as never),
    );
    expect(answer).toEqual({ status: 302, location: "/admin?tab=consultas" });
  });

  it("changes no role for a staff member who may not, whatever they post", async () => {
    for (const role of ["support", "finance"] as const) {
      const answer = await settle(() =>
        adminRoute.action({
          request: formPost(
            "/admin?tab=usuarios",
            { intent: "set-role", userId: customerId, role: "admin", confirm: "yes" },
            cookies[role],
          ),
          params: {},
          context,
        } as never),
      );
      expect(answer.status, role).toBe(403);
    }
    expect(
      await database.db.select().from(userRoles).where(eq(userRoles.userId, customerId)),
    ).toEqual([]);
  });

  it("leaves finance's dashboard without the latest tickets, which it may not open", async () => {
    const data = (await adminRoute.loader({
      request: get("/admin", cookies.finance),
      params: {},
      context,
    } as never)) as { dashboard: { latestTickets: unknown } };
    expect(data.dashboard.latestTickets).toBeNull();
    const admin = (await adminRoute.loader({
      request: get("/admin", cookies.admin),
      params: {},
      context,
    } as never)) as { dashboard: { latestTickets: unknown } };
    expect(admin.dashboard.latestTickets).toEqual([]);
  });
});
