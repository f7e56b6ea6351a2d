/**
 * Creating the embedded database (PGlite) on a data directory: its template copy and its start
 * options. Kept apart from client.server.ts, which loads both drivers and the schema: the worker
 * thread that runs it in production loads this and nothing else (decision 058).
 */
import path from "node:path";
import { constants, cpSync, existsSync, mkdirSync, renameSync, rmdirSync, rmSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { restrictNewFiles, tightenTree } from "../private-files";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";

/** The extensions the migrations create (trigram search for the admin lists). */
export const pgliteExtensions = { pg_trgm };

/**
 * PostgreSQL's start options in PGlite: its own, and a 16 MB buffer cache instead of initdb's
 * 128 MB. PGlite's shared memory is allocated and zeroed inside its WebAssembly memory at every
 * start (about 0.1 s of CPU less, and 112 MB less memory, decision 046), and the buffer cache
 * only saves copies: PGlite reads its files through the operating system's page cache.
 */
export const pgliteStartParams = [...PGlite.defaultStartParams, "-c", "shared_buffers=16MB"];

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
  tightenTree(staging);
  try {
    if (existsSync(dataDir)) rmdirSync(dataDir);
    renameSync(staging, dataDir);
  } catch {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** PGlite on `dataDir`, or in memory, empty or loaded from `image` (a data directory's tar). */
export function createPglite(dataDir: string | "memory", template?: string, image?: Blob): PGlite {
  if (dataDir === "memory")
    return new PGlite({
      loadDataDir: image,
      extensions: pgliteExtensions,
      startParams: pgliteStartParams,
    });
  mkdirSync(path.dirname(dataDir), { recursive: true, mode: 0o700 });
  seedFromTemplate(dataDir, template);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  restrictNewFiles();
  const pglite = new PGlite(dataDir, {
    extensions: pgliteExtensions,
    startParams: pgliteStartParams,
  });
  // A first start unpacks PGlite's cluster with the archive's modes (0666): private once there.
  void pglite.waitReady.then(() => tightenTree(dataDir)).catch(() => undefined);
  return pglite;
}
