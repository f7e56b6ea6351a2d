import { describe, expect, it } from "vitest";
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
