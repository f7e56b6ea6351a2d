/**
 * The VERI*FACTU part of `npm run bench:admin` (issue 23), measured in-process on the seeded
 * database (no HTTP: these are the queries behind 'Comprobar cadena' and /admin/verifactu):
 * checkChain over every record (records per second, target ≥ 200,000) and p50/p95 of the staff
 * page's queries after a warm-up.
 */
import { checkChain } from "../app/features/verifactu/chain-check.server";
import {
  countRecords,
  listRecords,
  verifactuQueue,
} from "../app/features/verifactu/staff-records.server";
import { openDatabase } from "../app/platform/db/client.server";
import { percentile } from "./admin-measure";

export const VERIFACTU_TARGETS = { chainRecordsPerSecond: 200_000, pageQueryP95Ms: 100 };

const PAGE_SIZE = 25;

type Reader = Parameters<typeof listRecords>[0];

/** What /admin/verifactu's loader asks the database, per filter. */
const pageQueries: { name: string; run: (db: Reader) => Promise<unknown> }[] = [
  { name: "lista p1", run: (db) => listPage(db, {}) },
  { name: "lista estado=rejected", run: (db) => listPage(db, { state: "rejected" }) },
  { name: "lista estado=pending", run: (db) => listPage(db, { state: "pending" }) },
  {
    name: "lista de un mes",
    run: (db) => listPage(db, { from: monthAgo(2), to: monthAgo(1) }),
  },
  { name: "cola y último envío", run: (db) => verifactuQueue(db) },
];

function monthAgo(months: number): string {
  const day = new Date();
  day.setUTCMonth(day.getUTCMonth() - months);
  return day.toISOString().slice(0, 10);
}

function listPage(db: Reader, filters: Parameters<typeof listRecords>[1]) {
  return Promise.all([
    countRecords(db, filters),
    listRecords(db, filters, undefined, PAGE_SIZE),
    verifactuQueue(db),
  ]);
}

export async function measureVerifactu(databaseUrl: string, samples: number, warmUp: number) {
  const database = openDatabase({ kind: "postgres", url: databaseUrl, maxConnections: 4 });
  try {
    const runs = [];
    for (let run = 0; run < 3; run++) {
      const check = await checkChain(database.db);
      if (check.firstBreak) throw new Error(`chain break: ${JSON.stringify(check.firstBreak)}`);
      runs.push({ records: check.checked, seconds: Math.round(check.seconds * 1000) / 1000 });
    }
    const best = runs.reduce((a, b) => (b.seconds < a.seconds ? b : a));
    const recordsPerSecond = Math.round(best.records / best.seconds);
    const queries = [];
    for (const query of pageQueries) {
      for (let i = 0; i < warmUp; i++) await query.run(database.db);
      const times: number[] = [];
      for (let i = 0; i < samples; i++) {
        const started = performance.now();
        await query.run(database.db);
        times.push(performance.now() - started);
      }
      const p95Ms = percentile(times, 95);
      queries.push({
        name: query.name,
        p50Ms: percentile(times, 50),
        p95Ms,
        meetsTarget: p95Ms < VERIFACTU_TARGETS.pageQueryP95Ms,
      });
    }
    return {
      chainCheck: {
        runs,
        recordsPerSecond,
        meetsTarget: recordsPerSecond >= VERIFACTU_TARGETS.chainRecordsPerSecond,
      },
      pageQueries: queries,
    };
  } finally {
    await database.close();
  }
}

export function printVerifactu(figures: Awaited<ReturnType<typeof measureVerifactu>>) {
  const mark = (ok: boolean) => (ok ? "yes" : "NO");
  const { chainCheck } = figures;
  console.log(
    `VERI*FACTU chain check: ${chainCheck.runs.map((run) => `${run.records} records in ${run.seconds} s`).join(", ")}; best ${chainCheck.recordsPerSecond.toLocaleString("en")} records/s (target ≥ 200,000: ${mark(chainCheck.meetsTarget)})`,
  );
  console.log("VERI*FACTU page queries (in-process, p95 target < 100 ms)");
  console.table(
    Object.fromEntries(
      figures.pageQueries.map((query) => [
        query.name,
        { "p50 ms": query.p50Ms, "p95 ms": query.p95Ms, "< 100": mark(query.meetsTarget) },
      ]),
    ),
  );
}
