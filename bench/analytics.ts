/**
 * npm run bench:analytics: issue #17's figures at 5,000,000 page views. Uses the PostgreSQL
 * database `bench_analytics` (BENCH_ANALYTICS_DATABASE_URL), refilled on every run: 5M views
 * over 90 days (with consented visits and funnel steps), rolled up by the real rollup (timed),
 * which keeps 30 days of raw events. Then the Analítica report's p50/p95 for 30 and 90 days, and
 * the beacon endpoint's throughput on the production server (autocannon, one client address
 * per request as behind a proxy), checked against the rows it wrote.
 */
import autocannon from "autocannon";
import pg from "pg";
import { sql } from "drizzle-orm";
import { analyticsReport, rollUpAnalytics } from "~/features/analytics/analytics.server";
import { openDatabase } from "~/platform/db/client.server";
import { installDatabase } from "~/platform/db/database.server";
import { percentile } from "./admin-measure";
import { startServer } from "./bench-server";

const PAGE_VIEWS = 5_000_000;
const DAYS = 90;
const SAMPLES = 50;
const CONNECTIONS = 32;
const url = new URL(
  process.env.BENCH_ANALYTICS_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/bench_analytics",
);
const log = (line: string) => console.log(`[bench:analytics] ${line}`);

async function recreateDatabase() {
  const server = new pg.Client({ connectionString: new URL("/postgres", url).toString() });
  await server.connect();
  const name = url.pathname.slice(1);
  await server.query(`drop database if exists ${name} with (force)`);
  await server.query(`create database ${name}`);
  await server.end();
}

async function main() {
  await recreateDatabase();
  const handle = openDatabase({ kind: "postgres", url: url.toString() });
  await handle.migrate();
  installDatabase(handle);
  const db = handle.db;

  let started = performance.now();
  const paths = [
    "/",
    "/precios",
    "/contacto",
    "/desarrollo-web",
    "/ciberseguridad",
    "/inteligencia-artificial",
    "/asistencia-digital",
    "/reputacion-digital",
    "/registro",
    "/cookies",
  ];
  const kinds = ["purchase_dialog", "enquiry", "signup", "payment"];
  // Oldest day first, as a log fills: a day's events sit together on disk. Every 7th view
  // belongs to a consented visit (4 views each); every 50th is a funnel step.
  await db.execute(sql`
    insert into analytics_events (day, kind, path, referrer_host, device, visitor_hash, visit_id, returning_visitor)
    select (now() at time zone 'Europe/Madrid')::date - (${DAYS - 1} - (n - 1) / ${Math.ceil(PAGE_VIEWS / DAYS)})::int,
      case when n % 50 = 0 then (${sql.raw(`array['${kinds.join("','")}']`)})[1 + (n / 50) % 4] else 'view' end,
      (${sql.raw(`array['${paths.join("','")}']`)})[1 + n % ${paths.length}],
      case when n % 5 = 0 then (array['google.es','bing.com','linkedin.com','facebook.com'])[1 + n % 4] end,
      (array['desktop','mobile','mobile','tablet'])[1 + n % 4],
      md5((n / 3)::text),
      case when n % 7 = 0 then md5('visit' || (n / 28)::text) end,
      case when n % 7 = 0 then n % 3 = 0 end
    from generate_series(1, ${PAGE_VIEWS}) as n`);
  log(
    `inserted ${PAGE_VIEWS.toLocaleString("en")} events in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  await db.execute(sql`analyze analytics_events`);

  started = performance.now();
  await rollUpAnalytics(db);
  const rollupSeconds = (performance.now() - started) / 1000;
  const countEvents = async () =>
    (
      (await db.execute(sql`select count(*)::int as n from analytics_events`)) as unknown as {
        rows: { n: number }[];
      }
    ).rows[0]!.n;
  log(
    `rollup of ${DAYS - 1} closed days in ${rollupSeconds.toFixed(1)} s; raw events kept: ${(await countEvents()).toLocaleString("en")}`,
  );
  await db.execute(sql`vacuum analyze analytics_events`);

  const reportTimes: Record<number, number[]> = { 30: [], 90: [] };
  for (const days of [30, 90]) {
    for (let sample = 0; sample < SAMPLES + 5; sample += 1) {
      const begin = performance.now();
      const report = await analyticsReport(days, db);
      if (sample >= 5) reportTimes[days]!.push(performance.now() - begin);
      if (sample === 0)
        log(
          `${days} days: ${report.views.toLocaleString("en")} views, ${report.funnel.visits} consented visits`,
        );
    }
    const times = reportTimes[days]!;
    log(
      `Analítica report, ${days} days: p50 ${percentile(times, 50).toFixed(1)} ms, p95 ${percentile(times, 95).toFixed(1)} ms`,
    );
  }

  const before = await countEvents();
  const server = await startServer({ DATABASE_URL: url.toString(), TRUST_PROXY: "true" });
  let counter = 0;
  const result = await autocannon({
    url: `${server.url}/api/analitica`,
    method: "POST",
    connections: CONNECTIONS,
    duration: 10,
    headers: {
      "content-type": "text/plain",
      "user-agent":
        "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36",
      origin: server.url,
    },
    body: JSON.stringify({ kind: "view", path: "/precios", referrer: "https://www.google.es/" }),
    // One address per request, as visitors behind the proxy: the per-address limit stays out of it.
    requests: [
      {
        setupRequest: (request) => ({
          ...request,
          headers: {
            ...request.headers,
            "x-forwarded-for": `10.${(counter >> 16) & 255}.${(counter >> 8) & 255}.${counter++ & 255}`,
          },
        }),
      },
    ],
  });
  await server.stop();
  const written = (await countEvents()) - before;
  log(
    `beacon: ${Math.round(result.requests.average)} req/s average, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms; 2xx ${result["2xx"]}, non-2xx ${result.non2xx}, errors ${result.errors}; rows written ${written}${written >= result["2xx"] && written - result["2xx"] <= CONNECTIONS ? " (every 204 counted; requests still in flight when the run stopped are written but not tallied)" : " (MISMATCH)"}`,
  );
  await handle.close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
