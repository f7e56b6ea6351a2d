import type pino from "pino";
import { getConfig } from "~/platform/config.server";
import type { Database } from "~/platform/db/client.server";
import { getDb } from "~/platform/db/database.server";
import { PollingLoop, type StartOptions } from "~/platform/background/polling-loop";
import { getLogger } from "~/platform/logger.server";
import {
  aeatEndpoint,
  aeatTransport,
  loadCertificate,
  type AeatTransport,
} from "./aeat-transport.server";
import { sendPendingRecords, type SendReport } from "./sender.server";

/**
 * The poll catches what no wake announced: records written by another instance, and the end of
 * AEAT's wait or of a back-off.
 */
const POLL_INTERVAL_MS = 5_000;

/** A local service that answers as AEAT does (local-services/aeat-stand-in.server.ts). */
export type LocalAeat = { url: string; close(): Promise<void> };

export type WorkerOptions = StartOptions & {
  pollIntervalMs?: number;
  /**
   * Starts a local AEAT stand-in, for a site with neither certificate nor VERIFACTU_ENDPOINT
   * (never in production): given by the server, which loads it only then, so the stand-in is
   * no part of what production loads.
   */
  startLocalAeat?: () => Promise<LocalAeat>;
};

/**
 * Sends the queued records from inside the server process: polls, and is woken after a
 * transaction that wrote records commits. Safe in every instance: the sender's lease lets one
 * send at a time.
 */
export class VerifactuWorker {
  private readonly loop: PollingLoop;
  private lastFailure: string | undefined;

  constructor(
    private readonly send: () => Promise<SendReport>,
    private readonly logger: pino.Logger,
    pollIntervalMs = POLL_INTERVAL_MS,
  ) {
    this.loop = new PollingLoop(() => this.sendOnce(), pollIntervalMs);
  }

  start(options?: StartOptions) {
    this.loop.start(options);
  }

  /** Send soon (still within AEAT's wait). */
  wake() {
    this.loop.wake();
  }

  /** Lets a request under way finish and store its answer, then sends no more. */
  stop() {
    return this.loop.stop();
  }

  private async sendOnce() {
    try {
      const report = await this.send();
      if (!report.leased) return;
      this.log(report);
    } catch (error) {
      this.logger.error({ err: error }, "verifactu sender pass failed");
    }
  }

  private log(report: SendReport) {
    if (report.failure) {
      // Art. 16.4: while AEAT cannot be reached the records wait, in order, and are counted.
      if (report.failure !== this.lastFailure)
        this.logger.warn(
          { failure: report.failure, pending: report.pending, retryAt: report.nextSendAt },
          "VERI*FACTU: la AEAT no ha recibido los registros; se reintentará",
        );
    } else if (this.lastFailure && report.requests > 0) {
      this.logger.info({ pending: report.pending }, "VERI*FACTU: envío a la AEAT restablecido");
    }
    if (report.requests > 0) this.lastFailure = report.failure;
    if (report.rejected > 0)
      this.logger.error(
        { rejected: report.rejected },
        "VERI*FACTU: la AEAT ha rechazado registros; hay que subsanarlos",
      );
    if (report.acceptedWithErrors > 0)
      this.logger.warn(
        { acceptedWithErrors: report.acceptedWithErrors },
        "VERI*FACTU: registros aceptados con errores",
      );
  }
}

type Running = { worker: VerifactuWorker; standIn?: LocalAeat };
const holder = globalThis as typeof globalThis & { __verifactuWorker?: Promise<Running> };

/**
 * AEAT with the company's certificate; without one (never in production: the configuration
 * refuses to start) the endpoint of VERIFACTU_ENDPOINT if it is a local stand-in, or else one
 * started in this process on 127.0.0.1 by `startLocalAeat`.
 */
async function chooseTransport(
  startLocalAeat: WorkerOptions["startLocalAeat"],
): Promise<{ transport: AeatTransport; standIn?: LocalAeat }> {
  const { verifactu, isProduction } = getConfig();
  if (verifactu.certificateFile) {
    const certificate = loadCertificate(verifactu.certificateFile, verifactu.certificatePassword);
    return { transport: aeatTransport(aeatEndpoint(verifactu), { certificate }) };
  }
  if (isProduction) throw new Error("VERIFACTU_CERT_FILE: obligatorio en producción");
  if (verifactu.endpoint) return { transport: aeatTransport(verifactu.endpoint) };
  if (!startLocalAeat)
    throw new Error("VERI*FACTU: sin certificado ni VERIFACTU_ENDPOINT no hay a quién enviar");
  const standIn = await startLocalAeat();
  getLogger().info(
    { url: standIn.url },
    "VERI*FACTU: sin certificado, los registros van al simulador local de la AEAT",
  );
  return { transport: aeatTransport(standIn.url), standIn };
}

/**
 * Starts sending when this site is the invoicing system (VERIFACTU=on); otherwise says loudly
 * that no record goes to AEAT, which is only right when invoices are issued elsewhere.
 */
export function startVerifactuWorker(
  db: Database = getDb(),
  { pollIntervalMs, startLocalAeat, ...options }: WorkerOptions = {},
): Promise<VerifactuWorker | undefined> {
  const { verifactu, isProduction } = getConfig();
  const logger = getLogger();
  if (!verifactu.enabled) {
    logger.warn(
      { production: isProduction },
      "VERIFACTU=off: este sitio no envía registros de facturación a la AEAT; las facturas deben emitirse con otro sistema VERI*FACTU",
    );
    return Promise.resolve(undefined);
  }
  holder.__verifactuWorker ??= chooseTransport(startLocalAeat).then(({ transport, standIn }) => {
    const send = () => sendPendingRecords(db, { transport });
    const worker = new VerifactuWorker(send, logger, pollIntervalMs);
    worker.start(options);
    return { worker, standIn };
  });
  const running = holder.__verifactuWorker;
  // A failed start (an unreadable certificate) can be retried by the next call.
  running.catch(() => {
    if (holder.__verifactuWorker === running) holder.__verifactuWorker = undefined;
  });
  return running.then(({ worker }) => worker);
}

/** The running worker, to wake it after records are written; undefined when not started. */
export async function getVerifactuWorker(): Promise<VerifactuWorker | undefined> {
  return (await holder.__verifactuWorker)?.worker;
}

/**
 * Sends the records a transaction just wrote, once it has committed: at once when AEAT's wait
 * allows (the sender keeps it), instead of at the next poll. Never throws: a worker that is not
 * running (VERIFACTU=off, a failed start) leaves the records to the next start.
 */
export function wakeVerifactuSender() {
  void getVerifactuWorker().then(
    (worker) => worker?.wake(),
    () => undefined,
  );
}

/** Stops the worker after the request under way, and the local stand-in if it runs one. */
export async function stopVerifactuWorker() {
  const running = holder.__verifactuWorker;
  holder.__verifactuWorker = undefined;
  if (!running) return;
  const { worker, standIn } = await running.catch(() => ({
    worker: undefined,
    standIn: undefined,
  }));
  await worker?.stop();
  await standIn?.close();
}
