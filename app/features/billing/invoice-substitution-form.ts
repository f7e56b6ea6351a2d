import type { FormSchema } from "~/platform/forms/form-answer";
import { billingDataMessages, checkBillingData, type BillingData } from "./billing-data";

/**
 * The request of a complete invoice in place of a simplified one (an F3, decision 070), with its
 * Spanish texts, shared by the page and the server. The invoice names a business or a
 * professional, so the NIF/NIE/CIF is required (AEAT's validation 1189: an F3 has Destinatarios).
 */
export const substitutionMessages = {
  ...billingDataMessages,
  substitutionNotSimplified: {
    title: "Esta factura ya es completa",
    description:
      "Solo una factura simplificada se sustituye por una completa. Si sus datos no son correctos, escríbenos desde Soporte.",
  },
  substitutionAlreadyIssued: {
    title: "Ya tienes la factura completa",
    description: "Esta factura simplificada ya se sustituyó por una factura completa.",
  },
  substitutionNotInForce: {
    title: "Esta compra ya no admite factura completa",
    description: "La compra se desistió, se reembolsó o su factura está anulada o rectificada.",
  },
  substitutionFailed: {
    title: "No hemos podido emitir la factura",
    description: "Inténtalo de nuevo en unos minutos.",
  },
  substitutionIssued: { title: "Factura completa emitida" },
} as const;

export type SubstitutionMessage = keyof typeof substitutionMessages;

/** The buyer's data of the complete invoice: name, NIF/NIE/CIF and fiscal address, all required. */
export const substitutionSchema: FormSchema<BillingData> = {
  safeParse(input) {
    const values = (input ?? {}) as Record<string, unknown>;
    const { issues, billing } = checkBillingData(values, { taxIdRequired: true });
    return issues.length > 0
      ? { success: false, error: { issues } }
      : { success: true, data: billing };
  },
};
