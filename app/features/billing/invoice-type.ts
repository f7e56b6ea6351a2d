/**
 * Which invoice a sale or a refund gets (RD 1619/2012; the TipoFactura of the Orden HAC/1177/2024
 * records), decided here once.
 *
 * A simplified invoice (F2) needs no buyer identification, and is allowed for these services only
 * up to 400 €, IVA included (art. 4.1.a). Above that, or whenever the buyer asks for one or buys
 * as a business, the invoice is a complete one, which names the buyer and their address (art.
 * 6.1.c and e). A business also gives its NIF/NIE/CIF (F1); a consumer in Spain need not (art.
 * 6.1.d): their complete invoice is recorded as an F2 marked FacturaSinIdentifDestinatarioArt61d
 * (AEAT's list L2 and validations 1185/1190). A corrective invoice (art. 15) is R1 when it
 * corrects an F1 (its cause, the sale undone by a refund, is one of art. 80 Uno/Dos LIVA) and R5
 * when it corrects an F2.
 */
export const SIMPLIFIED_INVOICE_LIMIT_CENTS = 40_000;

export type SaleInvoiceType = "F1" | "F2";
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
  return corrected === "F1" ? "R1" : "R5";
}
