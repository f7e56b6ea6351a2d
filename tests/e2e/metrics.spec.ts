import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";

/**
 * Issue #27, items 4 and 5 (decision 049): the production build started with its metrics on
 * (METRICS_PORT and METRICS_TOKEN), scraped as Prometheus would while traffic moves the
 * series; /metrics refused to whoever lacks the token; and the request id a trusted proxy
 * gives on the request's log line. Mail goes to an SMTP port nobody listens on, so the
 * enquiry's mails stay in the outbox for the scrape to see.
 */
const root = path.resolve(import.meta.dirname, "../..");
// One server for the file: its tests share it.
test.describe.configure({ mode: "serial" });
const TOKEN = "prometheus-0123456789abcdef0123456789";

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

let child: ChildProcess;
let dataDir: string;
let site = "";
let metricsUrl = "";
const logLines: Record<string, unknown>[] = [];

test.beforeAll(async () => {
  test.setTimeout(90_000);
  dataDir = mkdtempSync(path.join(tmpdir(), "e2e-metrics-"));
  const [port, metricsPort, deadSmtp] = await Promise.all([freePort(), freePort(), freePort()]);
  site = `http://127.0.0.1:${port}`;
  metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
  child = spawn(process.execPath, ["build/server/index.js"], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? "",
      PORT: String(port),
      HOST: "127.0.0.1",
      SITE_URL: site,
      DATA_DIR: dataDir,
      HUMAN_CHECK: "off",
      LOG_LEVEL: "info",
      // The test connects from 127.0.0.1, as nginx does beside the app.
      TRUST_PROXY: "loopback",
      METRICS_PORT: String(metricsPort),
      METRICS_TOKEN: TOKEN,
      SMTP_URL: `smtp://127.0.0.1:${deadSmtp}`,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let buffered = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    buffered += chunk.toString("utf8");
    const complete = buffered.split("\n");
    buffered = complete.pop()!;
    for (const line of complete.filter(Boolean)) {
      try {
        logLines.push(JSON.parse(line) as Record<string, unknown>);
      } catch {
        // Not a log line.
      }
    }
  });
  await expect
    .poll(async () => (await fetch(`${site}/readyz`).catch(() => undefined))?.status, {
      timeout: 60_000,
    })
    .toBe(200);
});

test.afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  }
  rmSync(dataDir, { recursive: true, force: true });
});

const bearer = { Authorization: `Bearer ${TOKEN}` };

/** One scrape, as sample lines: `name{labels}` → value. */
async function scrape(): Promise<Map<string, number>> {
  const response = await fetch(metricsUrl, { headers: bearer });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toContain("text/plain");
  const samples = new Map<string, number>();
  for (const line of (await response.text()).split("\n")) {
    if (!line || line.startsWith("#")) continue;
    const space = line.lastIndexOf(" ");
    samples.set(line.slice(0, space), Number(line.slice(space + 1)));
  }
  return samples;
}

const sample = (samples: Map<string, number>, key: string) => samples.get(key) ?? 0;

test("a scrape's series move with the traffic: requests by route pattern, latency, cache, outbox", async () => {
  // A public page rendered (a miss), then kept by the page cache.
  await expect
    .poll(async () => (await fetch(`${site}/precios`)).headers.get("x-page-cache"))
    .toBe("hit");
  const before = await scrape();
  expect(sample(before, 'page_cache_requests_total{result="miss"}')).toBeGreaterThanOrEqual(1);
  // Two tickets that do not exist, asked for by an anonymous visitor: one route pattern.
  for (const id of ["6f1c2b8e-1111-4a2b-9c3d-000000000001", "6f1c2b8e-1111-4a2b-9c3d-000000000002"])
    await (await fetch(`${site}/mi-cuenta/tickets/${id}`, { redirect: "manual" })).arrayBuffer();
  // The public page again: answered from the page cache before Express, counted all the same.
  for (let i = 0; i < 3; i++) await (await fetch(`${site}/precios`)).arrayBuffer();
  // An enquiry queues two mails (the company's and the visitor's copy) that cannot leave.
  const enquiry = await fetch(`${site}/api/contacto`, {
    method: "POST",
    headers: { Origin: site, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      name: "Lucía Prometeo",
      email: "lucia@example.es",
      service: "desarrollo-web",
      message: "Quisiera presupuesto para una tienda en línea pequeña.",
      website: "",
    }),
  });
  expect(enquiry.status).toBeLessThan(400);

  const ticket = 'route="/mi-cuenta/tickets/:ticketId",method="GET"';
  const precios = 'route="/precios",method="GET"';
  await expect
    .poll(async () => {
      const after = await scrape();
      return {
        ticketRequests:
          sample(after, `http_requests_total{${ticket},status="302"}`) -
          sample(before, `http_requests_total{${ticket},status="302"}`),
        ticketHistogram:
          sample(after, `http_request_duration_seconds_count{${ticket}}`) -
          sample(before, `http_request_duration_seconds_count{${ticket}}`),
        preciosRequests:
          sample(after, `http_request_duration_seconds_count{${precios}}`) -
          sample(before, `http_request_duration_seconds_count{${precios}}`),
        cacheHits:
          sample(after, 'page_cache_requests_total{result="hit"}') -
          sample(before, 'page_cache_requests_total{result="hit"}'),
        outboxAtLeastTwo:
          sample(after, 'mail_outbox_messages{status="pending"}') +
            sample(after, 'mail_outbox_messages{status="sending"}') >=
          2,
        outboxSourceUp: sample(after, 'metrics_source_up{source="outbox"}'),
      };
    })
    .toEqual({
      ticketRequests: 2,
      ticketHistogram: 2,
      preciosRequests: 3,
      cacheHits: 3,
      outboxAtLeastTwo: true,
      outboxSourceUp: 1,
    });
  const after = await scrape();
  // No raw URL becomes a label: the ids asked for appear nowhere.
  expect([...after.keys()].some((key) => key.includes("6f1c2b8e"))).toBe(false);
  // Node's own: heap and event-loop lag.
  expect(sample(after, "nodejs_heap_size_used_bytes")).toBeGreaterThan(0);
  expect(after.has("nodejs_eventloop_lag_seconds")).toBe(true);
  expect(sample(after, 'db_pool_connections{state="max"}')).toBe(1);
  // The embedded database's own daily backups, by their maker (0 before the first).
  expect(after.has('backup_last_success_timestamp_seconds{maker="server"}')).toBe(true);
});

test("/metrics is refused without the token, with a wrong one, and on the site's port", async () => {
  expect((await fetch(metricsUrl)).status).toBe(401);
  expect((await fetch(metricsUrl, { headers: { Authorization: "Bearer casi" } })).status).toBe(401);
  expect((await fetch(metricsUrl, { headers: { Authorization: `Basic ${TOKEN}` } })).status).toBe(
    401,
  );
  const onSite = await fetch(`${site}/metrics`);
  expect(onSite.status).toBe(401);
  expect(await onSite.text()).not.toContain("http_requests_total");
  expect(
    (await fetch(`${site}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}x` } })).status,
  ).toBe(401);
  // Only /metrics on the metrics port: no page of the site.
  expect(
    (await fetch(metricsUrl.replace("/metrics", "/precios"), { headers: bearer })).status,
  ).toBe(404);
});

test("the request's log line carries the id the trusted proxy gave it", async () => {
  const nginxId = "0f9e8d7c6b5a49382716a5b4c3d2e1f0";
  const response = await fetch(`${site}/login-cliente`, { headers: { "X-Request-Id": nginxId } });
  await response.arrayBuffer();
  expect(response.headers.get("x-request-id")).toBe(nginxId);
  await expect
    .poll(() => logLines.find((line) => line.msg === "request" && line.path === "/login-cliente"))
    .toMatchObject({ requestId: nginxId, status: 200 });
});

test("without METRICS_PORT or METRICS_TOKEN nothing answers /metrics", async ({ request }) => {
  // The suite's own server (playwright.config.ts) has neither: the site's 404 page.
  const response = await request.get("/metrics");
  expect(response.status()).toBe(404);
  expect(await response.text()).not.toContain("http_requests_total");
});
