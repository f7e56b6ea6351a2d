import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, pgliteExtensions } from "~/platform/db/client.server";

/**
 * `npm run db:seed` without DATABASE_URL: the demo seed fills the embedded database of DATA_DIR
 * (where the server would open it), with every index and foreign key back; --large is refused
 * before anything is created; a second run refuses without --reset. The data's own agreement and
 * --reset are checked on PostgreSQL (tests/postgres/db-seed.test.ts): both run the same statements.
 */
const run = promisify(execFile);
let dataDir: string;

function seed(...args: string[]) {
  return run(process.execPath, ["--import", "tsx", "scripts/db-seed.ts", ...args], {
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "" },
  }).then(
    ({ stdout }) => ({ code: 0, output: stdout }),
    (error: { code: number; stdout: string; stderr: string }) => ({
      code: error.code,
      output: `${error.stdout}${error.stderr}`,
    }),
  );
}

/** Runs `work` on the seeded directory's database, opened as the server opens it. */
async function onSeeded<T>(work: (db: PGlite) => Promise<T>): Promise<T> {
  const db = new PGlite(path.join(dataDir, "db"), { extensions: pgliteExtensions });
  try {
    return await work(db);
  } finally {
    await db.close();
  }
}

const structureSql = `
  select indexdef as line from pg_indexes where schemaname = 'public'
  union all
  select conrelid::regclass || ' ' || conname || ' ' || pg_get_constraintdef(oid)
    from pg_constraint where connamespace = 'public'::regnamespace
  order by 1`;

beforeAll(() => {
  dataDir = mkdtempSync(path.join(tmpdir(), "seed-pglite-"));
});

afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

describe("npm run db:seed on the embedded database (PGlite)", () => {
  it("refuses --large before creating anything", async () => {
    const refused = await seed("--large");
    expect(refused.code).toBe(2);
    expect(refused.output).toContain("--large solo llena PostgreSQL");
    expect(existsSync(path.join(dataDir, "db"))).toBe(false);
  }, 120_000);

  it("fills DATA_DIR's database with the demo data, indexes and foreign keys included", async () => {
    const outcome = await seed();
    expect(outcome.code, outcome.output).toBe(0);
    expect(outcome.output).toContain(`${path.join(dataDir, "db")} (PGlite)`);

    const { counts, dayTotals, structure } = await onSeeded(async (db) => ({
      counts: (
        await db.query(`
          select (select count(*)::int from users) as users,
                 (select count(*)::int from user_roles where role = 'admin') as admins,
                 (select count(*)::int from purchases) as purchases,
                 (select count(*)::int from payments) as payments,
                 (select count(*)::int from support_tickets) as tickets,
                 (select count(*)::int from contact_inquiries) as inquiries`)
      ).rows[0],
      // The day totals the dashboard reads, rebuilt after the load, agree with the payments.
      dayTotals: (
        await db.query(`
          select (created_at at time zone 'Europe/Madrid')::date as day, status,
                 count(*)::bigint as payments, sum(amount)::bigint as amount
            from payments group by 1, 2
          except select day, status, payments, amount from payment_day_totals`)
      ).rows,
      structure: (await db.query<{ line: string }>(structureSql)).rows.map((row) => row.line),
    }));
    expect(counts).toEqual({
      users: 200,
      admins: 2,
      purchases: 600,
      payments: 600,
      tickets: 120,
      inquiries: 150,
    });
    expect(dayTotals).toEqual([]);

    const reference = openDatabase({ kind: "pglite", dataDir: "memory" });
    try {
      await reference.migrate();
      const migrated = (await reference.db.execute(structureSql)) as unknown as {
        rows: { line: string }[];
      };
      expect(structure).toEqual(migrated.rows.map((row) => row.line));
      expect(structure.length).toBeGreaterThan(20);
    } finally {
      await reference.close();
    }
  }, 180_000);

  it("refuses a second run on a database that holds data", async () => {
    const refused = await seed();
    expect(refused.code).toBe(1);
    expect(refused.output).toContain("200 usuarios");
    expect(refused.output).toContain("--reset");
    const payments = await onSeeded(
      async (db) => (await db.query("select count(*)::int as n from payments")).rows[0],
    );
    expect(payments).toEqual({ n: 600 });
  }, 120_000);
});
