import type { AddressInfo } from "node:net";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export type ReceivedMail = { messageId: string; to: string; subject: string };

/**
 * A real SMTP server that counts every mail by its Message-ID (the outbox sets it to
 * `<outbox id@outbox>`). It can take its time over each mail, and go down and come back on the
 * same port, its connections cut at once.
 */
export class MailPeer {
  readonly received: ReceivedMail[] = [];
  private server: SMTPServer | undefined;
  port = 0;

  constructor(private readonly delayMs = 0) {}

  async start(port = this.port): Promise<this> {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      logger: false,
      closeTimeout: 1,
      onData: (stream, _session, callback) => {
        simpleParser(stream)
          .then(async (mail) => {
            if (this.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
            this.received.push({
              messageId: mail.messageId ?? "",
              to: [mail.to ?? []]
                .flat()
                .map((to) => to.text)
                .join(", "),
              subject: mail.subject ?? "",
            });
            callback();
          })
          .catch(callback);
      },
    });
    await new Promise<void>((resolve, reject) => {
      this.server!.once("error", reject);
      this.server!.listen(port, "127.0.0.1", () => resolve());
    });
    this.port = (this.server.server.address() as AddressInfo).port;
    return this;
  }

  /** Stops listening and closes every connection (421 to a client mid-session). */
  async stop() {
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** How many times each Message-ID arrived. */
  counts(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const mail of this.received)
      counts.set(mail.messageId, (counts.get(mail.messageId) ?? 0) + 1);
    return counts;
  }

  /** The outbox ids received more than once. */
  duplicates(): string[] {
    return [...this.counts()].filter(([, n]) => n > 1).map(([id]) => id);
  }
}

/** The Message-ID the outbox gives a mail. */
export const outboxMessageId = (id: string) => `<${id}@outbox>`;
