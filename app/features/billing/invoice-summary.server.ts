import { invoices } from "~/platform/db/schema";

/**
 * An invoice as a list of them shows it (number, kind and type, date, total): the columns a
 * page selects to name an invoice and link its PDF. `invoiceKindName` reads kind and type.
 */
export const invoiceSummaryColumns = {
  id: invoices.id,
  number: invoices.number,
  kind: invoices.kind,
  invoiceType: invoices.invoiceType,
  issuedAt: invoices.issuedAt,
  totalAmount: invoices.totalAmount,
};
