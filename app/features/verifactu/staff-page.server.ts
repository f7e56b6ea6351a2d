import { getConfig } from "~/platform/config.server";
import { calendarDay } from "~/platform/dates";
import { getDb } from "~/platform/db/database.server";
import { zipStream, type ZipEntry } from "~/platform/files/zip.server";
import { downloadResponse, snapshotPages } from "~/platform/http/downloads.server";
import { notice, readForm, refuse } from "~/platform/http/form-reply.server";
import { redirectWithToast } from "~/platform/http/toast.server";
import { getLogger } from "~/platform/logger.server";
import type { StaffDesk } from "~/platform/security/staff-desk";
import { hasControlCharacters } from "~/platform/validation/aeat-text";
import { checkChain } from "./chain-check.server";
import { CORRECTION_FIELDS, recordChanges } from "./record-correction";
import { CANCELLATION_REASON_MAX } from "./record-states";
import { MAX_RECORDS_PER_REQUEST, registrationDocument } from "./record-xml";
import type { VerifactuRecord } from "./records.server";
import { correctRecord } from "./sender.server";
import type { VerifactuMessage } from "./staff-messages";
import {
  cancelRecord,
  countRecords,
  listRecords,
  periodRecordsPage,
  verifactuQueue,
} from "./staff-records.server";
import { RECORDS_PER_PAGE, verifactuViewFrom } from "./staff-view";
import { wakeVerifactuSender } from "./worker.server";

/** What the staff page asks of the member acting (the route's guard gives it; decision 075). */
export type VerifactuDesk = StaffDesk<
  "verifactu.manage",
  "verifactu.cancel" | "verifactu.correct" | "export.verifactu"
>;

/** The Verifactu page's data: the list (a keyset page), the queue, the last answer, the wait. */
export async function verifactuPage(url: URL) {
  const view = verifactuViewFrom(url);
  const db = getDb();
  const [count, queue] = await Promise.all([countRecords(db, view.filters), verifactuQueue(db)]);
  const pages = Math.max(1, Math.ceil(count.total / RECORDS_PER_PAGE));
  // The last page holds what is left over; it is read from the oldest end.
  const cursor =
    view.cursor && "oldest" in view.cursor
      ? { oldest: count.total - (pages - 1) * RECORDS_PER_PAGE || RECORDS_PER_PAGE }
      : view.cursor;
  const list = await listRecords(db, view.filters, cursor, RECORDS_PER_PAGE);
  // Going back to the newest records always lands on page 1, whatever the address said.
  const page = !list.hasNewer ? 1 : !list.hasOlder && !count.capped ? pages : view.page;
  const { enabled, environment } = getConfig().verifactu;
  return {
    filters: view.filters,
    invalid: view.invalid,
    records: list,
    page,
    count,
    queue,
    sending: { enabled, environment },
    now: new Date(),
  };
}

const refusalStatus: Partial<Record<VerifactuMessage, number>> = {
  recordNotFound: 404,
  notCancellable: 409,
  saleCharged: 409,
  hasCorrective: 409,
  notCorrectable: 409,
  saveFailed: 503,
};

const refuseWith = (code: VerifactuMessage) => refuse(code, { status: refusalStatus[code] ?? 400 });

const RECORD_ID = /^\d{1,15}$/;

/** The staff's reason for an anulación: a sentence, without control characters, or null. */
function cancellationReasonOf(value: string | undefined): string | null {
  const reason = value?.trim().replace(/\s+/g, " ") ?? "";
  if (reason.length < 10 || reason.length > CANCELLATION_REASON_MAX) return null;
  return hasControlCharacters(reason) ? null : reason;
}

/**
 * The page's actions: 'Comprobar cadena' (anyone who sees the page), 'Anular registro' and
 * 'Subsanar y reenviar' (`verifactu.manage`, 403 without it; each written to the audit log in
 * the transaction that writes its record).
 */
export async function verifactuAction(request: Request, desk: VerifactuDesk) {
  const form = (await readForm(request))?.fields;
  if (form?.intent === "cancel-record" || form?.intent === "correct-record")
    desk.requireCapability("verifactu.manage");
  const back = `/admin/verifactu${new URL(request.url).search}`;
  // A record sent to AEAT in the company's name: proved again first (decision 063).
  if (form?.intent === "cancel-record" || form?.intent === "correct-record")
    await desk.requireRecentAuthentication({ fallback: back });
  try {
    switch (form?.intent) {
      case "check-chain": {
        const check = await checkChain(getDb());
        return notice(check.firstBreak ? "chainBroken" : "chainIntact", { chain: check });
      }
      case "cancel-record": {
        const recordId = form.recordId ?? "";
        if (!RECORD_ID.test(recordId)) return refuseWith("invalidRequest");
        const reason = cancellationReasonOf(form.reason);
        if (!reason) return refuseWith("cancellationReason");
        if (form.confirm !== "yes") return refuseWith("confirmCancellation");
        const cancelled = await getDb().transaction(async (tx) => {
          const outcome = await cancelRecord(tx, Number(recordId));
          if (outcome.ok)
            await desk.recordAction(tx, {
              action: "verifactu.cancel",
              target: recordId,
              details: {
                factura: outcome.record.invoiceNumber,
                registroAnulacion: outcome.record.id,
                motivo: reason,
              },
            });
          return outcome;
        });
        if (!cancelled.ok) return refuseWith(cancelled.reason);
        wakeVerifactuSender();
        return redirectWithToast(back, {
          kind: "success",
          title: `Registro de anulación de ${cancelled.record.invoiceNumber} generado`,
          description: "Queda en la cola para enviarlo a la AEAT.",
        });
      }
      case "correct-record": {
        const recordId = form.recordId ?? "";
        if (!RECORD_ID.test(recordId)) return refuseWith("invalidRequest");
        // The recipient's fields are sent only for a record that names one; the sender refuses
        // to add a recipient to a record without (correctRecord), whatever was posted.
        const namesRecipient =
          form[CORRECTION_FIELDS.recipientName] !== undefined ||
          form[CORRECTION_FIELDS.recipientTaxId] !== undefined;
        const checked = recordChanges(form, namesRecipient);
        if (!checked.ok) return refuseWith(checked.problem);
        const { changes } = checked;
        const corrected = await getDb().transaction(async (tx) => {
          const outcome = await correctRecord(tx, Number(recordId), changes);
          if (outcome.ok)
            await desk.recordAction(tx, {
              action: "verifactu.correct",
              target: recordId,
              details: {
                factura: outcome.record.invoiceNumber,
                registroSubsanacion: outcome.record.id,
                descripcion: changes.description,
                ...(changes.recipient
                  ? {
                      destinatario: changes.recipient.name,
                      nifDestinatario: changes.recipient.taxId,
                    }
                  : {}),
              },
            });
          return outcome;
        });
        if (!corrected.ok) return refuseWith("notCorrectable");
        wakeVerifactuSender();
        return redirectWithToast(back, {
          kind: "success",
          title: `Subsanación de ${corrected.record.invoiceNumber} generada`,
          description: "El registro corregido queda en la cola para reenviarlo a la AEAT.",
        });
      }
      default:
        return refuseWith("invalidRequest");
    }
  } catch (error) {
    getLogger().error({ err: error }, "a Verifactu staff action failed");
    return refuseWith("saveFailed");
  }
}

/** "registros-verifactu-2026-01-01-a-2026-03-31": the period's files are named after it. */
export const exportBaseName = (from: string, to: string) => `registros-verifactu-${from}-a-${to}`;

/**
 * The records of a period as AEAT's schema documents (what an inspector asks for): one
 * RegFactuSistemaFacturacion per 1,000 records, numbered, in one ZIP, each read from the database
 * and zipped as the client reads, so a year of records never sits in memory.
 */
export function verifactuExport(url: URL): Response {
  const from = calendarDay(url.searchParams.get("desde"));
  const to = calendarDay(url.searchParams.get("hasta"));
  if (!from || !to || from > to)
    return new Response(
      "Indica el periodo con dos fechas válidas (desde y hasta, aaaa-mm-dd), la primera no posterior a la segunda.",
      { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8" } },
    );
  const base = exportBaseName(from, to);
  // The records in chain order, 1,000 a document (a request's most), from one snapshot.
  const pages = snapshotPages<VerifactuRecord[], number>(
    getDb(),
    async (tx, after) => {
      const page = await periodRecordsPage(tx, { from, to }, after, MAX_RECORDS_PER_REQUEST);
      const full = page.length === MAX_RECORDS_PER_REQUEST;
      return { page, next: full ? page.at(-1)!.id : undefined };
    },
    "the Verifactu export",
  );
  async function* documents(): AsyncGenerator<ZipEntry> {
    let part = 0;
    for await (const page of pages) {
      if (page.length === 0) continue;
      part += 1;
      const name = `${base}-${String(part).padStart(3, "0")}.xml`;
      yield { name, data: Buffer.from(registrationDocument(page)) };
    }
  }
  return downloadResponse(zipStream(documents()), {
    fileName: `${base}.zip`,
    contentType: "application/zip",
  });
}

/**
 * The XML export as a staff member asks for it (the route checked `verifactu.export`): a stale
 * sign-in proves itself first, as a whole file of the company's data leaves with it (decision
 * 063); a valid period is written to the audit log, then streamed; an invalid one is refused.
 */
export async function staffVerifactuExport(request: Request, desk: VerifactuDesk) {
  await desk.requireRecentAuthentication({ fallback: "/admin/verifactu", download: true });
  const url = new URL(request.url);
  const from = calendarDay(url.searchParams.get("desde"));
  const to = calendarDay(url.searchParams.get("hasta"));
  if (from && to && from <= to)
    await desk.recordAction(getDb(), {
      action: "export.verifactu",
      details: { desde: from, hasta: to },
    });
  return verifactuExport(url);
}
