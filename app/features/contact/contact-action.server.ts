import { getConfig } from "~/platform/config.server";
import { getDb } from "~/platform/db/database.server";
import {
  checkForm,
  type FormAnswer,
  type FormError,
  type FormFields,
} from "~/platform/forms/form-answer";
import { notice, readForm, refuse } from "~/platform/http/form-reply.server";
import { SUBMISSION_KEY_FIELD } from "~/platform/forms/submission-key";
import { submissionKeyOf } from "~/platform/forms/submission-key.server";
import { HUMAN_CHECK_FIELD, readHumanCheck } from "~/platform/human-check/human-check.server";
import { getLogger } from "~/platform/logger.server";
import { getMailWorker } from "~/platform/mail/mailer.server";
import { visitorKey } from "~/platform/security/client-address.server";
import type { ContactAnswerCode } from "./contact-messages";
import { contactSchema, type ContactErrorCode } from "./contact-schema";
import { storeEnquiry } from "./enquiries.server";

export type ContactFormValues = {
  name: string;
  email: string;
  service: string;
  message: string;
  /** The form's idempotency key, sent back so that a retry of this post is recognised. */
  submissionKey: string;
};

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

function formValues(fields: FormFields): ContactFormValues {
  // Values are echoed back to re-render the form without JavaScript; cap what we echo.
  const read = (name: string) => (fields[name] ?? "").slice(0, 6000);
  return {
    name: read("name"),
    email: read("email"),
    service: read("service"),
    message: read("message"),
    submissionKey: read(SUBMISSION_KEY_FIELD).slice(0, 64),
  };
}

/**
 * The contact action: validate, then rate-limit, check the proof of work and store with its
 * mails in one statement (decision 040); a 4xx for bad input, never a 500. A retry of a stored enquiry (same form key, same text: its
 * first answer was lost, a 503 as the database dropped after the commit) is answered 'sent'
 * again and stored once (decision 036).
 */
export async function handleContactSubmission(request: Request, clientAddress: string) {
  const form = await readForm(request);
  return answerContactFields(form?.fields ?? null, clientAddress);
}

/**
 * The contact action on fields already read (`null`: the body was no form): what
 * `handleContactSubmission` answers, for the route's action and for the post answered before
 * Express (`/api/contacto`, decision 046), so both keep one set of rules and limits.
 */
export async function answerContactFields(fields: FormFields | null, clientAddress: string) {
  const log = getLogger();
  if (!fields) return refuse<ContactAnswerCode>("error");
  const form = { fields };
  const values = formValues(form.fields);
  if ((form.fields[HONEYPOT_FIELD] ?? "") !== "") {
    log.warn({ clientAddress }, "contact honeypot filled: enquiry dropped");
    return notice<ContactAnswerCode>("sent");
  }
  const validation = checkForm(contactSchema, values);
  // The schema's messages are its codes (contact-schema.ts).
  if (!validation.ok) return refuse(validation.errors as FormError<ContactErrorCode>[], { values });
  try {
    const { name, email, service, message } = validation.data;
    const config = getConfig();
    // Read without the database: its first use is counted in the enquiry's statement.
    const proof = await readHumanCheck(form.fields[HUMAN_CHECK_FIELD] ?? "");
    const outcome = await storeEnquiry(getDb(), validation.data, {
      address: {
        key: `contact:${visitorKey(clientAddress)}`,
        rule: { limit: config.contactRateLimit, windowMs: RATE_LIMIT_WINDOW_MS },
      },
      // A post already stored is answered as stored before the proof of work (its solution
      // was spent by the first post).
      submissionKey: submissionKeyOf(form.fields, [name, email, service, message]),
      proof,
      // Past CONTACT_CONFIRMATIONS_PER_ADDRESS copies in 24 hours the enquiry is still stored
      // and the company notified, but the address gets no more copies: the form cannot be used
      // to mail one inbox over and over.
      recipient: {
        key: `contact-confirmation:to:${recipientKey(email)}`,
        rule: { limit: config.contactConfirmationsPerAddress, windowMs: CONFIRMATION_WINDOW_MS },
      },
    });
    switch (outcome.status) {
      case "rate-limited":
        return refuse<ContactAnswerCode>("rate-limited", {
          status: 429,
          retryAfter: outcome.retryAfterSeconds,
        });
      case "human-check-failed":
        return refuse<ContactAnswerCode>("human-check-failed");
      case "stored-before":
        log.info({ service }, "enquiry retried: answered as stored");
        return notice<ContactAnswerCode>("sent");
      case "stored":
        getMailWorker().wake();
        log.info({ enquiryId: outcome.id, service, confirm: outcome.confirmed }, "enquiry stored");
        return notice<ContactAnswerCode>("sent");
    }
  } catch (error) {
    log.error({ err: error }, "storing an enquiry failed");
    // The values (with the form's key) come back: a retry without JavaScript is recognised too.
    return refuse<ContactAnswerCode>("error", { status: 503, values });
  }
}
