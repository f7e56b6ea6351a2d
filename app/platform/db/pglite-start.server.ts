/**
 * Starting the embedded database (PGlite): its data directory, its template copy and its start
 * options. Kept apart from client.server.ts, which loads both drivers and the schema, so that the
 * production entry can start PGlite before the rest of the server has loaded (decision 056).
 */
import path from "node:path";
import { constants, cpSync, existsSync, mkdirSync, renameSync, rmdirSync, rmSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { getConfig } from "../config.server";

/** The extensions the migrations create (trigram search for the admin lists). */
export const pgliteExtensions = { pg_trgm };

/**
 * PostgreSQL's start options in PGlite: its own, and a 16 MB buffer cache instead of initdb's
 * 128 MB. PGlite's shared memory is allocated and zeroed inside its WebAssembly memory at every
 * start (about 0.1 s of CPU less, and 112 MB less memory, decision 046), and the buffer cache
 * only saves copies: PGlite reads its files through the operating system's page cache.
 */
export const pgliteStartParams = [...PGlite.defaultStartParams, "-c", "shared_buffers=16MB"];

/** Where the server keeps its embedded database, and the migrated template a new one copies. */
export function embeddedDatabaseLocation(dataDir: string) {
  return { dataDir: path.join(dataDir, "db"), template: path.resolve("build/pglite-template") };
}

/**
 * A new data directory is a copy of the template instead of being created from scratch
 * (seconds saved on a first start); an existing one is never touched. The copy is made beside
 * it and renamed into place, so a start stopped half-way leaves no half database behind; a
 * directory holding anything other than a database is left to PGlite as before.
 */
function seedFromTemplate(dataDir: string, template?: string) {
  if (!template || !existsSync(path.join(template, "PG_VERSION"))) return;
  if (existsSync(path.join(dataDir, "PG_VERSION"))) return;
  const staging = `${dataDir}.seeding`;
  rmSync(staging, { recursive: true, force: true });
  // A cheap clone where the file system shares blocks, a plain copy elsewhere.
  cpSync(template, staging, { recursive: true, mode: constants.COPYFILE_FICLONE });
  try {
    if (existsSync(dataDir)) rmdirSync(dataDir);
    renameSync(staging, dataDir);
  } catch {
    rmSync(staging, { recursive: true, force: true });
  }
}

function createPglite(dataDir: string | "memory", template?: string): PGlite {
  if (dataDir === "memory")
    return new PGlite({ extensions: pgliteExtensions, startParams: pgliteStartParams });
  mkdirSync(path.dirname(dataDir), { recursive: true });
  seedFromTemplate(dataDir, template);
  mkdirSync(dataDir, { recursive: true });
  return new PGlite(dataDir, { extensions: pgliteExtensions, startParams: pgliteStartParams });
}

/** An instance started ahead of time, by directory, waiting for the server to take it. */
const startedEarly = new Map<string, PGlite>();

/**
 * Starts PGlite on `dataDir` now, without waiting: its WebAssembly compiles and its files are
 * read while the server's modules load, instead of after them.
 */
export function startPgliteEarly(dataDir: string, template?: string) {
  if (startedEarly.has(dataDir)) return;
  const client = createPglite(dataDir, template);
  // Its failure to start is the server's to report, when it first waits for it.
  client.waitReady.catch(() => undefined);
  startedEarly.set(dataDir, client);
}

/**
 * The PGlite instance for `dataDir`: the one started early if there is one (taken once: PGlite is
 * single-connection, one instance per directory), a new one otherwise.
 */
export function startPglite(dataDir: string | "memory", template?: string): PGlite {
  const early = startedEarly.get(dataDir);
  if (!early) return createPglite(dataDir, template);
  startedEarly.delete(dataDir);
  return early;
}

/**
 * The production entry's head start: the configured embedded database, started before the
 * server's modules load. A configuration that does not parse starts nothing here: the server
 * reports it as it starts. A database that cannot start is reported where it is first used.
 */
export function startConfiguredPgliteEarly() {
  let config: ReturnType<typeof getConfig>;
  try {
    config = getConfig();
  } catch {
    return;
  }
  if (config.databaseUrl) return;
  const location = embeddedDatabaseLocation(config.dataDir);
  startPgliteEarly(location.dataDir, location.template);
}
