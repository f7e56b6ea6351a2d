import { requiresCompleteInvoice } from "~/features/billing/invoice-type";
import type { FormSchema } from "~/platform/forms/form-answer";
import { hasControlCharacters } from "~/platform/validation/aeat-text";
import { isValidSpanishTaxId, normaliseTaxId } from "~/platform/validation/spanish-tax-id";
import { BILLING_LIMITS } from "./payment-messages";

/**
 * The billing data a complete invoice names (RD 1619/2012 art. 6.1), as stored with a purchase;
 * `taxId` is empty when a consumer gives none (art. 6.1.d asks it of businesses only).
 */
export type CheckoutBilling = { name: string; taxId: string; address: string };

export type Checkout = { immediateStart: "yes"; billing?: CheckoutBilling };

/** The dialog's field names; `businessBuyer` is the tick 'Necesito factura completa'. */
export const BILLING_FIELDS = {
  business: "businessBuyer",
  name: "billingName",
  taxId: "billingTaxId",
  address: "billingAddress",
} as const;

type Issue = { message: string; path: string[] };

const text = (values: Record<string, unknown>, field: string) => {
  const value = values[field];
  return typeof value === "string" ? value.trim() : "";
};

/**
 * The billing data's problems, in the dialog's order, and the data when there are none. A
 * business must give its NIF/NIE/CIF; a consumer may, and then it is checked like any other.
 */
function checkBilling(
  values: Record<string, unknown>,
  business: boolean,
): {
  issues: Issue[];
  billing: CheckoutBilling;
} {
  const billing = {
    name: text(values, BILLING_FIELDS.name),
    taxId: normaliseTaxId(text(values, BILLING_FIELDS.taxId)),
    address: text(values, BILLING_FIELDS.address),
  };
  const issues: Issue[] = [];
  const problem = (message: string, field: string) => issues.push({ message, path: [field] });
  if (!billing.name) problem("billingNameRequired", BILLING_FIELDS.name);
  else if ([...billing.name].length > BILLING_LIMITS.name)
    problem("billingNameTooLong", BILLING_FIELDS.name);
  else if (hasControlCharacters(billing.name)) problem("billingNameInvalid", BILLING_FIELDS.name);
  if (!billing.taxId) {
    if (business) problem("billingTaxIdRequired", BILLING_FIELDS.taxId);
  } else if (billing.taxId.length > BILLING_LIMITS.taxId || !isValidSpanishTaxId(billing.taxId))
    problem("billingTaxIdInvalid", BILLING_FIELDS.taxId);
  if (!billing.address) problem("billingAddressRequired", BILLING_FIELDS.address);
  else if (billing.address.length > BILLING_LIMITS.address)
    problem("billingAddressTooLong", BILLING_FIELDS.address);
  return { issues, billing };
}

/**
 * The purchase dialog's rules for a sale of `totalCents` (IVA included), checked by the dialog
 * and by the checkout. The consent to begin at once, before paying (TRLGDCU art. 103 a), is never
 * assumed. Above 400 €, or when the buyer ticks that they buy as a business, the invoice must be
 * a complete one (billing/invoice-type.ts), so the name and the fiscal address are required, and
 * a valid NIF/NIE/CIF from a business; otherwise billing fields are ignored. Written as a schema of the form
 * protocol without zod: the dialog opens on pages that load no other form.
 */
export function checkoutSchema(totalCents: number): FormSchema<Checkout> {
  return {
    safeParse(input) {
      const values = (input ?? {}) as Record<string, unknown>;
      const business = values[BILLING_FIELDS.business] === "yes";
      const asked = requiresCompleteInvoice(totalCents, business);
      const { issues, billing } = asked
        ? checkBilling(values, business)
        : { issues: [] as Issue[] };
      if (values.immediateStart !== "yes")
        issues.push({ message: "immediateStartConsentRequired", path: ["immediateStart"] });
      if (issues.length > 0) return { success: false, error: { issues } };
      return {
        success: true,
        data: billing ? { immediateStart: "yes", billing } : { immediateStart: "yes" },
      };
    },
  };
}
