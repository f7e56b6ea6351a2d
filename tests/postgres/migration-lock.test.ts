import { randomBytes } from "node:crypto";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { openDatabase } from "~/platform/db/client.server";
import journal from "../../drizzle/meta/_journal.json";
import { withDatabase } from "../support/test-database";

// Runs in the PostgreSQL pass only (TEST_DATABASE_URL set): PGlite is one process per directory.
describe("migrations on PostgreSQL", () => {
  it("are applied once when two instances start together", async () => {
    const serverUrl = process.env.TEST_DATABASE_URL!;
    const name = `test_lock_${randomBytes(4).toString("hex")}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const url = withDatabase(serverUrl, name);
    const first = openDatabase({ kind: "postgres", url });
    const second = openDatabase({ kind: "postgres", url });
    try {
      await Promise.all([first.migrate(), second.migrate()]);
      const check = new pg.Client({ connectionString: url });
      await check.connect();
      const applied = await check.query<{ count: number }>(
        "select count(*)::int as count from drizzle.__drizzle_migrations",
      );
      await check.end();
      expect(applied.rows[0]?.count).toBe(journal.entries.length);
    } finally {
      await first.close();
      await second.close();
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  });
});
