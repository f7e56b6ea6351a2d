import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { data } from "react-router";
import type { Viewer } from "~/features/accounts/session.server";
import { getConfig } from "~/platform/config.server";
import { getDb } from "~/platform/db/database.server";
import { isUuid } from "~/platform/db/ids";
import {
  purchases,
  supportTickets,
  ticketCounters,
  ticketMessages,
  users,
} from "~/platform/db/schema";
import { redirectWithToast } from "~/platform/http/toast.server";
import { getLogger } from "~/platform/logger.server";
import { getMailWorker } from "~/platform/mail/mailer.server";
import { enqueueMails } from "~/platform/mail/outbox.server";
import { hitRateLimit } from "~/platform/security/rate-limit.server";
import {
  attachmentsOf,
  checkAttachments,
  storeAttachments,
  type CheckedAttachment,
} from "./attachments.server";
import { customerReplyMail, customerStatusMail, staffNoticeMail } from "./support-mails.server";
import {
  acceptsMessages,
  activeTicketStatuses,
  finishedTicketStatuses,
  formatTicketNumber,
  newTicketSchema,
  supportIssues,
  supportMessages,
  ticketChangeSchema,
  ticketMessageSchema,
  type NewTicket,
  type SupportAnswer,
  type SupportMessage,
} from "./ticket-rules";

/** What a refused ticket form gets back: every problem, in the form's order. */
export type SupportFormResult = SupportAnswer;

/** The text fields a refused form shows again, so nothing typed is lost. */
const echoedFields = ["subject", "category", "priority", "purchaseId", "message"];

const refuse = (
  errors: SupportMessage[],
  status = 400,
  form?: Record<string, string> | null,
  refusedFile?: string,
) => {
  const values = form
    ? Object.fromEntries(echoedFields.flatMap((key) => (key in form ? [[key, form[key]!]] : [])))
    : undefined;
  return data<SupportFormResult>({ errors, values, refusedFile }, { status });
};

const notFound = () => new Response("Not Found", { status: 404 });

/** The first staff answer is due this long after a ticket is opened (the home page's promise). */
const FIRST_RESPONSE_HOURS = 24;
const TICKETS_PER_CUSTOMER = { limit: 10, windowMs: 60 * 60_000 };

type Db = ReturnType<typeof getDb>;
type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

function mailContext() {
  const { company, contactInbox } = getConfig();
  return { brandName: company.brandName, siteUrl: company.siteUrl, contactInbox };
}

/** A form's text fields, and its files apart (multipart forms); no form at all is `null`. */
async function readForm(
  request: Request,
): Promise<{ form: Record<string, string> | null; files: File[] }> {
  try {
    const entries = [...(await request.formData()).entries()];
    return {
      form: Object.fromEntries(
        entries.map(([key, value]) => [key, typeof value === "string" ? value : ""]),
      ),
      files: entries.flatMap(([, value]) => (typeof value === "string" ? [] : [value])),
    };
  } catch {
    return { form: null, files: [] };
  }
}

/**
 * A message's text and files checked together, so a refusal names every problem; the text typed
 * is echoed back with it.
 */
async function checkMessage<T>(
  parsed: { success: true; data: T } | { success: false; errors: SupportMessage[] },
  files: File[],
) {
  const checked = await checkAttachments(files);
  if (parsed.success && checked.ok)
    return { ok: true as const, data: parsed.data, attachments: checked.attachments };
  return {
    ok: false as const,
    errors: [...(parsed.success ? [] : parsed.errors), ...(checked.ok ? [] : [checked.error])],
    refusedFile: checked.ok ? undefined : checked.fileName,
  };
}

// ---------------------------------------------------------------------------------------------
// Reading

/** The columns of a ticket in a list (the customer's and the staff's). */
export const summaryColumns = {
  id: supportTickets.id,
  ticketNumber: supportTickets.ticketNumber,
  subject: supportTickets.subject,
  category: supportTickets.category,
  priority: supportTickets.priority,
  status: supportTickets.status,
  createdAt: supportTickets.createdAt,
  updatedAt: supportTickets.updatedAt,
};

/** A customer's tickets, newest first. */
export function ticketsOf(userId: string, limit: number) {
  return getDb()
    .select(summaryColumns)
    .from(supportTickets)
    .where(eq(supportTickets.userId, userId))
    .orderBy(desc(supportTickets.createdAt))
    .limit(limit);
}
export type TicketSummary = Awaited<ReturnType<typeof ticketsOf>>[number];

/** Spec's user stats: active (open, in progress) and resolved (resolved, closed) tickets. */
export function ticketCountsSql(userId: string) {
  return {
    activeTickets:
      sql<number>`(select count(*) from ${supportTickets} where ${supportTickets.userId} = ${userId} and ${inArray(supportTickets.status, [...activeTicketStatuses])})`.mapWith(
        Number,
      ),
    resolvedTickets:
      sql<number>`(select count(*) from ${supportTickets} where ${supportTickets.userId} = ${userId} and ${inArray(supportTickets.status, [...finishedTicketStatuses])})`.mapWith(
        Number,
      ),
  };
}

/**
 * The 24-hour promise broken: past its first-response due time, no staff reply yet, and still
 * waiting (open or in progress). Computed by the database, with its clock.
 */
export const ticketOverdueSql = sql<boolean>`(${supportTickets.firstStaffReplyAt} is null and ${inArray(supportTickets.status, [...activeTicketStatuses])} and ${supportTickets.firstResponseDueAt} < now())`;

/** A ticket's messages, oldest first, each with its files (names and sizes, never the bytes). */
async function conversationOf(ticketId: string) {
  const [messages, files] = await Promise.all([messagesOf(ticketId), attachmentsOf(ticketId)]);
  return messages.map((message) => ({
    ...message,
    attachments: files.filter((file) => file.messageId === message.id),
  }));
}

function messagesOf(ticketId: string) {
  return getDb()
    .select({
      id: ticketMessages.id,
      author: ticketMessages.author,
      body: ticketMessages.body,
      createdAt: ticketMessages.createdAt,
    })
    .from(ticketMessages)
    .where(eq(ticketMessages.ticketId, ticketId))
    .orderBy(ticketMessages.createdAt, ticketMessages.id);
}

async function findTicket(ticketId: string, ownerId?: string) {
  if (!isUuid(ticketId)) return undefined;
  const [ticket] = await getDb()
    .select({
      ...summaryColumns,
      userId: supportTickets.userId,
      purchaseId: supportTickets.purchaseId,
      firstResponseDueAt: supportTickets.firstResponseDueAt,
      firstStaffReplyAt: supportTickets.firstStaffReplyAt,
      overdue: ticketOverdueSql,
      closedAt: supportTickets.closedAt,
      customerEmail: users.email,
      purchaseName: purchases.serviceName,
    })
    .from(supportTickets)
    .innerJoin(users, eq(users.id, supportTickets.userId))
    .leftJoin(purchases, eq(purchases.id, supportTickets.purchaseId))
    .where(
      ownerId
        ? and(eq(supportTickets.id, ticketId), eq(supportTickets.userId, ownerId))
        : eq(supportTickets.id, ticketId),
    );
  return ticket;
}
type FoundTicket = NonNullable<Awaited<ReturnType<typeof findTicket>>>;

/** A ticket with its conversation, for its owner; anyone else's ticket does not exist (404). */
export async function customerTicketPage(viewer: Viewer, ticketId: string) {
  const ticket = await findTicket(ticketId, viewer.id);
  if (!ticket) throw notFound();
  const { customerEmail: _email, userId: _owner, ...shown } = ticket;
  return { ticket: shown, messages: await conversationOf(ticket.id) };
}

/** A ticket with its conversation and its customer, for staff. */
export async function staffTicketPage(ticketId: string) {
  const ticket = await findTicket(ticketId);
  if (!ticket) throw notFound();
  return { ticket, messages: await conversationOf(ticket.id) };
}

/** The creation form: the customer's purchases a ticket may be about. */
export async function newTicketPage(viewer: Viewer, url: URL) {
  const own = await getDb()
    .select({
      id: purchases.id,
      serviceName: purchases.serviceName,
      createdAt: purchases.createdAt,
    })
    .from(purchases)
    .where(eq(purchases.userId, viewer.id))
    .orderBy(desc(purchases.createdAt))
    .limit(50);
  const asked = url.searchParams.get("compra") ?? "";
  return { purchases: own, purchaseId: own.some((row) => row.id === asked) ? asked : "" };
}

// ---------------------------------------------------------------------------------------------
// Writing

/** The next number of the year: the counter row is locked until the ticket commits, so no gaps. */
async function nextTicketNumber(tx: Tx): Promise<string> {
  const year = new Date().getUTCFullYear();
  const [counter] = await tx
    .insert(ticketCounters)
    .values({ year, lastNumber: 1 })
    .onConflictDoUpdate({
      target: ticketCounters.year,
      set: { lastNumber: sql`${ticketCounters.lastNumber} + 1` },
    })
    .returning({ lastNumber: ticketCounters.lastNumber });
  return formatTicketNumber(year, counter!.lastNumber);
}

async function ownPurchase(viewer: Viewer, purchaseId: string) {
  if (!isUuid(purchaseId)) return false;
  const [row] = await getDb()
    .select({ id: purchases.id })
    .from(purchases)
    .where(and(eq(purchases.id, purchaseId), eq(purchases.userId, viewer.id)));
  return Boolean(row);
}

/** Opens a ticket with its first message and tells the company inbox, all or nothing. */
export async function openTicket(
  viewer: Viewer,
  input: NewTicket,
  attachments: CheckedAttachment[] = [],
) {
  const ticket = await getDb().transaction(async (tx) => {
    const ticketNumber = await nextTicketNumber(tx);
    const [created] = await tx
      .insert(supportTickets)
      .values({
        ticketNumber,
        userId: viewer.id,
        subject: input.subject,
        category: input.category,
        priority: input.priority,
        purchaseId: input.purchaseId || null,
        firstResponseDueAt: sql`now() + make_interval(hours => ${FIRST_RESPONSE_HOURS})`,
      })
      .returning();
    await appendMessage(
      tx,
      created!.id,
      { author: "customer", authorId: viewer.id, body: input.message },
      attachments,
    );
    await enqueueMails(tx, [staffNoticeMail(created!, input.message, true, mailContext())]);
    return created!;
  });
  getMailWorker().wake();
  return ticket;
}

/** POST of the creation form. */
export async function createTicketAction(request: Request, viewer: Viewer) {
  const { form, files } = await readForm(request);
  if (!form) return refuse(["saveFailed"]);
  const checked = await checkMessage(supportIssues(newTicketSchema, form), files);
  if (!checked.ok) return refuse(checked.errors, 400, form, checked.refusedFile);
  if (checked.data.purchaseId && !(await ownPurchase(viewer, checked.data.purchaseId)))
    return refuse(["purchaseUnknown"], 400, form);
  const limit = await hitRateLimit(getDb(), `tickets:user:${viewer.id}`, TICKETS_PER_CUSTOMER);
  if (!limit.allowed) return refuse(["tooManyTickets"], 429, form);
  try {
    const ticket = await openTicket(viewer, checked.data, checked.attachments);
    return redirectWithToast(`/mi-cuenta/tickets/${ticket.id}`, {
      kind: "success",
      ...supportMessages.ticketCreated,
    });
  } catch (error) {
    getLogger().error({ err: error }, "opening a ticket failed");
    return refuse(["saveFailed"], 503, form);
  }
}

/** One message of the conversation with its files, in the caller's transaction. */
async function appendMessage(
  tx: Tx,
  ticketId: string,
  message: Pick<typeof ticketMessages.$inferInsert, "author" | "authorId" | "body">,
  attachments: CheckedAttachment[],
) {
  const [written] = await tx
    .insert(ticketMessages)
    .values({ ticketId, ...message })
    .returning({ id: ticketMessages.id });
  await storeAttachments(tx, { ticketId, messageId: written!.id }, attachments);
}

/** A message of the customer: a resolved ticket opens again; a closed one takes none. */
async function addCustomerMessage(
  ticket: FoundTicket,
  viewer: Viewer,
  body: string,
  attachments: CheckedAttachment[],
) {
  await getDb().transaction(async (tx) => {
    await appendMessage(
      tx,
      ticket.id,
      { author: "customer", authorId: viewer.id, body },
      attachments,
    );
    await tx
      .update(supportTickets)
      .set({
        updatedAt: new Date(),
        status: sql`case when ${supportTickets.status} = 'resolved' then 'open' else ${supportTickets.status} end`,
        closedAt: sql`case when ${supportTickets.status} = 'resolved' then null else ${supportTickets.closedAt} end`,
      })
      .where(eq(supportTickets.id, ticket.id));
    await enqueueMails(tx, [staffNoticeMail(ticket, body, false, mailContext())]);
  });
  getMailWorker().wake();
}

/** POST on the customer's ticket page: a new message, or 'resolved'. */
export async function customerTicketAction(request: Request, viewer: Viewer, ticketId: string) {
  const ticket = await findTicket(ticketId, viewer.id);
  if (!ticket) throw notFound();
  const { form, files } = await readForm(request);
  const back = `/mi-cuenta/tickets/${ticket.id}`;
  if (!acceptsMessages(ticket.status)) return refuse(["ticketClosed"], 409);
  if (form?.intent === "resolve") {
    await getDb()
      .update(supportTickets)
      .set({
        status: "resolved",
        updatedAt: new Date(),
        closedAt: sql`coalesce(${supportTickets.closedAt}, now())`,
      })
      .where(eq(supportTickets.id, ticket.id));
    return redirectWithToast(back, { kind: "success", ...supportMessages.ticketResolved });
  }
  if (form?.intent !== "message") return refuse(["saveFailed"]);
  const checked = await checkMessage(supportIssues(ticketMessageSchema, form), files);
  if (!checked.ok) return refuse(checked.errors, 400, form, checked.refusedFile);
  try {
    await addCustomerMessage(ticket, viewer, checked.data.message, checked.attachments);
  } catch (error) {
    getLogger().error({ err: error }, "adding a ticket message failed");
    return refuse(["saveFailed"], 503, form);
  }
  return redirectWithToast(back, { kind: "success", ...supportMessages.messageSent });
}

/** A staff reply: the first one meets the 24-hour promise, an open ticket is now in progress. */
async function addStaffReply(
  ticket: FoundTicket,
  staff: Viewer,
  body: string,
  attachments: CheckedAttachment[],
) {
  await getDb().transaction(async (tx) => {
    await appendMessage(tx, ticket.id, { author: "staff", authorId: staff.id, body }, attachments);
    await tx
      .update(supportTickets)
      .set({
        updatedAt: new Date(),
        firstStaffReplyAt: sql`coalesce(${supportTickets.firstStaffReplyAt}, now())`,
        status: sql`case when ${supportTickets.status} = 'open' then 'in_progress' else ${supportTickets.status} end`,
      })
      .where(eq(supportTickets.id, ticket.id));
    await enqueueMails(tx, [customerReplyMail(ticket, ticket.customerEmail, body, mailContext())]);
  });
  getMailWorker().wake();
}

async function changeTicket(ticket: FoundTicket, status: string, priority: string) {
  const closing = status === "closed" || status === "resolved";
  await getDb().transaction(async (tx) => {
    await tx
      .update(supportTickets)
      .set({
        status: status as FoundTicket["status"],
        priority: priority as FoundTicket["priority"],
        updatedAt: new Date(),
        closedAt: closing ? (ticket.closedAt ?? new Date()) : null,
      })
      .where(eq(supportTickets.id, ticket.id));
    if (status !== ticket.status)
      await enqueueMails(tx, [
        customerStatusMail(ticket, ticket.customerEmail, status, mailContext()),
      ]);
  });
  getMailWorker().wake();
}

/** POST on the staff ticket page: a reply, or a change of status and priority. */
export async function staffTicketAction(request: Request, staff: Viewer, ticketId: string) {
  const ticket = await findTicket(ticketId);
  if (!ticket) throw notFound();
  const { form, files } = await readForm(request);
  const back = `/admin/tickets/${ticket.id}`;
  try {
    if (form?.intent === "reply") {
      const checked = await checkMessage(supportIssues(ticketMessageSchema, form), files);
      if (!checked.ok) return refuse(checked.errors, 400, form, checked.refusedFile);
      await addStaffReply(ticket, staff, checked.data.message, checked.attachments);
      return redirectWithToast(back, { kind: "success", ...supportMessages.replySent });
    }
    if (form?.intent === "update") {
      const parsed = supportIssues(ticketChangeSchema, form);
      if (!parsed.success) return refuse(parsed.errors);
      await changeTicket(ticket, parsed.data.status, parsed.data.priority);
      return redirectWithToast(back, { kind: "success", ...supportMessages.ticketUpdated });
    }
  } catch (error) {
    getLogger().error({ err: error }, "a staff change to a ticket failed");
    return refuse(["saveFailed"], 503, form);
  }
  return refuse(["saveFailed"]);
}
