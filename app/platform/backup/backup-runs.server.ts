import { max } from "drizzle-orm";
import type { Database } from "../db/client.server";
import { backupRuns } from "../db/schema";

/**
 * When the newest backup made beside PostgreSQL completed (pgBackRest's schedule records each
 * in backup_runs, decision 057), in Unix seconds; undefined before the first, as on a managed
 * database whose provider backs it up.
 */
export async function newestRecordedBackupSeconds(db: Database): Promise<number | undefined> {
  const [row] = await db.select({ newest: max(backupRuns.finishedAt) }).from(backupRuns);
  return row?.newest ? row.newest.getTime() / 1000 : undefined;
}
