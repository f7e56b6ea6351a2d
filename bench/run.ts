/**
 * npm run bench: builds, starts the production server on a fresh database and measures
 * Lighthouse, bundle sizes, HTTP load against nginx serving the same bytes as static files and
 * through the shipped reverse proxy (deploy/nginx.conf) and its cache, the contact action on
 * PostgreSQL and the time to ready. BENCH_SMOKE=1 runs a short version (CI); BENCH_ONLY=contact
 * only the contact action.
 */
import { execSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import type autocannon from "autocannon";
import pg from "pg";
import { servicesWithPages } from "~/features/catalogue/services";
import { measureStarts, productionNode, startServer } from "./bench-server";
import {
  inlineStyleSizes,
  pageScriptSizes,
  PUBLIC_PAGE_SCRIPT_BUDGET_BYTES,
  routeBundleSizes,
} from "./bundle-sizes";
import { runLighthouse } from "./lighthouse";
import {
  BROWSER_ACCEPT_ENCODING,
  load,
  LOAD_TOOLS,
  loadAverage,
  loadWith,
  pageBytes,
  rawGet,
  startCachingProxy,
  startNginx,
  type LoadFigures,
  type LoadTool,
  type MeasuredLoad,
  type PageBytes,
} from "./load";

const smoke = process.env.BENCH_SMOKE === "1";
const lighthouseRuns = smoke ? 1 : 5;
const loadSeconds = smoke ? 2 : 10;
const postgresUrl = process.env.BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

// The list: home, each service page, prices, and the two account forms.
const lighthousePaths = smoke
  ? ["/"]
  : [
      "/",
      ...servicesWithPages().map((service) => service.path!),
      "/precios",
      "/login-cliente",
      "/registro",
    ];

/** A public page's LCP may exceed its static copy's by 5 % (issue #25). */
const LCP_TOLERANCE = 1.05;

/** Public pages held to the script budget (decision 038): one of each kind. */
const budgetedPublicPaths = ["/", "/precios", "/ciberseguridad", "/terminos"];

/**
 * What a public page breaks of its budgets: more script on a first visit than allowed (by our
 * count of its files and by Lighthouse's of what it transferred), or an LCP of `/` more than 5 %
 * behind its static copy's. The smoke run (CI: one Lighthouse run on a shared machine) judges
 * the bytes, which do not vary, but not the LCP, a timing one run cannot settle.
 */
function overPublicPageBudgets(
  results: Record<string, unknown>,
  { judgeTimings }: { judgeTimings: boolean },
): string[] {
  const over: string[] = [];
  const bundles = results.bundles as Record<string, { js: Record<string, number> }>;
  for (const pathname of budgetedPublicPaths) {
    const brotli = bundles[pathname]?.js.brotli ?? Infinity;
    if (brotli > PUBLIC_PAGE_SCRIPT_BUDGET_BYTES) over.push(`${pathname}: ${brotli} B (files)`);
  }
  const lighthouse = results.lighthouse as Record<string, { scriptBytes?: number; lcpMs?: number }>;
  const staticLcp = (results.lighthouseStatic as Record<string, { lcpMs: number }> | undefined)?.[
    "/"
  ]?.lcpMs;
  const siteLcp = lighthouse?.["/"]?.lcpMs;
  if (judgeTimings && staticLcp && siteLcp && siteLcp > staticLcp * LCP_TOLERANCE)
    over.push(`/: LCP ${siteLcp} ms against ${staticLcp} ms for its static copy`);
  for (const [pathname, figures] of Object.entries(lighthouse ?? {})) {
    const isPublic = !["/login-cliente", "/registro"].includes(pathname);
    if (isPublic && (figures.scriptBytes ?? 0) > PUBLIC_PAGE_SCRIPT_BUDGET_BYTES)
      over.push(`${pathname}: ${figures.scriptBytes} B (Lighthouse)`);
  }
  return over;
}

function log(message: string) {
  console.log(`[bench] ${message}`);
}

async function postgresAvailable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: postgresUrl, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

/**
 * Sets a new client address (10.x.y.z, through X-Forwarded-For) and a new visitor address on
 * every request: confirmations are limited per recipient too.
 */
function fromNextVisitor(fields: Record<string, string>) {
  let visitor = 0;
  return (request: autocannon.Request) => {
    visitor++;
    const address = `10.${(visitor >> 16) & 255}.${(visitor >> 8) & 255}.${visitor & 255}`;
    const body = new URLSearchParams({ ...fields, email: `v${visitor}@example.com` }).toString();
    return { ...request, body, headers: { ...request.headers, "x-forwarded-for": address } };
  };
}

async function contactLoad() {
  if (!(await postgresAvailable()))
    return { skipped: `PostgreSQL not reachable at ${postgresUrl}` };
  const name = `bench_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  // Each enquiry comes from its own address, as from real visitors: one address sending
  // hundreds a second is what the rate limit exists to stop. The bench is the trusted proxy.
  // The proof of work is the visitor's cost, not the server's: the bench measures the action
  // without it.
  const server = await startServer({
    DATABASE_URL: url.toString(),
    CONTACT_RATE_LIMIT: "5",
    TRUST_PROXY: "loopback",
    HUMAN_CHECK: "off",
  });
  const db = new pg.Client({ connectionString: url.toString() });
  await db.connect();
  try {
    const before = await databaseActivity(db);
    let figures: LoadFigures;
    try {
      // Where a public page's form posts (decision 038); a signed-in page posts to
      // /contacto.data, the same action behind React Router's data encoding.
      figures = await load(`${server.url}/api/contacto`, loadSeconds, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url },
        requests: [
          {
            setupRequest: fromNextVisitor({
              name: "Carga Benchmark",
              service: "ia",
              message: "Mensaje de prueba de carga del formulario de contacto.",
            }),
          },
        ],
      });
    } finally {
      await server.stop();
    }
    // Transactions include the mail worker's (claims, sends marked, copies held back).
    const after = await databaseActivity(db, true);
    const counts = await db.query(
      "select (select count(*) from contact_inquiries) as stored, (select count(*) from mail_outbox) as mails",
    );
    const stored = Number(counts.rows[0].stored);
    const mails = Number(counts.rows[0].mails);
    const perEnquiry = (count: number) => Math.round((count / stored) * 100) / 100;
    return {
      ...figures,
      stored,
      mails,
      enquiriesPerSecond: Math.round(stored / loadSeconds),
      transactionsPerEnquiry: perEnquiry(after.transactions - before.transactions),
      insertedRowsPerEnquiry: perEnquiry(after.insertedRows - before.insertedRows),
    };
  } finally {
    await db.end();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

/**
 * Committed transactions and inserted rows in the bench database; with `untilAlone`, once its
 * other clients have left (a backend reports its statistics as it exits).
 */
async function databaseActivity(db: pg.Client, untilAlone = false) {
  for (let waited = 0; untilAlone && waited < 10_000; waited += 50) {
    const others = await db.query(
      "select count(*)::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()",
    );
    if (others.rows[0].n === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const { rows } = await db.query(
    `select (select xact_commit from pg_stat_database where datname = current_database()) as transactions,
       (select sum(n_tup_ins) from pg_stat_user_tables) as inserted`,
  );
  return { transactions: Number(rows[0].transactions), insertedRows: Number(rows[0].inserted) };
}

/** One page under one load generator; `loadAverage` is the machine's once the three ran. */
type HttpFigures = {
  loadAverage: number;
  site: MeasuredLoad;
  nginx: MeasuredLoad;
  nginxCache: MeasuredLoad;
  /** site / nginx static, in requests per second. */
  ratio: number;
  /** nginx's cache / nginx static. */
  cacheRatio: number;
};

function ratio(measured: LoadFigures, reference: LoadFigures) {
  return Math.round((measured.requestsPerSecond / reference.requestsPerSecond) * 100) / 100;
}

/** Until the proxy answers `url` from its cache, for the browser's Accept-Encoding of the load. */
async function warmProxyCache(url: string) {
  for (let attempt = 0; attempt < 100; attempt++) {
    const answer = await rawGet(url, { "accept-encoding": BROWSER_ACCEPT_ENCODING });
    if (answer.headers["x-cache-status"] === "HIT") return;
  }
  throw new Error(`${url} never came from the proxy's cache`);
}

async function main() {
  if (process.env.BENCH_SKIP_BUILD !== "1") {
    log("building");
    execSync("npm run build", { stdio: "ignore" });
  }
  if (process.env.BENCH_ONLY === "contact") {
    log("contact action under load on PostgreSQL, alone (BENCH_ONLY=contact)");
    console.log(JSON.stringify(await contactLoad(), null, 2));
    return;
  }
  // A page React hydrates, by React Router's manifest; the public pages below, from their HTML.
  const bundles: Record<string, { js: Record<string, number> }> = routeBundleSizes({
    "/registro": "routes/registro",
  });

  log("start to ready on the embedded database: first and second starts");
  const starts = await measureStarts(smoke ? 1 : 5);
  // The same on production's Node, whose compile cache a second start uses (decision 056).
  const nodeOfProduction = smoke ? undefined : productionNode();
  const startsOnProductionNode = nodeOfProduction
    ? { node: nodeOfProduction, ...(await measureStarts(5, nodeOfProduction)) }
    : undefined;
  log("starting the server on a fresh embedded database");
  const server = await startServer();
  const results: Record<string, unknown> = {
    smoke,
    date: new Date().toISOString(),
    readyMs: starts.firstMs,
    secondReadyMs: starts.secondMs,
    starts,
    startsOnProductionNode,
    bundles,
  };
  try {
    for (const pathname of budgetedPublicPaths)
      bundles[pathname] = pageScriptSizes(await (await fetch(`${server.url}${pathname}`)).text());
    const pages: Record<string, PageBytes> = {};
    for (const pathname of ["/", "/precios"])
      pages[pathname] = await pageBytes(`${server.url}${pathname}`);
    results.inlineCss = inlineStyleSizes(pages["/"]!.identity.toString("utf8"));
    const nginx = await startNginx(pages);
    // The same page as a static file, measured in turn with the site's pages: its LCP is the
    // floor the site's is held to (decision 038).
    const staticHome = `${nginx.url}/`;
    log(
      `Lighthouse x${lighthouseRuns}, in turn: ${lighthousePaths.join(" ")} and / as nginx's static copy`,
    );
    const measured = await runLighthouse(
      [...lighthousePaths.map((p) => `${server.url}${p}`), staticHome],
      lighthouseRuns,
    );
    results.lighthouse = Object.fromEntries(
      lighthousePaths.map((p) => [p, measured[`${server.url}${p}`]]),
    );
    results.lighthouseStatic = { "/": measured[staticHome] };
    // deploy/nginx.conf in front of the same server: its cache against the static files.
    const proxy = await startCachingProxy([new URL(server.url).host]);
    try {
      // Each page with each tool: the site alone, nginx static, nginx's cache, back to back.
      const http: Record<string, Partial<Record<LoadTool, HttpFigures>>> = {};
      for (const pathname of ["/", "/precios"]) {
        for (const tool of LOAD_TOOLS) {
          log(
            `load ${pathname} with ${tool}: site, nginx static, nginx cache (${loadSeconds} s each)`,
          );
          const site = await loadWith(
            tool,
            `${server.url}${pathname}`,
            loadSeconds,
            server.process.pid!,
          );
          const reference = await loadWith(tool, `${nginx.url}${pathname}`, loadSeconds, nginx.pid);
          if (reference.non2xx > 0)
            throw new Error(`the nginx reference answered errors on ${pathname}`);
          await warmProxyCache(`${proxy.url}${pathname}`);
          const cached = await loadWith(tool, `${proxy.url}${pathname}`, loadSeconds, proxy.pid);
          if (cached.non2xx > 0)
            throw new Error(`the caching proxy answered errors on ${pathname}`);
          (http[pathname] ??= {})[tool] = {
            loadAverage: loadAverage(),
            site,
            nginx: reference,
            nginxCache: cached,
            ratio: ratio(site, reference),
            cacheRatio: ratio(cached, reference),
          };
        }
      }
      results.http = http;
    } finally {
      nginx.stop();
      proxy.stop();
    }
  } finally {
    await server.stop();
  }
  log("contact action under load on PostgreSQL");
  results.contact = await contactLoad();

  writeFileSync(
    smoke ? "bench/results-smoke.json" : "bench/results.json",
    `${JSON.stringify(results, null, 2)}\n`,
  );
  printTable(results);
  const over = overPublicPageBudgets(results, { judgeTimings: !smoke });
  if (over.length) {
    console.error(
      `Public pages over budget (${PUBLIC_PAGE_SCRIPT_BUDGET_BYTES / 1024} kB of script, LCP within 5 % of the static copy): ${over.join("; ")}`,
    );
    process.exitCode = 1;
  }
}

function printTable(results: Record<string, unknown>) {
  const lighthouse = results.lighthouse as Record<string, Record<string, number>>;
  console.log("\nLighthouse (mobile, median)");
  console.table(
    Object.fromEntries(
      Object.entries(lighthouse).map(([page, f]) => [
        page,
        {
          perf: f.performance,
          a11y: f.accessibility,
          bp: f.bestPractices,
          seo: f.seo,
          "LCP ms": f.lcpMs,
          "TBT ms": f.tbtMs,
          CLS: f.cls,
          KB: Math.round(f.bytes! / 1024),
          "script KB": Math.round(f.scriptBytes! / 1024),
        },
      ]),
    ),
  );
  const staticCopy = results.lighthouseStatic as Record<string, { lcpMs: number }> | undefined;
  if (staticCopy?.["/"])
    console.log(
      `LCP of /: ${lighthouse["/"]?.lcpMs} ms; its static copy through nginx: ${staticCopy["/"].lcpMs} ms`,
    );
  console.log("JavaScript of a first visit");
  const bundles = results.bundles as Record<string, { js: Record<string, number> }>;
  console.table(
    Object.fromEntries(
      Object.entries(bundles).map(([page, b]) => [
        page,
        {
          "JS raw KB": Math.round(b.js.raw! / 1024),
          "JS gzip KB": Math.round(b.js.gzip! / 1024),
          "JS br KB": Math.round(b.js.brotli! / 1024),
        },
      ]),
    ),
  );
  const css = results.inlineCss as Record<string, number>;
  console.log(
    `CSS, inlined in every document: ${Math.round(css.raw! / 1024)} kB raw, ${Math.round(css.brotli! / 1024)} kB brotli`,
  );
  console.log(
    "HTTP load (50 connections, autocannon and wrk): the site; nginx serving its bytes as static files; deploy/nginx.conf's cache",
  );
  const http = results.http as Record<string, Record<LoadTool, HttpFigures>>;
  const runs = Object.entries(http).flatMap(([page, byTool]) =>
    Object.entries(byTool).map(([tool, h]) => ({ label: `${page} ${tool}`, h })),
  );
  console.table(
    Object.fromEntries(
      runs.flatMap(({ label, h }) =>
        (
          [
            ["site", h.site],
            ["nginx static", h.nginx],
            ["nginx cache", h.nginxCache],
          ] as const
        ).map(([what, f]) => [
          `${label} ${what}`,
          {
            "req/s": f.requestsPerSecond,
            "p50 ms": f.p50Ms,
            "p99 ms": f.p99Ms,
            errors: f.errors + f.non2xx,
            "B/answer": f.bytesPerAnswer ?? "",
            "CPU µs/answer": f.cpuUsPerAnswer,
          },
        ]),
      ),
    ),
  );
  for (const { label, h } of runs)
    console.log(
      `${label}: site/static ${h.ratio}, cache/static ${h.cacheRatio} (load average ${h.loadAverage})`,
    );
  console.log("Contact action on PostgreSQL");
  console.table(results.contact);
  console.log(
    `Ready after ${String(results.readyMs)} ms (embedded database, first start), ${String(results.secondReadyMs)} ms (second start); medians, on ${process.version}`,
  );
  const onProduction = results.startsOnProductionNode as
    { node: string; firstMs: number; secondMs: number } | undefined;
  if (onProduction)
    console.log(
      `On production's Node (${onProduction.node}): ${onProduction.firstMs} ms first start, ${onProduction.secondMs} ms second start; medians`,
    );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
