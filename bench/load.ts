import { spawn } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { freePort } from "./bench-server";

export type LoadFigures = {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
};

const BROWSER_ACCEPT_ENCODING = "gzip, deflate, br, zstd";

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

/**
 * The same HTML served as static files by nginx with gzip, measured in the same run: the
 * reference that stays meaningful on a noisy machine.
 */
export async function startNginx(
  pages: Record<string, string>,
): Promise<{ url: string; stop(): void }> {
  const root = mkdtempSync(path.join(tmpdir(), "bench-nginx-"));
  // nginx workers run as an unprivileged user when started by root: let them read the pages.
  chmodSync(root, 0o755);
  mkdirSync(path.join(root, "html"), { mode: 0o755 });
  const locations = Object.entries(pages).map(([pathname, html], index) => {
    writeFileSync(path.join(root, "html", `page${index}.html`), html);
    return `location = ${pathname} { default_type text/html; try_files /page${index}.html =404; }`;
  });
  const port = await freePort();
  const config = `worker_processes auto;
daemon off;
pid ${root}/nginx.pid;
error_log ${root}/error.log;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${root}/tmp-body;
  proxy_temp_path ${root}/tmp-proxy;
  fastcgi_temp_path ${root}/tmp-fastcgi;
  uwsgi_temp_path ${root}/tmp-uwsgi;
  scgi_temp_path ${root}/tmp-scgi;
  gzip on;
  gzip_types text/css application/javascript;
  gzip_comp_level 6;
  server {
    listen 127.0.0.1:${port};
    root ${root}/html;
    ${locations.join("\n    ")}
  }
}
`;
  writeFileSync(path.join(root, "nginx.conf"), config);
  const nginx = spawn(
    process.env.NGINX_PATH ?? "/usr/sbin/nginx",
    ["-p", root, "-c", path.join(root, "nginx.conf")],
    {
      stdio: ["ignore", "ignore", "inherit"],
    },
  );
  const url = `http://127.0.0.1:${port}`;
  for (let attempt = 0; attempt < 200; attempt++) {
    try {
      await fetch(`${url}/`);
      break;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
  return { url, stop: () => nginx.kill("SIGTERM") };
}
