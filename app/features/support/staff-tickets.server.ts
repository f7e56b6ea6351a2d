import { eq, sql } from "drizzle-orm";
import { recordStaffAction } from "~/features/audit/audit.server";
import type { Staff } from "~/features/identity/session.server";
import { getDb } from "~/platform/db/database.server";
import { supportTickets } from "~/platform/db/schema";
import { redirectWithToast } from "~/platform/http/toast.server";
import { getLogger } from "~/platform/logger.server";
import { getMailWorker } from "~/platform/mail/mailer.server";
import { enqueueMails } from "~/platform/mail/outbox.server";
import type { CheckedAttachment } from "./attachments.server";
import { customerReplyMail, customerStatusMail } from "./support-mails.server";
import { checkForm } from "~/platform/forms/form-answer";
import { checkMessage, readForm, refuse } from "./ticket-forms.server";
import {
  messageAnchor,
  supportMessages,
  ticketChangeSchema,
  ticketMessageSchema,
} from "./ticket-rules";
import {
  appendMessage,
  conversationOf,
  mailContext,
  requireTicket,
  type FoundTicket,
} from "./ticket-store.server";

/** A ticket with its conversation and its customer, for staff. */
export async function staffTicketPage(ticketId: string) {
  const ticket = await requireTicket(ticketId);
  return { ticket, messages: await conversationOf(ticket.id) };
}

/**
 * A staff reply: the first one meets the 24-hour promise, an open ticket is now in progress.
 * Written to the staff audit log with it (the ticket keeps the text).
 */
async function addStaffReply(
  ticket: FoundTicket,
  staff: Staff,
  body: string,
  attachments: CheckedAttachment[],
) {
  const messageId = await getDb().transaction(async (tx) => {
    const written = await appendMessage(
      tx,
      ticket.id,
      { author: "staff", authorId: staff.id, body },
      attachments,
    );
    await recordStaffAction(tx, {
      actor: staff,
      action: "ticket.reply",
      target: ticket.id,
      details: { ticket: ticket.ticketNumber, adjuntos: attachments.length },
    });
    await tx
      .update(supportTickets)
      .set({
        updatedAt: new Date(),
        firstStaffReplyAt: sql`coalesce(${supportTickets.firstStaffReplyAt}, now())`,
        status: sql`case when ${supportTickets.status} = 'open' then 'in_progress' else ${supportTickets.status} end`,
      })
      .where(eq(supportTickets.id, ticket.id));
    await enqueueMails(tx, [customerReplyMail(ticket, ticket.customerEmail, body, mailContext())]);
    return written;
  });
  getMailWorker().wake();
  return messageId;
}

/** A change of status and priority; each one that changed gets its audit row, in the same transaction. */
async function changeTicket(ticket: FoundTicket, staff: Staff, status: string, priority: string) {
  const closing = status === "closed" || status === "resolved";
  await getDb().transaction(async (tx) => {
    for (const [action, from, to] of [
      ["ticket.status", ticket.status, status],
      ["ticket.priority", ticket.priority, priority],
    ] as const)
      if (from !== to)
        await recordStaffAction(tx, {
          actor: staff,
          action,
          target: ticket.id,
          details: { from, to, ticket: ticket.ticketNumber },
        });
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
export async function staffTicketAction(request: Request, staff: Staff, ticketId: string) {
  const ticket = await requireTicket(ticketId);
  const { form, files } = await readForm(request);
  const back = `/admin/tickets/${ticket.id}`;
  try {
    if (form?.intent === "reply") {
      const checked = await checkMessage(checkForm(ticketMessageSchema, form), files);
      if (!checked.ok) return refuse(checked.errors, 400, form);
      const messageId = await addStaffReply(
        ticket,
        staff,
        checked.data.message,
        checked.attachments,
      );
      return redirectWithToast(`${back}#${messageAnchor(messageId)}`, {
        kind: "success",
        ...supportMessages.replySent,
      });
    }
    if (form?.intent === "update") {
      const parsed = checkForm(ticketChangeSchema, form);
      if (!parsed.ok) return refuse(parsed.errors);
      await changeTicket(ticket, staff, parsed.data.status, parsed.data.priority);
      return redirectWithToast(back, { kind: "success", ...supportMessages.ticketUpdated });
    }
  } catch (error) {
    getLogger().error({ err: error }, "a staff change to a ticket failed");
    return refuse("saveFailed", 503, form);
  }
  return refuse("saveFailed");
}
