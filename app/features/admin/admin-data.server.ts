import { analyticsReport } from "~/features/analytics/analytics.server";
import {
  and,
  asc,
  count,
  desc,
  eq,
  gte,
  exists,
  ilike,
  inArray,
  isNotNull,
  isNull,
  not,
  sql,
  sum,
  type SQL,
} from "drizzle-orm";
import { summaryColumns, ticketOverdueSql } from "~/features/support/tickets.server";
import { activeTicketStatuses } from "~/features/support/ticket-rules";
import type { Subquery } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import type { Database } from "~/platform/db/client.server";
import { getDb } from "~/platform/db/database.server";
import {
  contactInquiries,
  customers,
  paymentDayTotals,
  payments,
  profiles,
  searchText,
  supportTickets,
  userRoles,
  users,
} from "~/platform/db/schema";
import { SITE_TIME_ZONE } from "~/ui/dates";
import {
  adminViewFrom,
  choiceIn,
  inquiryFilters,
  paymentFilters,
  ticketFilters,
  type AdminListTab,
  type AdminView,
} from "./admin-tabs";

/**
 * A search counts its matches up to this many and then says "more than": an exact count of a
 * common word over a million rows would read them all, and a search is for finding, not for
 * paging past 40 pages (each match counted costs a table row read: 10,000 cost 400 ms).
 */
export const SEARCH_COUNT_CAP = 1_000;

/** Spec: the dashboard lists the 5 latest payments and the 5 latest tickets. */
const DASHBOARD_LATEST = 5;
/** The dashboard's chart: daily revenue and orders over this many days, today included. */
export const CHART_DAYS = 90;

/** `ILIKE '%search%'` with the search's own `%`, `_` and `\` taken literally. */
function containsPattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/** The filter each list applies for its search and status; `undefined` when there is none. */
export const listFilters = {
  consultas(_db: Database, { search, status }: AdminView): SQL | undefined {
    const state = choiceIn(inquiryFilters, status);
    return and(
      state === "pending" ? isNull(contactInquiries.handledAt) : undefined,
      state === "handled" ? isNotNull(contactInquiries.handledAt) : undefined,
      search ? ilike(searchText.inquiries(contactInquiries), containsPattern(search)) : undefined,
    );
  },
  pagos(_db: Database, { search, status }: AdminView): SQL | undefined {
    const state = choiceIn(paymentFilters, status);
    return and(
      state === "all" ? undefined : eq(payments.status, state),
      search ? ilike(searchText.payments(payments), containsPattern(search)) : undefined,
    );
  },
  tickets(db: Database, { search, status }: Pick<AdminView, "search" | "status">) {
    const state = choiceIn(ticketFilters, status);
    return and(
      state === "all" ? undefined : eq(supportTickets.status, state),
      search ? ticketsMatching(db, search) : undefined,
    );
  },
  usuarios(db: Database, { search }: AdminView): SQL | undefined {
    return search ? inArray(users.id, usersMatching(db, search)) : undefined;
  },
  clientes(_db: Database, { search }: AdminView): SQL | undefined {
    return search ? ilike(searchText.customers(customers), containsPattern(search)) : undefined;
  },
};

/**
 * Ids of the accounts whose address or name contains `search`: two indexed searches joined by
 * UNION (an OR across the join could use neither index).
 */
function usersMatching(db: Database, search: string) {
  const pattern = containsPattern(search);
  return db
    .select({ id: users.id })
    .from(users)
    .where(ilike(users.email, pattern))
    .union(
      db
        .select({ id: profiles.id })
        .from(profiles)
        .where(ilike(sql`coalesce(${profiles.fullName}, '')`, pattern)),
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

export type Page = {
  /** 1-based, never past the last page. */
  number: number;
  size: number;
  /** Matching rows; with `totalCapped`, at least this many. */
  total: number;
  totalCapped: boolean;
  pages: number;
};

type PageWindow = { limit: number; offset: number };

function windowOf({ page, pageSize }: Pick<AdminView, "page" | "pageSize">): PageWindow {
  return { limit: pageSize, offset: (page - 1) * pageSize };
}

/** How many rows `filter` matches: exact without a search, capped with one. */
async function countRows(
  db: Database,
  table: PgTable,
  filter: SQL | undefined,
  searching: boolean,
): Promise<RowCount> {
  if (!searching) {
    const [row] = await db.select({ total: count() }).from(table).where(filter);
    return { total: row?.total ?? 0, capped: false };
  }
  return cappedCount(
    db,
    db
      .select({ one: sql<number>`1`.as("one") })
      .from(table)
      .where(filter)
      .limit(SEARCH_COUNT_CAP + 1)
      .as("matches"),
  );
}

async function cappedCount(db: Database, matches: Subquery): Promise<RowCount> {
  const [row] = await db.select({ total: count() }).from(matches);
  const total = row?.total ?? 0;
  return total > SEARCH_COUNT_CAP
    ? { total: SEARCH_COUNT_CAP, capped: true }
    : { total, capped: false };
}

type RowCount = { total: number; capped: boolean };

/** Without a search, payments are counted from the per-day totals: a few thousand rows. */
async function countPayments(db: Database, view: AdminView): Promise<RowCount> {
  if (view.search) return countRows(db, payments, listFilters.pagos(db, view), true);
  const state = choiceIn(paymentFilters, view.status);
  const [row] = await db
    .select({ total: sum(paymentDayTotals.payments).mapWith(Number) })
    .from(paymentDayTotals)
    .where(state === "all" ? undefined : eq(paymentDayTotals.status, state));
  return { total: row?.total ?? 0, capped: false };
}

function pageOf(view: AdminView, { total, capped }: RowCount): Page {
  const pages = Math.max(1, Math.ceil(total / view.pageSize));
  return {
    number: Math.min(view.page, pages),
    size: view.pageSize,
    total,
    totalCapped: capped,
    pages,
  };
}

/*
 * Each list reads its page in two steps: the ids of the page from an index in the list's order
 * (an index-only scan, so a deep page skips index entries, not table rows), then those rows.
 */

/** The tables listed newest first by `(created_at, id)`, each with that index. */
type NewestFirstTable = typeof contactInquiries | typeof payments | typeof customers;

/** The page `window` of `table`'s rows matching `filter`, newest first. */
function newestFirstPage<Table extends NewestFirstTable>(
  db: Database,
  table: Table,
  filter: SQL | undefined,
  { limit, offset }: PageWindow,
): Promise<Table["$inferSelect"][]> {
  const newestFirst = [desc(table.createdAt), desc(table.id)];
  const pageIds = db
    .select({ id: table.id })
    .from(table as NewestFirstTable)
    .where(filter)
    .orderBy(...newestFirst)
    .limit(limit)
    .offset(offset);
  return db
    .select()
    .from(table as NewestFirstTable)
    .where(inArray(table.id, pageIds))
    .orderBy(...newestFirst) as Promise<Table["$inferSelect"][]>;
}

const inquiryRows = (db: Database, filter: SQL | undefined, window: PageWindow) =>
  newestFirstPage(db, contactInquiries, filter, window);

const paymentRows = (db: Database, filter: SQL | undefined, window: PageWindow) =>
  newestFirstPage(db, payments, filter, window);

const customerRows = (db: Database, filter: SQL | undefined, window: PageWindow) =>
  newestFirstPage(db, customers, filter, window);

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
  order: AdminView["order"],
  window: PageWindow,
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

function userRows(db: Database, filter: SQL | undefined, { limit, offset }: PageWindow) {
  const pageIds = db
    .select({ id: users.id })
    .from(users)
    .where(filter)
    .orderBy(desc(users.createdAt), desc(users.id))
    .limit(limit)
    .offset(offset);
  return db
    .select({
      id: users.id,
      email: users.email,
      fullName: profiles.fullName,
      emailVerified: users.emailVerified,
      createdAt: users.createdAt,
      isAdmin: sql<boolean>`${exists(
        db
          .select({ one: sql`1` })
          .from(userRoles)
          .where(and(eq(userRoles.userId, users.id), eq(userRoles.role, "admin"))),
      )}`.mapWith(Boolean),
    })
    .from(users)
    .leftJoin(profiles, eq(profiles.id, users.id))
    .where(inArray(users.id, pageIds))
    .orderBy(desc(users.createdAt), desc(users.id));
}

/** A page of rows and where it sits in the list. */
async function paged<Row>(
  view: AdminView,
  counting: Promise<RowCount>,
  rowsAt: (window: PageWindow) => Promise<Row[]>,
): Promise<{ rows: Row[]; page: Page }> {
  const [rowCount, rows] = await Promise.all([counting, rowsAt(windowOf(view))]);
  const page = pageOf(view, rowCount);
  // An address past the last page (the list shrank, or a hand-made link) shows the last one.
  if (page.number === view.page) return { rows, page };
  return { rows: await rowsAt(windowOf({ ...view, page: page.number })), page };
}

async function listInquiries(db: Database, view: AdminView) {
  const filter = listFilters.consultas(db, view);
  return paged(view, countRows(db, contactInquiries, filter, Boolean(view.search)), (window) =>
    inquiryRows(db, filter, window),
  );
}

async function listPayments(db: Database, view: AdminView) {
  const filter = listFilters.pagos(db, view);
  return paged(view, countPayments(db, view), (window) => paymentRows(db, filter, window));
}

async function listTickets(db: Database, view: AdminView) {
  const filter = listFilters.tickets(db, view);
  return paged(view, countRows(db, supportTickets, filter, Boolean(view.search)), (window) =>
    ticketRows(db, filter, view.order, window),
  );
}

async function listUsers(db: Database, view: AdminView) {
  const filter = listFilters.usuarios(db, view);
  return paged(view, countUsers(db, view), (window) => userRows(db, filter, window));
}

/** A search counts the matching ids alone: every one is an account (profiles share its id). */
function countUsers(db: Database, view: AdminView): Promise<RowCount> {
  if (!view.search) return countRows(db, users, undefined, false);
  return cappedCount(
    db,
    usersMatching(db, view.search)
      .limit(SEARCH_COUNT_CAP + 1)
      .as("matches"),
  );
}

async function listCustomers(db: Database, view: AdminView) {
  const filter = listFilters.clientes(db, view);
  return paged(view, countRows(db, customers, filter, Boolean(view.search)), (window) =>
    customerRows(db, filter, window),
  );
}

export type AdminLists = {
  consultas: Awaited<ReturnType<typeof inquiryRows>>;
  pagos: Awaited<ReturnType<typeof paymentRows>>;
  tickets: Awaited<ReturnType<typeof ticketRows>>;
  usuarios: Awaited<ReturnType<typeof userRows>>;
  clientes: Awaited<ReturnType<typeof customerRows>>;
};

/** A page of a list tab, tagged with the tab so each keeps its own row type. */
export type AdminListing = {
  [Tab in AdminListTab]: { tab: Tab; rows: AdminLists[Tab]; page: Page };
}[AdminListTab];

export async function listTab(
  db: Database,
  view: AdminView & { tab: AdminListTab },
): Promise<AdminListing> {
  switch (view.tab) {
    case "consultas":
      return { tab: view.tab, ...(await listInquiries(db, view)) };
    case "pagos":
      return { tab: view.tab, ...(await listPayments(db, view)) };
    case "tickets":
      return { tab: view.tab, ...(await listTickets(db, view)) };
    case "usuarios":
      return { tab: view.tab, ...(await listUsers(db, view)) };
    case "clientes":
      return { tab: view.tab, ...(await listCustomers(db, view)) };
  }
}

/** The dashboard's figures, all from SQL; revenue and orders count completed payments. */
export async function dashboardFigures(db: Database) {
  const latest = { limit: DASHBOARD_LATEST, offset: 0 };
  const [[completed], [userCount], [ticketCount], latestPayments, latestTickets, daily] =
    await Promise.all([
      db
        .select({
          cents: sum(paymentDayTotals.amount).mapWith(Number),
          orders: sum(paymentDayTotals.payments).mapWith(Number),
        })
        .from(paymentDayTotals)
        .where(eq(paymentDayTotals.status, "completed")),
      db.select({ users: count() }).from(users),
      db
        .select({ open: count() })
        .from(supportTickets)
        .where(inArray(supportTickets.status, [...activeTicketStatuses])),
      paymentRows(db, undefined, latest),
      ticketRows(db, undefined, "recientes", latest),
      dailyRevenue(db),
    ]);
  const revenueCents = completed?.cents ?? 0;
  const orders = completed?.orders ?? 0;
  return {
    revenueCents,
    orders,
    users: userCount?.users ?? 0,
    /** Open or in progress, as the spec counts active tickets. */
    openTickets: ticketCount?.open ?? 0,
    /** Spec: completed revenue divided by the number of completed payments. */
    averageOrderCents: orders > 0 ? Math.round(revenueCents / orders) : null,
    latestPayments,
    latestTickets,
    daily,
  };
}

export type DailyRevenue = { day: string; revenueCents: number; orders: number };

/** Completed revenue and orders of each of the last CHART_DAYS Madrid days, oldest first. */
async function dailyRevenue(db: Database): Promise<DailyRevenue[]> {
  const today = sql.raw(`(now() at time zone '${SITE_TIME_ZONE}')::date`);
  const firstDay = sql.raw(`(now() at time zone '${SITE_TIME_ZONE}')::date - ${CHART_DAYS - 1}`);
  return db
    .select({
      day: sql<string>`to_char(days.day, 'YYYY-MM-DD')`,
      revenueCents: sql<number>`coalesce(${paymentDayTotals.amount}, 0)`.mapWith(Number),
      orders: sql<number>`coalesce(${paymentDayTotals.payments}, 0)`.mapWith(Number),
    })
    .from(sql`generate_series(${firstDay}, ${today}, interval '1 day') as days(day)`)
    .leftJoin(
      paymentDayTotals,
      and(sql`${paymentDayTotals.day} = days.day::date`, eq(paymentDayTotals.status, "completed")),
    )
    .orderBy(sql`days.day`);
}

/**
 * The Analítica section: the visits of the last `days` days next to the completed revenue and
 * orders of the same days.
 */
async function analyticsWithRevenue(db: Database, days: number) {
  const firstDay = sql.raw(`(now() at time zone '${SITE_TIME_ZONE}')::date - ${days - 1}`);
  const [report, [revenue]] = await Promise.all([
    analyticsReport(days, db),
    db
      .select({
        cents: sql<number>`coalesce(sum(${paymentDayTotals.amount}), 0)`.mapWith(Number),
        orders: sql<number>`coalesce(sum(${paymentDayTotals.payments}), 0)`.mapWith(Number),
      })
      .from(paymentDayTotals)
      .where(and(eq(paymentDayTotals.status, "completed"), gte(paymentDayTotals.day, firstDay))),
  ]);
  return { ...report, revenueCents: revenue?.cents ?? 0, orders: revenue?.orders ?? 0 };
}

export type AdminAnalytics = Awaited<ReturnType<typeof analyticsWithRevenue>>;

export type AdminInquiry = typeof contactInquiries.$inferSelect;

async function inquiryById(db: Database, id: string): Promise<AdminInquiry | null> {
  const [row] = await db.select().from(contactInquiries).where(eq(contactInquiries.id, id));
  return row ?? null;
}

/**
 * The admin panel at `url`: the dashboard, or a page of the list of the tab in the address,
 * with the enquiry whose detail dialog is open.
 */
export async function adminPanel(url: URL) {
  const view = adminViewFrom(url);
  const db = getDb();
  if (view.tab === "dashboard")
    return {
      view,
      dashboard: await dashboardFigures(db),
      analytics: null,
      listing: null,
      inquiry: null,
    };
  if (view.tab === "analitica")
    return {
      view,
      dashboard: null,
      analytics: await analyticsWithRevenue(db, view.days),
      listing: null,
      inquiry: null,
    };
  const [listing, inquiry] = await Promise.all([
    listTab(db, { ...view, tab: view.tab }),
    view.inquiryId ? inquiryById(db, view.inquiryId) : null,
  ]);
  return {
    view: { ...view, page: listing.page.number },
    dashboard: null,
    analytics: null,
    listing,
    inquiry,
  };
}

/** How many rows the list of `view` has: exact, or capped when searching. */
export function countList(
  db: Database,
  view: AdminView & { tab: AdminListTab },
): Promise<RowCount> {
  const searching = Boolean(view.search);
  switch (view.tab) {
    case "consultas":
      return countRows(db, contactInquiries, listFilters.consultas(db, view), searching);
    case "pagos":
      return countPayments(db, view);
    case "tickets":
      return countRows(db, supportTickets, listFilters.tickets(db, view), searching);
    case "usuarios":
      return countUsers(db, view);
    case "clientes":
      return countRows(db, customers, listFilters.clientes(db, view), searching);
  }
}
