import { and, desc, eq } from "drizzle-orm";
import type { Database } from "../db/client.server";
import { mailOutbox } from "../db/schema";
import { extractLinks } from "./html";

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
  if (!/^[0-9a-f-]{36}$/i.test(id)) return undefined;
  const [mail] = await db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.id, id), eq(mailOutbox.deliveredVia, "dev-mailbox")));
  return mail && { ...mail, links: extractLinks(mail.html) };
}
