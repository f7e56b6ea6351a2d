import { eq, sql } from "drizzle-orm";
import type { Database } from "~/platform/db/client.server";
import { mailOutbox, userActivityLog } from "~/platform/db/schema";

/** The outbox's mails of this kind. */
export const mailsOfKind = (db: Database, kind: string) =>
  db.select().from(mailOutbox).where(eq(mailOutbox.kind, kind));

/** The newest mail of this kind in the outbox, if any. */
export async function latestMailOfKind(db: Database, kind: string) {
  const [mail] = await db
    .select()
    .from(mailOutbox)
    .where(eq(mailOutbox.kind, kind))
    .orderBy(sql`${mailOutbox.createdAt} desc`)
    .limit(1);
  return mail;
}

/** The activity log's entries of this type. */
export const activityOfType = (db: Database, type: string) =>
  db.select().from(userActivityLog).where(eq(userActivityLog.activityType, type));
