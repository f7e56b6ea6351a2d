import { and, asc, eq, inArray, lt, lte, or, sql, type Placeholder, type SQL } from "drizzle-orm";
import type { Database } from "../db/client.server";
import { mailOutbox, type StoredMailAttachment } from "../db/schema";
import { hitRateLimit } from "../security/rate-limit.server";

/** A mail ready to be queued: rendered subject, HTML and plain text. */
export type OutgoingMail = {
  kind: string;
  to: string;
  replyTo?: string;
  subject: string;
  html: string;
  text: string;
  attachments?: MailAttachment[];
};

/** A file sent with a mail; its bytes are stored with the queued mail. */
export type MailAttachment = { filename: string; contentType: string; content: Buffer };

export type QueuedMail = typeof mailOutbox.$inferSelect;

/** Anything that can write: the database or an open transaction. */
type Writer = Pick<Database, "insert">;

/** Queues mails in the caller's transaction, so they exist exactly when the change does. */
export async function enqueueMails(writer: Writer, mails: OutgoingMail[]) {
  if (mails.length === 0) return;
  await insertMails(writer, mails);
}

/**
 * Mails as one JSON value, for `queueMailsSql`: a prepared statement can take any number of
 * them in one parameter.
 */
export function mailsParameter(mails: OutgoingMail[]): string {
  return JSON.stringify(
    mails.map((mail) => ({
      kind: mail.kind,
      recipient: mail.to,
      reply_to: mail.replyTo ?? null,
      subject: mail.subject,
      html: mail.html,
      text: mail.text,
      attachments: mail.attachments?.map(storedAttachment) ?? null,
    })),
  );
}

/**
 * The insert that queues the mails of `mails` (a `mailsParameter` value, or a placeholder for
 * one), as SQL to combine with the change that causes them into one statement: a data-modifying
 * CTE, one round trip, atomic without a transaction. It queues them only when `when` holds, an
 * SQL condition (e.g. that an earlier CTE inserted its row).
 */
export function queueMailsSql(mails: string | Placeholder, when: SQL): SQL {
  const columns = [
    mailOutbox.kind,
    mailOutbox.recipient,
    mailOutbox.replyTo,
    mailOutbox.subject,
    mailOutbox.html,
    mailOutbox.text,
    mailOutbox.attachments,
  ].map((column) => sql.identifier(column.name));
  return sql`insert into ${mailOutbox} (${sql.join(columns, sql`, `)})
    select ${sql.join(columns, sql`, `)}
    from jsonb_to_recordset(${mails}::jsonb) as queued (kind text, recipient text,
      reply_to text, subject text, html text, text text, attachments jsonb)
    where ${when}`;
}

function insertMails(writer: Writer, mails: OutgoingMail[]) {
  return writer.insert(mailOutbox).values(
    mails.map((mail) => ({
      kind: mail.kind,
      recipient: mail.to,
      replyTo: mail.replyTo,
      subject: mail.subject,
      html: mail.html,
      text: mail.text,
      attachments: mail.attachments?.map(storedAttachment) ?? null,
    })),
  );
}

function storedAttachment({
  filename,
  contentType,
  content,
}: MailAttachment): StoredMailAttachment {
  return { filename, contentType, contentBase64: content.toString("base64") };
}

export const RETRY_BASE_MS = 30_000;
export const RETRY_MAX_DELAY_MS = 60 * 60_000;
/** A mail is retried for at least this long before it is marked failed. */
export const GIVE_UP_AFTER_MS = 24 * 60 * 60_000;
/**
 * Sent and failed mails carry addresses and personal links; they stay this long (support, the
 * dev mailbox) and are then deleted. Pending mails are never pruned.
 */
export const FINISHED_MAIL_RETENTION_MS = 30 * 24 * 60 * 60_000;
/** A claimed mail not reported back within this time is claimed again (its instance died). */
const CLAIM_LEASE_SECONDS = 120;

/** Exponential back-off: 30 s, 1 min, 2 min … capped at one hour. */
export function retryDelayMs(attempt: number): number {
  return Math.min(RETRY_BASE_MS * 2 ** Math.max(0, attempt - 1), RETRY_MAX_DELAY_MS);
}

export function shouldGiveUp(createdAt: Date, now: Date): boolean {
  return now.getTime() - createdAt.getTime() >= GIVE_UP_AFTER_MS;
}

export type MailTransport = {
  /** Stored with each sent mail: smtp or dev-mailbox. */
  name: string;
  send(mail: QueuedMail): Promise<void>;
};

/** What one pass did; `deferred` mails were held back by an hourly cap, without an attempt. */
export type DeliveryReport = {
  sent: number;
  retried: number;
  deferred: number;
  failed: QueuedMail[];
};

/**
 * Site-wide caps per mail kind: at most this many of that kind are sent in an hour, by all
 * instances together. A mail over its cap is not dropped: it waits in the outbox for the next
 * window.
 */
export type HourlyCaps = Readonly<Record<string, number>>;

export type DeliveryOptions = { batchSize?: number; concurrency?: number; hourlyCaps?: HourlyCaps };

const CAP_WINDOW_MS = 60 * 60_000;

/**
 * Claims due mails with FOR UPDATE SKIP LOCKED, so instances sharing a database never claim the
 * same mail, then sends them and records the outcome. Once a kind's hourly cap refuses a slot,
 * its other mails in the batch wait without asking for one each, put back in one update.
 */
export async function deliverDueMails(
  db: Database,
  transport: MailTransport,
  { batchSize = 20, concurrency = 5, hourlyCaps = {} }: DeliveryOptions = {},
): Promise<DeliveryReport> {
  const claimed = await claimDueMails(db, batchSize);
  const report: DeliveryReport = { sent: 0, retried: 0, deferred: 0, failed: [] };
  /** Kinds whose cap is reached, with the seconds until their window ends. */
  const capReached = new Map<string, number>();
  const waiting: QueuedMail[] = [];
  for (let start = 0; start < claimed.length; start += concurrency) {
    const sentIds: string[] = [];
    await Promise.all(
      claimed.slice(start, start + concurrency).map(async (mail) => {
        if (!(await mayTakeSlot(db, mail.kind, hourlyCaps[mail.kind], capReached))) {
          waiting.push(mail);
          return;
        }
        const outcome = await deliverOne(db, transport, mail);
        if (outcome.status === "sent") sentIds.push(mail.id);
        else if (outcome.status === "pending") report.retried += 1;
        else report.failed.push({ ...mail, status: "failed", lastError: outcome.error ?? null });
      }),
    );
    await markSent(db, sentIds, transport.name);
    report.sent += sentIds.length;
  }
  await deferMails(db, waiting, capReached);
  report.deferred = waiting.length;
  return report;
}

/** One update for the mails of a chunk the server accepted (instead of one per mail). */
async function markSent(db: Database, ids: string[], via: string) {
  if (ids.length === 0) return;
  await db
    .update(mailOutbox)
    .set({
      status: "sent",
      sentAt: sql`now()`,
      lockedUntil: null,
      lastError: null,
      deliveredVia: via,
    })
    .where(inArray(mailOutbox.id, ids));
}

async function claimDueMails(db: Database, batchSize: number): Promise<QueuedMail[]> {
  const due = or(
    and(eq(mailOutbox.status, "pending"), lte(mailOutbox.nextAttemptAt, sql`now()`)),
    and(eq(mailOutbox.status, "sending"), lt(mailOutbox.lockedUntil, sql`now()`)),
  );
  const candidates = db
    .select({ id: mailOutbox.id })
    .from(mailOutbox)
    .where(due)
    .orderBy(asc(mailOutbox.nextAttemptAt))
    .limit(batchSize)
    .for("update", { skipLocked: true });
  return db
    .update(mailOutbox)
    .set({
      status: "sending",
      attempts: sql`${mailOutbox.attempts} + 1`,
      lockedUntil: sql`now() + make_interval(secs => ${CLAIM_LEASE_SECONDS})`,
    })
    .where(and(inArray(mailOutbox.id, candidates), due))
    .returning();
}

/**
 * Takes one of this hour's sends of the mail's kind, when it has a cap. The count is one row per
 * kind, upserted atomically, so several instances never send more than the cap together; its
 * window starts with the first send after the previous one ended. False once the cap is reached
 * (recorded in `capReached`, so the pass asks no more for that kind).
 */
async function mayTakeSlot(
  db: Database,
  kind: string,
  cap: number | undefined,
  capReached: Map<string, number>,
): Promise<boolean> {
  if (cap === undefined) return true;
  if (capReached.has(kind)) return false;
  const slot = await hitRateLimit(db, `mail-hourly:${kind}`, {
    limit: cap,
    windowMs: CAP_WINDOW_MS,
  });
  if (!slot.allowed && !capReached.has(kind)) capReached.set(kind, slot.retryAfterSeconds);
  return slot.allowed;
}

/**
 * Puts claimed mails back, due when their kind's window ends (one update per kind); the claim's
 * attempt is undone.
 */
async function deferMails(db: Database, mails: QueuedMail[], capReached: Map<string, number>) {
  for (const [kind, seconds] of capReached) {
    const ids = mails.filter((mail) => mail.kind === kind).map((mail) => mail.id);
    if (ids.length === 0) continue;
    await db
      .update(mailOutbox)
      .set({
        status: "pending",
        lockedUntil: null,
        attempts: sql`${mailOutbox.attempts} - 1`,
        nextAttemptAt: sql`now() + make_interval(secs => ${seconds})`,
      })
      .where(inArray(mailOutbox.id, ids));
  }
}

async function deliverOne(
  db: Database,
  transport: MailTransport,
  mail: QueuedMail,
): Promise<{ status: "sent" | "pending" | "failed"; error?: string }> {
  try {
    await transport.send(mail);
  } catch (caught) {
    const status = shouldGiveUp(mail.createdAt, new Date()) ? "failed" : "pending";
    const error = (caught instanceof Error ? caught.message : String(caught)).slice(0, 1000);
    await db
      .update(mailOutbox)
      .set({
        status,
        lockedUntil: null,
        lastError: error,
        nextAttemptAt: sql`now() + make_interval(secs => ${retryDelayMs(mail.attempts) / 1000})`,
      })
      .where(eq(mailOutbox.id, mail.id));
    return { status, error };
  }
  return { status: "sent" };
}

/** Deletes finished mails queued more than `olderThanMs` ago; returns how many. */
export async function pruneFinishedMails(
  db: Database,
  olderThanMs = FINISHED_MAIL_RETENTION_MS,
): Promise<number> {
  const deleted = await db
    .delete(mailOutbox)
    .where(
      and(
        inArray(mailOutbox.status, ["sent", "failed"]),
        lt(mailOutbox.createdAt, sql`now() - make_interval(secs => ${olderThanMs / 1000})`),
      ),
    )
    .returning({ id: mailOutbox.id });
  return deleted.length;
}

/**
 * The outbox as /metrics reports it (decision 049): mails not yet sent, the age of the oldest,
 * and how long the most overdue one has been due. One statement on the status index.
 */
export async function outboxState(db: Database) {
  const [row] = await db
    .select({
      pending: sql<number>`count(*) filter (where ${mailOutbox.status} = 'pending')`.mapWith(
        Number,
      ),
      sending: sql<number>`count(*) filter (where ${mailOutbox.status} = 'sending')`.mapWith(
        Number,
      ),
      oldestAgeSeconds:
        sql<number>`coalesce(extract(epoch from now() - min(${mailOutbox.createdAt})), 0)`.mapWith(
          Number,
        ),
      oldestDueSeconds:
        sql<number>`coalesce(extract(epoch from now() - min(${mailOutbox.nextAttemptAt}) filter (where ${mailOutbox.status} = 'pending' and ${mailOutbox.nextAttemptAt} <= now())), 0)`.mapWith(
          Number,
        ),
    })
    .from(mailOutbox)
    .where(inArray(mailOutbox.status, ["pending", "sending"]));
  return row ?? { pending: 0, sending: 0, oldestAgeSeconds: 0, oldestDueSeconds: 0 };
}
