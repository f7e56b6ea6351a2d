import { sql } from "drizzle-orm";
import { getConfig } from "~/platform/config.server";
import type { Database } from "~/platform/db/client.server";
import { contactInquiries } from "~/platform/db/schema";
import { queueMailsSql } from "~/platform/mail/outbox.server";
import { companyNotificationMail, visitorConfirmationMail } from "./contact-mails.server";
import type { ContactInput } from "./contact-schema";

/**
 * Stores an enquiry and queues its two mails in one statement (the mails' insert as a CTE):
 * either all rows exist or none does, in one round trip, and a mail-server outage can only
 * delay the mails. With `confirm: false` the visitor's copy is left out (its address had its
 * share today); the company is always notified.
 */
export async function storeEnquiry(
  db: Database,
  enquiry: ContactInput,
  { confirm = true }: { confirm?: boolean } = {},
): Promise<{ id: string }> {
  const { company, contactInbox } = getConfig();
  const context = { brandName: company.brandName, siteUrl: company.siteUrl, contactInbox };
  const queueMails = queueMailsSql(db, [
    companyNotificationMail(enquiry, context),
    ...(confirm ? [visitorConfirmationMail(enquiry, context)] : []),
  ]);
  const insertEnquiry = db
    .insert(contactInquiries)
    .values(enquiry)
    .returning({ id: contactInquiries.id })
    .getSQL();
  // Both drivers (node-postgres and PGlite) answer with `{ rows }`.
  const result = (await db.execute(sql`with queued_mails as (${queueMails}) ${insertEnquiry}`)) as {
    rows: { id: string }[];
  };
  const [row] = result.rows;
  if (!row) throw new Error("the enquiry insert returned no row");
  return { id: row.id };
}
