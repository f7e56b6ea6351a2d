/**
 * The request series of /metrics (decision 049), counted in plain numbers: a request adds one
 * to a counter and one to a bucket, found through three small maps, with no label strings
 * built and nothing allocated once its series exists. The page cache's hits answered before
 * Express are counted here too, so this runs on the site's most frequent answer; prom-client's
 * own histogram hashes its labels on every observation, so the text of these series is written
 * here, at scrape time, in Prometheus's exposition format.
 *
 * Labels: `route` is the route's pattern (`/mi-cuenta/tickets/:ticketId`, never the URL asked
 * for, so their number is bounded by the route table), `method` one of the known methods or
 * `other`, `status` the answer's code (counter only).
 */

/** Upper bounds in seconds: a cached page (~0.1 ms) up to a slow export (10 s). */
export const LATENCY_BUCKETS = [
  0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
] as const;

const KNOWN_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

type MethodSeries = {
  /** Observations per bucket, not cumulative (the last slot is +Inf). */
  buckets: Float64Array;
  sum: number;
  count: number;
  byStatus: Map<number, number>;
};

export class RequestMetrics {
  private readonly routes = new Map<string, Map<string, MethodSeries>>();

  /** One answered request: its route pattern, method, status and duration in seconds. */
  record(route: string, method: string, status: number, seconds: number) {
    let methods = this.routes.get(route);
    if (!methods) {
      methods = new Map();
      this.routes.set(route, methods);
    }
    const methodLabel = KNOWN_METHODS.has(method) ? method : "other";
    let series = methods.get(methodLabel);
    if (!series) {
      series = {
        buckets: new Float64Array(LATENCY_BUCKETS.length + 1),
        sum: 0,
        count: 0,
        byStatus: new Map(),
      };
      methods.set(methodLabel, series);
    }
    let bucket = 0;
    while (bucket < LATENCY_BUCKETS.length && seconds > LATENCY_BUCKETS[bucket]!) bucket++;
    series.buckets[bucket]!++;
    series.sum += seconds;
    series.count++;
    series.byStatus.set(status, (series.byStatus.get(status) ?? 0) + 1);
  }

  /** `http_requests_total` and `http_request_duration_seconds`, in the text format. */
  exposition(): string {
    const counter = [
      "# HELP http_requests_total Requests answered, by route pattern, method and status.",
      "# TYPE http_requests_total counter",
    ];
    const histogram = [
      "# HELP http_request_duration_seconds Time from the request reaching the app to its answer being handed to the socket, by route pattern and method.",
      "# TYPE http_request_duration_seconds histogram",
    ];
    for (const [route, methods] of this.routes) {
      for (const [method, series] of methods) {
        const labels = `route="${escapeLabel(route)}",method="${method}"`;
        for (const [status, count] of series.byStatus)
          counter.push(`http_requests_total{${labels},status="${status}"} ${count}`);
        let cumulative = 0;
        LATENCY_BUCKETS.forEach((bound, index) => {
          cumulative += series.buckets[index]!;
          histogram.push(
            `http_request_duration_seconds_bucket{${labels},le="${bound}"} ${cumulative}`,
          );
        });
        histogram.push(
          `http_request_duration_seconds_bucket{${labels},le="+Inf"} ${series.count}`,
          `http_request_duration_seconds_sum{${labels}} ${series.sum}`,
          `http_request_duration_seconds_count{${labels}} ${series.count}`,
        );
      }
    }
    return `${counter.join("\n")}\n\n${histogram.join("\n")}\n`;
  }
}

/** Label values escape backslash, double quote and line feed (the exposition format). */
export function escapeLabel(value: string): string {
  return value.replace(/[\\"\n]/g, (character) => (character === "\n" ? "\\n" : `\\${character}`));
}

/** The process's request series: server.ts records into it, /metrics reads it. */
export const requestMetrics = new RequestMetrics();

/**
 * Webhook lag: from the provider creating an event to our receiving it (Stripe retries a
 * delivery that failed, so a failing endpoint shows here as hours). Observed by the webhook
 * handler; exposed as `webhook_event_lag_seconds`.
 */
export const WEBHOOK_LAG_BUCKETS = [1, 5, 15, 60, 300, 900, 3600, 6 * 3600, 24 * 3600] as const;

export class LagHistogram {
  private readonly buckets = new Float64Array(WEBHOOK_LAG_BUCKETS.length + 1);
  private sum = 0;
  private count = 0;

  constructor(
    private readonly name: string,
    private readonly help: string,
  ) {}

  observe(seconds: number) {
    const value = Math.max(0, seconds);
    let bucket = 0;
    while (bucket < WEBHOOK_LAG_BUCKETS.length && value > WEBHOOK_LAG_BUCKETS[bucket]!) bucket++;
    this.buckets[bucket]!++;
    this.sum += value;
    this.count++;
  }

  exposition(): string {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} histogram`];
    let cumulative = 0;
    WEBHOOK_LAG_BUCKETS.forEach((bound, index) => {
      cumulative += this.buckets[index]!;
      lines.push(`${this.name}_bucket{le="${bound}"} ${cumulative}`);
    });
    lines.push(
      `${this.name}_bucket{le="+Inf"} ${this.count}`,
      `${this.name}_sum ${this.sum}`,
      `${this.name}_count ${this.count}`,
    );
    return `${lines.join("\n")}\n`;
  }
}

export const webhookLag = new LagHistogram(
  "webhook_event_lag_seconds",
  "Seconds from the payment provider creating an event to this instance receiving it.",
);
