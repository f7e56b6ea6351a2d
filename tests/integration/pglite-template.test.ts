import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { writePgliteTemplate } from "../../build-tools/pglite-template";
import { migrationsFolder, openDatabase } from "~/platform/db/client.server";
import { contactInquiries } from "~/platform/db/schema";

const enquiry = { name: "Ana", email: "ana@example.com", service: "ia", message: "Hola, ayuda." };

describe("the embedded database template", () => {
  it("gives a new data directory the migrated schema, and never replaces an existing one", async () => {
    const root = mkdtempSync(path.join(tmpdir(), "pglite-template-"));
    const template = path.join(root, "template.tar.gz");
    await writePgliteTemplate(template, migrationsFolder);
    const dataDir = path.join(root, "db");

    const first = openDatabase({ kind: "pglite", dataDir, template });
    // No migration has run on this handle: the tables come from the template.
    await first.db.insert(contactInquiries).values(enquiry);
    await first.close();

    const second = openDatabase({ kind: "pglite", dataDir, template });
    await second.migrate();
    const rows = await second.db.select().from(contactInquiries);
    await second.close();
    expect(rows.map((row) => row.email)).toEqual(["ana@example.com"]);
  });
});
