import { and, eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { userStatsOf } from "~/features/customer-area/account-overview.server";
import type { Viewer } from "~/features/identity/session.server";
import { openTicket } from "~/features/support/customer-tickets.server";
import { supportMessages } from "~/features/support/ticket-rules";
import { getConfig } from "~/platform/config.server";
import { purchases, supportTickets, ticketMessages, userActivityLog } from "~/platform/db/schema";
import { replyOf, type FormRefusal } from "~/platform/forms/form-answer";
import { loader as accountLoader } from "~/routes/mi-cuenta";
import { action as ticketAction, loader as ticketLoader } from "~/routes/mi-cuenta-ticket";
import {
  action as newTicketAction,
  loader as newTicketLoader,
} from "~/routes/mi-cuenta-ticket-nuevo";
import { action as profileAction, loader as profileLoader } from "~/routes/perfil";
import { formPost, signedInCustomer, viewerOf } from "../support/customer-session";
import { insertPurchase } from "../support/purchases";
import { setupTestDatabase } from "../support/test-database";

const database = setupTestDatabase();

type Customer = { cookie: string; viewer: Viewer; purchaseId: string };
let ana: Customer;
let luis: Customer;

async function customer(email: string): Promise<Customer> {
  const { cookie } = await signedInCustomer(email, { clientAddress: "192.0.2.70" });
  const viewer = await viewerOf(cookie);
  const purchase = await insertPurchase(database.db, {
    userId: viewer!.id,
    status: "completed",
    provider: "simulated",
    completedAt: new Date(),
  });
  return { cookie, viewer: viewer!, purchaseId: purchase.id };
}

const get = (path: string, cookie: string) =>
  new Request(`${getConfig().siteUrl}${path}`, { headers: { Cookie: cookie } });

type Args<F extends (...args: never[]) => unknown> = Parameters<F>[0];
const call = <F extends (args: never) => unknown>(route: F, args: object) =>
  Promise.resolve(route(args as Args<F>));

/** What a loader answers the visitor with `cookie` who opens `path`. */
const load = async <F extends (args: never) => unknown>(loader: F, path: string, cookie: string) =>
  (await call(loader, { request: get(path, cookie), params: {} })) as Awaited<ReturnType<F>>;

/** What a loader or action threw or answered: a Response's status, or the data it returned. */
async function outcome(run: () => Promise<unknown>) {
  try {
    const answer = await run();
    return answer instanceof Response ? { status: answer.status, answer } : { data: answer };
  } catch (thrown) {
    if (thrown instanceof Response) return { status: thrown.status, thrown: true };
    throw thrown;
  }
}

/** A React Router `data()` answer: its status and body. */
/** A refused form's status and answer, its problems read as their codes. */
function dataOf(answer: unknown) {
  const { data, init } = answer as { data: FormRefusal; init?: { status?: number } };
  return {
    status: init?.status,
    data: { ...data, errors: data.errors.map(({ code }) => code) },
    answer: data,
  };
}

/** Runs `check` while `table` cannot be read (renamed away), then puts it back. */
async function withTableAway(table: "purchases" | "profiles", check: () => Promise<void>) {
  await database.db.execute(sql.raw(`alter table ${table} rename to ${table}_away`));
  try {
    await check();
  } finally {
    await database.db.execute(sql.raw(`alter table ${table}_away rename to ${table}`));
  }
}

const newTicket = (who: Customer, fields: Record<string, string>) =>
  call(newTicketAction, {
    request: formPost("/mi-cuenta/tickets/nuevo", fields, who.cookie),
    params: {},
  });

const valid = {
  subject: "No puedo entrar al panel",
  category: "consulta_tecnica",
  priority: "high",
  message: "Desde ayer el panel me dice que mi contraseña no es válida.",
};

async function createdTicketId(who: Customer, fields: Record<string, string> = valid) {
  const answer = (await newTicket(who, fields)) as Response;
  expect(answer.status).toBe(302);
  const location = answer.headers.get("Location")!;
  expect(location).toMatch(/^\/mi-cuenta\/tickets\/[0-9a-f-]{36}$/);
  return location.split("/").pop()!;
}

const onTicket = (who: Customer, ticketId: string, fields: Record<string, string>) =>
  call(ticketAction, {
    request: formPost(`/mi-cuenta/tickets/${ticketId}`, fields, who.cookie),
    params: { ticketId },
  });

beforeAll(async () => {
  ana = await customer("ana-tickets@example.com");
  luis = await customer("luis-tickets@example.com");
});

describe("a customer's tickets are theirs alone", () => {
  it("another customer reads, messages and resolves none of them: 404 each time", async () => {
    const ticketId = await createdTicketId(ana, { ...valid, purchaseId: ana.purchaseId });
    const page = (await call(ticketLoader, {
      request: get(`/mi-cuenta/tickets/${ticketId}`, ana.cookie),
      params: { ticketId },
    })) as Awaited<ReturnType<typeof ticketLoader>>;
    expect(page.ticket).toMatchObject({ subject: valid.subject, purchaseName: "Ciberseguridad" });

    expect(
      await outcome(() =>
        call(ticketLoader, {
          request: get(`/mi-cuenta/tickets/${ticketId}`, luis.cookie),
          params: { ticketId },
        }),
      ),
    ).toEqual({ status: 404, thrown: true });
    for (const fields of [
      { intent: "message", message: "Mensaje de otra persona que no debería entrar." },
      { intent: "resolve" },
      {},
    ] as Record<string, string>[])
      expect(await outcome(() => onTicket(luis, ticketId, fields))).toEqual({
        status: 404,
        thrown: true,
      });

    const [ticket] = await database.db
      .select()
      .from(supportTickets)
      .where(eq(supportTickets.id, ticketId));
    expect(ticket!.status).toBe("open");
    expect(
      await database.db.select().from(ticketMessages).where(eq(ticketMessages.ticketId, ticketId)),
    ).toHaveLength(1);
  });

  it("another customer's purchase can be neither linked nor offered", async () => {
    const refused = dataOf(await newTicket(luis, { ...valid, purchaseId: ana.purchaseId }));
    expect(refused).toMatchObject({ status: 400, data: { errors: ["purchaseUnknown"] } });
    const form = await load(
      newTicketLoader,
      `/mi-cuenta/tickets/nuevo?compra=${ana.purchaseId}`,
      luis.cookie,
    );
    expect(form.purchaseId).toBe("");
    expect(form.purchases.map((purchase) => purchase.id)).toEqual([luis.purchaseId]);
    const own = await load(
      newTicketLoader,
      `/mi-cuenta/tickets/nuevo?compra=${luis.purchaseId}`,
      luis.cookie,
    );
    expect(own.purchaseId).toBe(luis.purchaseId);
  });

  it("an id that is not a ticket, or not a UUID, is 404 too", async () => {
    for (const ticketId of [crypto.randomUUID(), "no-es-un-id", "1 or 1=1"])
      expect(
        await outcome(() =>
          call(ticketLoader, {
            request: get(`/mi-cuenta/tickets/x`, ana.cookie),
            params: { ticketId },
          }),
        ),
      ).toEqual({ status: 404, thrown: true });
  });

  it("without a session, the pages send to the sign-in", async () => {
    const anonymous = await outcome(() =>
      call(newTicketLoader, { request: get("/mi-cuenta/tickets/nuevo", ""), params: {} }),
    );
    expect(anonymous.status).toBe(302);
  });
});

describe("ticket numbers", () => {
  it("50 tickets opened at once get 50 distinct, consecutive numbers", async () => {
    const before = await database.db
      .select({ count: sql<number>`count(*)`.mapWith(Number) })
      .from(supportTickets);
    const opened = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        openTicket(index % 2 ? ana.viewer : luis.viewer, {
          subject: `Consulta número ${index}`,
          category: "otro",
          priority: "low",
          message: "Un mensaje de prueba de concurrencia.",
          purchaseId: "",
        }),
      ),
    );
    const sequences = opened
      .map((ticket) => {
        expect(ticket.ticketNumber).toMatch(/^TK-\d{4}-\d{6}$/);
        return Number(ticket.ticketNumber.slice(-6));
      })
      .sort((a, b) => a - b);
    expect(new Set(sequences).size).toBe(50);
    const first = before[0]!.count + 1;
    expect(sequences).toEqual(Array.from({ length: 50 }, (_, index) => first + index));
  });
});

describe("the ticket forms", () => {
  it("refuse what breaks the rules, with every Spanish message next to its field", async () => {
    const refused = dataOf(
      await newTicket(ana, {
        subject: "Ay",
        category: "inventada",
        priority: "ya",
        message: "corto",
      }),
    );
    expect(refused).toMatchObject({
      status: 400,
      data: {
        errors: ["subjectTooShort", "categoryRequired", "priorityInvalid", "messageTooShort"],
      },
    });
    const reply = replyOf(refused.answer, supportMessages);
    expect(reply?.issues?.map((issue) => [issue.field, issue.text.title])).toEqual([
      ["subject", "Asunto demasiado corto"],
      ["category", "Categoría requerida"],
      ["priority", "Prioridad no válida"],
      ["message", "Mensaje demasiado corto"],
    ]);
    expect(
      dataOf(
        await newTicket(ana, { ...valid, subject: "x".repeat(151), message: "y".repeat(5001) }),
      ),
    ).toMatchObject({ status: 400, data: { errors: ["subjectTooLong", "messageTooLong"] } });
    const ticketId = await createdTicketId(ana);
    expect(
      dataOf(await onTicket(ana, ticketId, { intent: "message", message: "   hola    " })),
    ).toMatchObject({
      status: 400,
      data: { errors: ["messageTooShort"] },
    });
  });

  it("a message opens a resolved ticket again; a closed ticket takes no message and cannot be resolved", async () => {
    const ticketId = await createdTicketId(ana);
    const resolved = (await onTicket(ana, ticketId, { intent: "resolve" })) as Response;
    expect(resolved.headers.get("Location")).toBe(`/mi-cuenta/tickets/${ticketId}`);
    const stateOf = async () =>
      (
        await database.db
          .select({ status: supportTickets.status, closedAt: supportTickets.closedAt })
          .from(supportTickets)
          .where(eq(supportTickets.id, ticketId))
      )[0]!;
    expect(await stateOf()).toMatchObject({ status: "resolved", closedAt: expect.any(Date) });
    const sent = (await onTicket(ana, ticketId, {
      intent: "message",
      message: "Vuelve a fallar desde esta mañana.",
    })) as Response;
    expect(sent.status).toBe(302);
    expect(await stateOf()).toMatchObject({ status: "open", closedAt: null });

    await database.db
      .update(supportTickets)
      .set({ status: "closed" })
      .where(eq(supportTickets.id, ticketId));
    for (const fields of [
      { intent: "message", message: "¿Hay alguien ahí? Sigue sin funcionar." },
      { intent: "resolve" },
    ] as Record<string, string>[])
      expect(dataOf(await onTicket(ana, ticketId, fields))).toMatchObject({
        status: 409,
        data: { errors: ["ticketClosed"] },
      });
    expect(
      await database.db
        .select()
        .from(ticketMessages)
        .where(and(eq(ticketMessages.ticketId, ticketId))),
    ).toHaveLength(2);
  });
});

describe("Mi Cuenta", () => {
  it("counts purchases, euros spent, active and resolved tickets in one query", async () => {
    const maria = await customer("maria-stats@example.com");
    await database.db.insert(purchases).values([
      {
        userId: maria.viewer.id,
        serviceId: 1,
        serviceName: "Web",
        price: 99_900,
        status: "completed",
        provider: "simulated",
      },
      {
        userId: maria.viewer.id,
        serviceId: 1,
        serviceName: "Web",
        price: 99_900,
        status: "failed",
        provider: "simulated",
      },
    ]);
    const statuses = ["open", "in_progress", "in_progress", "resolved", "closed"] as const;
    for (const status of statuses) {
      const ticket = await openTicket(maria.viewer, {
        subject: `Estado ${status}`,
        category: "otro",
        priority: "medium",
        message: "Un mensaje para las estadísticas.",
        purchaseId: "",
      });
      await database.db
        .update(supportTickets)
        .set({ status })
        .where(eq(supportTickets.id, ticket.id));
    }
    const stats = await userStatsOf(maria.viewer.id);
    expect(stats).toEqual({
      memberSince: expect.any(Date),
      totalPurchases: 3,
      completedPurchases: 2,
      totalSpentCents: 144_800,
      activeTickets: 3,
      resolvedTickets: 2,
    });
    const overview = await load(accountLoader, "/mi-cuenta", maria.cookie);
    expect(overview.tab).toBe("resumen");
    expect(overview.stats).toEqual(stats);
    expect(overview.purchases).toHaveLength(3);
    expect(overview.tickets?.map((ticket) => ticket.subject)).toEqual([
      "Estado closed",
      "Estado resolved",
    ]);
  });

  it("the tab comes from the URL; an unknown one is Resumen", async () => {
    for (const [query, tab] of [
      ["?tab=compras", "compras"],
      ["?tab=soporte", "soporte"],
      ["?tab=configuracion", "configuracion"],
      ["?tab=otra", "resumen"],
      ["", "resumen"],
    ] as const) {
      const overview = await load(accountLoader, `/mi-cuenta${query}`, ana.cookie);
      expect(overview.tab, query).toBe(tab);
    }
  });

  it("when the purchases cannot be read the page still opens, and says so", async () => {
    await withTableAway("purchases", async () => {
      const overview = await load(accountLoader, "/mi-cuenta?tab=compras", ana.cookie);
      expect(overview.purchases).toBeNull();
      expect(overview.stats).toBeNull();
      expect(overview.viewer.email).toBe(ana.viewer.email);
    });
  });
});

describe("the profile", () => {
  const save = (fields: Record<string, string>) =>
    call(profileAction, {
      request: formPost("/perfil", { intent: "save", ...fields }, luis.cookie),
      params: {},
      context: { clientAddress: "192.0.2.71" },
    });

  it("every save is logged as 'profile_updated' with the fields it changed", async () => {
    await save({ fullName: "Luis Pérez", phone: "600 111 222", company: "", bio: "" });
    await save({ fullName: "Luis Pérez", phone: "600 111 222", company: "Pérez SL", bio: "Hola" });
    await save({ fullName: "Luis Pérez", phone: "600 111 222", company: "Pérez SL", bio: "Hola" });
    const entries = await database.db
      .select()
      .from(userActivityLog)
      .where(
        and(
          eq(userActivityLog.userId, luis.viewer.id),
          eq(userActivityLog.activityType, "profile_updated"),
        ),
      )
      .orderBy(userActivityLog.createdAt);
    expect(entries.map((entry) => entry.metadata)).toEqual([
      { fields_updated: ["fullName", "phone"] },
      { fields_updated: ["company", "bio"] },
      { fields_updated: [] },
    ]);
  });

  it("when the profile cannot be read /perfil still opens, without the form that would erase it", async () => {
    await withTableAway("profiles", async () => {
      const page = await load(profileLoader, "/perfil", luis.cookie);
      expect(page.profile).toBeNull();
      expect(page.viewer.email).toBe(luis.viewer.email);
    });
  });
});
