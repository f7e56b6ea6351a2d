import { once } from "node:events";
import { request as httpRequest, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { and, count, eq, like } from "drizzle-orm";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Viewer } from "~/features/identity/session.server";
import { customerTicketAction } from "~/features/support/customer-tickets.server";
import {
  ATTACHMENT_QUOTA_BYTES,
  guardTicketPosts,
  MESSAGES_PER_CUSTOMER,
  TICKETS_PER_CUSTOMER,
} from "~/features/support/ticket-quotas.server";
import { getConfig } from "~/platform/config.server";
import {
  mailOutbox,
  supportTickets,
  ticketAttachments,
  ticketMessages,
} from "~/platform/db/schema";
import { requestFrom, sendResponse } from "~/platform/http/react-router-handler.server";
import { action as newTicketAction } from "~/routes/mi-cuenta-ticket-nuevo";
import { action as ticketAction } from "~/routes/mi-cuenta-ticket";
import { action as staffAction } from "~/routes/admin-ticket";
import { formPost, partyOf, signedInAdmin, signedInCustomer } from "../support/customer-session";
import { setupTestDatabase } from "../support/test-database";

/**
 * Decision 033: a customer's posts to support are limited per hour and their files by a quota,
 * both judged in Express before a body of up to 16 MB is read; a burst of messages on one ticket
 * mails the company inbox once.
 */
const database = setupTestDatabase();

type Party = { viewer: Viewer; cookie: string };

/**
 * The server's path for these posts: the hook of server.ts, then the routes' actions through our
 * Express adapter (the React Router build is not available to Vitest; the adapter and the route
 * modules are the ones it serves).
 */
function ticketServer() {
  const app = express();
  app.use(guardTicketPosts);
  const route =
    (run: (args: never) => Promise<unknown>): express.RequestHandler =>
    async (req, res) => {
      let answer: unknown;
      try {
        answer = await run({
          request: requestFrom(req, res),
          params: req.params,
          context: {},
        } as never);
      } catch (thrown) {
        answer = thrown;
      }
      await sendResponse(res, asResponse(answer));
    };
  app.post("/mi-cuenta/tickets/nuevo", route(newTicketAction));
  app.post("/mi-cuenta/tickets/:ticketId", route(ticketAction));
  return app;
}

/** An action's answer as the adapter sends it: a Response, or data() as JSON with its status. */
function asResponse(answer: unknown): Response {
  if (answer instanceof Response) return answer;
  const { data, init } = answer as { data: unknown; init: ResponseInit | null };
  return Response.json(data, init ?? undefined);
}

let server: ReturnType<express.Express["listen"]>;
let origin: string;
let admin: Party;

beforeAll(async () => {
  server = ticketServer().listen(0, "127.0.0.1");
  await once(server, "listening");
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  admin = await partyOf(
    "cuotas-admin@example.com",
    (await signedInAdmin("cuotas-admin@example.com")).cookie,
  );
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

let customers = 0;
/** A fresh customer per test: the limits are per customer. */
async function newCustomer(): Promise<Party> {
  const email = `cuotas-${++customers}@example.com`;
  const address = `192.0.2.${100 + customers}`;
  return partyOf(email, (await signedInCustomer(email, { clientAddress: address })).cookie);
}

function post(path: string, fields: Record<string, string>, cookie: string) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  return fetch(`${origin}${path}`, {
    method: "POST",
    body: form,
    headers: { Cookie: cookie },
    redirect: "manual",
  });
}

const ticketFields = (subject: string) => ({
  subject,
  category: "consulta_tecnica",
  priority: "medium",
  message: `Necesito ayuda con: ${subject}.`,
});

async function openTicket(customer: Party, subject = "La web no carga"): Promise<string> {
  const answer = await post("/mi-cuenta/tickets/nuevo", ticketFields(subject), customer.cookie);
  expect(answer.status).toBe(302);
  return answer.headers.get("Location")!.split("/").pop()!;
}

const sendMessage = (customer: Party, ticketId: string, message: string) =>
  post(`/mi-cuenta/tickets/${ticketId}`, { intent: "message", message }, customer.cookie);

async function messagesOf(ticketId: string) {
  const [row] = await database.db
    .select({ n: count() })
    .from(ticketMessages)
    .where(eq(ticketMessages.ticketId, ticketId));
  return row!.n;
}

async function codesOf(answer: Response): Promise<string[]> {
  const body = (await answer.json()) as { errors: { code: string }[] };
  return body.errors.map(({ code }) => code);
}

/**
 * A post that declares `bytes` and sends only its first few: the answer must come although the
 * body never ends (nothing read it), or the wait fails after `withinMs`.
 */
async function postNeverEnding(path: string, cookie: string, bytes: number, withinMs = 5_000) {
  const { port } = server.address() as AddressInfo;
  const request = httpRequest({
    host: "127.0.0.1",
    port,
    path,
    method: "POST",
    headers: {
      Cookie: cookie,
      "Content-Type": "multipart/form-data; boundary=limite",
      "Content-Length": String(bytes),
    },
  });
  request.on("error", () => undefined);
  request.write('--limite\r\nContent-Disposition: form-data; name="intent"\r\n\r\nmessage\r\n');
  try {
    const [response] = (await Promise.race([
      once(request, "response"),
      new Promise((_, reject) =>
        setTimeout(() => reject(new Error("no answer while the body is unfinished")), withinMs),
      ),
    ])) as [IncomingMessage];
    const chunks: Buffer[] = [];
    for await (const chunk of response) chunks.push(chunk as Buffer);
    return {
      status: response.statusCode,
      body: JSON.parse(Buffer.concat(chunks).toString()) as { errors: { code: string }[] },
    };
  } finally {
    request.destroy();
  }
}

/** Files the customer already keeps: one row whose recorded size is `bytes`. */
async function storeFilesOf(customer: Party, ticketId: string, bytes: number) {
  const [message] = await database.db
    .select({ id: ticketMessages.id })
    .from(ticketMessages)
    .where(and(eq(ticketMessages.ticketId, ticketId), eq(ticketMessages.author, "customer")))
    .limit(1);
  await database.db.insert(ticketAttachments).values({
    ticketId,
    messageId: message!.id,
    fileName: "grande.pdf",
    contentType: "application/pdf",
    size: bytes,
    content: Buffer.from("%PDF-1.4\n"),
  });
}

describe("the hourly limit on a customer's messages", () => {
  it("takes 20 messages an hour across the customer's tickets, then answers 429 and stores nothing", async () => {
    const customer = await newCustomer();
    const first = await openTicket(customer, "Primer ticket");
    const second = await openTicket(customer, "Segundo ticket");
    const statuses: number[] = [];
    for (let n = 1; n <= 33; n++) {
      const ticket = n % 2 ? first : second;
      const answer = await sendMessage(customer, ticket, `Mensaje número ${n} del cliente.`);
      statuses.push(answer.status);
      if (n === MESSAGES_PER_CUSTOMER.limit + 1) {
        expect(answer.status).toBe(429);
        expect(await codesOf(answer)).toEqual(["tooManyMessages"]);
        expect(Number(answer.headers.get("Retry-After"))).toBeGreaterThan(0);
      }
    }
    const limit = MESSAGES_PER_CUSTOMER.limit;
    expect(statuses).toEqual([...Array(limit).fill(302), ...Array(33 - limit).fill(429)]);
    // The opening message of each ticket and the 20 taken: nothing beyond.
    expect((await messagesOf(first)) + (await messagesOf(second))).toBe(2 + limit);

    // Another customer is not held back by this one.
    const other = await newCustomer();
    const theirs = await openTicket(other, "Otro cliente");
    expect((await sendMessage(other, theirs, "Un mensaje de otra persona.")).status).toBe(302);
  });

  it("refuses the 11th new ticket in an hour before its body is read", async () => {
    const customer = await newCustomer();
    for (let n = 1; n <= TICKETS_PER_CUSTOMER.limit; n++)
      await openTicket(customer, `Ticket número ${n}`);
    const refused = await postNeverEnding("/mi-cuenta/tickets/nuevo", customer.cookie, 8 << 20);
    expect(refused).toMatchObject({ status: 429, body: { errors: [{ code: "tooManyTickets" }] } });
    const [tickets] = await database.db
      .select({ n: count() })
      .from(supportTickets)
      .where(eq(supportTickets.userId, customer.viewer.id));
    expect(tickets!.n).toBe(TICKETS_PER_CUSTOMER.limit);
  });
});

describe("the quota of a customer's files", () => {
  it("refuses a body larger than what is left before reading it, and still takes text", async () => {
    const customer = await newCustomer();
    const ticketId = await openTicket(customer);
    await storeFilesOf(customer, ticketId, ATTACHMENT_QUOTA_BYTES - (2 << 20));

    // 5 MB declared, 2 MB left: answered at once, while the body has not even been sent.
    const refused = await postNeverEnding(
      `/mi-cuenta/tickets/${ticketId}`,
      customer.cookie,
      5 << 20,
    );
    expect(refused).toMatchObject({ status: 413, body: { errors: [{ code: "attachmentQuota" }] } });
    expect(await messagesOf(ticketId)).toBe(1);

    // A message without files is small, and always fits.
    const text = await sendMessage(customer, ticketId, "Sin archivos esta vez, solo texto.");
    expect(text.status).toBe(302);
    expect(await messagesOf(ticketId)).toBe(2);
  });

  it("is checked again with the real sizes when the files are stored", async () => {
    const customer = await newCustomer();
    const ticketId = await openTicket(customer);
    await storeFilesOf(customer, ticketId, ATTACHMENT_QUOTA_BYTES - 10);
    // Straight to the action (no Express, no Content-Length): the stored sizes decide.
    const form = new FormData();
    form.append("intent", "message");
    form.append("message", "Adjunto el registro completo del error.");
    form.append("attachments", new File(["registro de errores: 0123456789"], "registro.txt"));
    const answer = await customerTicketAction(
      new Request(`${getConfig().siteUrl}/mi-cuenta/tickets/${ticketId}`, {
        method: "POST",
        body: form,
        headers: { Cookie: customer.cookie },
      }),
      customer.viewer,
      ticketId,
    );
    expect(answer).toMatchObject({
      init: { status: 413 },
      data: { errors: [{ code: "attachmentQuota" }], values: { message: expect.any(String) } },
    });
    expect(await messagesOf(ticketId)).toBe(1);
  });
});

describe("the company inbox", () => {
  const noticesOf = async (ticketId: string) => {
    const [ticket] = await database.db
      .select({ ticketNumber: supportTickets.ticketNumber })
      .from(supportTickets)
      .where(eq(supportTickets.id, ticketId));
    return database.db
      .select()
      .from(mailOutbox)
      .where(
        and(
          eq(mailOutbox.kind, "ticket-staff-notice"),
          like(mailOutbox.subject, `%${ticket!.ticketNumber}%`),
        ),
      );
  };

  const ageNotices = (ticketId: string, minutes: number) =>
    noticesOf(ticketId).then((notices) =>
      Promise.all(
        notices.map((notice) => {
          const at = new Date(Date.now() - minutes * 60_000);
          return database.db
            .update(mailOutbox)
            .set({ status: "sent", sentAt: at, createdAt: at })
            .where(eq(mailOutbox.id, notice.id));
        }),
      ),
    );

  it("hears of a burst of 10 messages on one ticket once", async () => {
    const customer = await newCustomer();
    const ticketId = await openTicket(customer);
    await ageNotices(ticketId, 60);
    for (let n = 1; n <= 10; n++)
      expect((await sendMessage(customer, ticketId, `Otro detalle más, el ${n}.`)).status).toBe(
        302,
      );
    expect(await messagesOf(ticketId)).toBe(11);
    // The opening's notice, and one for the ten messages.
    const notices = await noticesOf(ticketId);
    expect(notices).toHaveLength(2);
    expect(notices.map((notice) => notice.status).sort()).toEqual(["pending", "sent"]);
  });

  it("hears again once the last notice is 10 minutes old, or after staff wrote in the ticket", async () => {
    const customer = await newCustomer();
    const ticketId = await openTicket(customer);
    // Unsent, then sent a moment ago: the notice stands for the messages after it.
    await sendMessage(customer, ticketId, "Un detalle más mientras el aviso espera.");
    expect(await noticesOf(ticketId)).toHaveLength(1);
    await ageNotices(ticketId, 2);
    await sendMessage(customer, ticketId, "Otro detalle, el aviso acaba de salir.");
    expect(await noticesOf(ticketId)).toHaveLength(1);

    await ageNotices(ticketId, 11);
    await sendMessage(customer, ticketId, "Vuelvo a escribir pasado un rato.");
    expect(await noticesOf(ticketId)).toHaveLength(2);

    // Staff answer: the customer's next message is news again, though the last notice is unsent.
    const reply = await staffAction({
      request: formPost(
        `/admin/tickets/${ticketId}`,
        { intent: "reply", message: "Gracias, lo miramos ahora." },
        admin.cookie,
      ),
      params: { ticketId },
      context: {},
    } as never);
    expect(reply).toBeInstanceOf(Response);
    await sendMessage(customer, ticketId, "Gracias, quedo a la espera.");
    expect(await noticesOf(ticketId)).toHaveLength(3);
  });
});
