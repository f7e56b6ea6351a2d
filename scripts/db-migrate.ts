/** npm run db:migrate: applies pending migrations to DATABASE_URL (or the embedded database). */
import { ConfigError } from "../app/platform/config.server";
import { closeDatabase, getDatabaseHandle } from "../app/platform/db/database.server";

try {
  const database = getDatabaseHandle();
  await database.migrate();
  console.log(`Migraciones aplicadas (${database.kind}).`);
  await closeDatabase();
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
}
