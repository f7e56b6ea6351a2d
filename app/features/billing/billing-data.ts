import { AEAT_NAME_MAX, hasControlCharacters } from "~/platform/validation/aeat-text";
import { isValidSpanishTaxId, normaliseTaxId } from "~/platform/validation/spanish-tax-id";

/**
 * The buyer's data a complete invoice names (RD 1619/2012 art. 6.1 c, d and e): checked once
 * here for the purchase dialog, the checkout and the request of a complete invoice in place of
 * a simplified one, as AEAT would check it (lengths, control characters, the NIF's check
 * character). No React here: the purchase dialog's light script imports it.
 */
export type BillingData = { name: string; taxId: string; address: string };

/** The longest billing texts an invoice stores (AEAT's 120 characters for a name). */
export const BILLING_LIMITS = { name: AEAT_NAME_MAX, taxId: 20, address: 200 } as const;

/** The form fields' names, the same in every form that asks for billing data. */
export const BILLING_FIELDS = {
  business: "businessBuyer",
  name: "billingName",
  taxId: "billingTaxId",
  address: "billingAddress",
} as const;

/** The Spanish texts of each problem, spread into the message book of every form that asks. */
export const billingDataMessages = {
  billingNameRequired: {
    title: "Falta el nombre o la razón social",
    description: "Indica el nombre o la razón social que debe figurar en la factura.",
  },
  billingNameTooLong: {
    title: "Nombre demasiado largo",
    description: `El nombre o la razón social no puede superar los ${BILLING_LIMITS.name} caracteres.`,
  },
  billingNameInvalid: {
    title: "Nombre no válido",
    description:
      "El nombre o la razón social no puede llevar saltos de línea ni caracteres de control.",
  },
  billingTaxIdRequired: {
    title: "Falta el NIF, NIE o CIF",
    description: "La factura completa de una empresa o un profesional lleva su NIF, NIE o CIF.",
  },
  billingTaxIdInvalid: {
    title: "NIF, NIE o CIF no válido",
    description:
      "Su formato o su letra de control no son correctos (por ejemplo, 12345678Z o B12345674).",
  },
  billingAddressRequired: {
    title: "Falta el domicilio fiscal",
    description: "Indica calle y número, código postal y localidad.",
  },
  billingAddressTooLong: {
    title: "Domicilio demasiado largo",
    description: `El domicilio fiscal no puede superar los ${BILLING_LIMITS.address} caracteres.`,
  },
} as const;

export type BillingDataProblem = keyof typeof billingDataMessages;
export type BillingIssue = { message: BillingDataProblem; path: string[] };

const text = (values: Record<string, unknown>, field: string) => {
  const value = values[field];
  return typeof value === "string" ? value.trim() : "";
};

/**
 * The billing data's problems, in the forms' order, and the data. A NIF/NIE/CIF is checked
 * whenever one is given, and required when `taxIdRequired` (a business; an F3).
 */
export function checkBillingData(
  values: Record<string, unknown>,
  { taxIdRequired }: { taxIdRequired: boolean },
): { issues: BillingIssue[]; billing: BillingData } {
  const billing = {
    name: text(values, BILLING_FIELDS.name),
    taxId: normaliseTaxId(text(values, BILLING_FIELDS.taxId)),
    address: text(values, BILLING_FIELDS.address),
  };
  const issues: BillingIssue[] = [];
  const problem = (message: BillingDataProblem, field: string) =>
    issues.push({ message, path: [field] });
  if (!billing.name) problem("billingNameRequired", BILLING_FIELDS.name);
  else if ([...billing.name].length > BILLING_LIMITS.name)
    problem("billingNameTooLong", BILLING_FIELDS.name);
  else if (hasControlCharacters(billing.name)) problem("billingNameInvalid", BILLING_FIELDS.name);
  if (!billing.taxId) {
    if (taxIdRequired) problem("billingTaxIdRequired", BILLING_FIELDS.taxId);
  } else if (billing.taxId.length > BILLING_LIMITS.taxId || !isValidSpanishTaxId(billing.taxId))
    problem("billingTaxIdInvalid", BILLING_FIELDS.taxId);
  if (!billing.address) problem("billingAddressRequired", BILLING_FIELDS.address);
  else if (billing.address.length > BILLING_LIMITS.address)
    problem("billingAddressTooLong", BILLING_FIELDS.address);
  return { issues, billing };
}
