/**
 * npm run db:restore -- FILE: restores a backup made by `npm run db:backup` (or the server's
 * daily one) into DATA_DIR, which must hold no database and have no server running on it
 * (decision 047). The whole file is checked (SHA-256 of every part) before anything is written.
 */
import path from "node:path";
import { BackupRefused } from "../app/platform/backup/backup-file.server";
import { restoreEmbeddedBackup } from "../app/platform/backup/embedded-backup.server";
import { ConfigError, parseBackupConfig } from "../app/platform/config.server";

async function main() {
  const file = process.argv[2];
  if (!file) {
    console.error("Uso: npm run db:restore -- ARCHIVO (en un DATA_DIR nuevo)");
    process.exit(2);
  }
  // Not getConfig(): outside production it would generate new local secrets in DATA_DIR, and the
  // backup's own must be the ones restored.
  let config;
  try {
    config = parseBackupConfig(process.env);
  } catch (error) {
    console.error(error instanceof ConfigError ? error.message : error);
    process.exit(2);
  }
  const dataDir = config.dataDir;
  if (config.databaseUrl) {
    console.error(
      "DATABASE_URL apunta a PostgreSQL: se restaura con pgBackRest (README, «Copias de seguridad»).",
    );
    process.exit(2);
  }
  try {
    const result = await restoreEmbeddedBackup(path.resolve(file), dataDir);
    console.log(`Restaurada la copia del ${result.createdAt} en ${result.databaseDir}`);
    console.log(
      `  ${(result.databaseBytes / 1e6).toFixed(2)} MB, ${result.migrations} migraciones, ${result.seconds} s`,
    );
    if (result.files.length) console.log(`  archivos restaurados: ${result.files.join(", ")}`);
    if (result.filesKept.length)
      console.log(`  archivos que ya existían y se han conservado: ${result.filesKept.join(", ")}`);
  } catch (error) {
    if (error instanceof BackupRefused) {
      console.error(`Restauración rechazada, no se ha tocado nada: ${error.message}`);
      process.exit(3);
    }
    throw error;
  }
}

main().catch((error: unknown) => {
  console.error(`La restauración falló: ${(error as Error).message}`);
  process.exit(1);
});
