/**
 * IVA: catalogue prices are final prices with the general rate (21 %) included. An invoice shows
 * the base and the tax of that total; the tax is what remains after rounding the base to the
 * cent, so base + IVA is always the total to the cent.
 */
export const VAT_RATE_PERCENT = 21;

/** Said next to every price a customer sees. */
export const VAT_INCLUDED = "IVA incluido";

export type VatSplit = { baseCents: number; vatCents: number; totalCents: number };

export function splitVat(totalCents: number, ratePercent = VAT_RATE_PERCENT): VatSplit {
  const baseCents = Math.round((totalCents * 100) / (100 + ratePercent));
  return { baseCents, vatCents: totalCents - baseCents, totalCents };
}
