import { readFileSync } from "node:fs";
import path from "node:path";
import { sql, type SQL } from "drizzle-orm";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import { migrate as migrateNodePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { takeStartedEarly } from "./early-start.server";
import { createPglite } from "./pglite-start.server";
import type { PGlite } from "@electric-sql/pglite";
import * as schema from "./schema";

export { pgliteExtensions } from "./pglite-start.server";

/** One query-builder type for both drivers; prefer the builder over db.execute(). */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

/** The transaction `Database.transaction` hands its callback: what a multi-step change writes with. */
export type DatabaseTransaction = Parameters<Parameters<Database["transaction"]>[0]>[0];

export type DatabaseHandle = {
  db: Database;
  kind: "pglite" | "postgres";
  /** Applies pending migrations; safe when several instances start at once. */
  migrate(): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
  /** PostgreSQL's connection pool, for /metrics (decision 049); the embedded database has none. */
  poolStats?(): { total: number; idle: number; waiting: number; max: number };
  /** PGlite only: its data directory as a tar, read under its query lock (decision 047). */
  dumpDataDir?(): Promise<Blob>;
};

/** Any value will do as long as every instance uses the same one. */
const MIGRATION_LOCK_KEY = 728_1234_001;

export const migrationsFolder = path.resolve(process.env.MIGRATIONS_DIR ?? "drizzle");

export type DatabaseTarget =
  | {
      kind: "postgres";
      url: string;
      maxConnections?: number;
      /** How long to wait for a new connection before its query fails (default 5 s). */
      connectTimeoutMs?: number;
    }
  | {
      kind: "pglite";
      dataDir: string | "memory";
      /**
       * A migrated empty database directory (build-tools/pglite-template.ts), copied for a new
       * data directory.
       */
      template?: string;
      /** A data directory as a tar (`dumpDataDir`), loaded into a "memory" database. */
      image?: Blob;
    };

export function openDatabase(target: DatabaseTarget): DatabaseHandle {
  return target.kind === "postgres"
    ? openPostgres(target.url, target.maxConnections ?? 10, target.connectTimeoutMs ?? 5_000)
    : openPglite(target.dataDir, target.template, target.image);
}

const connectionLost = (error: Error) =>
  console.warn(
    JSON.stringify({ level: 40, msg: "database connection lost", error: error.message }),
  );

function openPostgres(
  url: string,
  maxConnections: number,
  connectTimeoutMs: number,
): DatabaseHandle {
  // A database that accepts the connection but never answers fails the query, not hangs it.
  const pool = new pg.Pool({
    connectionString: url,
    max: maxConnections,
    connectionTimeoutMillis: connectTimeoutMs,
  });
  // A connection that the server closes (restart, failover) emits 'error' and must not crash
  // the process. Idle, the pool drops it (and re-emits the error, logged below). Checked out,
  // as a transaction holds it, nothing else listens: its query fails, and the pool drops it
  // when it is released.
  pool.on("error", () => undefined);
  pool.on("connect", (client) => client.on("error", connectionLost));
  const db = drizzleNodePg(pool, { schema });
  return {
    db,
    kind: "postgres",
    async migrate() {
      // The lock is per session: take it, migrate and release it on one client.
      const client = await pool.connect();
      try {
        await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
        try {
          await migrateNodePg(drizzleNodePg(client, { schema }), { migrationsFolder });
        } finally {
          await client.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]);
        }
      } finally {
        client.release();
      }
    },
    async ping() {
      await db.execute(sql`select 1`);
    },
    close: () => pool.end(),
    poolStats: () => ({
      total: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
      max: maxConnections,
    }),
  };
}

/**
 * Whether the database already holds the newest migration of drizzle's journal, which is all
 * drizzle's migrator looks at: it applies the migrations newer than the last it recorded. One
 * query instead of the migrator's reading and hashing every migration file and its DDL, on every
 * start of an up-to-date embedded database (decision 056).
 */
export async function hasEveryMigration(db: Database): Promise<boolean> {
  const journal = JSON.parse(
    readFileSync(path.join(migrationsFolder, "meta", "_journal.json"), "utf8"),
  ) as { entries: { when: number }[] };
  const newest = Math.max(...journal.entries.map((entry) => entry.when));
  const rows = async <T>(query: SQL) =>
    ((await db.execute(query)) as unknown as { rows: T[] }).rows;
  const [table] = await rows<{ recorded: boolean }>(
    sql`select to_regclass('drizzle.__drizzle_migrations') is not null as recorded`,
  );
  if (!table?.recorded) return false;
  const [applied] = await rows<{ newest: string | null }>(
    sql`select max(created_at)::text as newest from drizzle.__drizzle_migrations`,
  );
  return Number(applied?.newest ?? 0) >= newest;
}

function openPglite(dataDir: string | "memory", template?: string, image?: Blob): DatabaseHandle {
  // PGlite is single-process and single-connection: one instance per data directory. In
  // production it was started in its own thread before the server loaded (decision 058); drizzle
  // uses that thread's client as it would PGlite.
  const client = takeStartedEarly(dataDir) ?? createPglite(dataDir, template, image);
  const db = drizzlePglite(client as PGlite, { schema });
  return {
    db,
    kind: "pglite",
    async migrate() {
      if (await hasEveryMigration(db)) return;
      await migratePglite(db, { migrationsFolder });
    },
    async ping() {
      await db.execute(sql`select 1`);
    },
    close: () => client.close(),
    async dumpDataDir() {
      // A checkpoint first: less WAL for the restore to replay.
      await client.exec("CHECKPOINT");
      return client.dumpDataDir("none");
    },
  };
}
