import { describe, expect, it } from "vitest";
import { newestRecordedBackupSeconds } from "~/platform/backup/backup-runs.server";
import { backupRuns } from "~/platform/db/schema";
import { setupTestDatabase } from "../support/test-database";

const database = setupTestDatabase();

describe("backups recorded beside PostgreSQL (decision 057)", () => {
  it("are unknown until the first is recorded, then the newest counts", async () => {
    expect(await newestRecordedBackupSeconds(database.db)).toBeUndefined();
    const older = new Date("2026-11-24T02:31:05Z");
    const newer = new Date("2026-11-25T02:34:40Z");
    await database.db.insert(backupRuns).values([
      { kind: "pgbackrest-diff", finishedAt: newer },
      { kind: "pgbackrest-full", finishedAt: older },
    ]);
    expect(await newestRecordedBackupSeconds(database.db)).toBe(newer.getTime() / 1000);
  });
});
