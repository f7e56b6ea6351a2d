/**
 * `npx tsx tests/support/admin-figures.ts <DATA_DIR>`: what the admin panel should show for the
 * embedded database of DATA_DIR (in `<DATA_DIR>/db`, as the server opens it), printed as JSON.
 *
 * Plain SQL over the tables themselves (payments, users, support_tickets, contact_inquiries),
 * never the panel's own queries nor the day totals its dashboard reads: the browser test holds the
 * page to figures reached another way. Run it while no server holds the directory (PGlite takes
 * one process).
 */
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pgliteExtensions } from "../../app/platform/db/client.server";

export type AdminFigures = {
  /** Completed payments: their sum, their count and the sum divided by the count. */
  revenueCents: number;
  orders: number;
  averageOrderCents: number | null;
  users: number;
  /** Open or in progress. */
  openTickets: number;
  /** Completed payments of the last 90 Madrid days, today included. */
  last90Days: { revenueCents: number; orders: number; today: string };
  /** Payments per status, and all of them. */
  payments: Record<"all" | "completed" | "pending" | "failed" | "refunded", number>;
  /** An address no other address contains, with several payments. */
  searchEmail: { email: string; payments: number };
  /** The two newest pending enquiries. */
  pendingInquiries: { id: string; name: string; email: string }[];
  /** A verified customer (no role) whose address no other address contains. */
  customer: { id: string; email: string };
};

const dataDir = process.argv[2];
if (!dataDir) {
  console.error("Uso: npx tsx tests/support/admin-figures.ts <DATA_DIR>");
  process.exit(2);
}

const db = new PGlite(path.join(path.resolve(dataDir), "db"), { extensions: pgliteExtensions });
try {
  const one = async <Row>(text: string) => (await db.query<Row>(text)).rows[0]!;
  const count = (value: unknown) => Number(value);

  const completed = await one<{ cents: unknown; orders: unknown; average: unknown }>(`
    select coalesce(sum(amount), 0) as cents, count(*) as orders,
           round(sum(amount)::numeric / nullif(count(*), 0)) as average
      from payments where status = 'completed'`);
  const last90 = await one<{ cents: unknown; orders: unknown; today: string }>(`
    select coalesce(sum(amount), 0) as cents, count(*) as orders,
           to_char((now() at time zone 'Europe/Madrid')::date, 'YYYY-MM-DD') as today
      from payments
     where status = 'completed'
       and (created_at at time zone 'Europe/Madrid')::date
           > (now() at time zone 'Europe/Madrid')::date - 90`);
  const people = await one<{ users: unknown; open: unknown }>(`
    select (select count(*) from users) as users,
           (select count(*) from support_tickets where status in ('open', 'in_progress')) as open`);
  const byStatus = await one<Record<string, unknown>>(`
    select count(*) as all,
           count(*) filter (where status = 'completed') as completed,
           count(*) filter (where status = 'pending') as pending,
           count(*) filter (where status = 'failed') as failed,
           count(*) filter (where status = 'refunded') as refunded
      from payments`);
  const searched = await one<{ email: string; payments: unknown }>(`
    select p.customer_email as email, count(*) as payments
      from payments p
     group by p.customer_email
    having count(*) between 2 and 25
       and count(*) = (select count(*) from payments q
                        where strpos(lower(q.customer_email), lower(p.customer_email)) > 0)
     order by count(*) desc, p.customer_email
     limit 1`);
  const pending = await db.query<{ id: string; name: string; email: string }>(`
    select id, name, email from contact_inquiries
     where handled_at is null
     order by created_at desc, id desc
     limit 2`);
  const customer = await one<{ id: string; email: string }>(`
    select u.id, u.email from users u
     where u.email_verified
       and not exists (select 1 from user_roles r where r.user_id = u.id)
       and (select count(*) from users o where strpos(lower(o.email), lower(u.email)) > 0) = 1
     order by u.created_at desc
     limit 1`);

  const figures: AdminFigures = {
    revenueCents: count(completed.cents),
    orders: count(completed.orders),
    averageOrderCents: completed.average === null ? null : count(completed.average),
    users: count(people.users),
    openTickets: count(people.open),
    last90Days: {
      revenueCents: count(last90.cents),
      orders: count(last90.orders),
      today: last90.today,
    },
    payments: {
      all: count(byStatus.all),
      completed: count(byStatus.completed),
      pending: count(byStatus.pending),
      failed: count(byStatus.failed),
      refunded: count(byStatus.refunded),
    },
    searchEmail: { email: searched.email, payments: count(searched.payments) },
    pendingInquiries: pending.rows,
    customer,
  };
  console.log(JSON.stringify(figures));
} finally {
  await db.close();
}
