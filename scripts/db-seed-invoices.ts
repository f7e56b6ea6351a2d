/**
 * The invoices of the seed and their VERI*FACTU billing records, as the application would have
 * issued them one sale at a time (billing/invoices.server.ts, verifactu/records.server.ts), but in
 * a few bulk statements: an F invoice per completed or refunded payment, an R invoice per refund,
 * gap-free numbers per series and year with invoice_counters at the last one, and one 'alta'
 * record per invoice chained in issue order (each names the one before it and its hash, the
 * chain head points at the last). The hashes depend on each other, so they are computed here,
 * with the application's own altaHash, in batches read from and written back to the database;
 * everything else is SQL. checkChain (verifactu/chain-check.server.ts) finds no break.
 *
 * Delivery states for realism: AEAT accepted almost every record (in submissions of up to 1,000,
 * as the sender sends them), a few complete invoices were refused (the buyer's NIF is not in
 * AEAT's census) and the newest records are still waiting to be sent.
 */
import { services } from "../app/features/catalogue/services";
import { splitVat, VAT_RATE_PERCENT } from "../app/features/catalogue/vat";
import { SIMPLIFIED_INVOICE_LIMIT_CENTS } from "../app/features/billing/invoice-type";
import { aeatRate } from "../app/features/verifactu/aeat-formats";
import { altaHash } from "../app/features/verifactu/record-hash.server";
import { verifactuSystem } from "../app/features/verifactu/system";
import { getConfig } from "../app/platform/config.server";

type SeedClient = {
  query<Row = Record<string, unknown>>(text: string, values?: unknown[]): Promise<{ rows: Row[] }>;
};
type Timed = <T>(label: string, work: () => Promise<T>) => Promise<T>;

/** Tables written here; their secondary indexes and foreign keys are rebuilt after the load. */
export const INVOICE_TABLES = [
  "invoices",
  "verifactu_records",
  "verifactu_deliveries",
  "verifactu_submissions",
];

/**
 * Which orders get a complete invoice (invoice-type.ts): those above the simplified invoice's
 * 400 €, for which checkout asks the buyer's data, and one in 13 of the rest, bought by a
 * self-employed customer who gave a NIF.
 */
export const completeInvoice = (priceCents: string) =>
  `(n % 13 = 0 or ${priceCents} > ${SIMPLIFIED_INVOICE_LIMIT_CENTS})`;

/** A valid NIF made from the order number: eight digits and their check letter. */
export const BILLING_TAX_ID = `lpad(((n::bigint * 7919) % 100000000)::text, 8, '0') ||
  substr('TRWAGMYFPDXBNJZSQVHLCKE', ((n::bigint * 7919) % 100000000 % 23)::int + 1, 1)`;
export const BILLING_ADDRESS = `'Calle Mayor ' || (1 + n % 150) || ', 28013 Madrid'`;

/** Records hashed and written per round trip. */
const HASH_BATCH = 50_000;
/** AEAT takes up to 1,000 records per request (RegFactuSistemaFacturacion). */
const SUBMISSION_SIZE = 1_000;
const SPAIN = "'Europe/Madrid'";

/** Cents as AEAT's decimal (aeatAmount): -1235 → "-12.35". */
const aeatAmountSql = (cents: string) =>
  `((case when ${cents} < 0 then '-' else '' end) || (abs(${cents}) / 100)::text || '.' || lpad((abs(${cents}) % 100)::text, 2, '0'))`;

export async function seedInvoices(client: SeedClient, timed: Timed) {
  const { company, verifactu } = getConfig();
  const catalogue = [...services].sort((a, b) => a.id - b.id);
  const splits = catalogue.map((service) => splitVat(service.priceCents));

  await timed("facturas (F por venta, R por devolución)", async () => {
    await client.query(
      `create temp table seed_invoices on commit drop as
       with sales as (
         select n, gen_random_uuid() as sale_id, purchase_id, svc, email, full_name, status,
                created_at + interval '2 minutes' as sold_at,
                ${completeInvoice("($3::int[])[svc]")} as complete,
                ${BILLING_TAX_ID} as tax_id, ${BILLING_ADDRESS} as address
           from seed_orders where status in ('completed', 'refunded')
       ), issued as (
         select n, sale_id as id, purchase_id, svc, email, full_name, complete, tax_id, address,
                'F' as series, sold_at as issued_at, null::uuid as corrects
           from sales
         union all
         -- The refund's corrective invoice, when the refund went through (never in the future).
         select n, gen_random_uuid(), purchase_id, svc, email, full_name, complete, tax_id, address,
                'R', greatest(sold_at + interval '1 minute', least(sold_at + interval '9 days', now())),
                sale_id
           from sales where status = 'refunded'
       ), dated as (
         select *, extract(year from issued_at at time zone ${SPAIN})::int as year,
                case when series = 'R' then -1 else 1 end as sign
           from issued
       )
       select d.*,
              row_number() over (partition by series, year order by issued_at, n)::int as sequence,
              -- The chain follows the order the invoices were issued in.
              row_number() over (order by issued_at, series, n)::int as pos,
              case when series = 'F' then case when complete then 'F1' else 'F2' end
                   else case when complete then 'R1' else 'R5' end end as invoice_type,
              sign * ($1::int[])[svc] as base, sign * ($2::int[])[svc] as vat,
              sign * ($3::int[])[svc] as total,
              to_char(issued_at at time zone ${SPAIN}, 'DD-MM-YYYY') as issue_date,
              -- FechaHoraHusoGenRegistro (aeatTimestamp): Madrid's time and its offset.
              to_char(issued_at at time zone ${SPAIN}, 'YYYY-MM-DD"T"HH24:MI:SS') || '+' ||
                to_char((issued_at at time zone ${SPAIN}) - (issued_at at time zone 'UTC'), 'HH24:MI')
                as generated_at
         from dated d`,
      [
        splits.map((split) => split.baseCents),
        splits.map((split) => split.vatCents),
        splits.map((split) => split.totalCents),
      ],
    );
    await client.query("create unique index on seed_invoices (pos)");
    await client.query(
      `insert into invoices (id, number, series, year, sequence, kind, issued_at, purchase_id,
                             corrects_invoice_id, correction_reason, seller_name, seller_tax_id,
                             seller_address, customer_email, customer_name, customer_tax_id,
                             customer_address, description, base_amount, vat_rate, vat_amount,
                             total_amount, currency, invoice_type)
       select id, series || year || '-' || lpad(sequence::text, 6, '0'), series, year, sequence,
              case when series = 'R' then 'corrective' when complete then 'complete' else 'simplified' end,
              issued_at, purchase_id, corrects,
              case when series = 'R' then 'Devolución del importe íntegro de la compra' end,
              $1, $2, $3, email, full_name, case when complete then tax_id end,
              case when complete then address end, ($4::text[])[svc], base, $5, vat, total, 'EUR',
              invoice_type
         from seed_invoices`,
      [
        company.legalName,
        company.taxId,
        company.address,
        catalogue.map((service) => service.name),
        VAT_RATE_PERCENT,
      ],
    );
    // The next invoice of each series and year continues after the seeded ones.
    await client.query(
      `insert into invoice_counters (series, year, last_number)
       select series, year, max(sequence) from seed_invoices group by series, year`,
    );
  });

  const records = await timed("huellas encadenadas (SHA-256, en lotes)", () =>
    chainHashes(client, company.taxId),
  );
  if (records === 0) return;

  await timed("registros VERI*FACTU de alta", async () => {
    const system = verifactuSystem({
      name: company.legalName,
      taxId: company.taxId,
      installationNumber: verifactu.installationNumber,
    });
    await client.query(
      `insert into verifactu_records (id, kind, invoice_id, issuer_tax_id, issuer_name, invoice_number,
                                      issue_date, invoice_type, corrective_type, corrected_invoices,
                                      description, recipient, breakdown, cuota_total, importe_total,
                                      previous_record_id, previous, system, generated_at, hash_type,
                                      hash, created_at)
       overriding system value
       select i.pos, 'alta', i.id, $1, $2, i.series || i.year || '-' || lpad(i.sequence::text, 6, '0'),
              i.issue_date, i.invoice_type, case when i.series = 'R' then 'I' end,
              case when i.series = 'R' then jsonb_build_array(jsonb_build_object(
                'issuerTaxId', $1::text,
                'invoiceNumber', 'F' || f.year || '-' || lpad(f.sequence::text, 6, '0'),
                'issueDate', f.issue_date)) end,
              ($3::text[])[i.svc],
              case when i.complete then jsonb_build_object('name', i.full_name, 'taxId', i.tax_id) end,
              jsonb_build_array(jsonb_build_object('tax', '01', 'regime', '01', 'qualification', 'S1',
                'rate', $4::text, 'base', ${aeatAmountSql("i.base")}, 'cuota', ${aeatAmountSql("i.vat")})),
              ${aeatAmountSql("i.vat")}, ${aeatAmountSql("i.total")},
              p.pos,
              case when p.pos is not null then jsonb_build_object(
                'issuerTaxId', $1::text,
                'invoiceNumber', p.series || p.year || '-' || lpad(p.sequence::text, 6, '0'),
                'issueDate', p.issue_date, 'hash', ph.hash) end,
              $5::jsonb, i.generated_at, '01', h.hash, i.issued_at
         from seed_invoices i
         join seed_hashes h on h.pos = i.pos
         left join seed_invoices p on p.pos = i.pos - 1
         left join seed_hashes ph on ph.pos = i.pos - 1
         left join seed_invoices f on f.id = i.corrects`,
      [
        company.taxId,
        company.legalName,
        catalogue.map((service) => service.name),
        aeatRate(VAT_RATE_PERCENT),
        JSON.stringify(system),
      ],
    );
    await client.query(
      `select setval(pg_get_serial_sequence('verifactu_records', 'id'), $1::bigint)`,
      [records],
    );
    await client.query(
      `insert into verifactu_chain_heads (issuer_tax_id, last_record_id) values ($1, $2)`,
      [company.taxId, records],
    );
  });

  await timed("envíos a la AEAT y estado de cada registro", () =>
    seedDeliveries(client, records, verifactu.endpoint),
  );
}

/**
 * Reads the invoices in chain order, computes each record's huella from the one before it and
 * writes them to seed_hashes (pos, hash); returns how many records the chain has.
 */
async function chainHashes(client: SeedClient, issuerTaxId: string): Promise<number> {
  await client.query(
    "create temp table seed_hashes (pos int primary key, hash text) on commit drop",
  );
  let previousHash = "";
  let after = 0;
  for (;;) {
    const { rows } = await client.query<{
      pos: number;
      number: string;
      issue_date: string;
      invoice_type: string;
      cuota: string;
      importe: string;
      generated_at: string;
    }>(
      `select pos, series || year || '-' || lpad(sequence::text, 6, '0') as number, issue_date,
              invoice_type, ${aeatAmountSql("vat")} as cuota, ${aeatAmountSql("total")} as importe,
              generated_at
         from seed_invoices where pos > $1 order by pos limit $2`,
      [after, HASH_BATCH],
    );
    if (rows.length === 0) return after;
    const hashes = rows.map((row) => {
      previousHash = altaHash({
        issuerTaxId,
        invoiceNumber: row.number,
        issueDate: row.issue_date,
        invoiceType: row.invoice_type,
        cuotaTotal: row.cuota,
        importeTotal: row.importe,
        previousHash,
        generatedAt: row.generated_at,
      });
      return previousHash;
    });
    await client.query(
      "insert into seed_hashes (pos, hash) select * from unnest($1::int[], $2::text[])",
      [rows.map((row) => row.pos), hashes],
    );
    after = rows[rows.length - 1]!.pos;
  }
}

/**
 * Submissions of up to 1,000 records in chain order, each answered by AEAT; the records they
 * carried accepted, but those of a few complete invoices refused (error 1109). The newest
 * records (one in 5,000, at least three) wait for the next send.
 */
async function seedDeliveries(client: SeedClient, records: number, endpoint: string | undefined) {
  const waiting = Math.max(3, Math.floor(records / 5_000));
  const sent = records - waiting;
  await client.query(
    `create temp table seed_deliveries on commit drop as
     select i.pos, i.issued_at, (i.pos - 1) / $2::int + 1 as submission,
            case when i.pos > $1::int then 'pending'
                 when i.complete and i.n % 61 = 0 then 'rejected'
                 else 'accepted' end as status
       from seed_invoices i`,
    [sent, SUBMISSION_SIZE],
  );
  await client.query(
    `insert into verifactu_submissions (id, sent_at, endpoint, record_count, first_record_id,
                                        last_record_id, http_status, outcome, csv, wait_seconds)
     overriding system value
     select submission, max(issued_at) + interval '1 minute', $1, count(*), min(pos), max(pos), 200,
            case when bool_or(status = 'rejected') then 'ParcialmenteCorrecto' else 'Correcto' end,
            'A-' || upper(substr(md5('seed-submission-' || submission), 1, 14)), 60
       from seed_deliveries where status <> 'pending'
      group by submission`,
    [endpoint ?? "https://prewww1.aeat.es/wlpl/TIKE-CONT/ws/SistemaFacturacion/VerifactuSOAP"],
  );
  await client.query(
    `select setval(pg_get_serial_sequence('verifactu_submissions', 'id'),
                   greatest(1, (select max(id) from verifactu_submissions)))`,
  );
  await client.query(
    `insert into verifactu_deliveries (record_id, status, attempts, next_attempt_at, error_code,
                                       error_text, submission_id, updated_at)
     select pos, status, case when status = 'pending' then 0 else 1 end, issued_at,
            case when status = 'rejected' then '1109' end,
            case when status = 'rejected' then 'El NIF no está identificado en el censo de la AEAT.' end,
            case when status <> 'pending' then submission end,
            issued_at + case when status = 'pending' then interval '0' else interval '1 minute' end
       from seed_deliveries`,
  );
  // The sender's single row (a --reset empties every table, this one included).
  await client.query("insert into verifactu_sender (id) values (1) on conflict (id) do nothing");
}
