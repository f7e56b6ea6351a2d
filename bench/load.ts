import { execFile, spawn } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  writeFileSync,
} from "node:fs";
import { request as httpRequest } from "node:http";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { freePort } from "./bench-server";

export type LoadFigures = {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
};

export const BROWSER_ACCEPT_ENCODING = "gzip, deflate, br, zstd";

/** Both load generators, side by side: autocannon tops out near the app's own figures. */
export type LoadTool = "autocannon" | "wrk";
export const LOAD_TOOLS: readonly LoadTool[] = ["autocannon", "wrk"];

/** The machine's load average over the last minute, as a run's figures are read against it. */
export function loadAverage(): number {
  return Math.round(loadavg()[0]! * 100) / 100;
}

/**
 * CPU time a process and its children (nginx's workers) have used, in milliseconds, from the
 * scheduler's own count (nanoseconds); NaN where there is no /proc.
 */
export function processCpuMs(pid: number): number {
  try {
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8")
      .split(" ")
      .filter(Boolean)
      .map(Number);
    let nanoseconds = 0;
    for (const id of [pid, ...children])
      nanoseconds += Number(readFileSync(`/proc/${id}/schedstat`, "utf8").split(" ")[0]);
    return nanoseconds / 1e6;
  } catch {
    return NaN;
  }
}

export type MeasuredLoad = LoadFigures & {
  /** wrk only: headers and body of an average answer, as read off the socket. */
  bytesPerAnswer?: number;
  /** CPU the server (`pid` and its children) spent per answer, in microseconds. */
  cpuUsPerAnswer: number;
};

/**
 * Runs `tool` against `url` with the browser's Accept-Encoding, 50 connections, and counts the
 * CPU the server behind it (process `pid`) used per answer: a figure other work on the machine
 * hardly moves, unlike requests per second.
 */
export async function loadWith(
  tool: LoadTool,
  url: string,
  durationSeconds: number,
  pid: number,
): Promise<MeasuredLoad> {
  const before = processCpuMs(pid);
  const figures =
    tool === "wrk" ? await wrk(url, durationSeconds) : await load(url, durationSeconds);
  const answers = figures.requestsPerSecond * durationSeconds;
  const cpuUsPerAnswer = ((processCpuMs(pid) - before) * 1000) / answers;
  return { ...figures, cpuUsPerAnswer: Math.round(cpuUsPerAnswer * 10) / 10 };
}

/**
 * wrk's own summary, written as JSON by its `done` hook. wrk counts answers of 400 and more as
 * status errors, so `non2xx` here leaves out redirects (none of the measured paths redirects).
 */
const WRK_REPORT = `done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('\\n{"requests":%d,"durationUs":%d,"bytes":%d,"errors":%d,"non2xx":%d,"p50Us":%d,"p99Us":%d}\\n',
    summary.requests, summary.duration, summary.bytes, e.connect + e.read + e.write + e.timeout,
    e.status, latency:percentile(50), latency:percentile(99)))
end
`;

/**
 * wrk (Debian's `wrk`) with 50 connections on one thread: a client written in C that needs far
 * less of the CPU it shares with the server than autocannon does, so a fast server's figure is
 * the server's, not the client's.
 */
export async function wrk(
  url: string,
  durationSeconds: number,
  { connections = 50, threads = 1 }: { connections?: number; threads?: number } = {},
): Promise<LoadFigures & { bytesPerAnswer: number }> {
  const script = path.join(mkdtempSync(path.join(tmpdir(), "bench-wrk-")), "report.lua");
  writeFileSync(script, WRK_REPORT);
  const output = await new Promise<string>((resolve, reject) =>
    execFile(
      process.env.WRK_PATH ?? "wrk",
      [
        `-t${threads}`,
        `-c${connections}`,
        `-d${durationSeconds}s`,
        "-H",
        `Accept-Encoding: ${BROWSER_ACCEPT_ENCODING}`,
        "-s",
        script,
        url,
      ],
      (error, stdout, stderr) => {
        if ((error as NodeJS.ErrnoException | null)?.code === "ENOENT")
          reject(new Error("wrk is missing: apt-get install wrk"));
        else if (error) reject(new Error(`wrk failed: ${stderr || error.message}`));
        else resolve(stdout);
      },
    ),
  );
  const line = output
    .split("\n")
    .reverse()
    .find((text) => text.startsWith("{"));
  if (!line) throw new Error(`wrk printed no report:\n${output}`);
  const report = JSON.parse(line) as {
    requests: number;
    durationUs: number;
    bytes: number;
    errors: number;
    non2xx: number;
    p50Us: number;
    p99Us: number;
  };
  return {
    requestsPerSecond: Math.round(report.requests / (report.durationUs / 1e6)),
    p50Ms: Math.round(report.p50Us / 100) / 10,
    p99Ms: Math.round(report.p99Us / 100) / 10,
    errors: report.errors,
    non2xx: report.non2xx,
    bytesPerAnswer: report.requests ? Math.round(report.bytes / report.requests) : 0,
  };
}

export async function load(
  url: string,
  durationSeconds: number,
  options: Partial<autocannon.Options> = {},
): Promise<LoadFigures> {
  const result = await autocannon({
    url,
    connections: 50,
    duration: durationSeconds,
    headers: { "accept-encoding": BROWSER_ACCEPT_ENCODING },
    ...options,
  });
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

/** A page's bytes as the site sends them for each encoding (the page cache's variants). */
export type PageBytes = { identity: Buffer; br: Buffer; gzip: Buffer };

const NGINX_MODULES = "/usr/lib/nginx/modules";
const SITE_CONFIG = fileURLToPath(new URL("../deploy/nginx.conf", import.meta.url));

/** GETs `url` with one Accept-Encoding and returns the body undecoded, with the headers. */
export function rawGet(url: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: Record<string, string>; body: Buffer }>(
    (resolve, reject) => {
      const req = httpRequest(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers as Record<string, string>,
            body: Buffer.concat(chunks),
          }),
        );
      });
      req.on("error", reject);
      req.end();
    },
  );
}

/** The bytes of each encoding, once the page cache holds the page (then they never change). */
export async function pageBytes(url: string): Promise<PageBytes> {
  for (let attempt = 0; ; attempt++) {
    const answer = await rawGet(url);
    if (answer.status !== 200) throw new Error(`${url} answered ${answer.status}`);
    if (answer.headers["x-page-cache"] === "hit") break;
    if (attempt > 200) throw new Error(`${url} never came from the page cache`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const [identity, br, gzip] = await Promise.all(
    ["identity", "br", "gzip"].map(async (encoding) => {
      const answer = await rawGet(url, { "accept-encoding": encoding });
      const sent = answer.headers["content-encoding"] ?? "identity";
      if (sent !== encoding) throw new Error(`${url} answered ${sent} for ${encoding}`);
      return answer.body;
    }),
  );
  return { identity: identity!, br: br!, gzip: gzip! };
}

/**
 * The same bytes served as static files by nginx (`brotli_static`, `gzip_static`), measured in
 * the same run: the reference that stays meaningful on a noisy machine.
 */
export async function startNginx(pages: Record<string, PageBytes>) {
  const root = nginxRoot("bench-nginx-");
  mkdirSync(path.join(root, "html"), { mode: 0o755 });
  const locations = Object.entries(pages).map(([pathname, bytes], index) => {
    const file = path.join(root, "html", `page${index}.html`);
    writeFileSync(file, bytes.identity);
    writeFileSync(`${file}.br`, bytes.br);
    writeFileSync(`${file}.gz`, bytes.gzip);
    return `location = ${pathname} { default_type text/html; try_files /page${index}.html =404; }`;
  });
  const port = await freePort();
  return runNginx(
    root,
    port,
    `brotli_static on;
  gzip_static on;
  gzip_vary on;
  server {
    listen 127.0.0.1:${port};
    root ${root}/html;
    ${locations.join("\n    ")}
    # The pages' own scripts, so a browser loads the static copy as it loads the site.
    location /assets/ { alias ${path.resolve("build/client/assets")}/; }
  }`,
  );
}

/**
 * deploy/nginx.conf, the proxy shipped with compose.yaml, with its upstreams, listen address and
 * cache folder made local: everything else is the file as deployed.
 */
export function siteNginxConfig({
  upstreams,
  listen,
  cacheDir,
  accessLog,
}: {
  upstreams: string[];
  listen: string;
  cacheDir: string;
  /** Where the access log goes; without it no access log (the benchmark compares like for like). */
  accessLog?: string;
}): string {
  let config = readFileSync(SITE_CONFIG, "utf8");
  const replace = (pattern: RegExp, by: (match: string) => string) => {
    if (!pattern.test(config)) throw new Error(`deploy/nginx.conf: ${pattern} not found`);
    config = config.replace(pattern, by);
  };
  let first = true;
  replace(/^(\s*)server app\d+:3000([^;]*);\n/gm, (line) => {
    if (!first) return "";
    first = false;
    const [, indent, options] = /^(\s*)server app\d+:3000([^;]*);/.exec(line)!;
    return upstreams.map((upstream) => `${indent}server ${upstream}${options};\n`).join("");
  });
  replace(/^(\s*)listen 80;/m, () => `    listen ${listen};`);
  replace(/\/var\/cache\/nginx\/site/, () => cacheDir);
  replace(/^\s*access_log \/var\/log\/nginx\/access\.log .*;\n/gm, (line) =>
    accessLog ? line.replace("/var/log/nginx/access.log", accessLog) : "",
  );
  return config;
}

/** The shipped reverse proxy and its cache in front of `upstreams` (host:port). */
export async function startCachingProxy(
  upstreams: string[],
  { accessLog }: { accessLog?: string } = {},
) {
  const root = nginxRoot("bench-proxy-");
  const port = await freePort();
  return runNginx(
    root,
    port,
    siteNginxConfig({
      upstreams,
      listen: `127.0.0.1:${port}`,
      cacheDir: path.join(root, "cache"),
      accessLog,
    }),
  );
}

function nginxRoot(prefix: string) {
  const root = mkdtempSync(path.join(tmpdir(), prefix));
  // nginx workers run as an unprivileged user when started by root: let them read the pages.
  chmodSync(root, 0o755);
  return root;
}

/**
 * Starts nginx on `http`, inside the main configuration of the official nginx image (sendfile,
 * keep-alive) without its access log, so both nginx figures pay the same costs.
 */
async function runNginx(root: string, port: number, http: string) {
  const brotli = path.join(NGINX_MODULES, "ngx_http_brotli_static_module.so");
  if (!existsSync(brotli))
    throw new Error(`${brotli} is missing: apt-get install libnginx-mod-http-brotli-static`);
  const config = `load_module ${brotli};
worker_processes auto;
daemon off;
pid ${root}/nginx.pid;
error_log ${root}/error.log;
events { worker_connections 1024; }
http {
  include /etc/nginx/mime.types;
  default_type application/octet-stream;
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_timeout 65;
  client_body_temp_path ${root}/tmp-body;
  proxy_temp_path ${root}/tmp-proxy;
  fastcgi_temp_path ${root}/tmp-fastcgi;
  uwsgi_temp_path ${root}/tmp-uwsgi;
  scgi_temp_path ${root}/tmp-scgi;
  ${http}
}
`;
  writeFileSync(path.join(root, "nginx.conf"), config);
  const nginx = spawn(
    process.env.NGINX_PATH ?? "/usr/sbin/nginx",
    ["-p", root, "-c", path.join(root, "nginx.conf")],
    { stdio: ["ignore", "ignore", "inherit"] },
  );
  const url = `http://127.0.0.1:${port}`;
  for (let attempt = 0; ; attempt++) {
    if (nginx.exitCode !== null)
      throw new Error(`nginx exited with ${nginx.exitCode}: see ${root}/error.log`);
    try {
      await fetch(`${url}/`);
      break;
    } catch {
      if (attempt > 200) throw new Error(`nginx did not answer: see ${root}/error.log`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
  return { url, pid: nginx.pid!, stop: () => nginx.kill("SIGTERM") };
}
