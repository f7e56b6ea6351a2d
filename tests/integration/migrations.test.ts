import { describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { hasEveryMigration, openDatabase } from "~/platform/db/client.server";
import { contactInquiries } from "~/platform/db/schema";
import { setupTestDatabase } from "../support/test-database";

const database = setupTestDatabase();

const enquiry = {
  name: "Ana",
  email: "ana@example.com",
  service: "ia",
  message: "Hola, necesito ayuda.",
};

describe("migrations", () => {
  it("create the schema, so rows can be written and read back", async () => {
    const [row] = await database.db.insert(contactInquiries).values(enquiry).returning();
    expect(row?.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(row?.createdAt).toBeInstanceOf(Date);
  });

  it("are idempotent: running them again changes nothing", async () => {
    await database.handle.migrate();
    const rows = await database.db.select().from(contactInquiries);
    expect(rows).toHaveLength(1);
  });

  it("answer the readiness ping", async () => {
    await expect(database.handle.ping()).resolves.toBeUndefined();
  });
});

describe("the start's short cut past the migrator", () => {
  it("is taken only when the newest migration of the journal is recorded", async () => {
    const handle = openDatabase({ kind: "pglite", dataDir: "memory" });
    try {
      // A new database: nothing recorded, not even the table.
      expect(await hasEveryMigration(handle.db)).toBe(false);
      await handle.migrate();
      expect(await hasEveryMigration(handle.db)).toBe(true);
      // The newest migration not recorded: the migrator must run, so no short cut.
      await handle.db.execute(
        sql`delete from drizzle.__drizzle_migrations where created_at = (select max(created_at) from drizzle.__drizzle_migrations)`,
      );
      expect(await hasEveryMigration(handle.db)).toBe(false);
    } finally {
      await handle.close();
    }
  });
});
