import type { DatabaseTransaction } from "~/platform/db/client.server";
import { and, desc, eq, inArray, sql } from "drizzle-orm";
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
import { attachmentsOf, storeAttachments, type CheckedAttachment } from "./attachments.server";
import { activeTicketStatuses, finishedTicketStatuses, formatTicketNumber } from "./ticket-rules";

/*
 * The tickets and their conversations as the database keeps them, shared by the customer's
 * pages (customer-tickets.server.ts), the staff's (staff-tickets.server.ts) and the admin lists.
 */

export type Tx = DatabaseTransaction;

/** What the support mails say about the company. */
export function mailContext() {
  const { company, contactInbox } = getConfig();
  return { brandName: company.brandName, siteUrl: company.siteUrl, contactInbox };
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
export async function conversationOf(ticketId: string) {
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
export type FoundTicket = NonNullable<Awaited<ReturnType<typeof findTicket>>>;

/** The ticket `ticketId` (of `ownerId` when given), or a 404 thrown for any other. */
export async function requireTicket(ticketId: string, ownerId?: string): Promise<FoundTicket> {
  const ticket = await findTicket(ticketId, ownerId);
  if (!ticket) throw new Response("Not Found", { status: 404 });
  return ticket;
}

// ---------------------------------------------------------------------------------------------
// Writing

/** The next number of the year: the counter row is locked until the ticket commits, so no gaps. */
export async function nextTicketNumber(tx: Tx): Promise<string> {
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

/** One message of the conversation with its files, in the caller's transaction. */
export async function appendMessage(
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
  return written!.id;
}
