import type { AddressInfo } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";

/**
 * The one SMTP stand-in of the tests (integration and cluster): a real SMTP server on a free
 * port that keeps every mail it accepts, parsed. It can take its time over each mail, and go
 * down (its connections cut at once, 421 to a client mid-session) and come back on the same
 * port. The outbox sets each mail's Message-ID to `<outbox id@outbox>`, so `counts()` tells how
 * many times each outbox mail arrived.
 */
export class SmtpPeer {
  readonly received: ParsedMail[] = [];
  private server: SMTPServer | undefined;
  port = 0;

  /** `delayMs`: how long the peer takes over each mail before accepting it. */
  constructor(private readonly options: { delayMs?: number } = {}) {}

  /** Starts listening; by default on the port of a previous run, to come back on the same address. */
  async start(port = this.port): Promise<this> {
    const delayMs = this.options.delayMs ?? 0;
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      logger: false,
      closeTimeout: 1,
      onData: (stream, _session, callback) => {
        simpleParser(stream)
          .then(async (mail) => {
            if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
            this.received.push(mail);
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

  get url() {
    return `smtp://127.0.0.1:${this.port}`;
  }

  /** Stops listening and closes every connection at once (421 to a client mid-session). */
  async stop() {
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Whether a mail to `to` whose subject starts with `subjectPrefix` has arrived. */
  hasMail(to: string, subjectPrefix: string): boolean {
    return this.received.some(
      (mail) => recipientsOf(mail) === to && (mail.subject ?? "").startsWith(subjectPrefix),
    );
  }

  /** How many times each Message-ID arrived. */
  counts(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const mail of this.received) {
      const id = mail.messageId ?? "";
      counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    return counts;
  }

  /** The Message-IDs received more than once. */
  duplicates(): string[] {
    return [...this.counts()].filter(([, n]) => n > 1).map(([id]) => id);
  }
}

/** A mail's recipients as one line of text (`a@x, b@y`). */
export function recipientsOf(mail: ParsedMail): string {
  return [mail.to ?? []]
    .flat()
    .map((to) => to.text)
    .join(", ");
}

/** The Message-ID the outbox gives a mail. */
export const outboxMessageId = (id: string) => `<${id}@outbox>`;
