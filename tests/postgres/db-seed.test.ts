import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { promisify } from "node:util";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { services } from "~/features/catalogue/services";
import { checkChain } from "~/features/verifactu/chain-check.server";
import { openDatabase } from "~/platform/db/client.server";
import { withDatabase } from "../support/test-database";

/**
 * `npm run db:seed` (the demo size; --large is the same statements with bigger numbers) as a
 * separate process on a fresh PostgreSQL database: the data agree with each other as the
 * application would have written them, the indexes and foreign keys it drops for speed are all
 * back, and a second run without --reset refuses to touch the data.
 */
const run = promisify(execFile);
const serverUrl = process.env.TEST_DATABASE_URL!;
const seeded = `test_seed_${randomBytes(4).toString("hex")}`;
const reference = `test_seed_ref_${randomBytes(4).toString("hex")}`;
let client: pg.Client;

function seed(database: string, ...args: string[]) {
  return run("npx", ["tsx", "scripts/db-seed.ts", ...args], {
    env: { ...process.env, DATABASE_URL: withDatabase(serverUrl, database) },
  }).then(
    ({ stdout }) => ({ code: 0, output: stdout }),
    (error: { code: number; stdout: string; stderr: string }) => ({
      code: error.code,
      output: `${error.stdout}${error.stderr}`,
    }),
  );
}

async function rows<T extends pg.QueryResultRow>(text: string): Promise<T[]> {
  return (await client.query<T>(text)).rows;
}

/** Index definitions and constraints of the application's tables, as text. */
async function structure(url: string): Promise<string[]> {
  const other = new pg.Client({ connectionString: url });
  await other.connect();
  try {
    const { rows: found } = await other.query<{ line: string }>(`
      select indexdef as line from pg_indexes where schemaname = 'public'
      union all
      select conrelid::regclass || ' ' || conname || ' ' || pg_get_constraintdef(oid)
        from pg_constraint where connamespace = 'public'::regnamespace
      order by 1`);
    return found.map((row) => row.line);
  } finally {
    await other.end();
  }
}

beforeAll(async () => {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${seeded}`);
  await admin.query(`create database ${reference}`);
  await admin.end();
  client = new pg.Client({ connectionString: withDatabase(serverUrl, seeded) });
}, 60_000);

afterAll(async () => {
  await client.end().catch(() => undefined);
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${seeded} with (force)`);
  await admin.query(`drop database if exists ${reference} with (force)`);
  await admin.end();
});

describe("npm run db:seed on PostgreSQL", () => {
  it("fills an empty database with data that agree with each other", async () => {
    const outcome = await seed(seeded);
    expect(outcome.code, outcome.output).toBe(0);
    await client.connect();

    const [counts] = await rows<Record<string, number>>(`
      select (select count(*)::int from users) as users,
             (select count(*)::int from profiles) as profiles,
             (select count(*)::int from purchases) as purchases,
             (select count(*)::int from payments) as payments,
             (select count(*)::int from support_tickets) as tickets,
             (select count(*)::int from contact_inquiries) as inquiries`);
    expect(counts).toEqual({
      users: 200,
      profiles: 200,
      purchases: 600,
      payments: 600,
      tickets: 120,
      inquiries: 150,
    });

    // Each payment charges its purchase's catalogue price, in the purchase's state.
    const prices = services.map((service) => service.priceCents);
    const charged = await rows<{ amount: number; price: number; same: boolean }>(`
      select p.amount, u.price, p.status = u.status and p.service_name = u.service_name as same
        from payments p join purchases u on u.id = p.purchase_id`);
    expect(charged.every((row) => prices.includes(row.amount) && row.amount === row.price)).toBe(
      true,
    );
    expect(charged.every((row) => row.same)).toBe(true);
    const states = await rows<{ status: string }>("select distinct status from payments");
    expect(states.map((row) => row.status).sort()).toEqual([
      "completed",
      "failed",
      "pending",
      "refunded",
    ]);

    // Customers as the webhook keeps them: every address that completed a payment, with the
    // completed ones' totals.
    const mismatches = await rows(`
      with expected as (
        select customer_email as email,
               coalesce(sum(amount) filter (where status = 'completed'), 0)::int as spent,
               count(*) filter (where status = 'completed')::int as orders
          from payments where status in ('completed', 'refunded') group by customer_email
      )
      select * from expected e full join customers c on c.email = e.email
       where c.email is null or e.email is null
          or c.total_spent <> e.spent or c.total_orders <> e.orders`);
    expect(mismatches).toEqual([]);

    // The trigger was off during the load: the day totals were rebuilt from the payments.
    const totals = await rows(`
      select (created_at at time zone 'Europe/Madrid')::date as day, status,
             count(*)::bigint as payments, sum(amount)::bigint as amount
        from payments group by 1, 2
      except select day, status, payments, amount from payment_day_totals`);
    expect(totals).toEqual([]);

    // Ticket numbers are the year's sequence; a new ticket continues after them.
    const numbers = await rows<{ wrong: number; behind: number }>(`
      select (select count(*)::int from support_tickets
               where ticket_number !~ ('^TK-' || extract(year from created_at at time zone 'UTC') || '-\\d{6}$')) as wrong,
             (select count(*)::int from (
                select split_part(ticket_number, '-', 2)::int as year,
                       max(split_part(ticket_number, '-', 3)::int) as last
                  from support_tickets group by 1) t
                left join ticket_counters c using (year)
               where c.last_number is null or c.last_number < t.last) as behind`);
    expect(numbers).toEqual([{ wrong: 0, behind: 0 }]);
    const overdue = await rows<{ due: boolean }>(
      "select bool_and(first_response_due_at = created_at + interval '24 hours') as due from support_tickets",
    );
    expect(overdue[0]?.due).toBe(true);

    // No made-up address can reach a real mailbox; handled enquiries name a staff account.
    const realDomains = await rows(`
      select email from users where email not like '%.example'
      union all select customer_email from payments where customer_email not like '%.example'
      union all select email from contact_inquiries where email not like '%.example'`);
    expect(realDomains).toEqual([]);
    const handled = await rows<{ handled: number; by_staff: number }>(`
      select count(*)::int as handled,
             count(*) filter (where handled_by in (select user_id from user_roles))::int as by_staff
        from contact_inquiries where handled_at is not null`);
    expect(handled[0]!.handled).toBeGreaterThan(0);
    expect(handled[0]!.by_staff).toBe(handled[0]!.handled);

    // An invoice per completed or refunded payment and a corrective one per refund, numbered
    // without gaps, the counters at the last number, each with its chained billing record.
    const [invoicing] = await rows<Record<string, number>>(`
      select (select count(*)::int from payments where status in ('completed', 'refunded')) as sales,
             (select count(*)::int from invoices where series = 'F') as f,
             (select count(*)::int from payments where status = 'refunded') as refunds,
             (select count(*)::int from invoices where series = 'R') as r,
             (select count(*)::int from invoices i join purchases p on p.id = i.purchase_id
               where i.total_amount <> case i.series when 'R' then -p.price else p.price end
                  or i.base_amount + i.vat_amount <> i.total_amount) as wrong_amounts,
             (select count(*)::int from invoices
               where (invoice_type in ('F1', 'R1')) <> (customer_tax_id is not null)
                  or (series = 'F' and invoice_type = 'F2' and total_amount > 40000)) as wrong_types,
             (select count(*)::int from (
                select series, year, max(sequence) as last, count(*) as n from invoices group by 1, 2) t
                left join invoice_counters c using (series, year)
               where t.last <> t.n or c.last_number is distinct from t.last) as gaps,
             (select count(*)::int from invoices i
               where (select count(*) from verifactu_records r where r.invoice_id = i.id) <> 1) as unrecorded,
             (select count(*)::int from verifactu_deliveries) as deliveries,
             (select count(*)::int from verifactu_records) as records,
             (select count(*)::int from verifactu_chain_heads h
               where h.last_record_id = (select max(id) from verifactu_records)) as heads`);
    expect(invoicing!.f).toBe(invoicing!.sales);
    expect(invoicing!.r).toBe(invoicing!.refunds);
    expect(invoicing).toMatchObject({
      wrong_amounts: 0,
      wrong_types: 0,
      gaps: 0,
      unrecorded: 0,
      heads: 1,
    });
    expect(invoicing!.deliveries).toBe(invoicing!.records);
    const seededDb = openDatabase({ kind: "postgres", url: withDatabase(serverUrl, seeded) });
    try {
      const check = await checkChain(seededDb.db);
      expect(check.firstBreak).toBeUndefined();
      expect(check.checked).toBe(invoicing!.f! + invoicing!.r!);
    } finally {
      await seededDb.close();
    }
  }, 120_000);

  it("leaves every index and foreign key the migrations create", async () => {
    const migrated = openDatabase({ kind: "postgres", url: withDatabase(serverUrl, reference) });
    await migrated.migrate();
    await migrated.close();
    expect(await structure(withDatabase(serverUrl, seeded))).toEqual(
      await structure(withDatabase(serverUrl, reference)),
    );
    const [{ count }] = (await rows<{ count: number }>(
      "select count(*)::int as count from pg_indexes where schemaname = 'public'",
    )) as [{ count: number }];
    expect(count).toBeGreaterThan(20);
  }, 120_000);

  it("refuses a database that holds data unless --reset, and then starts again", async () => {
    const refused = await seed(seeded);
    expect(refused.code).toBe(1);
    expect(refused.output).toContain("--reset");
    expect(refused.output).toContain("200 usuarios");
    const [{ users }] = (await rows<{ users: number }>(
      "select count(*)::int as users from users",
    )) as [{ users: number }];
    expect(users).toBe(200);

    const again = await seed(seeded, "--reset");
    expect(again.code, again.output).toBe(0);
    const [{ total }] = (await rows<{ total: number }>(
      "select count(*)::int as total from payments",
    )) as [{ total: number }];
    expect(total).toBe(600);
  }, 120_000);
});
