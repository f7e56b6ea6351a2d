import { spawn } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  writeFileSync,
} from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
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
  return { url, stop: () => nginx.kill("SIGTERM") };
}
