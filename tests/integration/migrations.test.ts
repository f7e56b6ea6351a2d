import { describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import { openDatabase } from "~/platform/db/client.server";
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

describe("an up-to-date embedded database", () => {
  it("is migrated again when its newest migration is not recorded", async () => {
    const handle = openDatabase({ kind: "pglite", dataDir: "memory" });
    try {
      await handle.migrate();
      const recorded = async () => {
        const result = await handle.db.execute(
          sql`select count(*)::int as n from drizzle.__drizzle_migrations`,
        );
        return (result as unknown as { rows: { n: number }[] }).rows[0]!.n;
      };
      const all = await recorded();
      // The start's short cut must not skip a migration the database lacks: the migrator runs
      // and records the newest one again.
      await handle.db.execute(
        sql`delete from drizzle.__drizzle_migrations where created_at = (select max(created_at) from drizzle.__drizzle_migrations)`,
      );
      expect(await recorded()).toBe(all - 1);
      await handle.migrate();
      expect(await recorded()).toBe(all);
      // Up to date, nothing is applied or recorded twice.
      await handle.migrate();
      expect(await recorded()).toBe(all);
    } finally {
      await handle.close();
    }
  });
});
