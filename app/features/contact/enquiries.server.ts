import { getConfig } from "~/platform/config.server";
import type { Database } from "~/platform/db/client.server";
import { contactInquiries } from "~/platform/db/schema";
import { enqueueMails } from "~/platform/mail/outbox.server";
import { companyNotificationMail, visitorConfirmationMail } from "./contact-mails.server";
import type { ContactInput } from "./contact-schema";

/**
 * Stores an enquiry and queues its two mails in one transaction: either all three exist or
 * none does, and a mail-server outage can only delay the mails.
 */
export async function storeEnquiry(db: Database, enquiry: ContactInput): Promise<{ id: string }> {
  const { company, contactInbox } = getConfig();
  const context = { brandName: company.brandName, siteUrl: company.siteUrl, contactInbox };
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(contactInquiries)
      .values(enquiry)
      .returning({ id: contactInquiries.id });
    await enqueueMails(tx, [
      companyNotificationMail(enquiry, context),
      visitorConfirmationMail(enquiry, context),
    ]);
    return { id: row!.id };
  });
}
