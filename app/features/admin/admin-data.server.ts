import { and, asc, count, desc, eq, ilike, inArray, or, sql, sum, type SQL } from "drizzle-orm";
import { summaryColumns, ticketOverdueSql } from "~/features/support/tickets.server";
import { activeTicketStatuses } from "~/features/support/ticket-rules";
import type { Database } from "~/platform/db/client.server";
import { getDb } from "~/platform/db/database.server";
import {
  contactInquiries,
  customers,
  payments,
  profiles,
  supportTickets,
  users,
} from "~/platform/db/schema";
import { adminCsv } from "./admin-csv.server";
import {
  adminViewFrom,
  choiceIn,
  paymentFilters,
  ticketFilters,
  type AdminListTab,
  type AdminView,
} from "./admin-tabs";

/** Enough rows for a small company's screen; the CSV holds the same rows. */
const LIST_LIMIT = 500;

/** A case-insensitive "contains" over the given columns; the search's own % and _ are literal. */
function matching(search: string, columns: Parameters<typeof ilike>[0][]): SQL | undefined {
  if (!search) return undefined;
  const pattern = `%${search.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
  return or(...columns.map((column) => ilike(column, pattern)));
}

/** Spec: the dashboard lists the 5 latest payments and the 5 latest tickets. */
const DASHBOARD_LATEST = 5;

export async function dashboardFigures(db: Database) {
  const [[revenue], [userCount], [ticketCount], latestPayments, latestTickets] = await Promise.all([
    db
      .select({ cents: sum(payments.amount).mapWith(Number), orders: count() })
      .from(payments)
      .where(eq(payments.status, "completed")),
    db.select({ users: count() }).from(users),
    db
      .select({ open: count() })
      .from(supportTickets)
      .where(inArray(supportTickets.status, [...activeTicketStatuses])),
    db.select().from(payments).orderBy(desc(payments.createdAt)).limit(DASHBOARD_LATEST),
    listTickets(db, { search: "", status: "all", order: "recientes" }, DASHBOARD_LATEST),
  ]);
  return {
    revenueCents: revenue?.cents ?? 0,
    orders: revenue?.orders ?? 0,
    users: userCount?.users ?? 0,
    /** Open or in progress, as the spec counts active tickets. */
    openTickets: ticketCount?.open ?? 0,
    latestPayments,
    latestTickets,
  };
}

export function listInquiries(db: Database, { search }: AdminView) {
  return db
    .select()
    .from(contactInquiries)
    .where(
      matching(search, [
        contactInquiries.name,
        contactInquiries.email,
        contactInquiries.service,
        contactInquiries.message,
      ]),
    )
    .orderBy(desc(contactInquiries.createdAt))
    .limit(LIST_LIMIT);
}

export function listPayments(db: Database, { search, ...view }: AdminView) {
  const status = choiceIn(paymentFilters, view.status);
  return db
    .select()
    .from(payments)
    .where(
      and(
        status === "all" ? undefined : eq(payments.status, status),
        matching(search, [payments.customerEmail, payments.serviceName]),
      ),
    )
    .orderBy(desc(payments.createdAt))
    .limit(LIST_LIMIT);
}

/**
 * Tickets with their customer's address, newest first; or, for 'Vencidos primero', the overdue
 * ones first, the longest overdue at the top.
 */
export function listTickets(
  db: Database,
  { search, order, ...view }: Pick<AdminView, "search" | "status" | "order">,
  limit = LIST_LIMIT,
) {
  const status = choiceIn(ticketFilters, view.status);
  const overdueFirst =
    order === "vencidos"
      ? [
          desc(ticketOverdueSql),
          asc(sql`case when ${ticketOverdueSql} then ${supportTickets.firstResponseDueAt} end`),
        ]
      : [];
  return db
    .select({
      ...summaryColumns,
      firstResponseDueAt: supportTickets.firstResponseDueAt,
      overdue: ticketOverdueSql,
      customerEmail: users.email,
    })
    .from(supportTickets)
    .innerJoin(users, eq(users.id, supportTickets.userId))
    .where(
      and(
        status === "all" ? undefined : eq(supportTickets.status, status),
        matching(search, [supportTickets.ticketNumber, supportTickets.subject, users.email]),
      ),
    )
    .orderBy(...overdueFirst, desc(supportTickets.createdAt), desc(supportTickets.ticketNumber))
    .limit(limit);
}

export function listUsers(db: Database, { search }: AdminView) {
  return db
    .select({
      id: users.id,
      email: users.email,
      fullName: profiles.fullName,
      emailVerified: users.emailVerified,
      createdAt: users.createdAt,
    })
    .from(users)
    .leftJoin(profiles, eq(profiles.id, users.id))
    .where(matching(search, [users.email, profiles.fullName]))
    .orderBy(desc(users.createdAt))
    .limit(LIST_LIMIT);
}

export function listCustomers(db: Database, { search }: AdminView) {
  return db
    .select()
    .from(customers)
    .where(matching(search, [customers.email, customers.name]))
    .orderBy(desc(customers.createdAt))
    .limit(LIST_LIMIT);
}

export type AdminLists = {
  consultas: Awaited<ReturnType<typeof listInquiries>>;
  pagos: Awaited<ReturnType<typeof listPayments>>;
  tickets: Awaited<ReturnType<typeof listTickets>>;
  usuarios: Awaited<ReturnType<typeof listUsers>>;
  clientes: Awaited<ReturnType<typeof listCustomers>>;
};

/** The rows of a list tab, tagged with the tab so each keeps its own row type. */
export type AdminListing = {
  [Tab in AdminListTab]: { tab: Tab; rows: AdminLists[Tab] };
}[AdminListTab];

export async function listTab(
  db: Database,
  view: AdminView & { tab: AdminListTab },
): Promise<AdminListing> {
  switch (view.tab) {
    case "consultas":
      return { tab: view.tab, rows: await listInquiries(db, view) };
    case "pagos":
      return { tab: view.tab, rows: await listPayments(db, view) };
    case "tickets":
      return { tab: view.tab, rows: await listTickets(db, view) };
    case "usuarios":
      return { tab: view.tab, rows: await listUsers(db, view) };
    case "clientes":
      return { tab: view.tab, rows: await listCustomers(db, view) };
  }
}

/** The admin panel at `url`: the dashboard, or the list of the tab in the address. */
export async function adminPanel(url: URL) {
  const view = adminViewFrom(url);
  const db = getDb();
  if (view.tab === "dashboard")
    return { view, dashboard: await dashboardFigures(db), listing: null };
  return { view, dashboard: null, listing: await listTab(db, { ...view, tab: view.tab }) };
}

/** The CSV of the admin tab in `url`, with the same search and filter as the screen. */
export async function adminExport(url: URL): Promise<Response> {
  const view = adminViewFrom(url);
  if (view.tab === "dashboard") return new Response("Not Found", { status: 404 });
  const { fileName, body } = adminCsv(
    await listTab(getDb(), { ...view, tab: view.tab }),
    new Date(),
  );
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${fileName}"`,
      "Cache-Control": "no-store",
    },
  });
}
