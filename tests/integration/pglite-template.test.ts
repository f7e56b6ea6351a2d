import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { writePgliteTemplate } from "../../build-tools/pglite-template";
import { migrationsFolder, openDatabase } from "~/platform/db/client.server";
import { contactInquiries } from "~/platform/db/schema";

const enquiry = { name: "Ana", email: "ana@example.com", service: "ia", message: "Hola, ayuda." };

/**
 * The cluster state in global/pg_control (PostgreSQL's ControlFileData: after the system
 * identifier, the control and catalogue versions): 1 is "shut down", 6 "in production".
 */
function clusterState(dataDir: string): number {
  return readFileSync(path.join(dataDir, "global", "pg_control")).readUInt32LE(16);
}
const SHUT_DOWN = 1;

describe("the embedded database template", () => {
  it("gives a new data directory the migrated schema, and never replaces an existing one", async () => {
    const root = mkdtempSync(path.join(tmpdir(), "pglite-template-"));
    const template = path.join(root, "template");
    await writePgliteTemplate(template, migrationsFolder);
    // Shut down cleanly: a copy starts without crash recovery (replaying every migration's
    // write-ahead log on each first start; decision 039).
    expect(clusterState(template)).toBe(SHUT_DOWN);
    // Only the site's database: initdb's template0 and template1 were half of the files a
    // first start copies (decision 046).
    expect(readdirSync(path.join(template, "base"))).toHaveLength(1);
    const dataDir = path.join(root, "db");

    const first = openDatabase({ kind: "pglite", dataDir, template });
    // A 16 MB buffer cache, zeroed at every start instead of 128 MB (decision 046).
    const { rows: settings } = (await first.db.execute(sql`show shared_buffers`)) as unknown as {
      rows: { shared_buffers: string }[];
    };
    expect(settings[0]?.shared_buffers).toBe("16MB");
    // No migration has run on this handle: the tables come from the template.
    await first.db.insert(contactInquiries).values(enquiry);
    await first.close();

    const second = openDatabase({ kind: "pglite", dataDir, template });
    await second.migrate();
    const rows = await second.db.select().from(contactInquiries);
    await second.close();
    expect(rows.map((row) => row.email)).toEqual(["ana@example.com"]);

    // The copy is the data directory's own: another one starts from the template as built.
    const other = openDatabase({ kind: "pglite", dataDir: path.join(root, "other"), template });
    expect(await other.db.select().from(contactInquiries)).toEqual([]);
    await other.close();
  });
});
