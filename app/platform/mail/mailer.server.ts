import { getConfig } from "../config.server";
import { getDb } from "../db/database.server";
import { getLogger } from "../logger.server";
import { devMailboxTransport, smtpTransport } from "./transports.server";
import { MailWorker } from "./worker.server";

const holder = globalThis as typeof globalThis & { __mailWorker?: MailWorker };

/** The process's mail worker: SMTP when SMTP_URL is set, otherwise the dev mailbox. */
export function getMailWorker(): MailWorker {
  if (!holder.__mailWorker) {
    const config = getConfig();
    const logger = getLogger();
    const transport = config.smtpUrl
      ? smtpTransport(config.smtpUrl, config.mailFrom)
      : devMailboxTransport(logger);
    holder.__mailWorker = new MailWorker(getDb(), transport, logger);
  }
  return holder.__mailWorker;
}
