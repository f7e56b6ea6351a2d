/**
 * npx tsx bench/admin-explain.ts "tab=pagos&q=garcia" ["tab=tickets&orden=vencidos" …]: runs the
 * admin panel's loader query code (adminPanel) for each address against DATABASE_URL (default:
 * the bench's database) and prints every SQL statement it sent with EXPLAIN (ANALYZE, BUFFERS)
 * and its execution time: where a slow page of `npm run bench:admin` spends its time.
 */
import pg from "pg";

process.env.DATABASE_URL ??= "postgres://postgres@127.0.0.1:5432/bench_admin";
process.env.LOG_LEVEL ??= "warn";

type Sent = { text: string; values: unknown[] };
const sent: Sent[] = [];
let recording = false;

// Every query goes through pg.Client#query (the pool lends clients): note the loader's ones.
const originalQuery = pg.Client.prototype.query as (...args: unknown[]) => unknown;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  const [first, second] = args;
  if (recording) {
    if (typeof first === "string") sent.push({ text: first, values: (second as unknown[]) ?? [] });
    else if (first && typeof first === "object" && "text" in first) {
      const config = first as { text: string; values?: unknown[] };
      sent.push({ text: config.text, values: config.values ?? (second as unknown[]) ?? [] });
    }
  }
  return originalQuery.apply(this, args);
} as typeof pg.Client.prototype.query;

const { adminPanel } = await import("../app/features/admin/admin-panel.server");
const { closeDatabase } = await import("../app/platform/db/database.server");

const addresses = process.argv.slice(2);
if (addresses.length === 0) {
  console.error('Uso: npx tsx bench/admin-explain.ts "tab=pagos&q=garcia" …');
  process.exit(2);
}

const explainer = new pg.Client({ connectionString: process.env.DATABASE_URL });
await explainer.connect();
try {
  for (const address of addresses) {
    const url = new URL(`http://bench.invalid/admin?${address.replace(/^\/?admin\??/, "")}`);
    await adminPanel(url); // warm: plans and pages in cache, as in the bench
    sent.length = 0;
    recording = true;
    const started = performance.now();
    await adminPanel(url);
    const loaderMs = performance.now() - started;
    recording = false;
    console.log(
      `\n=== ${url.search} — loader ${loaderMs.toFixed(1)} ms, ${sent.length} statements`,
    );
    for (const { text, values } of sent) {
      const { rows } = await explainer.query(
        `explain (analyze, buffers, format text) ${text}`,
        values as unknown[],
      );
      const plan = rows.map((row: Record<string, string>) => row["QUERY PLAN"]).join("\n");
      const execution = /Execution Time: ([\d.]+) ms/.exec(plan)?.[1];
      console.log(
        `\n--- ${execution ?? "?"} ms\n${text}\n-- values: ${JSON.stringify(values)}\n${plan}`,
      );
    }
  }
} finally {
  await explainer.end();
  await closeDatabase();
}
