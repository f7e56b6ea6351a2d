import { invoiceSummaryColumns } from "~/features/billing/invoice-summary.server";
import {
  and,
  type AnyColumn,
  count,
  desc,
  eq,
  inArray,
  isNotNull,
  like,
  sql,
  type SQL,
} from "drizzle-orm";
import { union } from "drizzle-orm/pg-core";
import type { Staff } from "~/features/identity/session.server";
import { staffCan } from "~/features/identity/staff-roles";
import { customerAttachments } from "~/features/support/attachments.server";
import { getDb } from "~/platform/db/database.server";
import { isUuid } from "~/platform/db/ids";
import {
  customers,
  invoices,
  payments,
  purchases,
  searchText,
  supportTickets,
  userActivityLog,
  users,
} from "~/platform/db/schema";
import { selectAccounts } from "./staff-view-of-accounts.server";

/**
 * A customer for staff (/admin/clientes/:customerId, decision 052): the account's profile, the
 * purchases with their invoices and withdrawals, the tickets and the latest activity. The key is
 * the Clientes row's id (anyone who has paid, guest or not) or the account's id (an account that
 * never paid); both lead to the same person through the e-mail. Each list is the newest
 * `CUSTOMER_PAGE_ROWS` with the count of all, and each section is there only for a role that
 * may see it: money for `payments.view`, tickets and their files for `tickets.view`.
 */
export const CUSTOMER_PAGE_ROWS = 50;
/** The activity is a glance at what happened lately, not the record. */
export const CUSTOMER_ACTIVITY_ROWS = 20;

const notFound = () => new Response("Not Found", { status: 404 });

/** Both halves of the union name their purchase id alike, so either may stand alone. */
const purchaseIdOf = (column: AnyColumn) => sql<string>`${column}`.as("customer_purchase_id");

/** A LIKE pattern matching `text` literally at the start. */
const startsWith = (text: string) => `${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

type Person = {
  email: string;
  customer: typeof customers.$inferSelect | undefined;
  userId: string | undefined;
};

const ACCOUNT_ID = /^[A-Za-z0-9_-]{1,100}$/;

/** Whom the key names: a Clientes row (uuid) or an account; undefined when neither. */
async function personOf(key: string): Promise<Person | undefined> {
  const db = getDb();
  if (isUuid(key)) {
    const [customer] = await db.select().from(customers).where(eq(customers.id, key));
    if (customer) {
      const [user] = await db
        .select({ id: users.id })
        .from(users)
        .where(eq(users.email, customer.email));
      return { email: customer.email, customer, userId: user?.id };
    }
  }
  // Account ids are Better Auth's letters and digits: anything else is nobody's, and never
  // reaches PostgreSQL (a NUL byte in a text parameter would be an error, not a 404).
  if (!ACCOUNT_ID.test(key)) return undefined;
  const [user] = await db.select({ email: users.email }).from(users).where(eq(users.id, key));
  if (!user) return undefined;
  const [customer] = await db.select().from(customers).where(eq(customers.email, user.email));
  return { email: user.email, customer, userId: key };
}

export async function staffCustomerPage(staff: Staff, key: string) {
  const person = await personOf(key);
  if (!person) throw notFound();
  const seesMoney = staffCan(staff.role, "payments.view");
  const seesTickets = staffCan(staff.role, "tickets.view");
  const [profile, money, tickets, files, activity] = await Promise.all([
    person.userId ? profileOf(person.userId) : undefined,
    seesMoney ? moneyOf(person) : undefined,
    seesTickets && person.userId ? ticketsOf(person.userId) : undefined,
    seesTickets && person.userId ? customerAttachments(person.userId) : undefined,
    person.userId ? activityOf(person.userId) : [],
  ]);
  return {
    email: person.email,
    name: profile?.fullName || person.customer?.name || null,
    // What the person spent is money: null for a role without it (Soporte, issue 36).
    totals: {
      orders: person.customer?.totalOrders ?? 0,
      spent: seesMoney ? (person.customer?.totalSpent ?? 0) : null,
    },
    firstSeenAt: person.customer?.createdAt ?? profile?.createdAt ?? null,
    profile: profile ?? null,
    // null: this role may not see the section; [] with a zero count: there is nothing.
    purchases: money?.purchases ?? null,
    invoices: money?.invoices ?? null,
    withdrawals: money?.withdrawals ?? null,
    tickets: seesTickets ? (tickets ?? { rows: [], total: 0 }) : null,
    /** The files sent with their tickets, newest first: a ticket's, so with `tickets.view`. */
    attachments: seesTickets ? (files ?? { rows: [], total: 0 }) : null,
    activity,
  };
}

async function profileOf(userId: string) {
  const [row] = await selectAccounts().where(eq(users.id, userId));
  return row;
}

/**
 * The person's purchases: the account's (purchases_user_idx) and those paid with its e-mail as
 * a guest. payments has no b-tree index on customer_email, so the e-mail is found through the
 * trigram index of the payments search (payments_search_idx: 'email service') with a prefix
 * pattern, then compared exactly.
 */
async function moneyOf(person: Person) {
  const db = getDb();
  const paidWithEmail = db
    .select({ id: purchaseIdOf(payments.purchaseId) })
    .from(payments)
    .where(
      and(
        like(searchText.payments(payments), startsWith(`${person.email} `)),
        eq(payments.customerEmail, person.email),
      ),
    );
  const ids = db.$with("customer_purchases").as(
    person.userId
      ? union(
          db
            .select({ id: purchaseIdOf(purchases.id) })
            .from(purchases)
            .where(eq(purchases.userId, person.userId)),
          paidWithEmail,
        )
      : paidWithEmail,
  );
  const newest = (where?: SQL) =>
    db
      .with(ids)
      .select({
        id: purchases.id,
        serviceName: purchases.serviceName,
        price: purchases.price,
        status: purchases.status,
        deliveryStatus: purchases.deliveryStatus,
        createdAt: purchases.createdAt,
        withdrawalRequestedAt: purchases.withdrawalRequestedAt,
        refundRequestedAt: purchases.refundRequestedAt,
        paymentId: payments.id,
        amount: payments.amount,
      })
      .from(purchases)
      .innerJoin(ids, eq(ids.id, purchases.id))
      .leftJoin(payments, eq(payments.purchaseId, purchases.id))
      .where(where)
      .orderBy(desc(purchases.createdAt), desc(purchases.id))
      .limit(CUSTOMER_PAGE_ROWS);
  const withdrawn = isNotNull(purchases.withdrawalRequestedAt);
  const [rows, [purchaseCount], withdrawals, [withdrawalCount], [invoiceCount]] = await Promise.all(
    [
      newest(),
      db.with(ids).select({ total: count() }).from(ids),
      newest(withdrawn),
      db
        .with(ids)
        .select({ total: count() })
        .from(purchases)
        .innerJoin(ids, eq(ids.id, purchases.id))
        .where(withdrawn),
      db
        .with(ids)
        .select({ total: count() })
        .from(invoices)
        .innerJoin(ids, eq(ids.id, invoices.purchaseId)),
    ],
  );
  // The invoices of the purchases shown (invoices_one_per_purchase_idx), newest first.
  const invoiceRows = rows.length
    ? await db
        .select({ ...invoiceSummaryColumns, purchaseId: invoices.purchaseId })
        .from(invoices)
        .where(
          inArray(
            invoices.purchaseId,
            rows.map((row) => row.id),
          ),
        )
        .orderBy(desc(invoices.issuedAt), desc(invoices.number))
    : [];
  const paymentOf = new Map(rows.map((row) => [row.id, row.paymentId]));
  return {
    purchases: { rows, total: purchaseCount?.total ?? 0 },
    invoices: {
      rows: invoiceRows.map((invoice) => ({
        ...invoice,
        paymentId: paymentOf.get(invoice.purchaseId) ?? null,
      })),
      total: invoiceCount?.total ?? 0,
    },
    withdrawals: { rows: withdrawals, total: withdrawalCount?.total ?? 0 },
  };
}

/** The account's tickets, newest first (support_tickets_user_idx). */
async function ticketsOf(userId: string) {
  const db = getDb();
  const [rows, [counted]] = await Promise.all([
    db
      .select({
        id: supportTickets.id,
        ticketNumber: supportTickets.ticketNumber,
        subject: supportTickets.subject,
        status: supportTickets.status,
        priority: supportTickets.priority,
        createdAt: supportTickets.createdAt,
      })
      .from(supportTickets)
      .where(eq(supportTickets.userId, userId))
      .orderBy(desc(supportTickets.createdAt))
      .limit(CUSTOMER_PAGE_ROWS),
    db.select({ total: count() }).from(supportTickets).where(eq(supportTickets.userId, userId)),
  ]);
  return { rows, total: counted?.total ?? 0 };
}

/** The account's latest activity (user_activity_user_idx). */
function activityOf(userId: string) {
  return getDb()
    .select({
      id: userActivityLog.id,
      activityType: userActivityLog.activityType,
      description: userActivityLog.description,
      createdAt: userActivityLog.createdAt,
    })
    .from(userActivityLog)
    .where(eq(userActivityLog.userId, userId))
    .orderBy(desc(userActivityLog.createdAt))
    .limit(CUSTOMER_ACTIVITY_ROWS);
}

export type StaffCustomer = Awaited<ReturnType<typeof staffCustomerPage>>;
