import { createHash, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Gauge, Registry } from "prom-client";
import type { AppConfig } from "../config.server";
import { requestMetrics, webhookLag } from "./request-metrics";

/** Where Prometheus scrapes, on the metrics port and (with a token) on the site's. */
export const METRICS_PATH = "/metrics";

/** A source slower than this is reported as down for that scrape: a scrape never hangs. */
export const SOURCE_TIMEOUT_MS = 2_000;

/** A queue read from the database: how many wait, and for how long the oldest has. */
export type QueueState = { waiting: number; oldestAgeSeconds: number };

/**
 * What /metrics reads at scrape time, given by server.ts (platform knows no features). Each
 * database source runs at most once at a time (a scrape while one is still running waits for
 * it) and gives up after SOURCE_TIMEOUT_MS.
 */
export type MetricsSources = {
  outbox: () => Promise<{
    pending: number;
    sending: number;
    oldestAgeSeconds: number;
    oldestDueSeconds: number;
  }>;
  verifactu?: () => Promise<QueueState & { rejectedUncorrected: number }>;
  /** PostgreSQL's pool; undefined on the embedded database, one connection with no pool. */
  pool: () => { total: number; idle: number; waiting: number; max: number } | undefined;
  pageCache?: () => { hits: number; misses: number };
  /**
   * The last successful backup, by what makes them: the server itself (embedded database; 0
   * before the first) or pgBackRest beside PostgreSQL (undefined before the first: a managed
   * database's provider may be the one backing it up).
   */
  lastBackup?: {
    maker: "server" | "pgbackrest";
    seconds: () => Promise<number | undefined>;
  };
};

/** Runs `read` once at a time, and gives up waiting for it after `timeoutMs`. */
function bounded<T>(read: () => Promise<T>, timeoutMs: number): () => Promise<T> {
  let running: Promise<T> | undefined;
  return () => {
    running ??= read().finally(() => {
      running = undefined;
    });
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error("timed out")), timeoutMs);
    });
    return Promise.race([running, timeout]).finally(() => clearTimeout(timer));
  };
}

/**
 * The registry of /metrics: Node's default metrics (heap, event-loop lag, GC, handles), the
 * gauges read from the sources at each scrape, and the request series kept in plain numbers
 * (request-metrics.ts). prom-client is loaded here, on first use: a site without metrics never
 * loads it.
 */
export async function createMetrics(
  sources: MetricsSources,
  { timeoutMs = SOURCE_TIMEOUT_MS }: { timeoutMs?: number } = {},
) {
  const client = await import("prom-client");
  const registry: Registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });

  const up = new client.Gauge({
    name: "metrics_source_up",
    help: "1 if the source answered this scrape in time, 0 if it failed or took over 2 s.",
    labelNames: ["source"],
    registers: [registry],
  });
  type GaugeSpec<T> = {
    name: string;
    help: string;
    labelNames?: string[];
    values: (value: T) => Array<[Record<string, string>, number]>;
  };
  /**
   * Gauges whose values come from one async source, read once per scrape: the first gauge's
   * collect starts the read, the others await the same one.
   */
  const sourceGauges = <T>(source: string, read: () => Promise<T>, specs: GaugeSpec<T>[]) => {
    const once = bounded(read, timeoutMs);
    let scrape: Promise<void> | undefined;
    const gauges: Gauge[] = [];
    const refresh = () =>
      (scrape ??= once()
        .then((value) => {
          specs.forEach((spec, index) => {
            gauges[index]!.reset();
            for (const [labels, number] of spec.values(value)) gauges[index]!.set(labels, number);
          });
          up.set({ source }, 1);
        })
        .catch(() => {
          // No value rather than a stale one: the alert on metrics_source_up says why.
          for (const each of gauges) each.reset();
          up.set({ source }, 0);
        })
        .finally(() => setImmediate(() => (scrape = undefined))));
    for (const spec of specs)
      gauges.push(
        new client.Gauge({
          name: spec.name,
          help: spec.help,
          labelNames: spec.labelNames ?? [],
          registers: [registry],
          collect: refresh,
        }),
      );
  };

  sourceGauges("outbox", sources.outbox, [
    {
      name: "mail_outbox_messages",
      help: "Mails waiting in the outbox, by status.",
      labelNames: ["status"],
      values: (state) => [
        [{ status: "pending" }, state.pending],
        [{ status: "sending" }, state.sending],
      ],
    },
    {
      name: "mail_outbox_oldest_age_seconds",
      help: "Age of the oldest mail not yet sent (pending or sending); 0 when none waits.",
      values: (state) => [[{}, state.oldestAgeSeconds]],
    },
    {
      name: "mail_outbox_oldest_due_seconds",
      help: "How long the most overdue pending mail has been due without being sent.",
      values: (state) => [[{}, state.oldestDueSeconds]],
    },
  ]);
  if (sources.verifactu)
    sourceGauges("verifactu", sources.verifactu, [
      {
        name: "verifactu_queue_records",
        help: "VERI*FACTU records not yet accepted or refused by AEAT.",
        values: (state) => [[{}, state.waiting]],
      },
      {
        name: "verifactu_queue_oldest_age_seconds",
        help: "Age of the oldest VERI*FACTU record waiting to be sent; 0 when none waits.",
        values: (state) => [[{}, state.oldestAgeSeconds]],
      },
      {
        name: "verifactu_rejected_uncorrected_records",
        help: "Records AEAT refused that no later record has corrected yet.",
        values: (state) => [[{}, state.rejectedUncorrected]],
      },
    ]);
  const lastBackup = sources.lastBackup;
  if (lastBackup)
    sourceGauges("backup", lastBackup.seconds, [
      {
        name: "backup_last_success_timestamp_seconds",
        help: "Unix time of the last backup that completed, by maker; 0 when the server makes them and none is there yet.",
        labelNames: ["maker"],
        values: (seconds) =>
          seconds === undefined ? [] : [[{ maker: lastBackup.maker }, seconds]],
      },
    ]);

  new client.Gauge({
    name: "db_pool_connections",
    help: "Database connections by state (the embedded database has one).",
    labelNames: ["state"],
    registers: [registry],
    collect() {
      const stats = sources.pool();
      if (!stats) {
        this.set({ state: "max" }, 1);
        return;
      }
      this.set({ state: "in_use" }, stats.total - stats.idle);
      this.set({ state: "idle" }, stats.idle);
      this.set({ state: "max" }, stats.max);
    },
  });
  new client.Gauge({
    name: "db_pool_waiting_queries",
    help: "Queries waiting for a free connection.",
    registers: [registry],
    collect() {
      this.set(sources.pool()?.waiting ?? 0);
    },
  });

  const contentType = registry.contentType;
  /** The whole exposition: the registry's metrics, then the request series and the cache's. */
  const render = async () => {
    const parts = [await registry.metrics(), requestMetrics.exposition(), webhookLag.exposition()];
    if (sources.pageCache) {
      const { hits, misses } = sources.pageCache();
      parts.push(
        [
          "# HELP page_cache_requests_total Requests for cacheable public pages, answered from the page cache (hit) or rendered (miss).",
          "# TYPE page_cache_requests_total counter",
          `page_cache_requests_total{result="hit"} ${hits}`,
          `page_cache_requests_total{result="miss"} ${misses}`,
          "",
        ].join("\n"),
      );
    }
    return parts.join("\n");
  };
  return { registry, contentType, render };
}

export type Metrics = Awaited<ReturnType<typeof createMetrics>>;

/** Compares digests, so neither the token's length nor its bytes leak through timing. */
function sameToken(given: string, expected: string): boolean {
  const digest = (text: string) => createHash("sha256").update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/**
 * Whether the request may read the metrics: with METRICS_TOKEN set, only with
 * `Authorization: Bearer <token>`; without it, only on the metrics port (the caller decides).
 */
export function authorised(req: IncomingMessage, token: string | undefined): boolean {
  if (token === undefined) return true;
  const header = req.headers.authorization ?? "";
  return header.startsWith("Bearer ") && sameToken(header.slice("Bearer ".length).trim(), token);
}

/** Answers a scrape: 401 without the token, 405 for anything but GET/HEAD, else the text. */
export async function answerScrape(
  req: IncomingMessage,
  res: ServerResponse,
  metrics: Metrics,
  token: string | undefined,
) {
  res.setHeader("Cache-Control", "no-store");
  if (!authorised(req, token)) {
    res.writeHead(401, {
      "Content-Type": "text/plain; charset=utf-8",
      "WWW-Authenticate": 'Bearer realm="metrics"',
    });
    res.end("Se necesita el token de las métricas.");
    return;
  }
  if (req.method !== "GET" && req.method !== "HEAD") {
    res.writeHead(405, { Allow: "GET, HEAD", "Content-Type": "text/plain; charset=utf-8" });
    res.end("Método no permitido.");
    return;
  }
  try {
    const body = await metrics.render();
    res.writeHead(200, { "Content-Type": metrics.contentType });
    res.end(req.method === "HEAD" ? undefined : body);
  } catch {
    res.writeHead(500, { "Content-Type": "text/plain; charset=utf-8" });
    res.end("No se pudieron leer las métricas.");
  }
}

/**
 * METRICS_PORT: a listener of its own for Prometheus, on METRICS_HOST (127.0.0.1 unless set):
 * /metrics and nothing else, never through the public proxy.
 */
export function startMetricsServer(config: AppConfig["metrics"], metrics: Metrics): Server {
  const server = createServer((req, res) => {
    const path = (req.url ?? "").split("?")[0];
    if (path !== METRICS_PATH) {
      res.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" }).end("No encontrado.");
      return;
    }
    void answerScrape(req, res, metrics, config.token);
  });
  server.listen(config.port, config.host);
  return server;
}
