import { randomUUID } from "node:crypto";
import { and, asc, eq, isNull, lt, or, sql } from "drizzle-orm";
import type { Database, DatabaseTransaction } from "~/platform/db/client.server";
import {
  verifactuDeliveries,
  verifactuRecords,
  verifactuSender,
  verifactuSubmissions,
} from "~/platform/db/schema";
import { parseAeatResponse, type AeatAnswer, type AeatLine } from "./aeat-response.server";
import type { AeatTransport } from "./aeat-transport.server";
import { MAX_RECORDS_PER_REQUEST, soapEnvelope } from "./record-xml";
import {
  recordInvoice,
  type InvoiceFacts,
  type InvoiceType,
  type VerifactuRecord,
} from "./records.server";

/**
 * Sends the queued records to AEAT (Orden HAC/1177/2024 art. 16): in chain order, up to 1,000 per
 * request, one sender at a time (a lease on verifactu_sender row 1, taken and given back with
 * single statements: no transaction stays open while AEAT answers, PGlite has one connection).
 * AEAT's flow control is kept: the next request waits TiempoEsperaEnvio seconds unless 1,000
 * records are waiting. A request that gets no usable answer is retried with a back-off of 30 s
 * doubling up to one hour (art. 16.4 asks for a retry at least every hour while AEAT is down).
 * Every answer is stored; each record takes AEAT's state, code and text.
 */

type Transaction = DatabaseTransaction;
type DeliveryStatus = (typeof verifactuDeliveries.$inferSelect)["status"];

export const RETRY_BASE_MS = 30_000;
export const RETRY_MAX_DELAY_MS = 60 * 60_000;
/** AEAT's wait until its first answer says otherwise (art. 16.2). */
export const DEFAULT_WAIT_SECONDS = 60;
const LEASE_SECONDS = 300;

/** 30 s, 1 min, 2 min … capped at one hour. */
export function retryDelayMs(failures: number): number {
  return Math.min(RETRY_BASE_MS * 2 ** Math.max(0, failures - 1), RETRY_MAX_DELAY_MS);
}

export type SendOptions = {
  transport: AeatTransport;
  /** The clock: injected so tests can live through an hour in a second. */
  now?: () => Date;
  /** Who holds the lease; one per sender instance. */
  owner?: string;
};

export type SendReport = {
  /** False when another sender holds the lease: nothing was done. */
  leased: boolean;
  requests: number;
  accepted: number;
  acceptedWithErrors: number;
  rejected: number;
  /** The last request's failure (network, HTTP, SOAP Fault, unreadable answer), if it failed. */
  failure?: string;
  /** When the next request may go (AEAT's wait or the back-off), if records are waiting. */
  nextSendAt?: Date;
  /** Records still pending after this pass. */
  pending: number;
};

type Sender = typeof verifactuSender.$inferSelect;

async function takeLease(db: Database, owner: string, now: Date): Promise<Sender | undefined> {
  await db.insert(verifactuSender).values({ id: 1 }).onConflictDoNothing();
  const [sender] = await db
    .update(verifactuSender)
    .set({ leaseOwner: owner, leaseUntil: new Date(now.getTime() + LEASE_SECONDS * 1000) })
    .where(
      and(
        eq(verifactuSender.id, 1),
        or(
          isNull(verifactuSender.leaseUntil),
          lt(verifactuSender.leaseUntil, now),
          eq(verifactuSender.leaseOwner, owner),
        ),
      ),
    )
    .returning();
  return sender;
}

async function releaseLease(db: Database, owner: string) {
  await db
    .update(verifactuSender)
    .set({ leaseOwner: null, leaseUntil: null })
    .where(and(eq(verifactuSender.id, 1), eq(verifactuSender.leaseOwner, owner)));
}

/**
 * The next records to send: the pending ones in chain order, up to the first still in back-off
 * (so nothing overtakes a record) and up to the first of another issuer (one ObligadoEmision
 * per request).
 */
async function nextBatch(db: Database, now: Date): Promise<VerifactuRecord[]> {
  const rows = await db
    .select({ record: verifactuRecords, nextAttemptAt: verifactuDeliveries.nextAttemptAt })
    .from(verifactuDeliveries)
    .innerJoin(verifactuRecords, eq(verifactuRecords.id, verifactuDeliveries.recordId))
    .where(eq(verifactuDeliveries.status, "pending"))
    .orderBy(asc(verifactuDeliveries.recordId))
    .limit(MAX_RECORDS_PER_REQUEST);
  const batch: VerifactuRecord[] = [];
  for (const { record, nextAttemptAt } of rows) {
    if (nextAttemptAt > now || record.issuerTaxId !== rows[0]!.record.issuerTaxId) break;
    batch.push(record);
  }
  return batch;
}

async function countPending(db: Database): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(verifactuDeliveries)
    .where(eq(verifactuDeliveries.status, "pending"));
  return Number(row?.count ?? 0);
}

/** Sends what is due now; returns at once when another sender holds the lease. */
export async function sendPendingRecords(
  db: Database,
  { transport, now = () => new Date(), owner = randomUUID() }: SendOptions,
): Promise<SendReport> {
  const report: SendReport = {
    leased: false,
    requests: 0,
    accepted: 0,
    acceptedWithErrors: 0,
    rejected: 0,
    pending: 0,
  };
  let sender = await takeLease(db, owner, now());
  if (!sender) return report;
  report.leased = true;
  try {
    for (;;) {
      const batch = await nextBatch(db, now());
      if (batch.length === 0) break;
      const heldBack = sender.nextSendAt && now() < sender.nextSendAt;
      // AEAT's wait gives way to a full request; a back-off after a failure does not.
      const full = sender.failures === 0 && batch.length >= MAX_RECORDS_PER_REQUEST;
      if (heldBack && !full) {
        report.nextSendAt = sender.nextSendAt!;
        break;
      }
      const renewed = await takeLease(db, owner, now());
      if (!renewed) break;
      sender = renewed;
      // After failed attempts the records go late: AEAT is told of the incident.
      const outcome = await submit(db, transport, batch, now(), sender.failures > 0);
      report.requests++;
      report.accepted += outcome.accepted;
      report.acceptedWithErrors += outcome.acceptedWithErrors;
      report.rejected += outcome.rejected;
      report.failure = outcome.failure;
      sender = outcome.sender;
      if (outcome.failure) {
        report.nextSendAt = sender.nextSendAt ?? undefined;
        break;
      }
    }
  } finally {
    await releaseLease(db, owner);
  }
  report.pending = await countPending(db);
  report.nextSendAt =
    report.pending === 0 ? undefined : (report.nextSendAt ?? sender.nextSendAt ?? undefined);
  return report;
}

type Exchange = { status?: number; body?: string; answer?: AeatAnswer; failure?: string };

async function exchange(transport: AeatTransport, envelope: string): Promise<Exchange> {
  let reply;
  try {
    reply = await transport.post(envelope);
  } catch (error) {
    return { failure: `Sin respuesta de la AEAT: ${(error as Error).message}` };
  }
  const answer = parseAeatResponse(reply.body);
  const base = { status: reply.status, body: reply.body, answer };
  if (answer.kind === "answer") return base;
  if (answer.kind === "fault") {
    const code = answer.code ? `${answer.code}: ` : "";
    return { ...base, failure: `SOAP Fault ${answer.faultCode} (${code}${answer.text})` };
  }
  if (reply.status >= 300) return { ...base, failure: `HTTP ${reply.status} de la AEAT` };
  return { ...base, failure: `Respuesta ilegible de la AEAT: ${answer.error}` };
}

type SubmitOutcome = {
  sender: Sender;
  accepted: number;
  acceptedWithErrors: number;
  rejected: number;
  failure?: string;
};

/** One request: sent outside any transaction, its answer stored in one. */
async function submit(
  db: Database,
  transport: AeatTransport,
  batch: VerifactuRecord[],
  sentAt: Date,
  incident: boolean,
): Promise<SubmitOutcome> {
  const first = batch[0]!;
  const envelope = soapEnvelope(
    batch,
    { name: first.issuerName, taxId: first.issuerTaxId },
    { incident },
  );
  const result = await exchange(transport, envelope);
  const answer = result.answer?.kind === "answer" ? result.answer : undefined;
  return db.transaction(async (tx) => {
    const [submission] = await tx
      .insert(verifactuSubmissions)
      .values({
        sentAt,
        endpoint: transport.endpoint,
        recordCount: batch.length,
        firstRecordId: first.id,
        lastRecordId: batch.at(-1)!.id,
        httpStatus: result.status ?? null,
        outcome: answer?.outcome ?? null,
        csv: answer?.csv ?? null,
        waitSeconds: answer?.waitSeconds ?? null,
        error: result.failure ?? null,
        responseBody: result.body ?? null,
      })
      .returning({ id: verifactuSubmissions.id });
    const fault = result.answer?.kind === "fault" ? result.answer : undefined;
    if (fault && blamesARecord(fault))
      return narrowDown(tx, batch, submission!.id, fault, result.failure!, sentAt);
    if (!answer) return failed(tx, batch, submission!.id, result.failure!, sentAt);
    return answered(tx, batch, submission!.id, answer, sentAt);
  });
}

type DeliveryUpdate = {
  record_id: number;
  status: DeliveryStatus;
  error_code: string | null;
  error_text: string | null;
  last_error: string | null;
  next_attempt_at: string;
};

/** Writes many deliveries' new state in one statement; only ones still pending change. */
async function updateDeliveries(tx: Transaction, submissionId: number, updates: DeliveryUpdate[]) {
  if (updates.length === 0) return;
  await tx.execute(sql`
    UPDATE verifactu_deliveries AS d SET
      status = v.status,
      error_code = v.error_code,
      error_text = v.error_text,
      last_error = v.last_error,
      next_attempt_at = v.next_attempt_at,
      attempts = d.attempts + 1,
      submission_id = ${submissionId},
      updated_at = now()
    FROM jsonb_to_recordset(${JSON.stringify(updates)}::jsonb) AS v(
      record_id bigint, status text, error_code text, error_text text, last_error text,
      next_attempt_at timestamptz
    )
    WHERE d.record_id = v.record_id AND d.status = 'pending'
  `);
}

async function updateSender(tx: Transaction, values: Partial<Sender>): Promise<Sender> {
  const [sender] = await tx
    .update(verifactuSender)
    .set(values)
    .where(eq(verifactuSender.id, 1))
    .returning();
  return sender!;
}

/** No usable answer: the whole request is tried again after the back-off. */
async function failed(
  tx: Transaction,
  batch: VerifactuRecord[],
  submissionId: number,
  failure: string,
  sentAt: Date,
): Promise<SubmitOutcome> {
  const [current] = await tx.select().from(verifactuSender).where(eq(verifactuSender.id, 1));
  const failures = (current?.failures ?? 0) + 1;
  const retryAt = new Date(sentAt.getTime() + retryDelayMs(failures));
  await updateDeliveries(
    tx,
    submissionId,
    batch.map((record) => ({
      record_id: record.id,
      status: "pending",
      error_code: null,
      error_text: null,
      last_error: failure,
      next_attempt_at: retryAt.toISOString(),
    })),
  );
  const sender = await updateSender(tx, { failures, nextSendAt: retryAt });
  return { sender, accepted: 0, acceptedWithErrors: 0, rejected: 0, failure };
}

type Fault = Extract<AeatAnswer, { kind: "fault" }>;

/**
 * SOAP Faults that AEAT gives for the request's content rather than its header or its sender:
 * the schema (4102), a document it cannot read (4103), a character outside UTF-8 (4119). One bad
 * record causes them; a header fault (4104 the NIF is not identified, 4112 the certificate…)
 * would fail every request alike and is retried as a whole.
 */
const RECORD_FAULT_CODES = new Set(["4102", "4103", "4119"]);

function blamesARecord(fault: Fault): boolean {
  return /client/i.test(fault.faultCode) && RECORD_FAULT_CODES.has(fault.code ?? "");
}

/**
 * A fault a record caused must not hold up the records behind it: the first half of the batch
 * is tried again at once and the rest waits, so each fault halves the suspects; the one record
 * left alone with the fault is refused with AEAT's code and text, and the queue moves on.
 */
async function narrowDown(
  tx: Transaction,
  batch: VerifactuRecord[],
  submissionId: number,
  fault: Fault,
  failure: string,
  sentAt: Date,
): Promise<SubmitOutcome> {
  const due = sentAt.toISOString();
  if (batch.length === 1) {
    await updateDeliveries(tx, submissionId, [
      {
        record_id: batch[0]!.id,
        status: "rejected",
        error_code: fault.code ?? null,
        error_text: fault.text,
        last_error: failure,
        next_attempt_at: due,
      },
    ]);
    const sender = await updateSender(tx, { nextSendAt: sentAt });
    return { sender, accepted: 0, acceptedWithErrors: 0, rejected: 1 };
  }
  const suspects = Math.ceil(batch.length / 2);
  const later = new Date(sentAt.getTime() + RETRY_BASE_MS).toISOString();
  await updateDeliveries(
    tx,
    submissionId,
    batch.map((record, index) => ({
      record_id: record.id,
      status: "pending",
      error_code: null,
      error_text: null,
      last_error: failure,
      next_attempt_at: index < suspects ? due : later,
    })),
  );
  const sender = await updateSender(tx, { nextSendAt: sentAt });
  return { sender, accepted: 0, acceptedWithErrors: 0, rejected: 0 };
}

/** What a RespuestaLinea makes of the record's delivery. */
export function deliveryState(line: AeatLine): {
  status: DeliveryStatus;
  errorCode: string | null;
  errorText: string | null;
  note: string | null;
} {
  const said = { errorCode: line.errorCode ?? null, errorText: line.errorText ?? null };
  if (line.state === "Correcto")
    return { status: "accepted", errorCode: null, errorText: null, note: null };
  if (line.state === "AceptadoConErrores")
    return { status: "accepted_with_errors", ...said, note: null };
  // 3000: AEAT already holds this record (a resend after an answer that never arrived): the
  // record is in the state of the one it holds, never counted twice.
  if (line.errorCode === "3000" && line.duplicate) {
    const duplicate = line.duplicate;
    return {
      status: duplicate.state === "AceptadaConErrores" ? "accepted_with_errors" : "accepted",
      errorCode: duplicate.errorCode ?? null,
      errorText: duplicate.errorText ?? null,
      note: `Ya registrado en la AEAT (${line.errorCode}: ${line.errorText ?? ""}; petición ${duplicate.requestId ?? "?"}, ${duplicate.state})`,
    };
  }
  // 3001 on an anulación: the invoice is already cancelled at AEAT, which is what it asked.
  if (line.errorCode === "3001" && line.operation === "Anulacion")
    return {
      status: "accepted",
      errorCode: null,
      errorText: null,
      note: `${line.errorCode}: ${line.errorText ?? ""}`,
    };
  return { status: "rejected", ...said, note: null };
}

const lineKey = (issuer: string, number: string, date: string, operation: string) =>
  `${issuer}|${number}|${date}|${operation}`;

/** AEAT answered: each record takes the state of its RespuestaLinea. */
async function answered(
  tx: Transaction,
  batch: VerifactuRecord[],
  submissionId: number,
  answer: Extract<AeatAnswer, { kind: "answer" }>,
  sentAt: Date,
): Promise<SubmitOutcome> {
  // Lines name the invoice and the operation; the same invoice twice in one request (an alta
  // and its anulación) is told apart by the operation, then by order.
  const linesByKey = new Map<string, AeatLine[]>();
  for (const line of answer.lines) {
    const key = lineKey(line.issuerTaxId, line.invoiceNumber, line.issueDate, line.operation);
    linesByKey.set(key, [...(linesByKey.get(key) ?? []), line]);
  }
  const outcome = { accepted: 0, acceptedWithErrors: 0, rejected: 0 };
  const updates = batch.map((record): DeliveryUpdate => {
    const operation = record.kind === "alta" ? "Alta" : "Anulacion";
    const line = linesByKey
      .get(lineKey(record.issuerTaxId, record.invoiceNumber, record.issueDate, operation))
      ?.shift();
    if (!line)
      return {
        record_id: record.id,
        status: "pending",
        error_code: null,
        error_text: null,
        last_error: "La respuesta de la AEAT no trae este registro: se envía de nuevo",
        next_attempt_at: sentAt.toISOString(),
      };
    const state = deliveryState(line);
    if (state.status === "accepted") outcome.accepted++;
    else if (state.status === "accepted_with_errors") outcome.acceptedWithErrors++;
    else outcome.rejected++;
    return {
      record_id: record.id,
      status: state.status,
      error_code: state.errorCode,
      error_text: state.errorText,
      last_error: state.note,
      next_attempt_at: sentAt.toISOString(),
    };
  });
  await updateDeliveries(tx, submissionId, updates);
  const sender = await updateSender(tx, {
    failures: 0,
    waitSeconds: answer.waitSeconds,
    nextSendAt: new Date(sentAt.getTime() + answer.waitSeconds * 1000),
  });
  return { sender, ...outcome };
}

// ---------------------------------------------------------------- subsanación

const centsOf = (amount: string) => Math.round(Number(amount) * 100);

/** dd-mm-aaaa → midday of that day (UTC), which is the same day in Spain. */
function dayOf(issueDate: string): Date {
  const [day, month, year] = issueDate.split("-").map(Number);
  return new Date(Date.UTC(year!, month! - 1, day!, 11));
}

/** The invoice as a stored registro de alta describes it: what AEAT needs again. */
export function invoiceFactsOfRecord(record: VerifactuRecord): InvoiceFacts {
  const line = record.breakdown?.[0];
  const corrected = record.correctedInvoices?.[0];
  const substituted = record.substitutedInvoices?.[0];
  return {
    invoiceId: record.invoiceId,
    number: record.invoiceNumber,
    issuedAt: dayOf(record.issueDate),
    type: record.invoiceType as InvoiceType,
    description: record.description ?? "",
    recipient: record.recipient ?? undefined,
    withoutRecipientId: record.withoutRecipientId === "S",
    corrected: corrected
      ? { number: corrected.invoiceNumber, issuedAt: dayOf(corrected.issueDate) }
      : undefined,
    substituted: substituted
      ? { number: substituted.invoiceNumber, issuedAt: dayOf(substituted.issueDate) }
      : undefined,
    operatedAt: record.operationDate ? dayOf(record.operationDate) : undefined,
    vatRatePercent: Number(line?.rate ?? 0),
    baseCents: centsOf(line?.base ?? "0"),
    vatCents: centsOf(record.cuotaTotal ?? "0"),
    totalCents: centsOf(record.importeTotal ?? "0"),
  };
}

export type Correction = { ok: true; record: VerifactuRecord } | { ok: false; reason: string };

/**
 * Subsanación of a registro de alta AEAT rejected or accepted with errors ([SWEB] Anexo II
 * §8.1.3; decision 068): a new alta of the same invoice at the head of the chain, carrying the
 * corrected data, with Subsanacion=S, and RechazoPrevio=X when AEAT rejected the first (the
 * invoice is not in its records yet); queued like any record. The first record stays as it
 * was; its delivery points to the one that corrects it.
 */
export async function correctRecord(
  tx: Transaction,
  recordId: number,
  changes: Partial<Pick<InvoiceFacts, "recipient" | "description">> = {},
): Promise<Correction> {
  const [row] = await tx
    .select({ record: verifactuRecords, delivery: verifactuDeliveries })
    .from(verifactuRecords)
    .innerJoin(verifactuDeliveries, eq(verifactuDeliveries.recordId, verifactuRecords.id))
    .where(eq(verifactuRecords.id, recordId))
    .for("update", { of: verifactuDeliveries });
  if (!row) return { ok: false, reason: "No existe ese registro de facturación" };
  if (row.record.kind !== "alta")
    return { ok: false, reason: "Solo se subsana un registro de alta" };
  const { status } = row.delivery;
  if (status !== "rejected" && status !== "accepted_with_errors")
    return {
      ok: false,
      reason: "Solo se subsana un registro rechazado o aceptado con errores por la AEAT",
    };
  if (row.delivery.correctedByRecordId)
    return { ok: false, reason: "Ese registro ya está subsanado" };
  if (changes.recipient && !row.record.recipient)
    return { ok: false, reason: "Un registro sin destinatario no puede ganar uno al subsanarlo" };
  const record = await recordInvoice(
    tx,
    { ...invoiceFactsOfRecord(row.record), ...changes },
    { correction: { previouslyRejected: status === "rejected" } },
  );
  await tx
    .update(verifactuDeliveries)
    .set({ correctedByRecordId: record.id, updatedAt: new Date() })
    .where(eq(verifactuDeliveries.recordId, recordId));
  return { ok: true, record };
}
