/**
 * npm run db:backup [-- FOLDER]: a consistent, compressed, dated copy of the embedded database
 * (PGlite in $DATA_DIR/db) and DATA_DIR's generated secrets, into FOLDER or BACKUP_DIR
 * (decision 047). While the server runs it makes the copy itself, asked over DATA_DIR's
 * socket, and goes on serving; with the server stopped, this command opens the directory.
 * On PostgreSQL (DATABASE_URL) the copies are pgBackRest's: see README, "Copias de seguridad".
 */
import { existsSync } from "node:fs";
import path from "node:path";
import {
  askRunningServer,
  databaseDirectory,
  hasDatabase,
  makeEmbeddedBackup,
} from "../app/platform/backup/embedded-backup.server";
import { ConfigError, parseBackupConfig } from "../app/platform/config.server";
import { openDatabase } from "../app/platform/db/client.server";

async function main() {
  let config;
  try {
    config = parseBackupConfig(process.env);
  } catch (error) {
    console.error(error instanceof ConfigError ? error.message : error);
    process.exit(2);
  }
  if (config.databaseUrl) {
    console.error(
      "DATABASE_URL apunta a PostgreSQL: sus copias las hace pgBackRest (README, «Copias de seguridad»), no este comando.",
    );
    process.exit(2);
  }
  const argument = process.argv[2];
  const backupDir = argument ? path.resolve(argument) : config.backup.dir;
  if (!backupDir) {
    console.error("BACKUP_DIR=off: indica la carpeta de destino (npm run db:backup -- CARPETA).");
    process.exit(2);
  }
  let result = await askRunningServer(config.dataDir, backupDir);
  let how = "hecha por el servidor en marcha";
  if (!result) {
    if (!hasDatabase(config.dataDir)) {
      console.error(`No hay base de datos en ${databaseDirectory(config.dataDir)}.`);
      process.exit(2);
    }
    // No server answers on DATA_DIR's socket: nothing else has the directory open.
    const handle = openDatabase({ kind: "pglite", dataDir: databaseDirectory(config.dataDir) });
    try {
      result = await makeEmbeddedBackup({
        dump: () => handle.dumpDataDir!(),
        dataDir: config.dataDir,
        backupDir,
        keep: config.backup.keep,
      });
    } finally {
      await handle.close();
    }
    how = "con el servidor parado";
  }
  console.log(`Copia ${how}: ${result.file}`);
  console.log(
    `  ${(result.bytes / 1e6).toFixed(2)} MB comprimida (base de datos: ${(result.databaseBytes / 1e6).toFixed(2)} MB), ${result.seconds} s`,
  );
  if (!existsSync(result.file)) process.exit(1);
}

main().catch((error: unknown) => {
  console.error(`La copia de seguridad falló: ${(error as Error).message}`);
  process.exit(1);
});
