import { getConfig } from "../config.server";
import { openDatabase, type Database, type DatabaseHandle } from "./client.server";
import { embeddedDatabaseLocation } from "./early-start.server";

/**
 * The process-wide database. Kept on globalThis so dev-server reloads reuse it: two PGlite
 * instances on one directory would corrupt it.
 */
const holder = globalThis as typeof globalThis & { __database?: DatabaseHandle };

export function getDatabaseHandle(): DatabaseHandle {
  if (!holder.__database) {
    const config = getConfig();
    holder.__database = config.databaseUrl
      ? openDatabase({ kind: "postgres", url: config.databaseUrl })
      : openDatabase({ kind: "pglite", ...embeddedDatabaseLocation(config.dataDir) });
  }
  return holder.__database;
}

export function getDb(): Database {
  return getDatabaseHandle().db;
}

/** Tests install their own fresh database before exercising server code. */
export function installDatabase(handle: DatabaseHandle | undefined) {
  holder.__database = handle;
}

export async function closeDatabase() {
  const handle = holder.__database;
  holder.__database = undefined;
  await handle?.close();
}
