/**
 * Which invoice a sale or a refund gets (RD 1619/2012; the TipoFactura of the Orden HAC/1177/2024
 * records), decided here once.
 *
 * A simplified invoice (F2) needs no buyer identification, and is allowed for these services only
 * up to 400 €, IVA included (art. 4.1.a). Above that, or whenever the buyer asks for one or buys
 * as a business, the invoice is a complete one (F1), which names the buyer, their NIF/NIE/CIF and
 * address (art. 6.1). A corrective invoice (art. 15) is R1 when it corrects a complete invoice
 * (its cause, the sale undone by a refund, is one of art. 80 Uno/Dos LIVA) and R5 when it
 * corrects a simplified one.
 */
export const SIMPLIFIED_INVOICE_LIMIT_CENTS = 40_000;

export type SaleInvoiceType = "F1" | "F2";
export type CorrectiveInvoiceType = "R1" | "R5";

/** Whether checkout must ask for the buyer's billing data before taking the payment. */
export function requiresCompleteInvoice(totalCents: number, buyingAsBusiness: boolean): boolean {
  return buyingAsBusiness || totalCents > SIMPLIFIED_INVOICE_LIMIT_CENTS;
}

export type BuyerIdentity = { name?: string | null; taxId?: string | null };

/** A complete invoice whenever the buyer is identified; only then can it name them. */
export function saleInvoiceType(buyer: BuyerIdentity | undefined): SaleInvoiceType {
  return buyer?.name && buyer.taxId ? "F1" : "F2";
}

export function correctiveInvoiceType(corrected: SaleInvoiceType | string): CorrectiveInvoiceType {
  return corrected === "F1" ? "R1" : "R5";
}
