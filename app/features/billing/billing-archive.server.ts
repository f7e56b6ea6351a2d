import path from "node:path";
import { asc, eq, inArray } from "drizzle-orm";
import { altaHash, anulacionHash } from "~/features/verifactu/record-hash.server";
import type { VerifactuRecord } from "~/features/verifactu/records.server";
import { registrationDocuments } from "~/features/verifactu/record-xml";
import {
  backupFileName,
  BackupRefused,
  readBackupFile,
  writeBackupFile,
  type BackupMember,
} from "~/platform/backup/backup-file.server";
import type { Database } from "~/platform/db/client.server";
import {
  invoices,
  payments,
  purchases,
  verifactuDeliveries,
  verifactuRecords,
} from "~/platform/db/schema";
import { siteYear } from "~/platform/dates";
import { invoiceBookHeader, INVOICE_BOOK_PAGE_ROWS, invoiceBookPage } from "./invoice-book.server";

/*
 * The yearly billing archive (decision 053): one closed year's invoices, the purchases and
 * payments they belong to, and their VERI*FACTU records with AEAT's answers, kept out of the
 * database for the six-year duty, long after point-in-time recovery has forgotten them. It is the
 * backups' own file format (a tar.gz whose manifest holds every part's SHA-256), so `tar -xzf`
 * opens it without this code; the JSON parts are the rows as stored, the CSV is the libro
 * registro de facturas expedidas and the XML the records as AEAT reads them.
 */

export const BILLING_ARCHIVE_KIND = "billing";
const PARTS = {
  invoices: "invoices.json",
  purchases: "purchases.json",
  payments: "payments.json",
  records: "verifactu-records.json",
  deliveries: "verifactu-deliveries.json",
} as const;

export type BillingArchiveCounts = {
  invoices: number;
  purchases: number;
  payments: number;
  verifactuRecords: number;
};

export type BillingArchiveResult = {
  file: string;
  bytes: number;
  year: number;
  counts: BillingArchiveCounts;
  seconds: number;
};

/**
 * Why `year` cannot be archived now, or undefined when it can: only a closed year (before the
 * current one in Spain), whose invoices can no longer change in number.
 */
export function billingYearRefusal(year: number, now = new Date()): string | undefined {
  const current = siteYear(now);
  if (!Number.isInteger(year) || year < 2000 || year > 9999)
    return `el año debe ser un número de cuatro cifras, como ${current - 1}`;
  if (year >= current)
    return `el año ${year} no está cerrado: se archiva a partir del 1 de enero de ${year + 1} (hora de España)`;
  return undefined;
}

type YearRows = {
  invoices: (typeof invoices.$inferSelect)[];
  purchases: (typeof purchases.$inferSelect)[];
  payments: (typeof payments.$inferSelect)[];
  records: VerifactuRecord[];
  deliveries: (typeof verifactuDeliveries.$inferSelect)[];
  book: string;
};

/** Ids in groups, so no statement carries tens of thousands of parameters. */
function inGroups<T>(items: T[], size = 5_000): T[][] {
  const groups: T[][] = [];
  for (let start = 0; start < items.length; start += size)
    groups.push(items.slice(start, start + size));
  return groups;
}

/** The year's rows, read in one read-only snapshot (the site may be writing the next year). */
async function readYear(db: Database, year: number): Promise<YearRows> {
  return db.transaction(
    async (tx) => {
      const reader = tx as unknown as Database;
      const yearInvoices = await reader
        .select()
        .from(invoices)
        .where(eq(invoices.year, year))
        .orderBy(asc(invoices.series), asc(invoices.sequence));
      const invoiceIds = yearInvoices.map((invoice) => invoice.id);
      const purchaseIds = [...new Set(yearInvoices.map((invoice) => invoice.purchaseId))];
      const yearPurchases: YearRows["purchases"] = [];
      const yearPayments: YearRows["payments"] = [];
      for (const ids of inGroups(purchaseIds)) {
        yearPurchases.push(
          ...(await reader.select().from(purchases).where(inArray(purchases.id, ids))),
        );
        yearPayments.push(
          ...(await reader.select().from(payments).where(inArray(payments.purchaseId, ids))),
        );
      }
      const records: VerifactuRecord[] = [];
      for (const ids of inGroups(invoiceIds))
        records.push(
          ...(await reader
            .select()
            .from(verifactuRecords)
            .where(inArray(verifactuRecords.invoiceId, ids))),
        );
      records.sort((a, b) => a.id - b.id);
      const deliveries: YearRows["deliveries"] = [];
      for (const ids of inGroups(records.map((record) => record.id)))
        deliveries.push(
          ...(await reader
            .select()
            .from(verifactuDeliveries)
            .where(inArray(verifactuDeliveries.recordId, ids))),
        );
      const period = { from: `${year}-01-01`, to: `${year}-12-31` };
      let book = invoiceBookHeader();
      let after;
      for (;;) {
        const page = await invoiceBookPage(reader, period, after);
        book += page.lines;
        if (page.rows < INVOICE_BOOK_PAGE_ROWS) break;
        after = page.last;
      }
      const byId = (a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id);
      return {
        invoices: yearInvoices,
        purchases: yearPurchases.sort(byId),
        payments: yearPayments.sort(byId),
        records,
        deliveries: deliveries.sort((a, b) => a.recordId - b.recordId),
        book,
      };
    },
    { isolationLevel: "repeatable read", accessMode: "read only" },
  );
}

const json = (rows: unknown) => Buffer.from(`${JSON.stringify(rows, null, 1)}\n`);

/**
 * Writes the archive of `year` into `outDir` as `vertice-billing-<year>-<UTC>.tar.gz` (written
 * beside its name, fsynced and renamed, like every backup). Refuses an open year and a year
 * without invoices; checks the file it wrote before returning.
 */
export async function writeBillingArchive(
  db: Database,
  year: number,
  outDir: string,
  now = new Date(),
): Promise<BillingArchiveResult> {
  const started = performance.now();
  const refusal = billingYearRefusal(year, now);
  if (refusal) throw new BackupRefused(refusal);
  const rows = await readYear(db, year);
  if (rows.invoices.length === 0)
    throw new BackupRefused(`no hay facturas de ${year} en la base de datos: nada que archivar`);
  const counts: BillingArchiveCounts = {
    invoices: rows.invoices.length,
    purchases: rows.purchases.length,
    payments: rows.payments.length,
    verifactuRecords: rows.records.length,
  };
  const members: BackupMember[] = [
    { name: PARTS.invoices, data: json(rows.invoices) },
    { name: PARTS.purchases, data: json(rows.purchases) },
    { name: PARTS.payments, data: json(rows.payments) },
    { name: PARTS.records, data: json(rows.records) },
    { name: PARTS.deliveries, data: json(rows.deliveries) },
    {
      // The archive's own member name, the same in every year's archive.
      name: `libro-facturas-expedidas-${year}-01-01-a-${year}-12-31.csv`,
      data: Buffer.from(rows.book),
    },
    // AEAT's schema documents, 1,000 records each (verifactu-2025-001.xml, …).
    ...registrationDocuments(rows.records).map((document, index) => ({
      name: `verifactu-${year}-${String(index + 1).padStart(3, "0")}.xml`,
      data: Buffer.from(document),
    })),
  ];
  const file = path.join(
    path.resolve(outDir),
    backupFileName(`${BILLING_ARCHIVE_KIND}-${year}`, now),
  );
  const written = await writeBackupFile(file, BILLING_ARCHIVE_KIND, members, {
    year,
    counts,
    node: process.version,
  });
  // The file as it now lies on disk, read back whole: an archive is only as good as its check.
  await verifyBillingArchive(written.file);
  return {
    file: written.file,
    bytes: written.bytes,
    year,
    counts,
    seconds: Math.round((performance.now() - started) / 10) / 100,
  };
}

function parsePart<T>(members: Map<string, Buffer>, name: string): T[] {
  const data = members.get(name);
  if (!data) throw new BackupRefused(`falta la parte ${name}`);
  try {
    const value = JSON.parse(data.toString("utf8")) as unknown;
    if (!Array.isArray(value)) throw new Error("not a list");
    return value as T[];
  } catch {
    throw new BackupRefused(`la parte ${name} no es una lista JSON`);
  }
}

/**
 * Checks an archive whole: the file (gzip's CRC and length, every part's SHA-256 against the
 * manifest), then what it says: every invoice of its year, each series numbered 1…n without a
 * gap, every purchase, payment and record belonging to one of its invoices, each record's huella
 * recomputed and each link to a record in the file matching that record's huella. Throws
 * BackupRefused with the first reason; returns the year and its counts.
 */
export async function verifyBillingArchive(
  file: string,
): Promise<{ year: number; counts: BillingArchiveCounts; createdAt: string }> {
  const { manifest, members } = await readBackupFile(file);
  if (manifest.kind !== BILLING_ARCHIVE_KIND)
    throw new BackupRefused(
      `es una copia de tipo ${manifest.kind}, no un archivo de facturación (${BILLING_ARCHIVE_KIND})`,
    );
  const year = Number(manifest.about.year);
  const yearInvoices = parsePart<{
    id: string;
    number: string;
    series: string;
    year: number;
    sequence: number;
    purchaseId: string;
  }>(members, PARTS.invoices);
  const yearPurchases = parsePart<{ id: string }>(members, PARTS.purchases);
  const yearPayments = parsePart<{ purchaseId: string }>(members, PARTS.payments);
  const records = parsePart<VerifactuRecord>(members, PARTS.records);
  parsePart(members, PARTS.deliveries);

  const sequences = new Map<string, number[]>();
  for (const invoice of yearInvoices) {
    if (invoice.year !== year)
      throw new BackupRefused(`la factura ${invoice.number} es de ${invoice.year}, no de ${year}`);
    sequences.set(invoice.series, [...(sequences.get(invoice.series) ?? []), invoice.sequence]);
  }
  for (const [series, numbers] of sequences) {
    numbers.sort((a, b) => a - b);
    const gap = numbers.findIndex((sequence, index) => sequence !== index + 1);
    if (gap !== -1)
      throw new BackupRefused(
        `la serie ${series} de ${year} tiene un hueco: falta el número ${gap + 1}`,
      );
  }
  const invoiceIds = new Set(yearInvoices.map((invoice) => invoice.id));
  const purchaseIds = new Set(yearInvoices.map((invoice) => invoice.purchaseId));
  if (yearPurchases.some((purchase) => !purchaseIds.has(purchase.id)))
    throw new BackupRefused("hay una compra que no es de ninguna factura del archivo");
  if (yearPayments.some((payment) => !purchaseIds.has(payment.purchaseId)))
    throw new BackupRefused("hay un pago que no es de ninguna factura del archivo");

  const hashes = new Map(records.map((record) => [record.id, record.hash]));
  for (const record of records) {
    if (!invoiceIds.has(record.invoiceId))
      throw new BackupRefused(
        `el registro ${record.id} (${record.invoiceNumber}) no es de una factura del archivo`,
      );
    const previousHash = record.previous?.hash ?? "";
    const expected =
      record.kind === "alta"
        ? altaHash({
            issuerTaxId: record.issuerTaxId,
            invoiceNumber: record.invoiceNumber,
            issueDate: record.issueDate,
            invoiceType: record.invoiceType ?? "",
            cuotaTotal: record.cuotaTotal ?? "",
            importeTotal: record.importeTotal ?? "",
            previousHash,
            generatedAt: record.generatedAt,
          })
        : anulacionHash({
            issuerTaxId: record.issuerTaxId,
            invoiceNumber: record.invoiceNumber,
            issueDate: record.issueDate,
            previousHash,
            generatedAt: record.generatedAt,
          });
    if (expected !== record.hash)
      throw new BackupRefused(
        `la huella del registro ${record.id} (${record.invoiceNumber}) no coincide con sus datos`,
      );
    const linked =
      record.previousRecordId == null ? undefined : hashes.get(record.previousRecordId);
    if (linked !== undefined && linked !== previousHash)
      throw new BackupRefused(
        `el registro ${record.id} (${record.invoiceNumber}) no enlaza con la huella del anterior`,
      );
  }
  const counts: BillingArchiveCounts = {
    invoices: yearInvoices.length,
    purchases: yearPurchases.length,
    payments: yearPayments.length,
    verifactuRecords: records.length,
  };
  const stated = manifest.about.counts as BillingArchiveCounts | undefined;
  if (JSON.stringify(stated) !== JSON.stringify(counts))
    throw new BackupRefused("el manifiesto no cuenta las mismas filas que contiene el archivo");
  return { year, counts, createdAt: manifest.createdAt };
}
