/**
 * npm run billing:archive -- --year 2025 --out FOLDER: one closed year's billing records
 * (invoices, their purchases and payments, VERI*FACTU records and AEAT's answers, the libro
 * registro as CSV and the records as XML) in one compressed file with a SHA-256 manifest, to keep
 * six years beside the backups (decision 053). Works on the embedded database, asking the
 * running server for a consistent copy as `db:backup` does, and on PostgreSQL (DATABASE_URL).
 *
 * npm run billing:archive -- --verify FILE: checks an archive whole without a database.
 *
 * Exit codes: 0 done, 1 failed, 2 wrong use or configuration, 3 refused (an open year, a year
 * without invoices, a damaged archive).
 */
import path from "node:path";
import { parseArgs } from "node:util";
import {
  billingYearRefusal,
  verifyBillingArchive,
  writeBillingArchive,
  type BillingArchiveCounts,
} from "../app/features/billing/billing-archive.server";
import { BackupRefused } from "../app/platform/backup/backup-file.server";
import { openEmbeddedForReading } from "../app/platform/backup/embedded-snapshot.server";
import { ConfigError, parseBackupConfig } from "../app/platform/config.server";
import { openDatabase } from "../app/platform/db/client.server";

const USAGE = `Uso:
  npm run billing:archive -- --year AAAA --out CARPETA   archiva un año cerrado
  npm run billing:archive -- --verify ARCHIVO           comprueba un archivo entero`;

function usage(problem: string): never {
  console.error(`${problem}\n${USAGE}`);
  process.exit(2);
}

const describe = (counts: BillingArchiveCounts) =>
  `${counts.invoices} facturas, ${counts.purchases} compras, ${counts.payments} pagos, ${counts.verifactuRecords} registros VERI*FACTU`;

async function verify(file: string) {
  const result = await verifyBillingArchive(path.resolve(file));
  console.log(`Archivo de facturación de ${result.year} correcto: ${path.resolve(file)}`);
  console.log(`  ${describe(result.counts)}; hecho el ${result.createdAt}`);
}

async function archive(yearText: string, out: string) {
  if (!/^\d{4}$/.test(yearText)) usage(`El año «${yearText}» no es válido: escribe AAAA.`);
  // An open year is refused before any database is opened or copy asked for.
  const refusal = billingYearRefusal(Number(yearText));
  if (refusal) throw new BackupRefused(refusal);
  let config;
  try {
    config = parseBackupConfig(process.env);
  } catch (error) {
    console.error(error instanceof ConfigError ? error.message : error);
    process.exit(2);
  }
  // Not getConfig(): outside production it would generate local secrets into DATA_DIR.
  const opened = config.databaseUrl
    ? (() => {
        const handle = openDatabase({ kind: "postgres", url: config.databaseUrl });
        return { db: handle.db, how: "PostgreSQL", close: () => handle.close() };
      })()
    : await openEmbeddedForReading(config.dataDir).then((embedded) => ({
        ...embedded,
        how:
          embedded.how === "snapshot"
            ? "copia pedida al servidor en marcha"
            : "base de datos integrada, con el servidor parado",
      }));
  try {
    const result = await writeBillingArchive(opened.db, Number(yearText), out);
    console.log(`Archivo de facturación de ${result.year} (${opened.how}): ${result.file}`);
    console.log(
      `  ${describe(result.counts)}; ${(result.bytes / 1e6).toFixed(2)} MB, ${result.seconds} s, comprobado`,
    );
  } finally {
    await opened.close();
  }
}

async function main() {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        year: { type: "string" },
        out: { type: "string" },
        verify: { type: "string" },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    usage(`Argumentos no válidos: ${(error as Error).message}`);
  }
  try {
    if (values.verify !== undefined) {
      if (values.year !== undefined || values.out !== undefined)
        usage("--verify no se combina con --year ni --out.");
      await verify(values.verify);
    } else {
      if (!values.year) usage("Falta --year: el año cerrado que se archiva.");
      if (!values.out) usage("Falta --out: la carpeta donde se escribe el archivo.");
      await archive(values.year, path.resolve(values.out));
    }
  } catch (error) {
    if (error instanceof BackupRefused) {
      console.error(`Archivo de facturación rechazado: ${error.message}`);
      process.exit(3);
    }
    throw error;
  }
}

main().catch((error: unknown) => {
  console.error(`El archivo de facturación falló: ${(error as Error).message}`);
  process.exit(1);
});
