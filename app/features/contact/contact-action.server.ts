import { getConfig } from "~/platform/config.server";
import type { Database } from "~/platform/db/client.server";
import { getDb } from "~/platform/db/database.server";
import {
  checkForm,
  type FormAnswer,
  type FormError,
  type FormFields,
} from "~/platform/forms/form-answer";
import { notice, readForm, refuse } from "~/platform/http/form-reply.server";
import { HUMAN_CHECK_FIELD, verifyHumanCheck } from "~/platform/human-check/human-check.server";
import { getLogger } from "~/platform/logger.server";
import { getMailWorker } from "~/platform/mail/mailer.server";
import { visitorKey } from "~/platform/security/client-address.server";
import { hitRateLimit } from "~/platform/security/rate-limit.server";
import type { ContactAnswerCode } from "./contact-messages";
import { contactSchema, type ContactErrorCode } from "./contact-schema";
import { storeEnquiry } from "./enquiries.server";

export type ContactFormValues = { name: string; email: string; service: string; message: string };

/**
 * What the contact action answers: the notice 'sent', or a refusal: the fields' problems with
 * the values typed, 'rate-limited' (429, Retry-After), 'human-check-failed' or 'error'.
 */
export type ContactAnswer = FormAnswer<ContactErrorCode | ContactAnswerCode>;

/** Name of the hidden field people never fill in and form-filling bots do. */
export const HONEYPOT_FIELD = "website";

const RATE_LIMIT_WINDOW_MS = 10 * 60_000;
const CONFIRMATION_WINDOW_MS = 24 * 60 * 60_000;

/** One inbox however it is spelt: lower case, without a '+tag' in its local part. */
function recipientKey(email: string): string {
  const at = email.lastIndexOf("@");
  const local = email.slice(0, at).split("+")[0];
  return `${local}${email.slice(at)}`.toLowerCase();
}

/**
 * Counts a confirmation for this address; false once it had CONTACT_CONFIRMATIONS_PER_ADDRESS
 * in 24 hours. Beyond that the enquiry is still stored and the company still notified, but the
 * address gets no more copies: the form cannot be used to mail one inbox over and over.
 */
async function mayConfirm(db: Database, email: string): Promise<boolean> {
  const limit = await hitRateLimit(db, `contact-confirmation:to:${recipientKey(email)}`, {
    limit: getConfig().contactConfirmationsPerAddress,
    windowMs: CONFIRMATION_WINDOW_MS,
  });
  return limit.allowed;
}

function formValues(fields: FormFields): ContactFormValues {
  // Values are echoed back to re-render the form without JavaScript; cap what we echo.
  const read = (name: string) => (fields[name] ?? "").slice(0, 6000);
  return {
    name: read("name"),
    email: read("email"),
    service: read("service"),
    message: read("message"),
  };
}

/**
 * The contact action: validate, rate-limit, check the proof of work, store with its mails; a
 * 4xx for bad input, never a 500.
 */
export async function handleContactSubmission(request: Request, clientAddress: string) {
  const log = getLogger();
  const form = await readForm(request);
  if (!form) return refuse<ContactAnswerCode>("error");
  const values = formValues(form.fields);
  if ((form.fields[HONEYPOT_FIELD] ?? "") !== "") {
    log.warn({ clientAddress }, "contact honeypot filled: enquiry dropped");
    return notice<ContactAnswerCode>("sent");
  }
  const validation = checkForm(contactSchema, values);
  // The schema's messages are its codes (contact-schema.ts).
  if (!validation.ok) return refuse(validation.errors as FormError<ContactErrorCode>[], { values });
  try {
    const db = getDb();
    const limit = await hitRateLimit(db, `contact:${visitorKey(clientAddress)}`, {
      limit: getConfig().contactRateLimit,
      windowMs: RATE_LIMIT_WINDOW_MS,
    });
    if (!limit.allowed)
      return refuse<ContactAnswerCode>("rate-limited", {
        status: 429,
        retryAfter: limit.retryAfterSeconds,
      });
    if (!(await verifyHumanCheck(form.fields[HUMAN_CHECK_FIELD] ?? "")))
      return refuse<ContactAnswerCode>("human-check-failed");
    const confirm = await mayConfirm(db, validation.data.email);
    const { id } = await storeEnquiry(db, validation.data, { confirm });
    getMailWorker().wake();
    log.info({ enquiryId: id, service: validation.data.service, confirm }, "enquiry stored");
    return notice<ContactAnswerCode>("sent");
  } catch (error) {
    log.error({ err: error }, "storing an enquiry failed");
    return refuse<ContactAnswerCode>("error", { status: 503 });
  }
}
