import { data } from "react-router";
import { getConfig } from "~/platform/config.server";
import { getDb } from "~/platform/db/database.server";
import { getLogger } from "~/platform/logger.server";
import { getMailWorker } from "~/platform/mail/mailer.server";
import { visitorKey } from "~/platform/security/client-address.server";
import { hitRateLimit } from "~/platform/security/rate-limit.server";
import type { ContactFieldError } from "./contact-schema";
import { validateContact } from "./contact-schema";
import { storeEnquiry } from "./enquiries.server";

export type ContactFormValues = { name: string; email: string; service: string; message: string };

export type ContactActionResult =
  | { status: "sent" }
  | { status: "invalid"; errors: ContactFieldError[]; values: ContactFormValues }
  | { status: "rate-limited"; retryAfterSeconds: number }
  | { status: "error" };

/** Name of the hidden field people never fill in and form-filling bots do. */
export const HONEYPOT_FIELD = "website";

const RATE_LIMIT_WINDOW_MS = 10 * 60_000;

function formValues(form: FormData): ContactFormValues {
  // Values are echoed back to re-render the form without JavaScript; cap what we echo.
  const read = (name: string) => String(form.get(name) ?? "").slice(0, 6000);
  return {
    name: read("name"),
    email: read("email"),
    service: read("service"),
    message: read("message"),
  };
}

/** The contact action: validate, rate-limit, store with its mails; a 4xx for bad input, never a 500. */
export async function handleContactSubmission(request: Request, clientAddress: string) {
  const log = getLogger();
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return data<ContactActionResult>({ status: "error" }, { status: 400 });
  }
  const values = formValues(form);
  if (String(form.get(HONEYPOT_FIELD) ?? "") !== "") {
    log.warn({ clientAddress }, "contact honeypot filled: enquiry dropped");
    return data<ContactActionResult>({ status: "sent" });
  }
  const validation = validateContact(values);
  if (!validation.success) {
    return data<ContactActionResult>(
      { status: "invalid", errors: validation.errors, values },
      { status: 400 },
    );
  }
  try {
    const db = getDb();
    const limit = await hitRateLimit(db, `contact:${visitorKey(clientAddress)}`, {
      limit: getConfig().contactRateLimit,
      windowMs: RATE_LIMIT_WINDOW_MS,
    });
    if (!limit.allowed) {
      return data<ContactActionResult>(
        { status: "rate-limited", retryAfterSeconds: limit.retryAfterSeconds },
        { status: 429, headers: { "Retry-After": String(limit.retryAfterSeconds) } },
      );
    }
    const { id } = await storeEnquiry(db, validation.data);
    getMailWorker().wake();
    log.info({ enquiryId: id, service: validation.data.service }, "enquiry stored");
    return data<ContactActionResult>({ status: "sent" });
  } catch (error) {
    log.error({ err: error }, "storing an enquiry failed");
    return data<ContactActionResult>({ status: "error" }, { status: 503 });
  }
}
