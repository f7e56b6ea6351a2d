import { sql } from "drizzle-orm";
import type { Database } from "~/platform/db/client.server";

/** The first record where the chain does not hold, and why. */
export type ChainBreak = {
  recordId: number;
  invoiceNumber: string;
  reason: "hash" | "link";
};

export type ChainCheck = { checked: number; firstBreak?: ChainBreak; seconds: number };

/**
 * 'Comprobar cadena': recomputes every record's huella from its stored values (the same
 * `name=value&…` string as record-hash.server.ts, in SQL so a million records are checked inside
 * the database) and checks that each record names the record before it in its issuer's chain,
 * with that record's hash. Returns the first break in chain order.
 *
 * Two passes in one statement, for speed (≥ 200,000 records/s, bench/admin-verifactu.ts): the
 * hashes in an aggregate PostgreSQL spreads over its parallel workers, and the links in a window
 * over only the narrow columns it needs, which a quarter of a gigabyte of work_mem sorts in
 * memory (sorting whole rows spilled ~240 MB to disk at 860,000 records).
 */
export async function checkChain(db: Pick<Database, "transaction">): Promise<ChainCheck> {
  const started = performance.now();
  const result = (await db.transaction(
    async (tx) => {
      await tx.execute(sql`SET LOCAL work_mem = '256MB'`);
      return tx.execute(sql`
    WITH hashes AS (
      SELECT count(*)::int AS checked,
        min(id) FILTER (WHERE hash IS DISTINCT FROM upper(encode(sha256(convert_to(
          CASE kind
            WHEN 'alta' THEN
              'IDEmisorFactura=' || trim(issuer_tax_id) ||
              '&NumSerieFactura=' || trim(invoice_number) ||
              '&FechaExpedicionFactura=' || trim(issue_date) ||
              '&TipoFactura=' || trim(invoice_type) ||
              '&CuotaTotal=' || trim(cuota_total) ||
              '&ImporteTotal=' || trim(importe_total)
            ELSE
              'IDEmisorFacturaAnulada=' || trim(issuer_tax_id) ||
              '&NumSerieFacturaAnulada=' || trim(invoice_number) ||
              '&FechaExpedicionFacturaAnulada=' || trim(issue_date)
          END ||
          '&Huella=' || coalesce(trim(previous ->> 'hash'), '') ||
          '&FechaHoraHusoGenRegistro=' || trim(generated_at),
        'UTF8')), 'hex'))) AS first_bad
      FROM verifactu_records
    ),
    links AS (
      SELECT min(id) AS first_bad
      FROM (
        SELECT id, previous_record_id, previous_hash,
          lag(id) OVER issuer_chain AS actual_previous_id,
          lag(hash) OVER issuer_chain AS actual_previous_hash
        FROM (
          -- OFFSET 0 keeps this projection below the sort: it sorts these columns, not whole rows.
          SELECT id, issuer_tax_id, hash, previous_record_id, previous ->> 'hash' AS previous_hash
          FROM verifactu_records OFFSET 0
        ) narrow
        WINDOW issuer_chain AS (PARTITION BY issuer_tax_id ORDER BY id)
      ) chain
      WHERE previous_record_id IS DISTINCT FROM actual_previous_id
        OR previous_hash IS DISTINCT FROM actual_previous_hash
    ),
    first_break AS (
      -- A record whose hash is wrong is reported as that, even when its link is wrong too.
      SELECT least(h.first_bad, l.first_bad) AS id,
        CASE WHEN h.first_bad <= coalesce(l.first_bad, h.first_bad) THEN 'hash' ELSE 'link' END AS reason
      FROM hashes h, links l
    )
    SELECT h.checked, b.id AS break_id, r.invoice_number AS break_number,
      CASE WHEN b.id IS NOT NULL THEN b.reason END AS break_reason
    FROM hashes h CROSS JOIN first_break b
    LEFT JOIN verifactu_records r ON r.id = b.id
  `);
    },
    { accessMode: "read only" },
  )) as {
    rows: {
      checked: number;
      break_id: string | number | null;
      break_number: string | null;
      break_reason: ChainBreak["reason"] | null;
    }[];
  };
  const [row] = result.rows;
  return {
    checked: Number(row?.checked ?? 0),
    firstBreak:
      row?.break_id == null
        ? undefined
        : {
            recordId: Number(row.break_id),
            invoiceNumber: row.break_number!,
            reason: row.break_reason!,
          },
    seconds: (performance.now() - started) / 1000,
  };
}
