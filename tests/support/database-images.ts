/**
 * Vitest's global set-up for the integration tests: one migrated database per run, which every
 * test file's fresh database copies (test-database.ts), instead of each file creating PostgreSQL's
 * catalogue and running every migration itself (about 5 s a file on PGlite).
 *
 * - PGlite: the migrated data directory as a tar file, loaded into each file's memory database.
 * - PostgreSQL (TEST_DATABASE_URL): a migrated database, each file's created from it as its
 *   TEMPLATE, dropped at the end.
 *
 * tests/integration/migrations.test.ts still migrates an empty database from the first migration.
 */
import { randomBytes } from "node:crypto";
import { rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { openDatabase } from "~/platform/db/client.server";
import { adminQuery, withDatabase } from "./postgres-admin";

declare module "vitest" {
  export interface ProvidedContext {
    /** PGlite: the migrated data directory's tar file. */
    pgliteImage?: string;
    /** PostgreSQL: the migrated database new ones are created from. */
    postgresTemplate?: string;
  }
}

export default async function setup(project: TestProject) {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl) {
    const name = `test_template_${randomBytes(4).toString("hex")}`;
    await adminQuery(serverUrl, `create database ${name}`);
    const handle = openDatabase({ kind: "postgres", url: withDatabase(serverUrl, name) });
    await handle.migrate();
    await handle.close();
    project.provide("postgresTemplate", name);
    return () => adminQuery(serverUrl, `drop database if exists ${name} with (force)`);
  }
  const handle = openDatabase({ kind: "pglite", dataDir: "memory" });
  await handle.migrate();
  const image = Buffer.from(await (await handle.dumpDataDir!()).arrayBuffer());
  await handle.close();
  const file = path.join(tmpdir(), `vitest-pglite-${randomBytes(4).toString("hex")}.tar`);
  writeFileSync(file, image);
  project.provide("pgliteImage", file);
  return () => rmSync(file, { force: true });
}
