import { hasControlCharacters } from "~/platform/validation/aeat-text";
import { isValidSpanishTaxId, normaliseTaxId } from "~/platform/validation/spanish-tax-id";
import { DESCRIPTION_MAX, RECIPIENT_NAME_MAX } from "./record-states";

/** The subsanación form's field names. */
export const CORRECTION_FIELDS = {
  recipientName: "recipientName",
  recipientTaxId: "recipientTaxId",
  description: "description",
} as const;

export type CorrectionProblem =
  "correctionRecipientName" | "correctionRecipientTaxId" | "correctionDescription";

/** What a subsanación changes in the record, as AEAT's schema takes it. */
export type RecordChanges = {
  recipient?: { name: string; taxId: string };
  description: string;
};

const text = (value: string | undefined) => value?.trim().replace(/\s+/g, " ") ?? "";

/**
 * The corrected data of a subsanación, checked as AEAT would check it (lengths, control
 * characters, the NIF's check character): the operation's description always, the recipient's
 * name and NIF only on a record that names one (a record cannot gain a recipient: that changes
 * the invoice's type, which a substitute invoice does).
 */
export function recordChanges(
  fields: Record<string, string | undefined>,
  namesRecipient: boolean,
): { ok: true; changes: RecordChanges } | { ok: false; problem: CorrectionProblem } {
  const description = text(fields[CORRECTION_FIELDS.description]);
  if (!namesRecipient) {
    if (!validText(description, DESCRIPTION_MAX))
      return { ok: false, problem: "correctionDescription" };
    return { ok: true, changes: { description } };
  }
  const name = text(fields[CORRECTION_FIELDS.recipientName]);
  const taxId = normaliseTaxId(text(fields[CORRECTION_FIELDS.recipientTaxId]));
  if (!validText(name, RECIPIENT_NAME_MAX))
    return { ok: false, problem: "correctionRecipientName" };
  if (!isValidSpanishTaxId(taxId)) return { ok: false, problem: "correctionRecipientTaxId" };
  if (!validText(description, DESCRIPTION_MAX))
    return { ok: false, problem: "correctionDescription" };
  return { ok: true, changes: { recipient: { name, taxId }, description } };
}

function validText(value: string, max: number) {
  return value.length > 0 && [...value].length <= max && !hasControlCharacters(value);
}
