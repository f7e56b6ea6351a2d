import type pino from "pino";
import type { Database } from "../db/client.server";
import { PollingLoop, type StartOptions } from "../background/polling-loop";
import { deliverDueMails, type HourlyCaps, type MailTransport } from "./outbox.server";

const POLL_INTERVAL_MS = 2_000;

/**
 * Delivers the outbox from inside the server process: polls for due mails and is woken right
 * after a change queues new ones. Safe to run in every instance.
 */
export class MailWorker {
  private readonly loop = new PollingLoop(() => this.drain(), POLL_INTERVAL_MS);
  private hourlyCaps: HourlyCaps = {};

  constructor(
    private readonly db: Database,
    private readonly transport: MailTransport,
    private readonly logger: pino.Logger,
  ) {}

  /** Starts delivering; mails of a kind in `hourlyCaps` wait once their hour's cap is reached. */
  start({ hourlyCaps = {}, ...options }: { hourlyCaps?: HourlyCaps } & StartOptions = {}) {
    this.hourlyCaps = hourlyCaps;
    this.loop.start(options);
  }

  /** Deliver soon: called after a transaction queued mails. */
  wake() {
    this.loop.wake();
  }

  /** Finishes the mails it has claimed and claims no more. */
  stop() {
    return this.loop.stop();
  }

  /** Sends batches until nothing is due. */
  private async drain() {
    try {
      for (;;) {
        const report = await deliverDueMails(this.db, this.transport, {
          hourlyCaps: this.hourlyCaps,
        });
        for (const mail of report.failed) {
          this.logger.error(
            { id: mail.id, kind: mail.kind, to: mail.recipient, error: mail.lastError },
            "Correo descartado tras 24 horas de reintentos",
          );
        }
        if (report.retried > 0)
          this.logger.warn({ retried: report.retried }, "Envío de correo aplazado");
        if (report.deferred > 0)
          this.logger.warn(
            { deferred: report.deferred },
            "Correo aplazado a la próxima hora: límite por hora alcanzado",
          );
        const handled = report.sent + report.retried + report.deferred + report.failed.length;
        if (handled === 0 || this.loop.isStopped) return;
      }
    } catch (error) {
      this.logger.error({ err: error }, "mail worker tick failed");
    }
  }
}
