import { and, asc, desc, eq, ilike, inArray, not, sql, type SQL } from "drizzle-orm";
import { summaryColumns, ticketOverdueSql } from "~/features/support/ticket-store.server";
import {
  categoryLabel,
  priorityLabel,
  ticketCategories,
  ticketPriorities,
  ticketStatuses,
  ticketStatusLabel,
} from "~/features/support/ticket-rules";
import type { Database } from "~/platform/db/client.server";
import { searchText, supportTickets, users } from "~/platform/db/schema";
import { choiceIn, type AdminView } from "../admin-tabs";
import { sqlCsvText, sqlLabel, sqlOwnLabel, sqlCsvDateTime, yesNo } from "./csv-cells.server";
import {
  containsPattern,
  countRows,
  type ListFilterView,
  type ListTab,
  type PageWindow,
} from "./list-query.server";
import { ticketFilters } from "./tickets-tab";

// Tickets: every customer's, newest first or the overdue ones first, with the customer's address.

function ticketFilter(db: Database, { search, status }: ListFilterView): SQL | undefined {
  const state = choiceIn(ticketFilters, status);
  return and(
    state === "all" ? undefined : eq(supportTickets.status, state),
    search ? ticketsMatching(db, search) : undefined,
  );
}

/** Tickets whose number or subject, or whose customer's address, contains `search`. */
function ticketsMatching(db: Database, search: string): SQL {
  const pattern = containsPattern(search);
  return inArray(
    supportTickets.id,
    db
      .select({ id: supportTickets.id })
      .from(supportTickets)
      .where(ilike(searchText.tickets(supportTickets), pattern))
      .union(
        db
          .select({ id: supportTickets.id })
          .from(supportTickets)
          .innerJoin(users, eq(users.id, supportTickets.userId))
          .where(ilike(users.email, pattern)),
      ),
  );
}

/** Newest first: the tickets' usual order, and their index's. */
const newestTicketsFirst = [desc(supportTickets.createdAt), desc(supportTickets.ticketNumber)];

/**
 * 'Vencidos primero': the tickets past their first-response time, the longest overdue first,
 * then the rest newest first. Read as two indexed lists (the overdue ones from a partial index
 * on the due time) each cut at the end of the page, then merged: sorting every ticket by an
 * expression would read the whole table for each page.
 */
function overdueFirstNumbers(db: Database, filter: SQL | undefined, { limit, offset }: PageWindow) {
  const branch = (part: 0 | 1) =>
    db
      .select({
        ticketNumber: supportTickets.ticketNumber,
        part: sql<number>`${sql.raw(String(part))}`.as("part"),
        dueAt: supportTickets.firstResponseDueAt,
        createdAt: supportTickets.createdAt,
      })
      .from(supportTickets)
      .where(and(filter, part === 0 ? ticketOverdueSql : not(ticketOverdueSql)))
      .orderBy(
        ...(part === 0 ? [asc(supportTickets.firstResponseDueAt)] : []),
        ...newestTicketsFirst,
      )
      .limit(offset + limit);
  return db
    .select({ ticketNumber: sql<string>`queue.ticket_number` })
    .from(sql`((${branch(0)}) union all (${branch(1)})) as queue`)
    .orderBy(
      sql`queue.part`,
      sql`case when queue.part = 0 then queue.first_response_due_at end`,
      sql`queue.created_at desc`,
      sql`queue.ticket_number desc`,
    )
    .limit(limit)
    .offset(offset);
}

/**
 * Tickets with their customer's address, newest first; or, for 'Vencidos primero', the overdue
 * ones first, the longest overdue at the top.
 */
function ticketRows(
  db: Database,
  filter: SQL | undefined,
  window: PageWindow,
  order?: AdminView["order"],
) {
  const overdueFirst = order === "vencidos";
  const pageNumbers = overdueFirst
    ? overdueFirstNumbers(db, filter, window)
    : db
        .select({ ticketNumber: supportTickets.ticketNumber })
        .from(supportTickets)
        .where(filter)
        .orderBy(...newestTicketsFirst)
        .limit(window.limit)
        .offset(window.offset);
  return db
    .select({
      ...summaryColumns,
      firstResponseDueAt: supportTickets.firstResponseDueAt,
      overdue: ticketOverdueSql,
      customerEmail: users.email,
    })
    .from(supportTickets)
    .innerJoin(users, eq(users.id, supportTickets.userId))
    .where(inArray(supportTickets.ticketNumber, pageNumbers))
    .orderBy(
      ...(overdueFirst
        ? [
            desc(ticketOverdueSql),
            asc(sql`case when ${ticketOverdueSql} then ${supportTickets.firstResponseDueAt} end`),
          ]
        : []),
      ...newestTicketsFirst,
    );
}

export type TicketRow = Awaited<ReturnType<typeof ticketRows>>[number];

export const ticketsTab: ListTab<TicketRow> = {
  filter: ticketFilter,
  count: (db, view, filter) => countRows(db, supportTickets, filter, Boolean(view.search)),
  rows: ticketRows,
  csv: {
    columns: [
      ["Número", sqlCsvText(supportTickets.ticketNumber)],
      ["Asunto", sqlCsvText(supportTickets.subject)],
      ["Categoría", sqlCsvText(sqlLabel(supportTickets.category, ticketCategories, categoryLabel))],
      ["Prioridad", sqlOwnLabel(supportTickets.priority, ticketPriorities, priorityLabel)],
      ["Estado", sqlOwnLabel(supportTickets.status, ticketStatuses, ticketStatusLabel)],
      ["Cliente", sqlCsvText(users.email)],
      ["Creado", sqlCsvDateTime(supportTickets.createdAt)],
      ["Responder antes de", sqlCsvDateTime(supportTickets.firstResponseDueAt)],
      ["Vencido", yesNo(ticketOverdueSql)],
    ],
    // The export is always newest first, whatever the order on screen.
    order: [supportTickets.createdAt, supportTickets.ticketNumber],
    rows: (db, fields, where) =>
      db
        .select(fields)
        .from(supportTickets)
        .innerJoin(users, eq(users.id, supportTickets.userId))
        .where(where)
        .$dynamic(),
  },
};
