import { and, eq, inArray, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { Viewer } from "~/features/identity/session.server";
import { adminExport } from "~/features/admin/admin-csv.server";
import { adminPanel } from "~/features/admin/admin-panel.server";
import {
  createTicketAction,
  customerTicketAction,
} from "~/features/support/customer-tickets.server";
import { staffTicketPage } from "~/features/support/staff-tickets.server";
import { getConfig } from "~/platform/config.server";
import { mailOutbox, supportTickets, ticketMessages, users } from "~/platform/db/schema";
import { action as staffAction, loader as staffLoader } from "~/routes/admin-ticket";
import { formPost, partyOf, signedInAdmin, signedInCustomer } from "../support/customer-session";
import { setupTestDatabase } from "../support/test-database";

const database = setupTestDatabase();

const ADMIN_EMAIL = "soporte-admin@example.com";

type Party = { viewer: Viewer; cookie: string };
let admin: Party;
let ana: Party;
let luis: Party;

/** The support administrator, made and signed in through /login. */
async function signedInStaff(): Promise<Party> {
  return partyOf(ADMIN_EMAIL, (await signedInAdmin(ADMIN_EMAIL)).cookie);
}

/** Opens a ticket through the customer's action; answers the new ticket's id. */
async function openTicket(
  customer: Party,
  subject: string,
  { priority = "medium", category = "consulta_tecnica" } = {},
): Promise<string> {
  const answer = await createTicketAction(
    formPost(
      "/mi-cuenta/tickets/nuevo",
      { subject, category, priority, message: `Necesito ayuda con: ${subject}.` },
      customer.cookie,
    ),
    customer.viewer,
  );
  expect(answer).toBeInstanceOf(Response);
  const location = (answer as Response).headers.get("Location")!;
  return location.split("/").pop()!;
}

type RouteAnswer = { status: number; location: string | null; body: unknown };

async function settle(run: () => Promise<unknown>): Promise<RouteAnswer> {
  let answer: unknown;
  try {
    answer = await run();
  } catch (thrown) {
    answer = thrown;
  }
  if (answer instanceof Response)
    return { status: answer.status, location: answer.headers.get("Location"), body: null };
  // data() answers carry their status; a plain object is a 200.
  if (answer && typeof answer === "object" && "init" in answer && "data" in answer) {
    const { data, init } = answer as { data: unknown; init: ResponseInit | null };
    return { status: init?.status ?? 200, location: null, body: data };
  }
  return { status: 200, location: null, body: answer };
}

/** The staff page's action, as React Router calls it, with the sender's cookie. */
function postStaff(ticketId: string, fields: Record<string, string>, cookie = admin.cookie) {
  return settle(() =>
    staffAction({
      request: formPost(`/admin/tickets/${ticketId}`, fields, cookie),
      params: { ticketId },
      context: {},
    } as unknown as Parameters<typeof staffAction>[0]),
  );
}

function getStaff(ticketId: string, cookie = admin.cookie) {
  return settle(() =>
    staffLoader({
      request: new Request(`${getConfig().siteUrl}/admin/tickets/${ticketId}`, {
        headers: { Cookie: cookie },
      }),
      params: { ticketId },
      context: {},
    } as unknown as Parameters<typeof staffLoader>[0]),
  );
}

async function ticketRow(id: string) {
  const [row] = await database.db.select().from(supportTickets).where(eq(supportTickets.id, id));
  return row!;
}

async function mailsAbout(ticketNumber: string) {
  return database.db
    .select()
    .from(mailOutbox)
    .where(sql`${mailOutbox.subject} like ${`%${ticketNumber}%`}`)
    .orderBy(mailOutbox.createdAt);
}

/** Makes a ticket's first-response due time lie `hours` in the past (time passing). */
async function dueHoursAgo(id: string, hours: number) {
  await database.db
    .update(supportTickets)
    .set({ firstResponseDueAt: sql`now() - make_interval(hours => ${hours})` })
    .where(eq(supportTickets.id, id));
}

beforeAll(async () => {
  admin = await signedInStaff();
  const anaSession = await signedInCustomer("ana-soporte@example.com");
  ana = await partyOf("ana-soporte@example.com", anaSession.cookie);
  const luisSession = await signedInCustomer("luis-soporte@example.com", {
    clientAddress: "192.0.2.2",
  });
  luis = await partyOf("luis-soporte@example.com", luisSession.cookie);
});

describe("a staff reply", () => {
  it("is the first answer, moves an open ticket to in progress and mails only its owner", async () => {
    const id = await openTicket(ana, "La web no carga");
    const before = await ticketRow(id);
    expect(before).toMatchObject({ status: "open", firstStaffReplyAt: null });
    // The company inbox hears of the new ticket.
    const opened = await mailsAbout(before.ticketNumber);
    expect(opened.map((mail) => [mail.kind, mail.recipient])).toEqual([
      ["ticket-staff-notice", getConfig().contactInbox],
    ]);

    const answer = await postStaff(id, {
      intent: "reply",
      message: "Hola Ana, ya lo estamos revisando.",
    });
    expect(answer).toMatchObject({
      status: 302,
      // To the new reply in the conversation, not the top of the page.
      location: expect.stringMatching(new RegExp(`^/admin/tickets/${id}#mensaje-[0-9a-f-]{36}$`)),
    });
    const after = await ticketRow(id);
    expect(after.status).toBe("in_progress");
    expect(after.firstStaffReplyAt).toBeInstanceOf(Date);

    const mails = await mailsAbout(before.ticketNumber);
    const reply = mails.find((mail) => mail.kind === "ticket-reply")!;
    expect(reply.recipient).toBe(ana.viewer.email);
    expect(reply.text).toContain(`${getConfig().siteUrl}/mi-cuenta/tickets/${id}`);
    expect(reply.text).toContain("Hola Ana, ya lo estamos revisando.");
    expect(reply.text).not.toContain("/admin/");

    // A later reply keeps the time of the first one.
    await postStaff(id, { intent: "reply", message: "Ya está arreglado, ¿puedes probar?" });
    expect((await ticketRow(id)).firstStaffReplyAt).toEqual(after.firstStaffReplyAt);
    const conversation = await database.db
      .select({ author: ticketMessages.author })
      .from(ticketMessages)
      .where(eq(ticketMessages.ticketId, id))
      .orderBy(ticketMessages.createdAt);
    expect(conversation.map((message) => message.author)).toEqual(["customer", "staff", "staff"]);
  });

  it("is refused with its message when too short, and changes nothing", async () => {
    const id = await openTicket(ana, "Consulta de facturación");
    const answer = await postStaff(id, { intent: "reply", message: "ok" });
    expect(answer).toMatchObject({ status: 400, body: { errors: [{ code: "messageTooShort" }] } });
    expect(await ticketRow(id)).toMatchObject({ status: "open", firstStaffReplyAt: null });
    const unknownIntent = await postStaff(id, { intent: "borrar" });
    expect(unknownIntent.status).toBe(400);
  });
});

describe("a change of status", () => {
  it("mails the owner with a link to the ticket; a change of priority alone does not", async () => {
    const id = await openTicket(ana, "Cambiar el dominio", { priority: "low" });
    const { ticketNumber } = await ticketRow(id);

    await postStaff(id, { intent: "update", status: "open", priority: "high" });
    expect(await ticketRow(id)).toMatchObject({ status: "open", priority: "high", closedAt: null });
    expect((await mailsAbout(ticketNumber)).map((mail) => mail.kind)).toEqual([
      "ticket-staff-notice",
    ]);

    const answer = await postStaff(id, { intent: "update", status: "resolved", priority: "high" });
    expect(answer).toMatchObject({ status: 302, location: `/admin/tickets/${id}` });
    const resolved = await ticketRow(id);
    expect(resolved.status).toBe("resolved");
    expect(resolved.closedAt).toBeInstanceOf(Date);
    const status = (await mailsAbout(ticketNumber)).find((mail) => mail.kind === "ticket-status")!;
    expect(status.recipient).toBe(ana.viewer.email);
    expect(status.text).toContain("Nuevo estado: Resuelto");
    expect(status.text).toContain(`${getConfig().siteUrl}/mi-cuenta/tickets/${id}`);

    const refused = await postStaff(id, { intent: "update", status: "borrado", priority: "x" });
    expect(refused).toMatchObject({
      status: 400,
      body: { errors: [{ code: "statusInvalid" }, { code: "priorityInvalid" }] },
    });
  });

  it("mails the company inbox when the customer writes again, and no one else ever", async () => {
    const id = await openTicket(luis, "Duda sobre el contrato");
    const { ticketNumber } = await ticketRow(id);
    // The new ticket's notice went out a while ago (a burst is one notice: decision 033).
    const aWhileAgo = new Date(Date.now() - 60 * 60_000);
    await database.db
      .update(mailOutbox)
      .set({ status: "sent", sentAt: aWhileAgo, createdAt: aWhileAgo })
      .where(
        and(
          eq(mailOutbox.kind, "ticket-staff-notice"),
          sql`${mailOutbox.subject} like ${`%${ticketNumber}%`}`,
        ),
      );
    await customerTicketAction(
      formPost(
        `/mi-cuenta/tickets/${id}`,
        { intent: "message", message: "Añado más detalles del contrato." },
        luis.cookie,
      ),
      luis.viewer,
      id,
    );
    const notices = (await mailsAbout(ticketNumber)).filter(
      (mail) => mail.kind === "ticket-staff-notice",
    );
    expect(notices.map((mail) => mail.recipient)).toEqual([
      getConfig().contactInbox,
      getConfig().contactInbox,
    ]);
    expect(notices[1]!.text).toContain("Añado más detalles del contrato.");

    // Every ticket mail so far went to its owner or to the company inbox.
    const owners = await database.db
      .select({ number: supportTickets.ticketNumber, email: users.email })
      .from(supportTickets)
      .innerJoin(users, eq(users.id, supportTickets.userId));
    const mails = await database.db
      .select()
      .from(mailOutbox)
      .where(inArray(mailOutbox.kind, ["ticket-staff-notice", "ticket-reply", "ticket-status"]));
    expect(mails.length).toBeGreaterThan(5);
    for (const mail of mails) {
      const owner = owners.find((ticket) => mail.subject.includes(ticket.number))!;
      expect([owner.email, getConfig().contactInbox]).toContain(mail.recipient);
    }
  });
});

describe("the 24-hour promise", () => {
  it("marks tickets past their due time without a staff reply as overdue and can list them first", async () => {
    const late = await openTicket(luis, "Sin respuesta desde ayer");
    const later = await openTicket(luis, "Sin respuesta desde hace dos días");
    const answered = await openTicket(luis, "Respondido a tiempo");
    const finished = await openTicket(luis, "Resuelto sin respuesta");
    const fresh = await openTicket(luis, "Recién abierto");
    await postStaff(answered, { intent: "reply", message: "Respuesta dentro del plazo." });
    await postStaff(finished, { intent: "update", status: "resolved", priority: "medium" });
    for (const [id, hours] of [
      [late, 2],
      [later, 30],
      [answered, 5],
      [finished, 5],
    ] as const)
      await dueHoursAgo(id, hours);

    expect((await staffTicketPage(late)).ticket.overdue).toBe(true);
    expect((await staffTicketPage(answered)).ticket.overdue).toBe(false);
    expect((await staffTicketPage(finished)).ticket.overdue).toBe(false);
    expect((await staffTicketPage(fresh)).ticket.overdue).toBe(false);

    const rowsOf = async (query: string) => {
      const { listing } = await adminPanel(new URL(`${getConfig().siteUrl}/admin${query}`));
      return listing?.tab === "tickets" ? listing.rows : [];
    };
    const newest = await rowsOf("?tab=tickets&q=luis-soporte");
    expect(newest[0]!.id).toBe(fresh);
    const overdueFirst = await rowsOf("?tab=tickets&q=luis-soporte&orden=vencidos");
    // The longest overdue first, then the rest newest first.
    expect(overdueFirst.slice(0, 2).map((row) => row.id)).toEqual([later, late]);
    expect(overdueFirst.slice(0, 2).every((row) => row.overdue)).toBe(true);
    expect(overdueFirst.slice(2).some((row) => row.overdue)).toBe(false);
    expect(overdueFirst[2]!.id).toBe(fresh);

    // A customer's message does not mark it answered: only staff replies count.
    await postStaff(late, { intent: "reply", message: "Perdona la espera, ya estamos en ello." });
    expect((await staffTicketPage(late)).ticket.overdue).toBe(false);
  });
});

describe("the Tickets tab", () => {
  const rowsOf = async (query: string) => {
    const { listing } = await adminPanel(new URL(`${getConfig().siteUrl}/admin${query}`));
    expect(listing?.tab).toBe("tickets");
    return listing?.tab === "tickets" ? listing.rows : [];
  };

  it("searches ticket number, subject and customer e-mail, and filters by status", async () => {
    const id = await openTicket(ana, "Factura duplicada de marzo", { category: "facturacion" });
    const { ticketNumber } = await ticketRow(id);
    expect((await rowsOf(`?tab=tickets&q=${ticketNumber}`)).map((row) => row.id)).toEqual([id]);
    expect((await rowsOf("?tab=tickets&q=FACTURA%20DUPLICADA")).map((row) => row.id)).toEqual([id]);
    const byEmail = await rowsOf("?tab=tickets&q=ANA-SOPORTE@");
    expect(byEmail.length).toBeGreaterThan(1);
    expect(byEmail.every((row) => row.customerEmail === ana.viewer.email)).toBe(true);

    const all = await rowsOf("?tab=tickets");
    for (const status of ["open", "in_progress", "resolved", "closed"] as const) {
      const filtered = await rowsOf(`?tab=tickets&estado=${status}`);
      expect(filtered.every((row) => row.status === status)).toBe(true);
      expect(filtered).toHaveLength(all.filter((row) => row.status === status).length);
    }
    expect((await rowsOf("?tab=tickets&estado=in_progress")).length).toBeGreaterThan(0);
    // Newest first.
    const times = all.map((row) => row.createdAt.getTime());
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it("exports the same rows as a semicolon CSV", async () => {
    const response = await adminExport(
      new URL(`${getConfig().siteUrl}/admin/exportar?tab=tickets&estado=open&q=soporte`),
    );
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toMatch(
      /^attachment; filename="tickets-\d{4}-\d{2}-\d{2}\.csv"; filename\*=UTF-8''tickets-\d{4}-\d{2}-\d{2}\.csv$/,
    );
    const lines = (await response.text())
      .replace(/^\uFEFF/, "")
      .trimEnd()
      .split("\r\n");
    expect(lines[0]).toBe(
      "Número;Asunto;Categoría;Prioridad;Estado;Cliente;Creado;Responder antes de;Vencido",
    );
    const rows = await rowsOf("?tab=tickets&estado=open&q=soporte");
    expect(lines).toHaveLength(rows.length + 1);
    const factura = lines.find((line) => line.includes("Factura duplicada de marzo"))!;
    expect(factura).toMatch(
      /^TK-\d{4}-\d{6};Factura duplicada de marzo;Facturación;Media;Abierto;ana-soporte@example\.com;[^;]+;[^;]+;No$/,
    );
    expect(lines.some((line) => line.endsWith(";Sí"))).toBe(true);
  });

  it("fills the dashboard's open tickets card and its 5 latest tickets", async () => {
    const { dashboard } = await adminPanel(new URL(`${getConfig().siteUrl}/admin`));
    const [counted] = await database.db
      .select({ open: sql<number>`count(*)`.mapWith(Number) })
      .from(supportTickets)
      .where(inArray(supportTickets.status, ["open", "in_progress"]));
    expect(dashboard!.openTickets).toBe(counted!.open);
    expect(dashboard!.openTickets).toBeGreaterThan(0);
    expect(dashboard!.latestTickets).toHaveLength(5);
    const newest = await rowsOf("?tab=tickets");
    expect(dashboard!.latestTickets.map((row) => row.id)).toEqual(
      newest.slice(0, 5).map((row) => row.id),
    );
  });
});

describe("the staff ticket page", () => {
  it("shows staff the ticket, its customer and the conversation", async () => {
    const id = await openTicket(ana, "Pregunta sobre el SEO");
    const page = await getStaff(id);
    expect(page.status).toBe(200);
    const body = page.body as Awaited<ReturnType<typeof staffTicketPage>>;
    expect(body.ticket).toMatchObject({
      id,
      subject: "Pregunta sobre el SEO",
      customerEmail: ana.viewer.email,
      overdue: false,
    });
    expect(body.messages).toHaveLength(1);
    expect((await getStaff("no-es-un-id")).status).toBe(404);
    expect((await getStaff(crypto.randomUUID())).status).toBe(404);
  });

  it("sends a customer (even the owner) to the admin login, from the loader and the action", async () => {
    const id = await openTicket(ana, "Intento de acceso");
    for (const party of [ana, luis]) {
      expect(await getStaff(id, party.cookie)).toMatchObject({ status: 302, location: "/login" });
      for (const fields of <Record<string, string>[]>[
        { intent: "reply", message: "Me respondo yo mismo, soy el equipo." },
        { intent: "update", status: "closed", priority: "urgent" },
      ])
        expect(await postStaff(id, fields, party.cookie)).toMatchObject({
          status: 302,
          location: "/login",
        });
    }
    expect(await getStaff(id, "")).toMatchObject({ status: 302, location: "/login" });
    expect(await ticketRow(id)).toMatchObject({
      status: "open",
      priority: "medium",
      firstStaffReplyAt: null,
    });
    const messages = await database.db
      .select()
      .from(ticketMessages)
      .where(and(eq(ticketMessages.ticketId, id), eq(ticketMessages.author, "staff")));
    expect(messages).toHaveLength(0);
  });
});
