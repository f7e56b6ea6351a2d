import { and, desc, eq } from "drizzle-orm";
import { getConfig } from "~/platform/config.server";
import type { Database } from "~/platform/db/client.server";
import { verifactuRecords } from "~/platform/db/schema";
import { cotejoUrl } from "./cotejo-url";

/**
 * The cotejo URL an invoice's QR carries, from its latest registro de alta (a subsanación repeats
 * the invoice's values): exactly what AEAT received. Undefined for an invoice issued before
 * Verifactu (no record) and when this site is not the invoicing system (VERIFACTU=off), where the
 * QR and its legend would promise a check AEAT cannot make.
 */
export async function invoiceCotejoUrl(
  reader: Pick<Database, "select">,
  invoiceId: string,
): Promise<string | undefined> {
  const { enabled, environment } = getConfig().verifactu;
  if (!enabled) return undefined;
  const [alta] = await reader
    .select({
      issuerTaxId: verifactuRecords.issuerTaxId,
      invoiceNumber: verifactuRecords.invoiceNumber,
      issueDate: verifactuRecords.issueDate,
      importeTotal: verifactuRecords.importeTotal,
    })
    .from(verifactuRecords)
    .where(and(eq(verifactuRecords.invoiceId, invoiceId), eq(verifactuRecords.kind, "alta")))
    .orderBy(desc(verifactuRecords.id))
    .limit(1);
  if (!alta?.importeTotal) return undefined;
  return cotejoUrl({ ...alta, importeTotal: alta.importeTotal }, environment);
}
