import { and, desc, eq, sql } from "drizzle-orm";
import type { Viewer } from "~/features/identity/session.server";
import { getDb } from "~/platform/db/database.server";
import { isUuid } from "~/platform/db/ids";
import { purchases, supportTickets } from "~/platform/db/schema";
import { redirectWithToast } from "~/platform/http/toast.server";
import { getLogger } from "~/platform/logger.server";
import { getMailWorker } from "~/platform/mail/mailer.server";
import { enqueueMails } from "~/platform/mail/outbox.server";
import { refuse as refuseForm } from "~/platform/http/form-reply.server";
import type { CheckedAttachment } from "./attachments.server";
import { staffNoticeMail, staffNoticeWanted } from "./support-mails.server";
import { checkForm } from "~/platform/forms/form-answer";
import {
  AttachmentQuotaExceeded,
  ensureRoomForFiles,
  refusalBeforeBody,
  type TicketPostRefusal,
} from "./ticket-quotas.server";
import { checkMessage, readForm, refuse } from "./ticket-forms.server";
import {
  acceptsMessages,
  messageAnchor,
  newTicketSchema,
  supportMessages,
  ticketMessageSchema,
  type NewTicket,
} from "./ticket-rules";
import {
  appendMessage,
  conversationOf,
  mailContext,
  nextTicketNumber,
  requireTicket,
  type FoundTicket,
} from "./ticket-store.server";

/** The first staff answer is due this long after a ticket is opened (the home page's promise). */
const FIRST_RESPONSE_HOURS = 24;

/** A limit met before the body was read: the form's answer, without the text (never read). */
const refuseUnread = ({ code, status, retryAfter }: TicketPostRefusal) =>
  refuseForm(code, { status, retryAfter });

const bytesOf = (attachments: CheckedAttachment[]) =>
  attachments.reduce((sum, attachment) => sum + attachment.size, 0);

/** A ticket with its conversation, for its owner; anyone else's ticket does not exist (404). */
export async function customerTicketPage(viewer: Viewer, ticketId: string) {
  const ticket = await requireTicket(ticketId, viewer.id);
  const { customerEmail: _email, userId: _owner, ...shown } = ticket;
  return { ticket: shown, messages: await conversationOf(ticket.id) };
}

/** What the page of a customer's ticket is given. */
export type CustomerTicket = Awaited<ReturnType<typeof customerTicketPage>>;

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
    await ensureRoomForFiles(tx, viewer.id, bytesOf(attachments));
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
  const early = await refusalBeforeBody(request, viewer, "ticket");
  if (early) return refuseUnread(early);
  const { form, files } = await readForm(request);
  if (!form) return refuse("saveFailed");
  const checked = await checkMessage(checkForm(newTicketSchema, form), files);
  if (!checked.ok) return refuse(checked.errors, 400, form);
  if (checked.data.purchaseId && !(await ownPurchase(viewer, checked.data.purchaseId)))
    return refuse([{ code: "purchaseUnknown", field: "purchaseId" }], 400, form);
  try {
    const ticket = await openTicket(viewer, checked.data, checked.attachments);
    return redirectWithToast(`/mi-cuenta/tickets/${ticket.id}`, {
      kind: "success",
      ...supportMessages.ticketCreated,
    });
  } catch (error) {
    if (error instanceof AttachmentQuotaExceeded) return refuse("attachmentQuota", 413, form);
    getLogger().error({ err: error }, "opening a ticket failed");
    return refuse("saveFailed", 503, form);
  }
}

/**
 * A message of the customer: a resolved ticket opens again; a closed one takes none. The company
 * inbox hears of it unless it already has an unread notice of this ticket (decision 033).
 */
async function addCustomerMessage(
  ticket: FoundTicket,
  viewer: Viewer,
  body: string,
  attachments: CheckedAttachment[],
) {
  return getDb().transaction(async (tx) => {
    await ensureRoomForFiles(tx, viewer.id, bytesOf(attachments));
    const messageId = await appendMessage(
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
    // After the update: its row lock makes a burst on one ticket look here one at a time.
    if (await staffNoticeWanted(tx, ticket))
      await enqueueMails(tx, [staffNoticeMail(ticket, body, false, mailContext())]);
    return messageId;
  });
  getMailWorker().wake();
}

/** POST on the customer's ticket page: a new message, or 'resolved'. */
export async function customerTicketAction(request: Request, viewer: Viewer, ticketId: string) {
  const ticket = await requireTicket(ticketId, viewer.id);
  const early = await refusalBeforeBody(request, viewer, "message");
  if (early) return refuseUnread(early);
  const { form, files } = await readForm(request);
  const back = `/mi-cuenta/tickets/${ticket.id}`;
  if (!acceptsMessages(ticket.status)) return refuse("ticketClosed", 409);
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
  if (form?.intent !== "message") return refuse("saveFailed");
  const checked = await checkMessage(checkForm(ticketMessageSchema, form), files);
  if (!checked.ok) return refuse(checked.errors, 400, form);
  let messageId: string;
  try {
    messageId = await addCustomerMessage(ticket, viewer, checked.data.message, checked.attachments);
  } catch (error) {
    if (error instanceof AttachmentQuotaExceeded) return refuse("attachmentQuota", 413, form);
    getLogger().error({ err: error }, "adding a ticket message failed");
    return refuse("saveFailed", 503, form);
  }
  // To the new message (without JavaScript too), not the top of the conversation.
  return redirectWithToast(`${back}#${messageAnchor(messageId)}`, {
    kind: "success",
    ...supportMessages.messageSent,
  });
}
