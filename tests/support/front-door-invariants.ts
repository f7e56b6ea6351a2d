import { drizzle } from "drizzle-orm/node-postgres";
import type pg from "pg";
import { checkChain } from "~/features/verifactu/chain-check.server";
import type { Database } from "~/platform/db/client.server";

/**
 * What the front-door pass (tests/cluster/hostile-suite.ts) checks after its floods, beside the
 * half-written records of hostile-invariants.ts: invoices numbered without gaps per series and
 * year and never changed once issued, each refund applied once, each withdrawal recorded once,
 * within 14 days of the payment and before the delivery, and an intact VERI*FACTU chain.
 */

type Pool = { pool: pg.Pool };

/** The invoices and VERI*FACTU records before the floods, whole, as PostgreSQL writes them. */
export type Snapshot = { invoices: Map<string, string>; records: Map<string, string> };

async function rowsAsText(db: Pool, table: "invoices" | "verifactu_records") {
  const { rows } = await db.pool.query<{ id: string; row: string }>(
    `select id::text, row_to_json(t)::text as row from ${table} t`,
  );
  return new Map(rows.map((row) => [row.id, row.row]));
}

export async function takeSnapshot(db: Pool): Promise<Snapshot> {
  return {
    invoices: await rowsAsText(db, "invoices"),
    records: await rowsAsText(db, "verifactu_records"),
  };
}

const RULES = `
select 'invoice numbers with a gap or a counter out of step: ' || series || year as problem
  from (select series, year, count(*) as n, min(sequence) as first, max(sequence) as last
        from invoices group by series, year) s
  where first <> 1 or last <> n
     or last <> coalesce((select last_number from invoice_counters c
                          where c.series = s.series and c.year = s.year), -1)
union all
select 'invoice number not made of its series, year and sequence: ' || number from invoices
  where number <> series || year || '-' || lpad(sequence::text, 6, '0')
union all
select 'paid purchase without exactly one invoice: ' || p.id from purchases p
  where p.status in ('completed', 'refunded')
    and (select count(*) from invoices i where i.purchase_id = p.id and i.series = 'F') <> 1
union all
select 'unpaid purchase with an invoice: ' || p.id from purchases p
  where p.status not in ('completed', 'refunded')
    and exists (select 1 from invoices i where i.purchase_id = p.id)
union all
select 'refund applied other than once (corrective invoice, refund entry, payment): ' || p.id
  from purchases p
  where (select count(*) from invoices i where i.purchase_id = p.id and i.series = 'R')
        <> (case when p.status = 'refunded' then 1 else 0 end)
     or (select count(*) from user_activity_log a
         where a.activity_type = 'purchase_refunded' and a.metadata->>'purchaseId' = p.id::text)
        <> (case when p.status = 'refunded' then 1 else 0 end)
union all
select 'corrective invoice that does not undo its invoice: ' || r.number from invoices r
  join invoices f on f.id = r.corrects_invoice_id
  where r.series = 'R' and (r.total_amount <> -f.total_amount or r.purchase_id <> f.purchase_id)
union all
select 'withdrawal recorded other than once: ' || p.id from purchases p
  where (select count(*) from user_activity_log a
         where a.activity_type = 'withdrawal_requested' and a.metadata->>'purchaseId' = p.id::text)
        <> (case when p.withdrawal_requested_at is null then 0 else 1 end)
union all
select 'withdrawal of an unpaid purchase or after 14 days: ' || p.id from purchases p
  where p.withdrawal_requested_at is not null
    and (p.completed_at is null or p.withdrawal_requested_at > p.completed_at + interval '14 days')
union all
select 'withdrawal after the delivery: ' || p.id from purchases p
  where p.withdrawal_requested_at is not null
    and (select a.metadata->>'deliveryStatus' from user_activity_log a
         where a.activity_type = 'delivery_updated' and a.metadata->>'purchaseId' = p.id::text
           and a.created_at <= p.withdrawal_requested_at
         order by a.created_at desc limit 1) = 'delivered'
union all
select 'invoice without exactly one VERI*FACTU alta record: ' || i.number from invoices i
  where (select count(*) from verifactu_records v where v.invoice_id = i.id and v.kind = 'alta') <> 1
union all
select 'VERI*FACTU record of an invoice it does not name: ' || v.id from verifactu_records v
  join invoices i on i.id = v.invoice_id where v.invoice_number <> i.number
`;

/** Every rule the floods broke, one line each; invoices and records compared with `before`. */
export async function frontDoorProblems(db: Pool, before: Snapshot): Promise<string[]> {
  const problems = (await db.pool.query<{ problem: string }>(RULES)).rows.map((row) => row.problem);
  const after = await takeSnapshot(db);
  for (const [kind, earlier, now] of [
    ["invoice", before.invoices, after.invoices],
    ["VERI*FACTU record", before.records, after.records],
  ] as const)
    for (const [id, row] of earlier)
      if (now.get(id) !== row)
        problems.push(`${kind} ${id} changed or removed after it was issued`);
  const chain = await checkChain(drizzle(db.pool) as unknown as Database);
  if (chain.firstBreak)
    problems.push(
      `VERI*FACTU chain broken at record ${chain.firstBreak.recordId} (${chain.firstBreak.invoiceNumber}: ${chain.firstBreak.reason})`,
    );
  return problems;
}
