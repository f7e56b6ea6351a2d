import { and, desc, eq } from "drizzle-orm";
import { getConfig } from "../config.server";
import type { Database } from "../db/client.server";
import { getDb } from "../db/database.server";
import { isUuid } from "../db/ids";
import { mailOutbox } from "../db/schema";
import { extractLinks } from "./html";

const LOOPBACK = new Set(["127.0.0.1", "::1", "::ffff:127.0.0.1"]);

/**
 * The dev mailbox holds every link the site mailed (sign-up, password reset): anyone who reads it
 * can take over those accounts. It exists only in local mode, and only for a browser on the same
 * machine, even though the server listens on every interface by default.
 */
export function devMailboxOpenTo(clientAddress: string): boolean {
  return !getConfig().isProduction && LOOPBACK.has(clientAddress);
}

/** Mails delivered to the dev mailbox (no SMTP_URL), newest first. */
export async function listDevMails(db: Database, limit = 200) {
  return db
    .select({
      id: mailOutbox.id,
      recipient: mailOutbox.recipient,
      subject: mailOutbox.subject,
      createdAt: mailOutbox.createdAt,
    })
    .from(mailOutbox)
    .where(eq(mailOutbox.deliveredVia, "dev-mailbox"))
    .orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.id))
    .limit(limit);
}

export async function readDevMail(db: Database, id: string) {
  if (!isUuid(id)) return undefined;
  const [mail] = await db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.id, id), eq(mailOutbox.deliveredVia, "dev-mailbox")));
  return mail && { ...mail, links: extractLinks(mail.html) };
}

const notFound = () => new Response("Not Found", { status: 404 });

/** /dev/correo: the kept mails, for a browser on this machine in local mode only. */
export async function devMailboxPage(clientAddress: string) {
  if (!devMailboxOpenTo(clientAddress)) throw notFound();
  return { mails: await listDevMails(getDb()), smtpConfigured: Boolean(getConfig().smtpUrl) };
}

/** /dev/correo/:id: one kept mail with its links. */
export async function devMailPage(clientAddress: string, id: string) {
  if (!devMailboxOpenTo(clientAddress)) throw notFound();
  const mail = await readDevMail(getDb(), id);
  if (!mail) throw notFound();
  return { mail };
}
