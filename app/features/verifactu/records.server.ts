import { desc, eq, inArray, sql, type SQLWrapper } from "drizzle-orm";
import { getConfig } from "~/platform/config.server";
import type { Database, DatabaseTransaction } from "~/platform/db/client.server";
import {
  verifactuChainHeads,
  verifactuDeliveries,
  verifactuRecords,
  type VerifactuChainLink,
} from "~/platform/db/schema";
import { aeatAmount, aeatDate, aeatRate, aeatTimestamp } from "./aeat-formats";
import { altaHash, anulacionHash } from "./record-hash.server";
import { verifactuSystem } from "./system";

type Transaction = DatabaseTransaction;
export type VerifactuRecord = typeof verifactuRecords.$inferSelect;
export type InvoiceType = "F1" | "F2" | "F3" | "R1" | "R5";

/** What a billing record says of an invoice: the invoice as issued, nothing else. */
export type InvoiceFacts = {
  invoiceId: string;
  number: string;
  issuedAt: Date;
  type: InvoiceType;
  description: string;
  /** The buyer of a complete invoice (F1, F3, R1); none on a simplified one. */
  recipient?: { name: string; taxId: string };
  /**
   * A complete invoice naming a consumer without their NIF (RD 1619/2012 art. 6.1.d): an F2
   * or R5 marked FacturaSinIdentifDestinatarioArt61d=S, with no Destinatarios.
   */
  withoutRecipientId?: boolean;
  /** The invoice a corrective one corrects (R1, R5). */
  corrected?: { number: string; issuedAt: Date };
  /** The simplified invoice an F3 replaces (FacturasSustituidas). */
  substituted?: { number: string; issuedAt: Date };
  /** When the operation took place, if on another day than the issue (FechaOperacion). */
  operatedAt?: Date;
  vatRatePercent: number;
  baseCents: number;
  vatCents: number;
  totalCents: number;
};

/** The issuer (the company) and the system, from the configuration at the time of the record. */
function issuer() {
  const { company, verifactu } = getConfig();
  return {
    taxId: company.taxId,
    name: company.legalName,
    system: verifactuSystem({
      name: company.legalName,
      taxId: company.taxId,
      installationNumber: verifactu.installationNumber,
    }),
  };
}

/**
 * Takes the issuer's place at the end of its chain: the head row stays locked until the
 * caller's transaction ends, so concurrent invoices line up one after another and each record
 * names exactly one predecessor (the unique index on previous_record_id would refuse a fork).
 */
async function lockChainHead(tx: Transaction, issuerTaxId: string) {
  const [head] = await tx
    .insert(verifactuChainHeads)
    .values({ issuerTaxId })
    .onConflictDoUpdate({
      target: verifactuChainHeads.issuerTaxId,
      set: { lastRecordId: sql`${verifactuChainHeads.lastRecordId}` },
    })
    .returning({ lastRecordId: verifactuChainHeads.lastRecordId });
  if (!head?.lastRecordId) return undefined;
  const [previous] = await tx
    .select()
    .from(verifactuRecords)
    .where(eq(verifactuRecords.id, head.lastRecordId));
  return previous;
}

/** The chain link a record gives its successor: the record's invoice and hash. */
export function linkTo(record: VerifactuRecord): VerifactuChainLink {
  return {
    issuerTaxId: record.issuerTaxId,
    invoiceNumber: record.invoiceNumber,
    issueDate: record.issueDate,
    hash: record.hash,
  };
}

type NewRecord = Omit<typeof verifactuRecords.$inferInsert, "id" | "previousRecordId" | "previous">;

/** Appends a record to the chain and queues it for AEAT, in the caller's transaction. */
async function appendRecord(
  tx: Transaction,
  build: (previous: VerifactuRecord | undefined, generatedAt: string) => NewRecord,
): Promise<VerifactuRecord> {
  const { taxId } = issuer();
  const previous = await lockChainHead(tx, taxId);
  // After the lock, so that generation times rise along the chain.
  const generatedAt = aeatTimestamp(new Date());
  const [record] = await tx
    .insert(verifactuRecords)
    .values({
      ...build(previous, generatedAt),
      previousRecordId: previous?.id ?? null,
      previous: previous ? linkTo(previous) : null,
    })
    .returning();
  await tx
    .update(verifactuChainHeads)
    .set({ lastRecordId: record!.id })
    .where(eq(verifactuChainHeads.issuerTaxId, taxId));
  await tx.insert(verifactuDeliveries).values({ recordId: record!.id });
  return record!;
}

/** FechaOperacion: written only when the operation's day in Spain is not the issue date. */
function operationDate(operatedAt: Date | undefined, issueDate: string): string | null {
  if (!operatedAt) return null;
  const day = aeatDate(operatedAt);
  return day === issueDate ? null : day;
}

/** The registro de facturación de alta of an invoice just numbered (or its subsanación). */
export function recordInvoice(
  tx: Transaction,
  invoice: InvoiceFacts,
  { correction }: { correction?: { previouslyRejected: boolean } } = {},
): Promise<VerifactuRecord> {
  const { taxId, name, system } = issuer();
  const issueDate = aeatDate(invoice.issuedAt);
  const cuotaTotal = aeatAmount(invoice.vatCents);
  const importeTotal = aeatAmount(invoice.totalCents);
  return appendRecord(tx, (previous, generatedAt) => ({
    kind: "alta",
    invoiceId: invoice.invoiceId,
    issuerTaxId: taxId,
    issuerName: name,
    invoiceNumber: invoice.number,
    issueDate,
    invoiceType: invoice.type,
    correctiveType: invoice.corrected ? "I" : null,
    correctedInvoices: invoice.corrected
      ? [
          {
            issuerTaxId: taxId,
            invoiceNumber: invoice.corrected.number,
            issueDate: aeatDate(invoice.corrected.issuedAt),
          },
        ]
      : null,
    substitutedInvoices: invoice.substituted
      ? [
          {
            issuerTaxId: taxId,
            invoiceNumber: invoice.substituted.number,
            issueDate: aeatDate(invoice.substituted.issuedAt),
          },
        ]
      : null,
    operationDate: operationDate(invoice.operatedAt, issueDate),
    description: invoice.description,
    recipient: invoice.recipient ?? null,
    withoutRecipientId: invoice.withoutRecipientId ? "S" : null,
    breakdown: [
      {
        tax: "01",
        regime: "01",
        qualification: "S1",
        rate: aeatRate(invoice.vatRatePercent),
        base: aeatAmount(invoice.baseCents),
        cuota: cuotaTotal,
      },
    ],
    cuotaTotal,
    importeTotal,
    correction: correction ? "S" : null,
    previousRejection: correction?.previouslyRejected ? "X" : null,
    system,
    generatedAt,
    hashType: "01",
    hash: altaHash({
      issuerTaxId: taxId,
      invoiceNumber: invoice.number,
      issueDate,
      invoiceType: invoice.type,
      cuotaTotal,
      importeTotal,
      previousHash: previous?.hash ?? "",
      generatedAt,
    }),
  }));
}

/**
 * The registro de anulación of an invoice's record issued in error (a staff action): the
 * invoice is withdrawn from AEAT's records, the numbers stay used.
 */
export function recordCancellation(
  tx: Transaction,
  cancelled: Pick<VerifactuRecord, "invoiceId" | "invoiceNumber" | "issueDate">,
): Promise<VerifactuRecord> {
  const { taxId, name, system } = issuer();
  return appendRecord(tx, (previous, generatedAt) => ({
    kind: "anulacion",
    invoiceId: cancelled.invoiceId,
    issuerTaxId: taxId,
    issuerName: name,
    invoiceNumber: cancelled.invoiceNumber,
    issueDate: cancelled.issueDate,
    system,
    generatedAt,
    hashType: "01",
    hash: anulacionHash({
      issuerTaxId: taxId,
      invoiceNumber: cancelled.invoiceNumber,
      issueDate: cancelled.issueDate,
      previousHash: previous?.hash ?? "",
      generatedAt,
    }),
  }));
}

/** The latest record of an invoice (its alta, a subsanación or an anulación). */
export async function latestRecordOfInvoice(reader: Pick<Database, "select">, invoiceId: string) {
  const [record] = await reader
    .select()
    .from(verifactuRecords)
    .where(eq(verifactuRecords.invoiceId, invoiceId))
    .orderBy(desc(verifactuRecords.id))
    .limit(1);
  return record;
}

/**
 * SQL: whether the invoice's latest billing record is its registro de anulación (the invoice was
 * issued in error and no longer counts), for the invoice book's lines.
 */
export const annulledInvoice = (invoiceId: SQLWrapper) =>
  sql<boolean>`coalesce((
    select r.kind = 'anulacion' from verifactu_records r
    where r.invoice_id = ${invoiceId} order by r.id desc limit 1), false)`;

/**
 * When each of these invoices was annulled (its registro de anulación was generated), for those
 * whose latest record is one: what the PDF, Mi Cuenta and the staff pages mark as ANULADA.
 */
export async function annulmentsOf(
  reader: Pick<Database, "selectDistinctOn">,
  invoiceIds: string[],
): Promise<Map<string, Date>> {
  const annulled = new Map<string, Date>();
  if (invoiceIds.length === 0) return annulled;
  const latest = await reader
    .selectDistinctOn([verifactuRecords.invoiceId], {
      invoiceId: verifactuRecords.invoiceId,
      kind: verifactuRecords.kind,
      createdAt: verifactuRecords.createdAt,
    })
    .from(verifactuRecords)
    .where(inArray(verifactuRecords.invoiceId, invoiceIds))
    .orderBy(verifactuRecords.invoiceId, desc(verifactuRecords.id));
  for (const record of latest)
    if (record.kind === "anulacion") annulled.set(record.invoiceId, record.createdAt);
  return annulled;
}
