import { chmodSync, readdirSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";

/**
 * Creates an embedded database directory with every migration applied, shut down cleanly. A
 * first start on an empty data directory copies it (app/platform/db/client.server.ts) instead
 * of running initdb and the migrations, which take seconds; the server still migrates at start,
 * so the template only saves time and never decides the schema.
 *
 * Closing the database before the copy is taken is what makes the copy start at once: a
 * snapshot of a running database (PGlite's dumpDataDir) starts with crash recovery, replaying
 * the write-ahead log of every migration. See decision 039.
 */
export async function writePgliteTemplate(directory: string, migrationsFolder: string) {
  const staging = `${directory}.partial`;
  rmSync(staging, { recursive: true, force: true });
  const client = new PGlite(staging, { extensions: { pg_trgm } });
  try {
    await migrate(drizzle(client), { migrationsFolder });
    await dropTemplateDatabases(client);
  } finally {
    await client.close();
  }
  readOnlyToOthers(staging);
  rmSync(directory, { recursive: true, force: true });
  renameSync(staging, directory);
}

/**
 * initdb's template0 and template1 serve only CREATE DATABASE, which the site never runs on its
 * one embedded database; they are half the template's files, and a first start copies the
 * template file by file (decision 046).
 */
async function dropTemplateDatabases(client: PGlite) {
  for (const name of ["template0", "template1"]) {
    await client.exec(`ALTER DATABASE ${name} IS_TEMPLATE false`);
    // Alone: several statements in one call would make one transaction, where it cannot run.
    await client.exec(`DROP DATABASE ${name}`);
  }
}

/**
 * PGlite writes its files writable by anyone (0666). The template is read by the server, which
 * in the image is not its owner, and must not be changed by it: 0644 files, 0755 folders.
 */
function readOnlyToOthers(directory: string) {
  chmodSync(directory, 0o755);
  for (const entry of readdirSync(directory, { withFileTypes: true, recursive: true }))
    chmodSync(join(entry.parentPath, entry.name), entry.isDirectory() ? 0o755 : 0o644);
}
