import { eq, sql } from "drizzle-orm";
import type { Database } from "~/platform/db/client.server";
import { verifactuRecords } from "~/platform/db/schema";

/**
 * Changes a billing record's total by hand, as someone with the database's keys could: the
 * immutability trigger switched off around the UPDATE. What 'Comprobar cadena' must find.
 */
export async function tamperWithRecord(db: Database, recordId: number, importeTotal: string) {
  await db.execute(sql`alter table verifactu_records disable trigger verifactu_records_immutable`);
  try {
    await db
      .update(verifactuRecords)
      .set({ importeTotal })
      .where(eq(verifactuRecords.id, recordId));
  } finally {
    await db.execute(sql`alter table verifactu_records enable trigger verifactu_records_immutable`);
  }
}
