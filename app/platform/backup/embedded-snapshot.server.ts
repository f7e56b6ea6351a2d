import { rmSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { openDatabase, type Database } from "../db/client.server";
import { BackupRefused, readBackupFile } from "./backup-file.server";
import { askRunningServer, databaseDirectory, hasDatabase, PGDATA } from "./embedded-backup.server";

/*
 * Kept apart from embedded-backup.server.ts, which the server loads at start: this module loads
 * the database drivers and the schema, which only the commands need (decision 053).
 */

/**
 * The embedded database opened for a command that only reads it (`npm run billing:archive`).
 * A server running on DATA_DIR owns the directory, so it is asked for a backup (over its socket,
 * as `db:backup` does) into a private temporary folder, and that consistent image is loaded into
 * an in-memory PGlite; the file is removed at once. With no server, the directory is opened.
 */
export async function openEmbeddedForReading(
  dataDir: string,
): Promise<{ db: Database; how: "snapshot" | "direct"; close(): Promise<void> }> {
  const folder = await mkdtemp(path.join(tmpdir(), "vertice-snapshot-"));
  let database: Buffer | undefined;
  try {
    const result = await askRunningServer(dataDir, folder);
    if (result) database = (await readBackupFile(result.file)).members.get(PGDATA);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
  if (!database) {
    if (!hasDatabase(dataDir))
      throw new BackupRefused(`no hay base de datos en ${databaseDirectory(dataDir)}`);
    const handle = openDatabase({ kind: "pglite", dataDir: databaseDirectory(dataDir) });
    return { db: handle.db, how: "direct", close: () => handle.close() };
  }
  const handle = openDatabase({
    kind: "pglite",
    dataDir: "memory",
    image: new Blob([new Uint8Array(database)]),
  });
  await handle.ping();
  return { db: handle.db, how: "snapshot", close: () => handle.close() };
}
