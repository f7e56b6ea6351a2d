/**
 * The pieces of the cluster and fault runs: a private copy of the production build, fresh
 * databases, production instances of `node build/server/index.js`, nginx in front of them, and
 * an HTTP client that says which instance answered.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import http from "node:http";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import {
  chargeRefundedEvent,
  checkoutSessionEvent,
  signEvent,
  type PurchaseRef,
} from "../support/stripe-events";
import { SmtpPeer } from "../support/smtp-peer";
import { StripeStandIn } from "../support/stripe-stand-in";

export const REPO = process.cwd();

/** The site's own address in every instance's configuration (production wants https). */
export const SITE_URL = "https://cluster.example.es";
const SITE_HOST = new URL(SITE_URL).host;
export const WEBHOOK_SECRET = `whsec_cluster_${randomBytes(8).toString("hex")}`;
const AUTH_SECRET = randomBytes(32).toString("hex");

const runStarted = performance.now();

export function log(message: string) {
  const seconds = ((performance.now() - runStarted) / 1000).toFixed(1).padStart(5);
  console.log(`[cluster ${seconds} s] ${message}`);
}

/** Every process a run starts: killed when the run ends, however it ends. */
const children = new Set<ChildProcess>();

export function track(child: ChildProcess): ChildProcess {
  children.add(child);
  child.once("exit", () => children.delete(child));
  return child;
}

process.once("exit", () => {
  for (const child of children) child.kill("SIGKILL");
});

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Polls `check` every `everyMs` until it returns a value other than undefined/false. */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined | false> | T | undefined | false,
  { timeoutMs = 30_000, everyMs = 50 } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(everyMs);
  }
}

// ---------------------------------------------------------------------------------------------
// The build

/** Newer than the built server: the sources a build is made from. */
const BUILD_INPUTS = "app server.ts vite.config.ts react-router.config.ts package-lock.json";

/**
 * Builds if the build is missing or older than its sources, then copies it (with the
 * migrations) to a folder of this run, all under the lock every build and browser run takes:
 * another build started while the instances run cannot change the files they load.
 */
export function prepareBuild(): string {
  const root = mkdtempSync(path.join(tmpdir(), "cluster-build-"));
  const script = [
    `if [ ! -f build/server/index.js ] || [ -n "$(find ${BUILD_INPUTS} -newer build/server/index.js -print -quit)" ]; then`,
    `  echo "[cluster] building" && npm run build >"${root}/build.log" 2>&1 || { cat "${root}/build.log"; exit 1; }`,
    "fi",
    `cp -a build drizzle "${root}/"`,
  ].join("\n");
  const result = spawnSync("flock", ["/tmp/e2e.lock", "-c", script], {
    cwd: REPO,
    stdio: "inherit",
  });
  if (result.status !== 0) throw new Error("building or copying the build failed");
  symlinkSync(path.join(REPO, "node_modules"), path.join(root, "node_modules"));
  return root;
}

// ---------------------------------------------------------------------------------------------
// Databases

export const SHARED_POSTGRES_URL =
  process.env.CI_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

export function withDatabase(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

export async function adminQuery(serverUrl: string, statement: string) {
  const client = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** A new, empty database on `serverUrl`: no migration has run on it. */
export async function createDatabase(serverUrl: string, prefix: string) {
  const name = `${prefix}_${Date.now()}_${randomBytes(3).toString("hex")}`;
  await adminQuery(serverUrl, `create database ${name}`);
  const url = withDatabase(serverUrl, name);
  const pool = new pg.Pool({ connectionString: url, max: 3 });
  pool.on("error", () => undefined);
  return {
    name,
    url,
    pool,
    /** One number from one query. */
    async count(sql: string, values: unknown[] = []): Promise<number> {
      const result = await pool.query<{ n: string }>(sql, values);
      return Number(result.rows[0]?.n ?? 0);
    },
    async drop() {
      await pool.end();
      await adminQuery(serverUrl, `drop database if exists ${name} with (force)`);
    },
  };
}

export type TestDatabase = Awaited<ReturnType<typeof createDatabase>>;

/**
 * What a suite's instances talk to besides each other: an SMTP peer, a Stripe stand-in and a
 * fresh database on the shared server; `stop` removes all three.
 */
export async function startPeers(databasePrefix: string) {
  const mail = await new SmtpPeer().start();
  const stripe = new StripeStandIn();
  const stripeApiBase = await stripe.start();
  const db = await createDatabase(SHARED_POSTGRES_URL, databasePrefix);
  return {
    mail,
    stripeApiBase,
    db,
    async stop() {
      await db.drop();
      await mail.stop();
      await stripe.stop();
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Instances

export type Exit = { code: number | null; signal: NodeJS.Signals | null; at: number };

export type Instance = {
  name: string;
  url: string;
  port: number;
  child: ChildProcess;
  logFile: string;
  startedAt: number;
  exited: Promise<Exit>;
  ready(timeoutMs?: number): Promise<number>;
  stop(): Promise<Exit>;
};

export type InstanceOptions = {
  name: string;
  buildRoot: string;
  databaseUrl: string;
  smtpPort: number;
  stripeApiBase: string;
  port?: number;
  env?: Record<string, string>;
};

/** The price ids the catalogue asks for in production: any value, the Stripe stand-in takes it. */
const STRIPE_PRICES = Object.fromEntries(
  [
    "CONSULTORIA_PUNTUAL",
    "ASISTENCIA_DIGITAL",
    "REPUTACION_DIGITAL",
    "CIBERSEGURIDAD",
    "CONSULTORIA_IA",
    "DESARROLLO_WEB",
  ].map((name) => [`STRIPE_PRICE_${name}`, `price_cluster_${name.toLowerCase()}`]),
);

/**
 * Starts `node build/server/index.js` as in production (NODE_ENV=production and every secret
 * production asks for), behind a trusted proxy on loopback. Its log goes to a file.
 */
export async function startInstance(options: InstanceOptions): Promise<Instance> {
  const port = options.port ?? (await freePort());
  const logFile = path.join(options.buildRoot, `${options.name}-${Date.now()}.log`);
  const out = openSync(logFile, "a");
  const startedAt = performance.now();
  const child = track(
    spawn(process.execPath, ["build/server/index.js"], {
      cwd: options.buildRoot,
      env: {
        PATH: process.env.PATH ?? "",
        NODE_ENV: "production",
        PORT: String(port),
        HOST: "127.0.0.1",
        SITE_URL,
        DATABASE_URL: options.databaseUrl,
        DATA_DIR: path.join(options.buildRoot, `data-${options.name}`),
        AUTH_SECRET,
        SMTP_URL: `smtp://127.0.0.1:${options.smtpPort}`,
        STRIPE_SECRET_KEY: "sk_test_cluster",
        STRIPE_ALLOW_TEST_KEYS: "1",
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        STRIPE_API_BASE: options.stripeApiBase,
        ...STRIPE_PRICES,
        TRUST_PROXY: "loopback",
        COMPANY_TAX_ID: "B12345674",
        // No AEAT certificate here: records are written and chained, not sent (decision 032).
        VERIFACTU: "off",
        // The proof of work is the visitor's cost, not what these runs measure.
        HUMAN_CHECK: "off",
        HUMAN_CHECK_OFF_IN_PRODUCTION: "1",
        // Hundreds of enquiries in a minute: the confirmations' hourly cap is not under test.
        CONTACT_CONFIRMATIONS_PER_HOUR: "100000",
        LOG_LEVEL: "warn",
        ...options.env,
      },
      stdio: ["ignore", out, out],
    }),
  );
  const exited = new Promise<Exit>((resolve) => {
    child.once("exit", (code, signal) => resolve({ code, signal, at: performance.now() }));
  });
  const url = `http://127.0.0.1:${port}`;
  return {
    name: options.name,
    url,
    port,
    child,
    logFile,
    startedAt,
    exited,
    async ready(timeoutMs = 60_000) {
      await waitFor(
        `${options.name} to answer /readyz`,
        async () => {
          if (child.exitCode !== null)
            throw new Error(
              `${options.name} exited with ${child.exitCode}:\n${readFileSync(logFile, "utf8").slice(-2000)}`,
            );
          return (await probe(`${url}/readyz`)) === 200;
        },
        { timeoutMs, everyMs: 20 },
      );
      return Math.round(performance.now() - startedAt);
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      return exited;
    },
  };
}

/** The status of a GET, or 0 when nothing answered. */
export async function probe(url: string, timeoutMs = 2000): Promise<number> {
  try {
    const answer = await request(url, { timeoutMs, agent: false });
    return answer.status;
  } catch {
    return 0;
  }
}

// ---------------------------------------------------------------------------------------------
// nginx

export type Nginx = { url: string; stop(): Promise<void> };

/**
 * nginx (Debian's nginx-light) in front of the instances: round-robin, the client address in
 * X-Forwarded-For, the upstream that answered in X-Upstream, and a shared cache that keeps only
 * what the site allows and never answers a visitor with a session cookie from it.
 */
export async function startNginx(upstreams: string[]): Promise<Nginx> {
  const root = mkdtempSync(path.join(tmpdir(), "cluster-nginx-"));
  // nginx workers started by root run as an unprivileged user: let them use the folder.
  chmodSync(root, 0o777);
  for (const dir of ["cache", "tmp-body", "tmp-proxy"])
    mkdirSync(path.join(root, dir), { mode: 0o777 });
  const port = await freePort();
  const servers = upstreams.map((url) => `server ${new URL(url).host};`).join(" ");
  const config = `worker_processes 1;
daemon off;
pid ${root}/nginx.pid;
error_log ${root}/error.log warn;
events { worker_connections 2048; }
http {
  access_log off;
  client_body_temp_path ${root}/tmp-body;
  proxy_temp_path ${root}/tmp-proxy;
  fastcgi_temp_path ${root}/tmp-proxy;
  uwsgi_temp_path ${root}/tmp-proxy;
  scgi_temp_path ${root}/tmp-proxy;
  proxy_cache_path ${root}/cache keys_zone=pages:1m max_size=20m inactive=1m;
  map $http_cookie $has_session { default 0; "~(^|;\\s*)(__Secure-)?vd[._]" 1; }
  upstream site { ${servers} keepalive 32; }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://site;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      # TLS ends in front of this nginx, as at a host or load balancer that terminates it.
      proxy_set_header X-Forwarded-Proto https;
      proxy_cache pages;
      proxy_cache_bypass $has_session;
      proxy_no_cache $has_session;
      add_header X-Upstream $upstream_addr always;
      add_header X-Cache $upstream_cache_status always;
    }
  }
}
`;
  writeFileSync(path.join(root, "nginx.conf"), config);
  const child = track(
    spawn(process.env.NGINX_PATH ?? "/usr/sbin/nginx", ["-p", root, "-c", "nginx.conf"], {
      stdio: ["ignore", "ignore", "inherit"],
    }),
  );
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  await waitFor("nginx to listen", async () => (await probe(`${url}/healthz`)) !== 0, {
    timeoutMs: 10_000,
  });
  return {
    url,
    async stop() {
      child.kill("SIGTERM");
      await exited;
      rmSync(root, { recursive: true, force: true });
    },
  };
}

// ---------------------------------------------------------------------------------------------
// HTTP

export type Answer = {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** The body as sent, for a binary download (a ZIP). */
  bytes: Buffer;
  /** The instance that answered: nginx's X-Upstream, or the address asked directly. */
  upstream: string;
  ms: number;
};

export type RequestOptions = {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** A keep-alive agent to reuse connections; false for a new connection each time. */
  agent?: http.Agent | false;
  timeoutMs?: number;
};

/** Every request the runs send, and those that failed a check (counted by the suites). */
export const tally = { sent: 0, failed: 0 };

/** One HTTP request with node:http (its connection handling is what these runs look at). */
export function request(url: string, options: RequestOptions = {}): Promise<Answer> {
  const target = new URL(url);
  const started = performance.now();
  tally.sent++;
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: `${target.pathname}${target.search}`,
        method: options.method ?? "GET",
        headers: {
          // As a browser on the site sends it through the TLS proxy in front (the instances
          // trust loopback): React Router compares the Origin of an action with this address.
          host: SITE_HOST,
          "x-forwarded-proto": "https",
          ...(options.body !== undefined && { "content-length": Buffer.byteLength(options.body) }),
          ...options.headers,
        },
        agent: options.agent ?? false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("error", reject);
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString("utf8"),
            bytes: Buffer.concat(chunks),
            upstream: String(res.headers["x-upstream"] ?? target.host),
            ms: performance.now() - started,
          }),
        );
      },
    );
    req.setTimeout(options.timeoutMs ?? 15_000, () =>
      req.destroy(new Error(`no answer within ${options.timeoutMs ?? 15_000} ms`)),
    );
    req.on("error", reject);
    req.end(options.body);
  });
}

/** A form post as a browser on the site sends it. */
export function postForm(
  url: string,
  fields: Record<string, string>,
  { cookie = "", forwardedFor, agent, timeoutMs }: FormOptions = {},
) {
  return request(url, {
    method: "POST",
    body: new URLSearchParams(fields).toString(),
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      origin: SITE_URL,
      ...(cookie && { cookie }),
      ...(forwardedFor && { "x-forwarded-for": forwardedFor }),
    },
    agent,
    timeoutMs,
  });
}

type FormOptions = {
  cookie?: string;
  forwardedFor?: string;
  agent?: http.Agent | false;
  timeoutMs?: number;
};

/** Cookies as a browser keeps them for one site (names and values only). */
export class CookieJar {
  private readonly values = new Map<string, string>();

  take(answer: Answer): this {
    for (const line of answer.headers["set-cookie"] ?? []) {
      const [pair = "", ...attributes] = line.split(";");
      const at = pair.indexOf("=");
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a)) || value === "";
      if (expired) this.values.delete(name);
      else this.values.set(name, value);
    }
    return this;
  }

  get header(): string {
    return [...this.values].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  has(pattern: RegExp): boolean {
    return [...this.values.keys()].some((name) => pattern.test(name));
  }
}

/** A distinct client address for each number (X-Forwarded-For, trusted from loopback). */
export function clientAddress(n: number, block = 10): string {
  return `${block}.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
}

/** A valid contact form for a visitor of its own. */
export function enquiry(tag: string) {
  return {
    name: "Cliente de Prueba",
    email: `${tag}@example.com`,
    service: "ia",
    message: `Consulta de prueba del clúster (${tag}): necesitamos ayuda con un proyecto.`,
  };
}

// ---------------------------------------------------------------------------------------------
// Stripe

/** A signed delivery of `event` as Stripe sends it: the same bytes and header every time. */
export const signedEvent = (event: object) => signEvent(event, WEBHOOK_SECRET);

export function deliverEvent(
  url: string,
  delivery: { payload: string; header: string },
  agent?: http.Agent,
) {
  return request(`${url}/api/stripe/webhook`, {
    method: "POST",
    body: delivery.payload,
    headers: { "content-type": "application/json", "stripe-signature": delivery.header },
    agent: agent ?? false,
  });
}

type PurchaseRow = { id: string; checkout_session_id: string; price: number };

const purchaseRef = (purchase: PurchaseRow): PurchaseRef => ({
  id: purchase.id,
  checkoutSessionId: purchase.checkout_session_id,
  price: purchase.price,
});
const paymentIntentOf = (purchase: PurchaseRow) => `pi_${purchase.id.replaceAll("-", "")}`;

export const completionEvent = (id: string, purchase: PurchaseRow, payer: string) =>
  checkoutSessionEvent("checkout.session.completed", purchaseRef(purchase), {
    eventId: id,
    email: payer,
    name: "Cliente del Clúster",
    paymentIntent: paymentIntentOf(purchase),
  });

export const refundEvent = (id: string, purchase: PurchaseRow) =>
  chargeRefundedEvent(
    {
      chargeId: `ch_${purchase.id.replaceAll("-", "")}`,
      paymentIntent: paymentIntentOf(purchase),
      amount: purchase.price,
    },
    { eventId: id },
  );

// ---------------------------------------------------------------------------------------------
// Checks and figures

export class CheckFailed extends Error {}

export function check(condition: unknown, message: string): asserts condition {
  if (!condition) {
    tally.failed++;
    throw new CheckFailed(message);
  }
}

/** The figures a suite reports, printed together at the end. */
export const figures: Record<string, string | number> = {};

export function removeFolder(folder: string) {
  if (existsSync(folder)) rmSync(folder, { recursive: true, force: true });
}
