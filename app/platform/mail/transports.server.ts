import type { Transporter } from "nodemailer";
import type pino from "pino";
import { extractLinks } from "./html";
import type { MailTransport, QueuedMail } from "./outbox.server";

/**
 * Delivery through the SMTP server of SMTP_URL, with a small pool of reused connections.
 * Nodemailer is loaded with the first mail, not at start (decision 039).
 */
export function smtpTransport(smtpUrl: string, from: string): MailTransport & { close(): void } {
  let transporter: Promise<Transporter> | undefined;
  const connect = () =>
    (transporter ??= import("nodemailer").then(({ default: nodemailer }) =>
      nodemailer.createTransport(smtpUrl, {
        pool: true,
        maxConnections: 5,
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 30_000,
      } as never),
    ));
  return {
    name: "smtp",
    async send(mail: QueuedMail) {
      const pool = await connect();
      await pool.sendMail({
        from,
        to: mail.recipient,
        replyTo: mail.replyTo ?? undefined,
        subject: mail.subject,
        html: mail.html,
        text: mail.text,
        attachments: mail.attachments?.map((file) => ({
          filename: file.filename,
          contentType: file.contentType,
          content: Buffer.from(file.contentBase64, "base64"),
        })),
        // The outbox id makes retries recognisable as the same message downstream.
        messageId: `<${mail.id}@outbox>`,
      });
    },
    close: () => void transporter?.then((pool) => pool.close()),
  };
}

/**
 * Without SMTP_URL: mails stay in the outbox, readable at /dev/correo, and each is logged
 * with its subject and links, so a newcomer can verify an account without a mail server.
 */
export function devMailboxTransport(logger: pino.Logger): MailTransport {
  return {
    name: "dev-mailbox",
    async send(mail: QueuedMail) {
      logger.info(
        { to: mail.recipient, subject: mail.subject, links: extractLinks(mail.html), id: mail.id },
        `Correo (buzón de desarrollo): ${mail.subject}`,
      );
    },
  };
}
