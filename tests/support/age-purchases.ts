/**
 * `npx tsx tests/support/age-purchases.ts <DATA_DIR> <email> <days>`: moves the payment date of
 * every purchase of the account `email` `days` days back, in the embedded database of DATA_DIR.
 * A browser test uses it to see a purchase past its 14-day withdrawal period without waiting
 * two weeks. Run it while no server holds the directory (PGlite takes one process).
 */
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pgliteExtensions } from "../../app/platform/db/client.server";

const [dataDir, email, days] = process.argv.slice(2);
if (!dataDir || !email || !Number.isInteger(Number(days))) {
  console.error("Uso: npx tsx tests/support/age-purchases.ts <DATA_DIR> <email> <días>");
  process.exit(2);
}

const db = new PGlite(path.join(path.resolve(dataDir), "db"), { extensions: pgliteExtensions });
const moved = await db.query(
  `update purchases set completed_at = completed_at - make_interval(days => $2::int)
    where completed_at is not null and user_id = (select id from users where email = $1)`,
  [email, Number(days)],
);
await db.close();
console.log(JSON.stringify({ moved: moved.affectedRows ?? 0 }));
