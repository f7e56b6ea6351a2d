import { getConfig } from "../config.server";
import { getDb } from "../db/database.server";
import { getLogger } from "../logger.server";
import { devMailboxTransport, smtpTransport } from "./transports.server";
import { MailWorker } from "./worker.server";

const holder = globalThis as typeof globalThis & { __mailWorker?: MailWorker };

/** The process's mail worker: SMTP when SMTP_URL is set, otherwise (local only) the dev mailbox. */
export function getMailWorker(): MailWorker {
  if (!holder.__mailWorker) {
    const config = getConfig();
    const logger = getLogger();
    // The dev mailbox logs every link it receives: never in production, where the
    // configuration already refuses to start without SMTP_URL.
    if (!config.smtpUrl && config.isProduction)
      throw new Error("SMTP_URL: obligatorio en producción");
    const transport = config.smtpUrl
      ? smtpTransport(config.smtpUrl, config.mailFrom)
      : devMailboxTransport(logger);
    holder.__mailWorker = new MailWorker(getDb(), transport, logger);
  }
  return holder.__mailWorker;
}
