/**
 * Which invoice a sale or a refund gets (RD 1619/2012; the TipoFactura of the Orden HAC/1177/2024
 * records), decided here once.
 *
 * A simplified invoice (F2) needs no buyer identification, and is allowed for these services only
 * up to 400 €, IVA included (art. 4.1.a). Above that, or whenever the buyer asks for one or buys
 * as a business, the invoice is a complete one, which names the buyer and their address (art.
 * 6.1.c and e). A business also gives its NIF/NIE/CIF (F1); a consumer in Spain need not (art.
 * 6.1.d): their complete invoice is recorded as an F2 marked FacturaSinIdentifDestinatarioArt61d
 * (AEAT's list L2 and validations 1185/1190). A buyer who got a simplified invoice may later ask
 * for a complete one in its place (art. 15.1): an F3 naming them with their NIF. A corrective
 * invoice (art. 15) is R5 when it corrects an F2 and R1 otherwise, an F1 or an F3 (its cause,
 * the sale undone by a refund, is one of art. 80 Uno/Dos LIVA).
 */
export const SIMPLIFIED_INVOICE_LIMIT_CENTS = 40_000;

export type SaleInvoiceType = "F1" | "F2";
/** A complete invoice issued later in place of a simplified one, at the buyer's request. */
export type SubstituteInvoiceType = "F3";
export type CorrectiveInvoiceType = "R1" | "R5";

/** Whether checkout must ask for the buyer's billing data before taking the payment. */
export function requiresCompleteInvoice(totalCents: number, buyingAsBusiness: boolean): boolean {
  return buyingAsBusiness || totalCents > SIMPLIFIED_INVOICE_LIMIT_CENTS;
}

export type BuyerIdentity = { name?: string | null; taxId?: string | null };

/** F1 when the buyer gave a name and a NIF; otherwise F2 (simplified, or complete without NIF). */
export function saleInvoiceType(buyer: BuyerIdentity | undefined): SaleInvoiceType {
  return buyer?.name && buyer.taxId ? "F1" : "F2";
}

/**
 * A complete invoice whenever the buyer is named with an address (given at checkout above 400 €
 * or as a business, or held by their profile); only a simplified one otherwise.
 */
export function isCompleteInvoice(
  buyer: (BuyerIdentity & { address?: string | null }) | undefined,
) {
  return Boolean(buyer?.name && (buyer.taxId || buyer.address));
}

export function correctiveInvoiceType(corrected: SaleInvoiceType | string): CorrectiveInvoiceType {
  return corrected === "F2" ? "R5" : "R1";
}

/** What staff pages call an invoice by its kind and type: one name for each, everywhere. */
export function invoiceKindName(invoice: { kind: string; invoiceType: string }): string {
  if (invoice.invoiceType === "F3") return "Completa en sustitución";
  return (
    { simplified: "Simplificada", complete: "Completa", corrective: "Rectificativa" }[
      invoice.kind
    ] ?? invoice.kind
  );
}
