import { asc, eq, gt } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAeatStandIn, type AeatStandIn } from "../../local-services/aeat-stand-in.server";
import { aeatTransport, type AeatTransport } from "~/features/verifactu/aeat-transport.server";
import {
  correctRecord,
  sendPendingRecords,
  type SendReport,
} from "~/features/verifactu/sender.server";
import { recordInvoice } from "~/features/verifactu/records.server";
import { startVerifactuWorker, stopVerifactuWorker } from "~/features/verifactu/worker.server";
import { resetConfigForTests } from "~/platform/config.server";
import { openDatabase, type Database } from "~/platform/db/client.server";
import {
  invoices,
  verifactuDeliveries,
  verifactuRecords,
  verifactuSender,
  verifactuSubmissions,
} from "~/platform/db/schema";
import { paidPurchase } from "../support/paid-purchase";
import { setupTestDatabase } from "../support/test-database";

/**
 * Issue #23: the queued records reach AEAT (here its local stand-in, which checks requests the
 * way AEAT's schema does and answers as AEAT does) in chain order, at AEAT's pace, each once,
 * whatever AEAT answers or fails to answer.
 */
const database = setupTestDatabase();
const saved = { ...process.env };
let standIn: AeatStandIn;
let transport: AeatTransport;

// The sender's clock: moved by the tests, always ahead of the database's own.
let clockMs = Date.now() + 60_000;
const now = () => new Date(clockMs);
const advance = (seconds: number) => {
  clockMs += seconds * 1000;
};
const send = (db: Database = database.db, owner?: string): Promise<SendReport> =>
  sendPendingRecords(db, { transport, now, owner });

beforeAll(async () => {
  Object.assign(process.env, {
    STRIPE_SECRET_KEY: "sk_test_verifactu_sender",
    STRIPE_WEBHOOK_SECRET: "whsec_test_verifactu_sender",
    COMPANY_TAX_ID: "B12345674",
    COMPANY_LEGAL_NAME: "Servicios Digitales & Asociados S.L.",
  });
  resetConfigForTests();
  standIn = await startAeatStandIn();
  transport = aeatTransport(standIn.url);
});

afterAll(async () => {
  await standIn.close();
  process.env = saved;
  resetConfigForTests();
});

/** Completed payments through the Stripe webhook: each issues an invoice and its record. */
async function payments(count: number) {
  for (let i = 0; i < count; i++) expect((await paidPurchase(database.db)).status).toBe(200);
}

/**
 * Many records quickly: billing records of made-up invoice numbers on one stored invoice,
 * 250 per transaction (the sender only sees records; numbering is billing's own test).
 */
async function bulkRecords(count: number) {
  if ((await database.db.select().from(invoices).limit(1)).length === 0) await payments(1);
  const [invoice] = await database.db.select().from(invoices).limit(1);
  for (let start = 0; start < count; start += 250) {
    await database.db.transaction(async (tx) => {
      for (let i = start; i < Math.min(count, start + 250); i++) {
        bulkNumber++;
        await recordInvoice(tx, {
          invoiceId: invoice!.id,
          number: `T2026-${String(bulkNumber).padStart(6, "0")}`,
          issuedAt: new Date(),
          type: "F2",
          description: "Asistencia Informática",
          vatRatePercent: 21,
          baseCents: 12_314,
          vatCents: 2_586,
          totalCents: 14_900,
        });
      }
    });
  }
}
let bulkNumber = 0;

const recordsSince = (id: number) =>
  database.db
    .select({ record: verifactuRecords, delivery: verifactuDeliveries })
    .from(verifactuRecords)
    .innerJoin(verifactuDeliveries, eq(verifactuDeliveries.recordId, verifactuRecords.id))
    .where(gt(verifactuRecords.id, id))
    .orderBy(asc(verifactuRecords.id));

async function lastRecordId(): Promise<number> {
  const rows = await database.db
    .select({ id: verifactuRecords.id })
    .from(verifactuRecords)
    .orderBy(asc(verifactuRecords.id));
  return rows.at(-1)?.id ?? 0;
}

/** Past AEAT's wait and any back-off left by the previous test. */
const nextWindow = () => advance(2 * 60 * 60);

describe("the VERI*FACTU sender", () => {
  it("sends a batch in chain order and stores AEAT's answer and CSV", async () => {
    nextWindow();
    await payments(5);
    const report = await send();
    expect(report).toMatchObject({
      leased: true,
      requests: 1,
      accepted: 5,
      rejected: 0,
      pending: 0,
    });

    const rows = await recordsSince(0);
    expect(rows.map((row) => row.delivery.status)).toEqual(Array(5).fill("accepted"));
    expect(standIn.received.map((received) => received.hash)).toEqual(
      rows.map((row) => row.record.hash),
    );
    expect(standIn.received.every((received) => received.state === "Correcto")).toBe(true);
    const [submission] = await database.db.select().from(verifactuSubmissions);
    expect(submission).toMatchObject({
      recordCount: 5,
      firstRecordId: rows[0]!.record.id,
      lastRecordId: rows[4]!.record.id,
      httpStatus: 200,
      outcome: "Correcto",
      waitSeconds: 60,
      error: null,
      endpoint: standIn.url,
    });
    expect(submission!.csv).toMatch(/^A-[A-Z0-9]{14}$/);
    expect(submission!.responseBody).toContain("RespuestaRegFactuSistemaFacturacion");
    expect(rows.every((row) => row.delivery.submissionId === submission!.id)).toBe(true);
    expect(rows.every((row) => row.delivery.attempts === 1)).toBe(true);
  });

  it("waits the TiempoEsperaEnvio AEAT gives before the next request", async () => {
    const before = await lastRecordId();
    standIn.knobs.waitSeconds = 120;
    await payments(3);
    expect(await send()).toMatchObject({ requests: 0, pending: 3 });
    advance(59);
    expect(await send()).toMatchObject({ requests: 0, pending: 3 });
    advance(1);
    expect(await send()).toMatchObject({ requests: 1, accepted: 3, pending: 0 });

    await payments(1);
    advance(119);
    const waiting = await send();
    expect(waiting).toMatchObject({ requests: 0, pending: 1 });
    expect(waiting.nextSendAt).toEqual(new Date(clockMs + 1000));
    advance(1);
    expect(await send()).toMatchObject({ requests: 1, accepted: 1 });
    const [sender] = await database.db.select().from(verifactuSender);
    expect(sender).toMatchObject({ waitSeconds: 120, failures: 0, leaseOwner: null });
    expect((await recordsSince(before)).every((row) => row.delivery.status === "accepted")).toBe(
      true,
    );
    standIn.knobs.waitSeconds = 60;
  });

  it("sends 1,000 pending records at once without waiting, and never more in one request", async () => {
    nextWindow();
    const before = await lastRecordId();
    const requestsBefore = standIn.batchSizes.length;
    await payments(1);
    expect(await send()).toMatchObject({ requests: 1 });
    // AEAT's wait now runs; 1,100 records pile up meanwhile.
    // Many records: 60 s allowed on a busy machine, about 5 s usually.
    await bulkRecords(1_100);
    const report = await send();
    expect(report).toMatchObject({ requests: 1, accepted: 1_000, pending: 100 });
    expect(standIn.batchSizes.slice(requestsBefore)).toEqual([1, 1000]);
    advance(60);
    expect(await send()).toMatchObject({ requests: 1, accepted: 100, pending: 0 });
    expect(standIn.batchSizes.slice(requestsBefore)).toEqual([1, 1000, 100]);

    const rows = await recordsSince(before);
    const received = standIn.received.slice(-1_101).map((line) => line.hash);
    expect(received).toEqual(rows.map((row) => row.record.hash));
  }, 60_000);

  it("keeps AEAT's refusal of one record without holding back the others, then corrects it", async () => {
    nextWindow();
    const before = await lastRecordId();
    await payments(4);
    const rows = await recordsSince(before);
    const refused = rows[1]!.record;
    standIn.knobs.reject.set(refused.invoiceNumber, {
      code: "1104",
      text: "El valor del campo NumSerieFactura es incorrecto.",
    });
    expect(await send()).toMatchObject({ requests: 1, accepted: 3, rejected: 1, pending: 0 });
    const [submission] = await database.db
      .select()
      .from(verifactuSubmissions)
      .orderBy(asc(verifactuSubmissions.id))
      .then((all) => all.slice(-1));
    expect(submission).toMatchObject({ outcome: "ParcialmenteCorrecto", error: null });
    expect(submission!.csv).toBeTruthy();
    const states = await recordsSince(before);
    expect(states.map((row) => row.delivery.status)).toEqual([
      "accepted",
      "rejected",
      "accepted",
      "accepted",
    ]);
    expect(states[1]!.delivery).toMatchObject({
      errorCode: "1104",
      errorText: "El valor del campo NumSerieFactura es incorrecto.",
    });

    // The refused record holds nothing back: the next invoice goes on its own.
    nextWindow();
    await payments(1);
    expect(await send()).toMatchObject({ requests: 1, accepted: 1, pending: 0 });

    /** The next window's request: AEAT takes the subsanación of `refused` as correct. */
    const sentAndAccepted = async (expected: { previousRejection?: string }) => {
      nextWindow();
      expect(await send()).toMatchObject({ requests: 1, accepted: 1, rejected: 0 });
      expect(standIn.received.at(-1)).toMatchObject({
        invoiceNumber: refused.invoiceNumber,
        correction: "S",
        state: "Correcto",
        ...expected,
      });
    };

    // Subsanación: a new alta of the same invoice at the head of the chain.
    standIn.knobs.reject.clear();
    const correction = await database.db.transaction((tx) => correctRecord(tx, refused.id));
    if (!correction.ok) throw new Error(correction.reason);
    const head = await lastRecordId();
    expect(correction.record).toMatchObject({
      id: head,
      invoiceId: refused.invoiceId,
      invoiceNumber: refused.invoiceNumber,
      issueDate: refused.issueDate,
      invoiceType: refused.invoiceType,
      cuotaTotal: refused.cuotaTotal,
      importeTotal: refused.importeTotal,
      breakdown: refused.breakdown,
      correction: "S",
      previousRejection: "X",
    });
    expect(correction.record.previousRecordId).toBe(head - 1);
    expect(await database.db.transaction((tx) => correctRecord(tx, refused.id))).toMatchObject({
      ok: false,
    });
    const [old] = await database.db
      .select()
      .from(verifactuDeliveries)
      .where(eq(verifactuDeliveries.recordId, refused.id));
    expect(old).toMatchObject({ status: "rejected", correctedByRecordId: head });

    await sentAndAccepted({ previousRejection: "X" });

    // Accepted with errors: AEAT holds it, so the subsanación goes without RechazoPrevio and
    // AEAT takes it as amending the record it holds.
    await database.db
      .update(verifactuDeliveries)
      .set({ status: "accepted_with_errors", errorCode: "2011", errorText: "Aviso." })
      .where(eq(verifactuDeliveries.recordId, head));
    const amended = await database.db.transaction((tx) =>
      correctRecord(tx, head, { description: "Asistencia informática (subsanada)" }),
    );
    if (!amended.ok) throw new Error(amended.reason);
    expect(amended.record).toMatchObject({ correction: "S", previousRejection: null });
    await sentAndAccepted({ previousRejection: undefined });
  });

  it("stores an unreadable answer, retries after a back-off and counts nothing twice", async () => {
    nextWindow();
    const before = await lastRecordId();
    await payments(3);
    standIn.knobs.malformedOnce = true;
    const failed = await send();
    expect(failed).toMatchObject({ requests: 1, accepted: 0, pending: 3 });
    expect(failed.failure).toMatch(/Respuesta ilegible/);
    expect(failed.nextSendAt).toEqual(new Date(clockMs + 30_000));
    const [submission] = await database.db
      .select()
      .from(verifactuSubmissions)
      .orderBy(asc(verifactuSubmissions.id))
      .then((all) => all.slice(-1));
    expect(submission).toMatchObject({ httpStatus: 200, outcome: null, recordCount: 3 });
    expect(submission!.error).toMatch(/Respuesta ilegible/);
    expect(submission!.responseBody).toBeTruthy();
    const waiting = await recordsSince(before);
    expect(waiting.map((row) => [row.delivery.status, row.delivery.attempts])).toEqual(
      Array(3).fill(["pending", 1]),
    );

    // Within the back-off nothing goes; then the resend finds them already registered (3000).
    advance(29);
    expect(await send()).toMatchObject({ requests: 0 });
    advance(1);
    expect(await send()).toMatchObject({ requests: 1, accepted: 3, pending: 0 });
    const done = await recordsSince(before);
    expect(done.map((row) => row.delivery.status)).toEqual(Array(3).fill("accepted"));
    expect(done[0]!.delivery.lastError).toMatch(/Ya registrado en la AEAT \(3000/);
    const [sender] = await database.db.select().from(verifactuSender);
    expect(sender!.failures).toBe(0);
  });

  it("isolates a record AEAT's schema refuses, so the records behind it still go", async () => {
    nextWindow();
    const before = await lastRecordId();
    await bulkRecords(3);
    // A description over the schema's 500 characters: AEAT refuses the whole request (4102).
    const [invoice] = await database.db.select().from(invoices).limit(1);
    const bad = await database.db.transaction((tx) =>
      recordInvoice(tx, {
        invoiceId: invoice!.id,
        number: "T2026-LARGA",
        issuedAt: new Date(),
        type: "F2",
        description: "x".repeat(501),
        vatRatePercent: 21,
        baseCents: 12_314,
        vatCents: 2_586,
        totalCents: 14_900,
      }),
    );
    await bulkRecords(4);
    let report: SendReport | undefined;
    for (let pass = 0; pass < 20; pass++) {
      report = await send();
      if (report.pending === 0) break;
      advance(60);
    }
    expect(report).toMatchObject({ pending: 0 });
    const rows = await recordsSince(before);
    expect(rows).toHaveLength(8);
    for (const row of rows) {
      if (row.record.id === bad.id)
        expect(row.delivery).toMatchObject({ status: "rejected", errorCode: "4102" });
      else expect(row.delivery.status).toBe("accepted");
    }
    // Each record reached AEAT's register once, in chain order.
    const hashes = new Set(rows.map((row) => row.record.hash));
    const registered = standIn.received
      .filter((entry) => hashes.has(entry.hash) && entry.state === "Correcto")
      .map((entry) => entry.hash);
    expect(registered).toEqual(
      rows.filter((row) => row.record.id !== bad.id).map((row) => row.record.hash),
    );
  });

  it("keeps 500 payments through an hour without AEAT and sends each once, in order", async () => {
    nextWindow();
    const before = await lastRecordId();
    const receivedBefore = standIn.received.length;
    const submissionsBefore = (await database.db.select().from(verifactuSubmissions)).length;
    standIn.knobs.down = "unreachable";
    for (let minute = 0; minute < 60; minute++) {
      if (minute === 30) standIn.knobs.down = "unavailable";
      await payments(minute < 20 ? 9 : 8);
      advance(60);
      const report = await send();
      expect(report.accepted).toBe(0);
    }
    const stranded = await recordsSince(before);
    expect(stranded).toHaveLength(500);
    expect(stranded.every((row) => row.delivery.status === "pending")).toBe(true);

    standIn.knobs.down = false;
    const requestsBefore = standIn.incidents.length;
    // At most an hour later (the back-off's cap), everything has gone.
    for (let minute = 0; minute < 61; minute++) {
      advance(60);
      await send();
    }
    const rows = await recordsSince(before);
    expect(rows.every((row) => row.delivery.status === "accepted")).toBe(true);
    const received = standIn.received.slice(receivedBefore);
    expect(received.map((line) => line.hash)).toEqual(rows.map((row) => row.record.hash));
    expect(received.every((line) => line.state === "Correcto")).toBe(true);
    // The late request says so (art. 16.4); requests on time do not.
    expect(standIn.incidents.slice(requestsBefore)[0]).toBe(true);
    expect(standIn.incidents[0]).toBe(false);

    // Failed attempts were stored, never more than an hour apart.
    const attempts = (
      await database.db.select().from(verifactuSubmissions).orderBy(asc(verifactuSubmissions.id))
    ).slice(submissionsBefore);
    const failures = attempts.filter((attempt) => attempt.error);
    expect(failures.length).toBeGreaterThanOrEqual(6);
    expect(failures.some((attempt) => attempt.httpStatus === 503)).toBe(true);
    expect(failures.some((attempt) => attempt.httpStatus === null)).toBe(true);
    attempts.slice(1).forEach((attempt, index) => {
      const gap = attempt.sentAt.getTime() - attempts[index]!.sentAt.getTime();
      expect(gap).toBeLessThanOrEqual(60 * 60_000);
    });
  }, 60_000);

  it("lets only one of two racing senders send, so no record goes twice", async () => {
    nextWindow();
    const before = await lastRecordId();
    const receivedBefore = standIn.received.length;
    await bulkRecords(40);
    // On PostgreSQL the second sender is another instance with its own pool.
    const second = database.url ? openDatabase({ kind: "postgres", url: database.url }) : undefined;
    standIn.knobs.answerDelayMs = 200;
    try {
      const reports = await Promise.all([
        send(database.db, "instance-a"),
        send(second?.db ?? database.db, "instance-b"),
      ]);
      expect(reports.filter((report) => report.requests > 0)).toHaveLength(1);
    } finally {
      standIn.knobs.answerDelayMs = 0;
      await second?.close();
    }
    const rows = await recordsSince(before);
    expect(rows.every((row) => row.delivery.status === "accepted")).toBe(true);
    const received = standIn.received.slice(receivedBefore).map((line) => line.hash);
    expect(received).toEqual(rows.map((row) => row.record.hash));
  });

  it("runs in the server as a worker: to the local stand-in without a certificate", async () => {
    process.env.VERIFACTU = "off";
    resetConfigForTests();
    expect(await startVerifactuWorker(database.db)).toBeUndefined();
    process.env.VERIFACTU = "on";
    resetConfigForTests();

    // The worker keeps real time: AEAT's wait from the simulated hours above is forgotten.
    await database.db.update(verifactuSender).set({ nextSendAt: null, failures: 0 });
    const before = await lastRecordId();
    await payments(2);
    // Without one it has nowhere to send, and says so.
    await expect(startVerifactuWorker(database.db)).rejects.toThrow(/VERIFACTU_ENDPOINT/);
    const worker = await startVerifactuWorker(database.db, { startLocalAeat: startAeatStandIn });
    expect(worker).toBeDefined();
    try {
      await expect
        .poll(async () => (await recordsSince(before)).map((row) => row.delivery.status), {
          timeout: 10_000,
        })
        .toEqual(["accepted", "accepted"]);
    } finally {
      await stopVerifactuWorker();
    }
    // It went to the worker's own stand-in, not to this file's.
    const hashes = (await recordsSince(before)).map((row) => row.record.hash);
    expect(standIn.received.some((line) => hashes.includes(line.hash))).toBe(false);
  });

  it("is woken by the payment that wrote a record: sent at once, not at the next poll", async () => {
    await database.db.update(verifactuSender).set({ nextSendAt: null, failures: 0 });
    // A poll an hour away: only the wake after the payment's commit can send the record.
    const worker = await startVerifactuWorker(database.db, {
      deferFirstPass: true,
      pollIntervalMs: 60 * 60_000,
      startLocalAeat: startAeatStandIn,
    });
    expect(worker).toBeDefined();
    try {
      const before = await lastRecordId();
      await payments(1);
      await expect
        .poll(async () => (await recordsSince(before)).map((row) => row.delivery.status), {
          timeout: 10_000,
        })
        .toEqual(["accepted"]);
    } finally {
      await stopVerifactuWorker();
    }
  });
});
