import { requiresCompleteInvoice } from "~/features/billing/invoice-type";
import {
  BILLING_FIELDS,
  checkBillingData,
  type BillingData,
} from "~/features/billing/billing-data";
import type { FormSchema } from "~/platform/forms/form-answer";

/** The billing data of a complete invoice, as stored with a purchase (billing/billing-data.ts). */
export type CheckoutBilling = BillingData;

export type Checkout = { immediateStart: "yes"; billing?: CheckoutBilling };

type Issue = { message: string; path: string[] };

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
      const { issues, billing }: { issues: Issue[]; billing?: BillingData } = asked
        ? checkBillingData(values, { taxIdRequired: business })
        : { issues: [] };
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
