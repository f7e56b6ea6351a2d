import type { FormCheck, FormError } from "~/platform/forms/form-answer";
import {
  readForm as readPostedForm,
  refuse as refuseForm,
} from "~/platform/http/form-reply.server";
import { checkAttachments } from "./attachments.server";
import type { SupportMessage } from "./ticket-rules";

/** The text fields a refused form shows again, so nothing typed is lost. */
const echoedFields = ["subject", "category", "priority", "purchaseId", "message"];

/** Refuses a ticket form: every problem, in the form's order, with the text typed. */
export const refuse = (
  errors: SupportMessage | FormError[],
  status = 400,
  form?: Record<string, string> | null,
) => {
  const values = form
    ? Object.fromEntries(echoedFields.flatMap((key) => (key in form ? [[key, form[key]!]] : [])))
    : undefined;
  return refuseForm(errors, { status, values });
};

/** A form's text fields, and its files apart (multipart forms); no form at all is `null`. */
export async function readForm(
  request: Request,
): Promise<{ form: Record<string, string> | null; files: File[] }> {
  const read = await readPostedForm(request);
  return { form: read?.fields ?? null, files: read?.files ?? [] };
}

/**
 * A message's text and files checked together, so a refusal names every problem; the text typed
 * is echoed back with it.
 */
export async function checkMessage<T>(parsed: FormCheck<T>, files: File[]) {
  const checked = await checkAttachments(files);
  if (parsed.ok && checked.ok)
    return { ok: true as const, data: parsed.data, attachments: checked.attachments };
  const refusedFile: FormError[] = checked.ok
    ? []
    : [{ code: checked.error, field: "attachments", detail: checked.fileName }];
  return { ok: false as const, errors: [...(parsed.ok ? [] : parsed.errors), ...refusedFile] };
}
