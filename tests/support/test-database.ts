import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, inject } from "vitest";
import { openDatabase, type DatabaseHandle } from "~/platform/db/client.server";
import { installDatabase } from "~/platform/db/database.server";
import { adminQuery, withDatabase } from "./postgres-admin";

export { withDatabase } from "./postgres-admin";

/**
 * A clean, migrated database for one test file: in-memory PGlite by default, or a fresh
 * database on the PostgreSQL server of TEST_DATABASE_URL (dropped afterwards). Both are copies of
 * the run's migrated database (database-images.ts) when there is one.
 */
export async function createTestDatabase(): Promise<{
  handle: DatabaseHandle;
  url?: string;
  drop(): Promise<void>;
}> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const imageFile = inject("pgliteImage");
    const image = imageFile ? new Blob([readFileSync(imageFile)]) : undefined;
    const handle = openDatabase({ kind: "pglite", dataDir: "memory", image });
    await handle.migrate();
    return { handle, drop: () => handle.close() };
  }
  const name = `test_${Date.now()}_${randomBytes(4).toString("hex")}`;
  const template = inject("postgresTemplate");
  await adminQuery(serverUrl, `create database ${name}${template ? ` template ${template}` : ""}`);
  const url = withDatabase(serverUrl, name);
  const handle = openDatabase({ kind: "postgres", url });
  await handle.migrate();
  return {
    handle,
    url,
    async drop() {
      await handle.close();
      await adminQuery(serverUrl, `drop database if exists ${name} with (force)`);
    },
  };
}

/** Process-wide singletons built on the database; each test file starts without them. */
function forgetDatabaseSingletons() {
  const holder = globalThis as { __auth?: unknown; __mailWorker?: unknown };
  holder.__auth = undefined;
  holder.__mailWorker = undefined;
}

/** Registers hooks that give the test file its own database, also installed as the app's. */
export function setupTestDatabase() {
  const state: { handle?: DatabaseHandle; url?: string } = {};
  let drop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const created = await createTestDatabase();
    state.handle = created.handle;
    state.url = created.url;
    drop = created.drop;
    installDatabase(created.handle);
    forgetDatabaseSingletons();
  });
  afterAll(async () => {
    installDatabase(undefined);
    forgetDatabaseSingletons();
    await drop?.();
  });
  return {
    get handle(): DatabaseHandle {
      if (!state.handle) throw new Error("The test database is created in beforeAll");
      return state.handle;
    },
    get db() {
      return this.handle.db;
    },
    /** Set on PostgreSQL only: lets a test open a second pool, like a second instance. */
    get url(): string | undefined {
      return state.url;
    },
  };
}
