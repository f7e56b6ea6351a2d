/**
 * The production entry's head start (decisions 056, 058 and 060): the embedded database the
 * environment names, started in its worker thread before the server's modules load, and handed to
 * the server when it opens its database. This module loads no PGlite code (the worker does) and
 * not the configuration's parser (the server does, while the worker starts).
 */
import path from "node:path";
import { embeddedDataDirIn } from "../data-dir";
import { makePrivate } from "../private-files";
import { PgliteThread, type EmbeddedClient } from "./pglite-thread.server";

/** Where the server keeps its embedded database, and the migrated template a new one copies. */
export function embeddedDatabaseLocation(dataDir: string) {
  return { dataDir: path.join(dataDir, "db"), template: path.resolve("build/pglite-template") };
}

/** An instance started ahead of time, by directory, waiting for the server to take it. */
const startedEarly = new Map<string, EmbeddedClient>();

/**
 * Starts PGlite on `dataDir` now, without waiting, in a worker thread running `threadScript`
 * (the build's pglite-worker.js): its WebAssembly compiles and runs there while the server's
 * modules load on the main thread.
 */
export function startPgliteEarly(dataDir: string, template: string | undefined, threadScript: URL) {
  if (startedEarly.has(dataDir)) return;
  const client = new PgliteThread(threadScript, { dataDir, template });
  // Its failure to start is the server's to report, when it first waits for it.
  client.waitReady.catch(() => undefined);
  startedEarly.set(dataDir, client);
}

/** The instance started early on `dataDir`, taken once (PGlite: one instance per directory). */
export function takeStartedEarly(dataDir: string): EmbeddedClient | undefined {
  const early = startedEarly.get(dataDir);
  startedEarly.delete(dataDir);
  return early;
}

/**
 * The embedded database that DATA_DIR and DATABASE_URL name, started early, without waiting for
 * the configuration's parser (tens of milliseconds of every start). A configuration the server
 * then refuses stops the process, this thread with it; a database that cannot start is reported
 * where it is first used.
 */
export function startConfiguredPgliteEarly(threadScript: URL) {
  const dataDir = embeddedDataDirIn(process.env);
  if (dataDir === undefined) return;
  // Before the worker creates a file: it inherits the umask, and old files are tightened.
  makePrivate(dataDir);
  const location = embeddedDatabaseLocation(dataDir);
  startPgliteEarly(location.dataDir, location.template, threadScript);
}
