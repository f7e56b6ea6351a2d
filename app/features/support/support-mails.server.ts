import { and, eq, gt, inArray, like, or, sql } from "drizzle-orm";
import { mailOutbox, ticketMessages } from "~/platform/db/schema";
import { escapeHtml, escapeMultiline, renderMailLayout, singleLine } from "~/platform/mail/html";
import type { OutgoingMail } from "~/platform/mail/outbox.server";
import { categoryLabel, ticketStatusLabel } from "./ticket-rules";
import type { Tx } from "./ticket-store.server";

type MailContext = { brandName: string; siteUrl: string; contactInbox: string };
type TicketRef = { id: string; ticketNumber: string; subject: string; category: string };

/**
 * Ticket text is only ever mailed to the company inbox and to the ticket's owner: the owner's
 * address comes from their account, never from a form.
 */
const staffLink = (ticket: TicketRef, context: MailContext) =>
  `${context.siteUrl}/admin/tickets/${ticket.id}`;
const customerLink = (ticket: TicketRef, context: MailContext) =>
  `${context.siteUrl}/mi-cuenta/tickets/${ticket.id}`;

function mail(
  kind: string,
  to: string,
  subject: string,
  context: MailContext,
  {
    heading,
    paragraphs,
    quote,
    link,
  }: {
    heading: string;
    paragraphs: string[];
    quote?: string;
    link: { href: string; label: string };
  },
): OutgoingMail {
  const quoted = quote
    ? `<blockquote style="margin:16px 0;padding:12px 16px;border-left:4px solid #cbd5e1;color:#334155;">${escapeMultiline(quote)}</blockquote>`
    : "";
  return {
    kind,
    to,
    replyTo: kind.startsWith("ticket-staff") ? undefined : context.contactInbox,
    subject: singleLine(subject),
    html: renderMailLayout({
      ...context,
      preheader: paragraphs[0] ?? heading,
      bodyHtml: `<h1 style="font-size:20px;margin:0 0 16px;">${escapeHtml(heading)}</h1>
${paragraphs.map((text) => `<p>${escapeHtml(text)}</p>`).join("\n")}${quoted}
<p style="margin-top:24px;"><a href="${escapeHtml(link.href)}" style="color:#1d41b0;font-weight:600;">${escapeHtml(link.label)}</a></p>`,
    }),
    text: [
      heading,
      "",
      ...paragraphs,
      ...(quote ? ["", quote] : []),
      "",
      `${link.label}: ${link.href}`,
    ].join("\n"),
  };
}

const STAFF_NOTICE = "ticket-staff-notice";
const staffNoticeHeads = { ticket: "Nuevo ticket", message: "Nuevo mensaje en el ticket" };
/** A notice sent this recently still stands for the messages after it. */
const STAFF_NOTICE_QUIET_MINUTES = 10;

/** To the company inbox: a new ticket, or a new message of the customer. */
export function staffNoticeMail(
  ticket: TicketRef,
  message: string,
  isNewTicket: boolean,
  context: MailContext,
): OutgoingMail {
  const what = isNewTicket ? staffNoticeHeads.ticket : staffNoticeHeads.message;
  return mail(
    STAFF_NOTICE,
    context.contactInbox,
    `${what} ${ticket.ticketNumber}: ${ticket.subject}`,
    context,
    {
      heading: `${what} ${ticket.ticketNumber}`,
      paragraphs: [`Asunto: ${ticket.subject}`, `Categoría: ${categoryLabel(ticket.category)}`],
      quote: message,
      link: { href: staffLink(ticket, context), label: "Abrir el ticket en el panel" },
    },
  );
}

/** To the ticket's owner: staff replied. */
export function customerReplyMail(
  ticket: TicketRef,
  to: string,
  reply: string,
  context: MailContext,
): OutgoingMail {
  return mail(
    "ticket-reply",
    to,
    `Respuesta a tu ticket ${ticket.ticketNumber} - ${context.brandName}`,
    context,
    {
      heading: `Tenemos una respuesta para tu ticket ${ticket.ticketNumber}`,
      paragraphs: [`Asunto: ${ticket.subject}`],
      quote: reply,
      link: { href: customerLink(ticket, context), label: "Ver la conversación" },
    },
  );
}

/** To the ticket's owner: staff changed the ticket's status. */
export function customerStatusMail(
  ticket: TicketRef,
  to: string,
  status: string,
  context: MailContext,
): OutgoingMail {
  const label = ticketStatusLabel(status);
  return mail(
    "ticket-status",
    to,
    `Tu ticket ${ticket.ticketNumber} está ${label.toLowerCase()} - ${context.brandName}`,
    context,
    {
      heading: `Tu ticket ${ticket.ticketNumber} ha cambiado de estado`,
      paragraphs: [`Asunto: ${ticket.subject}`, `Nuevo estado: ${label}`],
      link: { href: customerLink(ticket, context), label: "Ver el ticket" },
    },
  );
}

/**
 * Whether a new message of the customer should mail the company inbox: not while a notice of this
 * ticket queued since staff last wrote in it is still unsent, or was sent less than 10 minutes
 * ago. A burst of messages is one mail; the panel shows them all (decision 033). Notices are
 * found by their subject, which starts with the ticket's number.
 */
export async function staffNoticeWanted(
  tx: Pick<Tx, "select">,
  ticket: Pick<TicketRef, "id" | "ticketNumber">,
): Promise<boolean> {
  const lastStaffMessage = tx
    .select({ at: sql`max(${ticketMessages.createdAt})` })
    .from(ticketMessages)
    .where(and(eq(ticketMessages.ticketId, ticket.id), eq(ticketMessages.author, "staff")));
  const [standing] = await tx
    .select({ id: mailOutbox.id })
    .from(mailOutbox)
    .where(
      and(
        eq(mailOutbox.kind, STAFF_NOTICE),
        or(
          ...Object.values(staffNoticeHeads).map((head) =>
            like(mailOutbox.subject, `${head} ${ticket.ticketNumber}:%`),
          ),
        ),
        or(
          inArray(mailOutbox.status, ["pending", "sending"]),
          gt(mailOutbox.sentAt, sql`now() - make_interval(mins => ${STAFF_NOTICE_QUIET_MINUTES})`),
        ),
        sql`${mailOutbox.createdAt} > coalesce((${lastStaffMessage}), '-infinity'::timestamptz)`,
      ),
    )
    .limit(1);
  return !standing;
}
