/**
 * `npx tsx tests/support/age-sessions.ts <DATA_DIR> <email> <minutes>`: moves the last activity
 * (and, when later, the start) of every session of the account `email` `minutes` back, in the
 * embedded database of DATA_DIR. A browser test uses it to see a staff session end after 30
 * idle minutes without waiting them. Run it while no server holds the directory (PGlite takes
 * one process).
 */
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pgliteExtensions } from "../../app/platform/db/client.server";

const [dataDir, email, minutes] = process.argv.slice(2);
if (!dataDir || !email || !Number.isInteger(Number(minutes))) {
  console.error("Uso: npx tsx tests/support/age-sessions.ts <DATA_DIR> <email> <minutos>");
  process.exit(2);
}

const db = new PGlite(path.join(path.resolve(dataDir), "db"), { extensions: pgliteExtensions });
const moved = await db.query(
  `update sessions
      set last_seen_at = now() - make_interval(mins => $2::int),
          created_at = least(created_at, now() - make_interval(mins => $2::int))
    where user_id = (select id from users where email = $1)`,
  [email, Number(minutes)],
);
await db.close();
console.log(JSON.stringify({ moved: moved.affectedRows ?? 0 }));
