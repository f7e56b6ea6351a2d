import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * deploy/monitoring (decision 049): Prometheus's configuration and alert rules, checked by
 * promtool when the Debian `prometheus` package is installed, Grafana's dashboard and
 * provisioning, and compose's `monitoring` profile. No container runs here.
 */
const yaml = createRequire(import.meta.url)("js-yaml") as { load(text: string): unknown };
const read = (file: string) => readFileSync(path.resolve(file), "utf8");
const PROMTOOL = process.env.PROMTOOL_PATH ?? "/usr/bin/promtool";

type Service = { profiles?: string[]; ports?: string[]; environment?: Record<string, string> };
const compose = yaml.load(read("compose.yaml")) as {
  services: Record<string, Service>;
  configs?: Record<string, { content?: string }>;
};

/** The series the site exposes (metrics.server.ts, request-metrics.ts) and Node's own. */
const SERIES = [
  "http_requests_total",
  "http_request_duration_seconds_bucket",
  "http_request_duration_seconds_count",
  "page_cache_requests_total",
  "mail_outbox_messages",
  "mail_outbox_oldest_age_seconds",
  "mail_outbox_oldest_due_seconds",
  "verifactu_queue_records",
  "verifactu_queue_oldest_age_seconds",
  "verifactu_rejected_uncorrected_records",
  "webhook_event_lag_seconds_bucket",
  "db_pool_connections",
  "db_pool_waiting_queries",
  "backup_last_success_timestamp_seconds",
  "metrics_source_up",
  "nodejs_eventloop_lag_seconds",
  "nodejs_eventloop_lag_p99_seconds",
  "nodejs_heap_size_used_bytes",
  "nodejs_heap_size_total_bytes",
  "up",
];

/** The metric names a PromQL expression reads (words followed by `{`, `[` or a space/paren). */
function seriesOf(expression: string): string[] {
  const functions = new Set([
    "sum",
    "rate",
    "max",
    "min",
    "by",
    "le",
    "and",
    "time",
    "histogram_quantile",
    "clamp_min",
  ]);
  return [...expression.matchAll(/\b([a-z_][a-z0-9_]*)\b(?=\s*[{[)]|\s*(?:>|==|$|\/))/g)]
    .map((match) => match[1]!)
    .filter((name) => (!functions.has(name) && name.includes("_")) || name === "up");
}

describe("the monitoring profile", () => {
  it("starts Prometheus and Grafana only when asked, reachable from this machine only", () => {
    for (const name of ["prometheus", "grafana"]) {
      const service = compose.services[name]!;
      expect(service.profiles).toEqual(["monitoring"]);
      for (const port of service.ports ?? []) expect(port).toMatch(/^127\.0\.0\.1:/);
    }
    // The instances' metrics port is never published; Prometheus has the token as a file.
    expect(compose.services.app1!.ports).toBeUndefined();
    expect(compose.services.app1!.environment).toMatchObject({
      METRICS_PORT: "9464",
      METRICS_HOST: "0.0.0.0",
    });
    expect(compose.configs?.["metrics-token"]?.content).toContain("METRICS_TOKEN");
  });

  it("alerts on a stuck outbox, 5xx over 1 %, p95 over budget and a backup older than 26 h", () => {
    const rules = (
      yaml.load(read("deploy/monitoring/alerts.yml")) as {
        groups: { rules: { alert: string; expr: string }[] }[];
      }
    ).groups.flatMap((group) => group.rules);
    const byName = new Map(rules.map((rule) => [rule.alert, rule.expr]));
    expect(byName.get("MailOutboxStuck")).toMatch(/mail_outbox_oldest_age_seconds\) > 600/);
    expect(byName.get("HighServerErrorRate")).toMatch(/status=~"5\.\."[\s\S]*> 0\.01/);
    expect(byName.get("LatencyOverBudget")).toMatch(/histogram_quantile\(0\.95/);
    expect(byName.get("BackupTooOld")).toMatch(/26 \* 3600/);
    // Every series a rule reads is one the site exposes.
    for (const rule of rules)
      for (const name of seriesOf(rule.expr))
        expect(SERIES, `${rule.alert}: ${name}`).toContain(name);
  });

  it("has a dashboard whose every panel queries series the site exposes", () => {
    const dashboard = JSON.parse(read("deploy/monitoring/grafana/dashboards/site.json")) as {
      uid: string;
      panels: { title: string; targets: { expr: string }[] }[];
    };
    expect(dashboard.panels.length).toBeGreaterThanOrEqual(12);
    for (const panel of dashboard.panels) {
      expect(panel.targets.length, panel.title).toBeGreaterThan(0);
      for (const target of panel.targets)
        for (const name of seriesOf(target.expr))
          expect(SERIES, `${panel.title}: ${name}`).toContain(name);
    }
    const provisioning = yaml.load(
      read("deploy/monitoring/grafana/provisioning/dashboards/site.yml"),
    ) as { providers: { options: { path: string } }[] };
    expect(provisioning.providers[0]!.options.path).toBe("/var/lib/grafana/dashboards");
  });

  it("passes promtool's checks of the rules and the configuration", () => {
    // Never skipped: the Debian package `prometheus` gives promtool (.ci/run installs it).
    expect(existsSync(PROMTOOL), `${PROMTOOL} (Debian package prometheus)`).toBe(true);
    execFileSync(PROMTOOL, ["check", "rules", "deploy/monitoring/alerts.yml"], { stdio: "pipe" });
    // The configuration names the files where compose mounts them: checked from a copy.
    const folder = mkdtempSync(path.join(tmpdir(), "promtool-"));
    writeFileSync(path.join(folder, "alerts.yml"), read("deploy/monitoring/alerts.yml"));
    writeFileSync(path.join(folder, "metrics-token"), "m".repeat(64));
    writeFileSync(
      path.join(folder, "prometheus.yml"),
      read("deploy/monitoring/prometheus.yml").replaceAll("/etc/prometheus/", `${folder}/`),
    );
    execFileSync(PROMTOOL, ["check", "config", path.join(folder, "prometheus.yml")], {
      stdio: "pipe",
    });
  });
});
