import { writeFileSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";

/**
 * Creates an embedded database with every migration applied and writes it as a tarball.
 * A first start on an empty data directory loads it instead of running initdb and the
 * migrations, which take seconds; the server still migrates at start, so the template only
 * saves time and never decides the schema.
 */
export async function writePgliteTemplate(file: string, migrationsFolder: string) {
  const client = new PGlite({ extensions: { pg_trgm } });
  try {
    await migrate(drizzle(client), { migrationsFolder });
    const dump = await client.dumpDataDir("gzip");
    writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  } finally {
    await client.close();
  }
}
