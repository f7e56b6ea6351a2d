/**
 * npm run bench:admin [-- --fresh] [-- --build] [-- --samples=50]: the admin panel at a million
 * rows (issue 14). Uses the PostgreSQL database `bench_admin` (BENCH_ADMIN_DATABASE_URL), filled
 * by `db:seed --large` unless it already holds the large seed (--fresh drops it and seeds it
 * again), builds when build/ is missing (or with --build), starts the production server on it,
 * signs an administrator in through /login like a browser and measures, per page, p50 and p95
 * of sequential requests after a warm-up, a short concurrent run, and the CSV export of every
 * payment (rows per second, the server's resident memory), then the VERI*FACTU chain check and
 * the /admin/verifactu queries in-process (admin-verifactu.ts; --verifactu-only measures just
 * those, without building or starting the server, and updates that part of the results). Prints
 * a table and writes bench/results-admin.json; each line says whether it meets the issue's targets.
 */
import { execSync, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import autocannon from "autocannon";
import pg from "pg";
import { format } from "prettier";
import { memoryOf, mb, percentile, resetPeak, sampleRss, timedGet } from "./admin-measure";
import { measureVerifactu, printVerifactu, VERIFACTU_TARGETS } from "./admin-verifactu";
import { startServer, type RunningServer } from "./bench-server";

const TARGETS = {
  pageP95Ms: 100,
  pageGoalP95Ms: 50,
  csvRowsPerSecond: 100_000,
  csvRssGrowthMb: 100,
};

/** What `db:seed --large` writes; a database holding at least this much is reused. */
const LARGE_SEED = {
  users: 100_000,
  payments: 1_000_000,
  tickets: 200_000,
  inquiries: 200_000,
  // One per completed or refunded payment, one more per refund: about 860,000.
  invoices: 800_000,
  records: 800_000,
};

const ADMIN_EMAIL = "bench-admin@bench.example";

const args = process.argv.slice(2);
const flag = (name: string) => args.includes(`--${name}`);
const samples = Number(
  /^--samples=(\d+)$/.exec(args.find((a) => a.startsWith("--samples=")) ?? "")?.[1] ?? 50,
);
const warmUp = 10;

const databaseUrl = new URL(
  process.env.BENCH_ADMIN_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/bench_admin",
);
const databaseName = decodeURIComponent(databaseUrl.pathname.slice(1));
const maintenanceUrl = new URL(databaseUrl);
maintenanceUrl.pathname = "/postgres";

function log(message: string) {
  console.log(`[bench:admin] ${message}`);
}

async function withClient<T>(url: URL, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Row counts of the seeded tables, or null when the database does not exist or is not migrated. */
async function seededCounts() {
  try {
    return await withClient(databaseUrl, async (client) => {
      const { rows } = await client.query<Record<keyof typeof LARGE_SEED, string>>(`
        select (select count(*) from users) as users, (select count(*) from payments) as payments,
               (select count(*) from support_tickets) as tickets,
               (select count(*) from contact_inquiries) as inquiries,
               (select count(*) from invoices) as invoices,
               (select count(*) from verifactu_records) as records`);
      return Object.fromEntries(Object.entries(rows[0]!).map(([k, v]) => [k, Number(v)])) as Record<
        keyof typeof LARGE_SEED,
        number
      >;
    });
  } catch {
    return null;
  }
}

/** Makes sure bench_admin holds the large seed; returns how long seeding took, if it ran. */
async function prepareDatabase(): Promise<{ reused: boolean; seedSeconds: number | null }> {
  await withClient(maintenanceUrl, async (client) => {
    const exists = await client.query("select 1 from pg_database where datname = $1", [
      databaseName,
    ]);
    if (exists.rowCount && flag("fresh")) {
      log(`--fresh: dropping ${databaseName}`);
      await client.query(`drop database ${pg.escapeIdentifier(databaseName)} with (force)`);
    }
    if (!exists.rowCount || flag("fresh")) {
      log(`creating ${databaseName}`);
      await client.query(`create database ${pg.escapeIdentifier(databaseName)}`);
    }
  });
  const counts = await seededCounts();
  const seeded =
    counts !== null &&
    (Object.keys(LARGE_SEED) as (keyof typeof LARGE_SEED)[]).every(
      (table) => counts[table] >= LARGE_SEED[table],
    );
  if (seeded) {
    log(`reusing ${databaseName}: ${JSON.stringify(counts)}`);
    return { reused: true, seedSeconds: null };
  }
  // The bench's own database: emptying what a half-finished run left there is safe.
  const reset = counts !== null && Object.values(counts).some((rows) => rows > 0);
  log(`seeding ${databaseName} (db:seed --large${reset ? " --reset" : ""})`);
  const started = performance.now();
  const seed = spawnSync(
    "npx",
    ["tsx", "scripts/db-seed.ts", "--large", ...(reset ? ["--reset"] : [])],
    { stdio: "inherit", env: { ...process.env, DATABASE_URL: databaseUrl.toString() } },
  );
  if (seed.status !== 0) throw new Error(`db:seed failed (exit ${seed.status})`);
  return { reused: false, seedSeconds: Math.round((performance.now() - started) / 100) / 10 };
}

/** Signs the administrator in as the browser's form post does; returns the Cookie header. */
async function signIn(server: RunningServer, password: string): Promise<string> {
  const response = await fetch(`${server.url}/login`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url },
    body: new URLSearchParams({ email: ADMIN_EMAIL, password }),
    redirect: "manual",
  });
  const cookie = response.headers
    .getSetCookie()
    .map((value) => value.split(";")[0]!)
    .filter((pair) => !pair.endsWith("="))
    .join("; ");
  if (response.status !== 302 || !/session_token=/.test(cookie))
    throw new Error(`sign-in at /login answered ${response.status} without a session cookie`);
  const check = await timedGet(`${server.url}/admin`, cookie);
  if (check.status !== 200) throw new Error(`/admin answered ${check.status} after signing in`);
  return cookie;
}

/** Search terms taken from the data, so each search finds what it is meant to find. */
async function searchTerms() {
  return withClient(databaseUrl, async (client) => {
    const rare = await client.query<{ term: string; rows: string }>(`
      select split_part(customer_email, '@', 1) as term, count(*) as rows
        from payments
       where customer_email like '%.%@%'
       group by customer_email having count(*) between 3 and 8
       order by customer_email limit 1`);
    const ticket = await client.query<{ number: string }>(
      "select ticket_number as number from support_tickets order by ticket_number desc offset 500 limit 1",
    );
    const person = await client.query<{ surname: string }>(
      "select split_part(full_name, ' ', 2) as surname from profiles where full_name like '% Castells %' limit 1",
    );
    return {
      rareEmail: rare.rows[0]!.term,
      rareEmailRows: Number(rare.rows[0]!.rows),
      ticketNumber: ticket.rows[0]!.number,
      surname: person.rows[0]?.surname ?? "Castells",
    };
  });
}

type Case = { name: string; path: string; list: boolean };

function cases(terms: Awaited<ReturnType<typeof searchTerms>>): Case[] {
  const q = (value: string) => encodeURIComponent(value);
  const list = (name: string, path: string) => ({ name, path, list: true });
  return [
    { name: "dashboard", path: "/admin", list: false },
    list("consultas p1", "/admin?tab=consultas"),
    list("pagos p1", "/admin?tab=pagos"),
    list("tickets p1", "/admin?tab=tickets"),
    list("usuarios p1", "/admin?tab=usuarios"),
    list("clientes p1", "/admin?tab=clientes"),
    list("pagos p20000 (offset 500k)", "/admin?tab=pagos&pagina=20000"),
    list("tickets p4000 (offset 100k)", "/admin?tab=tickets&pagina=4000"),
    list(`pagos q=${terms.rareEmail} (rare)`, `/admin?tab=pagos&q=${q(terms.rareEmail)}`),
    list("pagos q=garcia (common)", "/admin?tab=pagos&q=garcia"),
    list("pagos q=gmail (very common)", "/admin?tab=pagos&q=gmail"),
    list("pagos estado=refunded", "/admin?tab=pagos&estado=refunded"),
    list("pagos estado=refunded p200", "/admin?tab=pagos&estado=refunded&pagina=200"),
    list("tickets estado=open", "/admin?tab=tickets&estado=open"),
    list("tickets orden=vencidos", "/admin?tab=tickets&orden=vencidos"),
    list(`tickets q=${terms.ticketNumber}`, `/admin?tab=tickets&q=${q(terms.ticketNumber)}`),
    list("consultas estado=pending", "/admin?tab=consultas&estado=pending"),
    list(`consultas q=${terms.surname}`, `/admin?tab=consultas&q=${q(terms.surname)}`),
    list(`usuarios q=${terms.surname}`, `/admin?tab=usuarios&q=${q(terms.surname)}`),
    list(`clientes q=${terms.rareEmail}`, `/admin?tab=clientes&q=${q(terms.rareEmail)}`),
  ];
}

type PageFigures = {
  name: string;
  path: string;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  /** The same address as client-side navigation fetches it (`.data`: loaders, no rendering). */
  dataP50Ms: number;
  dataP95Ms: number;
  tableRows: number | null;
  kB: number;
  meetsTarget: boolean;
  meetsGoal: boolean;
};

/** Rows of the page's table body (<tr> minus the header row), a check that the page has data. */
function tableRows(html: string): number {
  return Math.max(0, (html.match(/<tr[\s>]/g) ?? []).length - 1);
}

/** Warm-up, then `samples` sequential requests: their times and the last answer. */
async function sequential(url: string, cookie: string) {
  for (let i = 0; i < warmUp; i++) await timedGet(url, cookie);
  const times: number[] = [];
  let body = "";
  for (let i = 0; i < samples; i++) {
    const response = await timedGet(url, cookie);
    if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
    times.push(response.ms);
    body = response.body;
  }
  return { times, body };
}

async function measurePage(
  server: RunningServer,
  cookie: string,
  page: Case,
): Promise<PageFigures> {
  const html = await sequential(`${server.url}${page.path}`, cookie);
  const data = await sequential(
    `${server.url}${page.path.replace("/admin", "/admin.data")}`,
    cookie,
  );
  const p95Ms = percentile(html.times, 95);
  return {
    name: page.name,
    path: page.path,
    p50Ms: percentile(html.times, 50),
    p95Ms,
    maxMs: percentile(html.times, 100),
    dataP50Ms: percentile(data.times, 50),
    dataP95Ms: percentile(data.times, 95),
    tableRows: page.list ? tableRows(html.body) : null,
    kB: Math.round(Buffer.byteLength(html.body) / 102.4) / 10,
    meetsTarget: p95Ms < TARGETS.pageP95Ms,
    meetsGoal: p95Ms < TARGETS.pageGoalP95Ms,
  };
}

/** A few seconds of concurrent requests (8 connections) on some pages. */
async function concurrent(server: RunningServer, cookie: string, pages: Case[]) {
  const figures = [];
  for (const page of pages) {
    const result = await autocannon({
      url: `${server.url}${page.path}`,
      connections: 8,
      duration: 5,
      headers: { cookie, accept: "text/html", "accept-encoding": "gzip, br" },
    });
    figures.push({
      name: page.name,
      connections: 8,
      requestsPerSecond: Math.round(result.requests.average),
      p50Ms: result.latency.p50,
      p90Ms: result.latency.p90,
      p97_5Ms: result.latency.p97_5,
      non2xx: result.non2xx,
      errors: result.errors + result.timeouts,
    });
  }
  return figures;
}

/**
 * Streams the CSV of every payment, counting rows while sampling the server's memory; with the
 * browser's Accept-Encoding (compressed) or none (identity, to see what compression costs).
 */
async function measureCsv(server: RunningServer, cookie: string, compressed: boolean) {
  const pid = server.process.pid!;
  await new Promise((resolve) => setTimeout(resolve, 500));
  const before = memoryOf(pid);
  const peakReset = resetPeak(pid);
  const sampler = sampleRss(pid, 50);
  const started = performance.now();
  const response = await fetch(`${server.url}/admin/exportar?tab=pagos`, {
    headers: { cookie, "accept-encoding": compressed ? "gzip, deflate, br, zstd" : "identity" },
    redirect: "manual",
  });
  if (response.status !== 200 || !response.body)
    throw new Error(`/admin/exportar?tab=pagos answered ${response.status}`);
  let firstByteMs: number | null = null;
  let newlines = 0;
  let bytes = 0;
  let lastByte = 10;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    firstByteMs ??= performance.now() - started;
    bytes += chunk.length;
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) newlines++;
    if (chunk.length > 0) lastByte = chunk[chunk.length - 1]!;
  }
  const seconds = (performance.now() - started) / 1000;
  const sampled = sampler.stop();
  const after = memoryOf(pid);
  const peakKb = Math.max(sampled.peakKb, peakReset ? after.peakKb : 0);
  // Lines, the last one with or without its line break, minus the header.
  const rows = newlines + (lastByte === 10 ? 0 : 1) - 1;
  const growthMb = mb(peakKb - before.rssKb);
  const rowsPerSecond = Math.round(rows / seconds);
  return {
    acceptEncoding: compressed ? "browser" : "identity",
    rows,
    declaredRows: Number(response.headers.get("x-total-rows") ?? Number.NaN) || null,
    contentEncoding: response.headers.get("content-encoding"),
    megabytes: mb(bytes / 1024),
    seconds: Math.round(seconds * 100) / 100,
    firstByteMs: Math.round(firstByteMs ?? 0),
    rowsPerSecond,
    rssBeforeMb: mb(before.rssKb),
    rssPeakMb: mb(peakKb),
    rssGrowthMb: growthMb,
    rssSamples: sampled.samples,
    meetsRowsTarget: rowsPerSecond >= TARGETS.csvRowsPerSecond,
    meetsMemoryTarget: growthMb < TARGETS.csvRssGrowthMb,
  };
}

async function main() {
  const database = await prepareDatabase();
  const dataset = await seededCounts();
  if (flag("verifactu-only")) return verifactuOnly();
  if (flag("build") || !existsSync("build/server/index.js")) {
    log("building");
    execSync("npm run build", { stdio: "ignore" });
  }

  // A verified account made by the server at start (ADMIN_EMAIL/ADMIN_PASSWORD, decision 011);
  // the previous run's one goes first, so this run's password is the one that opens it.
  const password = `Bench-${randomBytes(12).toString("hex")}`;
  await withClient(databaseUrl, (client) =>
    client.query("delete from users where email = $1", [ADMIN_EMAIL]),
  );
  const server = await startServer({
    DATABASE_URL: databaseUrl.toString(),
    ADMIN_EMAIL,
    ADMIN_PASSWORD: password,
  });
  log(`server ready in ${server.readyMs} ms (pid ${server.process.pid})`);
  const results: Record<string, unknown> = {
    docs: "Written by `npm run bench:admin` (bench/admin.ts); README, 'The admin panel at a million rows'. Targets: issue 14.",
    date: new Date().toISOString(),
    machine: {
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model,
      node: process.version,
      // Other work on the machine skews every figure: the load average says how much there was.
      loadAverageAtStart: os.loadavg().map((load) => Math.round(load * 100) / 100),
    },
    database: { name: databaseName, ...database, rows: dataset },
    method: `HTML document GET as the signed-in admin (gzip/br), ${warmUp} warm-up then ${samples} sequential requests per page; nearest-rank percentiles`,
    targets: { ...TARGETS, ...VERIFACTU_TARGETS },
  };
  try {
    const cookie = await signIn(server, password);
    const terms = await searchTerms();
    results.searchTerms = terms;
    const only = args.find((a) => a.startsWith("--only="))?.slice("--only=".length);
    const all = cases(terms).filter((page) => !only || page.name.includes(only));
    const pages: PageFigures[] = [];
    for (const page of all) {
      const figures = await measurePage(server, cookie, page);
      log(`${figures.name}: p50 ${figures.p50Ms} ms, p95 ${figures.p95Ms} ms`);
      pages.push(figures);
    }
    results.pages = pages;
    log("concurrent: 8 connections, 5 s each");
    results.concurrent = await concurrent(
      server,
      cookie,
      all.filter((page) =>
        [
          "dashboard",
          "pagos p1",
          "pagos q=gmail (very common)",
          "pagos p20000 (offset 500k)",
        ].includes(page.name),
      ),
    );
    log("CSV export of every payment, as a browser downloads it (compressed), then uncompressed");
    // --csv=identity,browser changes the order (the first export also grows the heap).
    const encodings = (args.find((a) => a.startsWith("--csv="))?.slice(6) ?? "browser,identity")
      .split(",")
      .filter((name) => name === "browser" || name === "identity");
    const runs = [];
    for (const encoding of encodings)
      runs.push(await measureCsv(server, cookie, encoding === "browser"));
    results.csv = runs;
  } finally {
    await server.stop();
  }
  log("VERI*FACTU: chain check and the staff page's queries (in-process)");
  results.verifactu = await measureVerifactu(databaseUrl.toString(), samples, warmUp);
  (results.machine as Record<string, unknown>).loadAverageAtEnd = os
    .loadavg()
    .map((load) => Math.round(load * 100) / 100);
  // Formatted as `npm run lint` expects it.
  writeFileSync(
    "bench/results-admin.json",
    await format(JSON.stringify(results), { parser: "json" }),
  );
  printTable(results);
}

/** Measures the VERI*FACTU part alone and puts it into the last results. */
async function verifactuOnly() {
  const verifactu = await measureVerifactu(databaseUrl.toString(), samples, warmUp);
  const results = existsSync("bench/results-admin.json")
    ? (JSON.parse(readFileSync("bench/results-admin.json", "utf8")) as Record<string, unknown>)
    : {};
  Object.assign(results, {
    targets: { ...(results.targets as object), ...VERIFACTU_TARGETS },
    verifactu: { date: new Date().toISOString(), ...verifactu },
  });
  writeFileSync(
    "bench/results-admin.json",
    await format(JSON.stringify(results), { parser: "json" }),
  );
  printVerifactu(verifactu);
}

function printTable(results: Record<string, unknown>) {
  const mark = (ok: boolean) => (ok ? "yes" : "NO");
  const pages = results.pages as PageFigures[];
  console.log("\nAdmin pages (p95 target < 100 ms, goal < 50 ms)");
  console.table(
    Object.fromEntries(
      pages.map((page) => [
        page.name,
        {
          "p50 ms": page.p50Ms,
          "p95 ms": page.p95Ms,
          "max ms": page.maxMs,
          ".data p50": page.dataP50Ms,
          ".data p95": page.dataP95Ms,
          rows: page.tableRows ?? "",
          kB: page.kB,
          "< 100": mark(page.meetsTarget),
          "< 50": mark(page.meetsGoal),
        },
      ]),
    ),
  );
  console.log("Concurrent (8 connections, 5 s)");
  console.table(
    Object.fromEntries(
      (results.concurrent as { name: string }[]).map(({ name, ...rest }) => [name, rest]),
    ),
  );
  const csv = results.csv as Awaited<ReturnType<typeof measureCsv>>[];
  console.log("CSV export of every payment (target ≥ 100,000 rows/s, RSS growth < 100 MB)");
  console.table(
    Object.fromEntries(
      csv.map((run, index) => [
        `#${index + 1} ${run.acceptEncoding}${run.contentEncoding ? ` (${run.contentEncoding})` : ""}`,
        {
          rows: run.rows,
          "X-Total-Rows": run.declaredRows ?? "",
          s: run.seconds,
          "rows/s": run.rowsPerSecond,
          "first byte ms": run.firstByteMs,
          MB: run.megabytes,
          "RSS before MB": run.rssBeforeMb,
          "RSS peak MB": run.rssPeakMb,
          "growth MB": run.rssGrowthMb,
          "rows/s ok": mark(run.meetsRowsTarget),
          "memory ok": mark(run.meetsMemoryTarget),
        },
      ]),
    ),
  );
  printVerifactu(results.verifactu as Awaited<ReturnType<typeof measureVerifactu>>);
  const database = results.database as { reused: boolean; seedSeconds: number | null };
  const machine = results.machine as Record<string, number[]>;
  console.log(
    `Load average (1, 5, 15 min) at start ${machine.loadAverageAtStart!.join(", ")}, at end ${machine.loadAverageAtEnd!.join(", ")} on ${os.cpus().length} CPUs.`,
  );
  console.log(
    database.reused
      ? "Database reused (already seeded)."
      : `Seeded in ${database.seedSeconds} s (npm run db:seed -- --large).`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
