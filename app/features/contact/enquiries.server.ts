import { eq, sql } from "drizzle-orm";
import { getConfig } from "~/platform/config.server";
import type { Database } from "~/platform/db/client.server";
import { contactInquiries } from "~/platform/db/schema";
import { isUniqueViolation } from "~/platform/db/errors";
import { queueMailsSql } from "~/platform/mail/outbox.server";
import { companyNotificationMail, visitorConfirmationMail } from "./contact-mails.server";
import type { ContactInput } from "./contact-schema";

/**
 * Stores an enquiry and queues its two mails in one statement (the mails' insert as a CTE):
 * either all rows exist or none does, in one round trip, and a mail-server outage can only
 * delay the mails. With `confirm: false` the visitor's copy is left out (its address had its
 * share today); the company is always notified. With a `submissionKey` already stored (a retry
 * racing its first post) the unique index refuses the whole statement, mails included, and the
 * answer is undefined: the enquiry is stored once.
 */
export async function storeEnquiry(
  db: Database,
  enquiry: ContactInput,
  { confirm = true, submissionKey }: { confirm?: boolean; submissionKey?: string } = {},
): Promise<{ id: string } | undefined> {
  const { company, contactInbox } = getConfig();
  const context = { brandName: company.brandName, siteUrl: company.siteUrl, contactInbox };
  const queueMails = queueMailsSql(db, [
    companyNotificationMail(enquiry, context),
    ...(confirm ? [visitorConfirmationMail(enquiry, context)] : []),
  ]);
  const insertEnquiry = db
    .insert(contactInquiries)
    .values({ ...enquiry, submissionKey })
    .returning({ id: contactInquiries.id })
    .getSQL();
  // Both drivers (node-postgres and PGlite) answer with `{ rows }`.
  let result: { rows: { id: string }[] };
  try {
    result = (await db.execute(sql`with queued_mails as (${queueMails}) ${insertEnquiry}`)) as {
      rows: { id: string }[];
    };
  } catch (error) {
    if (submissionKey && isUniqueViolation(error, "contact_inquiries_submission_key_idx"))
      return undefined;
    throw error;
  }
  const [row] = result.rows;
  if (!row) throw new Error("the enquiry insert returned no row");
  return { id: row.id };
}

/** Whether an enquiry with this form key is stored: the post is a retry of one answered. */
export async function enquiryStored(db: Database, submissionKey: string): Promise<boolean> {
  const rows = await db
    .select({ id: contactInquiries.id })
    .from(contactInquiries)
    .where(eq(contactInquiries.submissionKey, submissionKey))
    .limit(1);
  return rows.length > 0;
}
