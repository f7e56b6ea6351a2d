import { startOfNextSiteDay, startOfSiteDay } from "~/platform/db/site-days.server";
import {
  and,
  asc,
  count,
  desc,
  eq,
  gt,
  gte,
  inArray,
  lt,
  sql,
  type SQL,
  type SQLWrapper,
} from "drizzle-orm";
import type { Database } from "~/platform/db/client.server";
import {
  invoices,
  verifactuDeliveries,
  verifactuRecords,
  verifactuSender,
  verifactuSubmissions,
} from "~/platform/db/schema";
import { latestRecordOfInvoice, recordCancellation, type VerifactuRecord } from "./records.server";
import { cancellationRefusal, type RecordKind, type RecordState } from "./record-states";

/*
 * The staff's view of the billing records (/admin/verifactu): the list with its filters, the
 * queue, the last answer, the wait, an anulación, the period export and each invoice's state.
 * Every query reads an index in its own order (keyset, never OFFSET), so a million records cost
 * what a hundred do.
 */

type Reader = Pick<Database, "select">;

/** The list's filters; days are Madrid calendar days (yyyy-mm-dd), both ends included. */
export type RecordFilters = {
  state?: RecordState;
  kind?: RecordKind;
  from?: string;
  to?: string;
  /** A whole invoice number (F2026-000123): the invoices' unique index finds it. */
  invoiceNumber?: string;
};

/**
 * Where a page of the list starts: older than a record (`before`, 'Siguiente'), newer than one
 * (`after`, 'Anterior'), the oldest `size` records (the last page), or the newest (none).
 */
export type RecordCursor = { before: number } | { after: number } | { oldest: number } | undefined;

/** A list's count stops here and says "more than": counting a million rows is not free. */
export const RECORD_COUNT_CAP = 10_000;

/** The conditions on the record itself (the state is the delivery's). */
function recordConditions(reader: Reader, filters: RecordFilters): SQL | undefined {
  return and(
    filters.kind ? eq(verifactuRecords.kind, filters.kind) : undefined,
    filters.from ? gte(verifactuRecords.createdAt, startOfSiteDay(filters.from)) : undefined,
    filters.to ? lt(verifactuRecords.createdAt, startOfNextSiteDay(filters.to)) : undefined,
    filters.invoiceNumber
      ? inArray(
          verifactuRecords.invoiceId,
          reader
            .select({ id: invoices.id })
            .from(invoices)
            .where(eq(invoices.number, filters.invoiceNumber)),
        )
      : undefined,
  );
}

const hasRecordConditions = (filters: RecordFilters) =>
  Boolean(filters.kind || filters.from || filters.to || filters.invoiceNumber);

/** How many records match, up to the cap; only the tables the filters need are read. */
export async function countRecords(
  reader: Reader,
  filters: RecordFilters,
): Promise<{ total: number; capped: boolean }> {
  const byState = filters.state ? eq(verifactuDeliveries.status, filters.state) : undefined;
  const one = { one: sql<number>`1`.as("one") };
  const matches = !hasRecordConditions(filters)
    ? filters.state
      ? reader.select(one).from(verifactuDeliveries).where(byState)
      : reader.select(one).from(verifactuRecords)
    : filters.state
      ? reader
          .select(one)
          .from(verifactuRecords)
          .innerJoin(verifactuDeliveries, eq(verifactuDeliveries.recordId, verifactuRecords.id))
          .where(and(byState, recordConditions(reader, filters)))
      : reader.select(one).from(verifactuRecords).where(recordConditions(reader, filters));
  const [row] = await reader
    .select({ total: count() })
    .from(matches.limit(RECORD_COUNT_CAP + 1).as("matches"));
  const total = row?.total ?? 0;
  return total > RECORD_COUNT_CAP
    ? { total: RECORD_COUNT_CAP, capped: true }
    : { total, capped: false };
}

/** One line of the list. */
export type RecordRow = Omit<
  Awaited<ReturnType<typeof recordRowsQuery>>[number],
  "laterRecords"
> & {
  /** Nothing later for its invoice (no anulación, no subsanación after it). */
  latest: boolean;
};

/** The invoice's sale was charged: paid, and perhaps since refunded or withdrawn from. */
const saleCharged = (invoiceId: SQLWrapper) =>
  sql<boolean>`exists (
    select 1 from invoices i join purchases p on p.id = i.purchase_id
    where i.id = ${invoiceId} and p.status in ('completed', 'refunded', 'withdrawn'))`;

/** A corrective invoice (R) rectifies the invoice. */
const hasCorrective = (invoiceId: SQLWrapper) =>
  sql<boolean>`exists (select 1 from invoices c where c.corrects_invoice_id = ${invoiceId})`;

function recordRowsQuery(reader: Reader, where: SQL | undefined, order: SQL, limit: number) {
  return reader
    .select({
      id: verifactuRecords.id,
      kind: verifactuRecords.kind,
      invoiceId: verifactuRecords.invoiceId,
      invoiceNumber: verifactuRecords.invoiceNumber,
      invoiceType: verifactuRecords.invoiceType,
      importeTotal: verifactuRecords.importeTotal,
      // What a subsanación starts from.
      recipient: verifactuRecords.recipient,
      description: verifactuRecords.description,
      generatedAt: verifactuRecords.generatedAt,
      createdAt: verifactuRecords.createdAt,
      hash: verifactuRecords.hash,
      status: verifactuDeliveries.status,
      errorCode: verifactuDeliveries.errorCode,
      errorText: verifactuDeliveries.errorText,
      // The staff page of the sale the invoice belongs to (one payment per purchase).
      paymentId: sql<string | null>`(
        select p.id from payments p join invoices i on i.purchase_id = p.purchase_id
        where i.id = ${verifactuRecords.invoiceId} limit 1)`,
      laterRecords: sql<boolean>`exists (
        select 1 from verifactu_records later
        where later.invoice_id = ${verifactuRecords.invoiceId} and later.id > ${verifactuRecords.id})`,
      saleCharged: saleCharged(verifactuRecords.invoiceId),
      hasCorrective: hasCorrective(verifactuRecords.invoiceId),
    })
    .from(verifactuRecords)
    .innerJoin(verifactuDeliveries, eq(verifactuDeliveries.recordId, verifactuRecords.id))
    .where(where)
    .orderBy(order)
    .limit(limit);
}

export type RecordPage = {
  rows: RecordRow[];
  /** Newer records exist before the first row ('Anterior'). */
  hasNewer: boolean;
  /** Older records exist after the last row ('Siguiente'). */
  hasOlder: boolean;
};

/**
 * A page of records, newest first, from `cursor`. With a state filter the page is read from the
 * deliveries' (status, record_id) index; otherwise from the records' primary key.
 */
export async function listRecords(
  reader: Reader,
  filters: RecordFilters,
  cursor: RecordCursor,
  size: number,
): Promise<RecordPage> {
  const key = filters.state ? verifactuDeliveries.recordId : verifactuRecords.id;
  const where = (bound?: SQL) =>
    and(
      filters.state ? eq(verifactuDeliveries.status, filters.state) : undefined,
      recordConditions(reader, filters),
      bound,
    );
  const rowsOf = (found: Awaited<ReturnType<typeof recordRowsQuery>>): RecordRow[] =>
    found.map(({ laterRecords, ...row }) => ({ ...row, latest: !laterRecords }));

  if (cursor && "after" in cursor) {
    const found = await recordRowsQuery(reader, where(gt(key, cursor.after)), asc(key), size + 1);
    const hasNewer = found.length > size;
    return { rows: rowsOf(found.slice(0, size).reverse()), hasNewer, hasOlder: true };
  }
  if (cursor && "oldest" in cursor) {
    const found = await recordRowsQuery(reader, where(), asc(key), cursor.oldest + 1);
    const hasNewer = found.length > cursor.oldest;
    return { rows: rowsOf(found.slice(0, cursor.oldest).reverse()), hasNewer, hasOlder: false };
  }
  const bound = cursor ? lt(key, cursor.before) : undefined;
  const found = await recordRowsQuery(reader, where(bound), desc(key), size + 1);
  return {
    rows: rowsOf(found.slice(0, size)),
    hasNewer: Boolean(cursor),
    hasOlder: found.length > size,
  };
}

/**
 * The queue and the sender: records waiting (counted up to a cap), the oldest one's age, AEAT's
 * last answer and the wait it asked for.
 */
export async function verifactuQueue(reader: Reader) {
  const PENDING_CAP = 100_000;
  const pending = verifactuDeliveries.status;
  const [waiting] = await reader.select({ total: count() }).from(
    reader
      .select({ one: sql<number>`1`.as("one") })
      .from(verifactuDeliveries)
      .where(eq(pending, "pending"))
      .limit(PENDING_CAP + 1)
      .as("waiting"),
  );
  const [oldest] = await reader
    .select({ createdAt: verifactuRecords.createdAt })
    .from(verifactuDeliveries)
    .innerJoin(verifactuRecords, eq(verifactuRecords.id, verifactuDeliveries.recordId))
    .where(eq(pending, "pending"))
    .orderBy(asc(verifactuDeliveries.recordId))
    .limit(1);
  const [lastAnswer] = await reader
    .select({
      sentAt: verifactuSubmissions.sentAt,
      outcome: verifactuSubmissions.outcome,
      csv: verifactuSubmissions.csv,
      recordCount: verifactuSubmissions.recordCount,
      httpStatus: verifactuSubmissions.httpStatus,
      error: verifactuSubmissions.error,
    })
    .from(verifactuSubmissions)
    .orderBy(desc(verifactuSubmissions.sentAt))
    .limit(1);
  const [sender] = await reader
    .select({ nextSendAt: verifactuSender.nextSendAt, waitSeconds: verifactuSender.waitSeconds })
    .from(verifactuSender)
    .where(eq(verifactuSender.id, 1));
  const total = waiting?.total ?? 0;
  return {
    pending: Math.min(total, PENDING_CAP),
    pendingCapped: total > PENDING_CAP,
    oldestPendingAt: oldest?.createdAt ?? null,
    lastAnswer: lastAnswer ?? null,
    nextSendAt: sender?.nextSendAt ?? null,
    waitSeconds: sender?.waitSeconds ?? 60,
  };
}

/** A record with AEAT's state of it, or undefined. */
export async function findRecordState(reader: Reader, recordId: number) {
  const [found] = await reader
    .select({ record: verifactuRecords, status: verifactuDeliveries.status })
    .from(verifactuRecords)
    .innerJoin(verifactuDeliveries, eq(verifactuDeliveries.recordId, verifactuRecords.id))
    .where(eq(verifactuRecords.id, recordId));
  return found;
}

export type Cancellation =
  | { ok: true; record: VerifactuRecord }
  | {
      ok: false;
      reason: "recordNotFound" | NonNullable<ReturnType<typeof cancellationRefusal>>;
    };

/**
 * 'Anular registro': the registro de anulación of an invoice issued in error. Only an alta that
 * is its invoice's latest record (not cancelled, not corrected since), that AEAT did not refuse
 * (a refused one is corrected, not cancelled), of a sale never charged and with no corrective
 * invoice (`cancellationRefusal`, decision 064). The invoice row is locked first, so two staff
 * members cancelling at once write one anulación.
 */
export function cancelRecord(db: Database, recordId: number): Promise<Cancellation> {
  return db.transaction(async (tx) => {
    const [target] = await tx
      .select({ invoiceId: verifactuRecords.invoiceId })
      .from(verifactuRecords)
      .where(eq(verifactuRecords.id, recordId));
    if (!target) return { ok: false, reason: "recordNotFound" };
    await tx
      .select({ id: invoices.id })
      .from(invoices)
      .where(eq(invoices.id, target.invoiceId))
      .for("update");
    const found = await findRecordState(tx, recordId);
    if (!found) return { ok: false, reason: "recordNotFound" };
    const latest = await latestRecordOfInvoice(tx, target.invoiceId);
    const [facts] = await tx
      .select({
        saleCharged: saleCharged(sql`${target.invoiceId}::uuid`),
        hasCorrective: hasCorrective(sql`${target.invoiceId}::uuid`),
      })
      .from(sql`(select 1) as one`);
    const refusal = cancellationRefusal({
      kind: found.record.kind,
      latest: latest?.id === recordId,
      status: found.status,
      saleCharged: Boolean(facts?.saleCharged),
      hasCorrective: Boolean(facts?.hasCorrective),
    });
    if (refusal) return { ok: false, reason: refusal };
    return { ok: true, record: await recordCancellation(tx, found.record) };
  });
}

/** The state of each invoice's latest record (an invoice without one is left out). */
export async function latestRecordStates(
  reader: Pick<Database, "selectDistinctOn">,
  invoiceIds: string[],
) {
  const states = new Map<
    string,
    { kind: RecordKind; status: RecordState; errorCode: string | null; errorText: string | null }
  >();
  if (invoiceIds.length === 0) return states;
  const rows = await reader
    .selectDistinctOn([verifactuRecords.invoiceId], {
      invoiceId: verifactuRecords.invoiceId,
      kind: verifactuRecords.kind,
      status: verifactuDeliveries.status,
      errorCode: verifactuDeliveries.errorCode,
      errorText: verifactuDeliveries.errorText,
    })
    .from(verifactuRecords)
    .innerJoin(verifactuDeliveries, eq(verifactuDeliveries.recordId, verifactuRecords.id))
    .where(inArray(verifactuRecords.invoiceId, invoiceIds))
    .orderBy(verifactuRecords.invoiceId, desc(verifactuRecords.id));
  for (const { invoiceId, ...state } of rows) states.set(invoiceId, state);
  return states;
}

/** Records read per query of an export: one AEAT request's worth. */
export const EXPORT_PAGE_RECORDS = 1000;

/**
 * One page of a period's records, oldest first, after the record `after` (by id): the export
 * reads a period page by page (platform/http/downloads.server.ts).
 */
export function periodRecordsPage(
  reader: Reader,
  period: { from: string; to: string },
  after: number | undefined,
  pageSize = EXPORT_PAGE_RECORDS,
): Promise<VerifactuRecord[]> {
  return reader
    .select()
    .from(verifactuRecords)
    .where(
      and(
        gte(verifactuRecords.createdAt, startOfSiteDay(period.from)),
        lt(verifactuRecords.createdAt, startOfNextSiteDay(period.to)),
        after === undefined ? undefined : gt(verifactuRecords.id, after),
      ),
    )
    .orderBy(asc(verifactuRecords.id))
    .limit(pageSize);
}
