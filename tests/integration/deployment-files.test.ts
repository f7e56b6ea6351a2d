import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { services as catalogue } from "~/features/catalogue/services";
import { parseConfig } from "~/platform/config.server";
import { KEEP_ALIVE_TIMEOUT_MS } from "~/platform/http/express-routes";

/**
 * No container engine runs here, so the deployment files are checked by what can read them:
 * compose.yaml by a YAML parser against the configuration contract, the Dockerfile's stages by
 * their instructions, and deploy/nginx.conf, unchanged, by `nginx -t` with the compose service
 * names resolvable. (Building and starting the image by hand: README, "Deploying".)
 */

// js-yaml comes with ESLint's configuration loader; it has no types of its own here.
const yaml = createRequire(import.meta.url)("js-yaml") as { load(text: string): unknown };

const read = (file: string) => readFileSync(path.resolve(file), "utf8");

type Service = {
  build?: string | { context: string; dockerfile: string };
  image?: string;
  command?: string[];
  entrypoint?: string[];
  user?: string;
  env_file?: string | string[];
  environment?: Record<string, string>;
  ports?: string[];
  volumes?: string[];
  profiles?: string[];
  depends_on?: Record<string, { condition: string }>;
};
const compose = yaml.load(read("compose.yaml")) as { services: Record<string, Service> };
const services = compose.services;

/** .env.example as a map; every value a placeholder a real .env replaces. */
const envExample = Object.fromEntries(
  read(".env.example")
    .split("\n")
    .filter((line) => /^[A-Z_]+=/.test(line))
    .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
);

/** A filled-in .env: test values in the shapes production accepts. */
const filledEnv: Record<string, string> = {
  ...envExample,
  AUTH_SECRET: "a".repeat(64),
  POSTGRES_PASSWORD: "clave0123456789",
  SMTP_URL: "smtp://mailpit:1025",
  STRIPE_SECRET_KEY: "sk_live_123",
  STRIPE_WEBHOOK_SECRET: "whsec_123",
  ADMIN_EMAIL: "admin@example.es",
  ADMIN_PASSWORD: "una-clave-larga",
  COMPANY_LEGAL_NAME: "Empresa S.L.",
  COMPANY_TAX_ID: "B12345674",
  COMPANY_ADDRESS: "Calle Mayor 1, Madrid",
  COMPANY_REGISTRY: "Registro Mercantil de Madrid",
  VERIFACTU_CERT_PASSWORD: "clave-del-certificado",
  METRICS_TOKEN: "m".repeat(64),
  ...Object.fromEntries(
    Object.keys(envExample)
      .filter((name) => name.startsWith("STRIPE_PRICE_"))
      .map((name) => [name, `price_${name.toLowerCase()}`]),
  ),
};

/** What compose gives an app container: the env file, then `environment` interpolated. */
function containerEnvironment(service: Service): Record<string, string> {
  const environment = Object.fromEntries(
    Object.entries(service.environment ?? {}).map(([name, value]) => [
      name,
      value.replace(/\$\{(\w+)(?::\?[^}]*)?\}/g, (_, variable: string) => {
        const found = filledEnv[variable];
        if (found === undefined) throw new Error(`${variable} is not in .env.example`);
        return found;
      }),
    ]),
  );
  return { ...filledEnv, ...environment };
}

describe("compose.yaml", () => {
  it("runs two identical app instances, PostgreSQL, nginx and, for staging, a mail catcher", () => {
    expect(Object.keys(services).sort()).toEqual([
      "app1",
      "app2",
      "db",
      "db-backup",
      "grafana",
      "mailpit",
      "prometheus",
      "proxy",
    ]);
    expect(services.app1).toEqual(services.app2);
    expect(services.app1!.build).toBe(".");
    expect(services.app1!.depends_on?.db?.condition).toBe("service_healthy");
    expect(services.mailpit!.profiles).toEqual(["staging"]);
    // Only the proxy is reachable from outside; the instances and the database are not.
    for (const name of ["app1", "app2", "db", "db-backup"])
      expect(services[name]!.ports).toBeUndefined();
    expect(services.proxy!.ports).toEqual(["${HTTP_PORT:-80}:80"]);
  });

  it("gives each instance a configuration that production accepts, secrets from .env only", () => {
    const app = services.app1!;
    expect(app.env_file).toBe(".env");
    const env = containerEnvironment(app);
    expect(env.NODE_ENV).toBe("production");
    expect(env.DATABASE_URL).toBe("postgres://app:clave0123456789@db:5432/app");
    expect(env.TRUST_PROXY).toBe("1");
    const config = parseConfig(env);
    expect(config.isProduction).toBe(true);
    expect(config.siteUrl).toBe("https://www.example.es");
    expect(config.trustProxy).toBe(1);
    expect(config.port).toBe(3000);
    // Billing records go to AEAT's production service with the certificate compose mounts.
    expect(config.verifactu).toMatchObject({
      enabled: true,
      environment: "produccion",
      certificateFile: "/run/secrets/verifactu/certificado.p12",
    });
    expect(app.volumes).toContain("./secrets:/run/secrets/verifactu:ro");
    // One price per service of the catalogue, by the names it reads.
    expect(Object.keys(config.stripe.priceIds).sort()).toEqual(
      catalogue.map((service) => service.stripePriceEnv).sort(),
    );
    // No secret is written in compose.yaml itself.
    for (const secret of ["AUTH_SECRET", "STRIPE_SECRET_KEY", "STRIPE_WEBHOOK_SECRET", "SMTP_URL"])
      expect(app.environment?.[secret]).toBeUndefined();
  });

  it("holds no secret in the example, which production refuses as it is", () => {
    for (const secret of [
      "AUTH_SECRET",
      "POSTGRES_PASSWORD",
      "STRIPE_SECRET_KEY",
      "ADMIN_PASSWORD",
      "VERIFACTU_CERT_PASSWORD",
      "METRICS_TOKEN",
    ])
      expect(envExample[secret]).toBe("");
    expect(() => parseConfig({ ...envExample, NODE_ENV: "production" })).toThrow(/AUTH_SECRET/);
  });

  it("keeps the env file out of git and out of the image", () => {
    expect(read(".gitignore").split("\n")).toEqual(expect.arrayContaining([".env", "secrets/"]));
    expect(read(".dockerignore").split("\n")).toEqual(
      expect.arrayContaining([".env", ".env.*", "secrets"]),
    );
  });

  it("puts deploy/nginx.conf in front of exactly the app services, on their port", () => {
    expect(services.proxy!.volumes).toContain(
      "./deploy/nginx.conf:/etc/nginx/conf.d/default.conf:ro",
    );
    expect(services.proxy!.depends_on).toEqual({
      app1: { condition: "service_healthy" },
      app2: { condition: "service_healthy" },
    });
    const upstreams = [...read("deploy/nginx.conf").matchAll(/^\s*server ([\w.-]+:\d+)/gm)].map(
      (match) => match[1],
    );
    expect(upstreams).toEqual(["app1:3000", "app2:3000"]);
  });

  it("has nginx drop idle upstream connections before the app closes them", () => {
    const upstream = /upstream site \{([^}]*)\}/.exec(read("deploy/nginx.conf"))![1]!;
    const seconds = Number(/keepalive_timeout (\d+)s;/.exec(upstream)?.[1] ?? 60);
    expect(seconds * 1000).toBeLessThan(KEEP_ALIVE_TIMEOUT_MS);
  });

  it("has nginx set the forwarded host itself and key its cache by path, not query", () => {
    const nginx = read("deploy/nginx.conf");
    // The app trusts nginx's X-Forwarded-Host (TRUST_PROXY=1): never the client's (decision 034).
    expect(nginx).toMatch(/^\s*proxy_set_header X-Forwarded-Host \$host;$/m);
    expect(nginx).toMatch(/^\s*proxy_cache_key "\$site_path\|\$site_encoding";$/m);
    expect(nginx).not.toMatch(/proxy_cache_key[^;]*\$(?:request_uri|args|query_string)/);
  });
});

describe("PostgreSQL with pgBackRest (deploy/postgres, decision 053)", () => {
  const db = services.db!;
  const backups = services["db-backup"]!;
  const dockerfile = read("deploy/postgres/Dockerfile").replace(/\\\n/g, " ");
  const pgbackrest = read("deploy/pgbackrest.conf");
  const settings = Object.fromEntries(
    db
      .command!.filter((_, i, all) => all[i - 1] === "-c")
      .map((setting) => [
        setting.slice(0, setting.indexOf("=")),
        setting.slice(setting.indexOf("=") + 1),
      ]),
  );

  it("builds one image from the official PostgreSQL 15+ image with Debian's pgbackrest", () => {
    expect(db.build).toEqual({ context: "./deploy", dockerfile: "postgres/Dockerfile" });
    expect(backups.build).toEqual(db.build);
    expect(backups.image).toBe(db.image);
    expect(dockerfile).toMatch(/^FROM postgres:1[5-9]-bookworm$/m);
    expect(dockerfile).toMatch(/apt-get install -y --no-install-recommends pgbackrest/);
    expect(dockerfile).toMatch(/^COPY .*pgbackrest\.conf \/etc\/pgbackrest\/pgbackrest\.conf$/m);
    expect(dockerfile).toMatch(
      /^COPY .*postgres\/backup-schedule\.sh \/usr\/local\/bin\/backup-schedule$/m,
    );
    expect(backups.entrypoint).toEqual(["/usr/local/bin/backup-schedule"]);
  });

  it("archives every WAL segment to the stanza the configuration names, on the data folder it backs up", () => {
    expect(db.command![0]).toBe("postgres");
    expect(settings).toMatchObject({
      wal_level: "replica",
      archive_mode: "on",
      archive_command: "pgbackrest --stanza=site archive-push %p",
    });
    expect(pgbackrest).toMatch(/^\[site\]$/m);
    const dataFolder = /^pg1-path=(.+)$/m.exec(pgbackrest)?.[1];
    const repository = /^repo1-path=(.+)$/m.exec(pgbackrest)?.[1];
    expect(db.volumes).toContain(`db-data:${dataFolder}`);
    expect(db.volumes).toContain(`pgbackrest-repo:${repository}`);
    expect(pgbackrest).toMatch(/^repo1-retention-full=\d+$/m);
  });

  it("backs up from a service that shares the data folder, socket and repository, as postgres", () => {
    expect(backups.volumes).toEqual(db.volumes);
    expect(db.volumes).toContain("db-socket:/var/run/postgresql");
    expect(backups.user).toBe("postgres");
    expect(backups.depends_on?.db?.condition).toBe("service_healthy");
    expect((backups.environment ?? {}).PGBACKREST_PG1_USER).toBe(
      (db.environment ?? {}).POSTGRES_USER,
    );
  });
});

describe("Dockerfile", () => {
  const stages = read("Dockerfile")
    .replace(/\\\n/g, " ")
    .split(/^FROM /m)
    .slice(1)
    .map((stage) => {
      const [from, ...lines] = stage.split("\n");
      return { from: from!.trim(), lines: lines.map((line) => line.trim()).filter(Boolean) };
    });
  const runtime = stages.at(-1)!;

  it("builds on Node 24 LTS and keeps only production dependencies in the final stage", () => {
    expect(read("Dockerfile")).toMatch(/^ARG NODE_IMAGE=node:24-[\w.-]+$/m);
    expect(stages.map((stage) => stage.from)).toEqual([
      "${NODE_IMAGE} AS deps",
      "deps AS build",
      "${NODE_IMAGE} AS prod-deps",
      "${NODE_IMAGE} AS runtime",
    ]);
    const prodDeps = stages[2]!.lines.join("\n");
    expect(prodDeps).toMatch(/npm ci --omit=dev/);
    const copies = runtime.lines.filter((line) => line.startsWith("COPY"));
    expect(copies).toEqual([
      "COPY --from=prod-deps /app/node_modules ./node_modules",
      "COPY --from=build /app/build ./build",
      "COPY package.json ./",
      "COPY drizzle ./drizzle",
    ]);
  });

  it("runs as an unprivileged user, on the configured port, health-checked on /readyz", () => {
    expect(runtime.lines).toContain("USER node");
    expect(runtime.lines).toContain("EXPOSE 3000");
    expect(runtime.lines.join("\n")).toMatch(/PORT=3000/);
    const healthcheck = runtime.lines.find((line) => line.startsWith("HEALTHCHECK"));
    expect(healthcheck).toMatch(/\/readyz/);
    // The image starts the server exactly as `npm start` does (its heap limit included).
    const start = (
      JSON.parse(readFileSync("package.json", "utf8")) as { scripts: { start: string } }
    ).scripts.start;
    expect(start).toMatch(/^node --max-old-space-size=\d+ build\/server\/index\.js$/);
    expect(runtime.lines.at(-1)).toBe(
      `CMD [${start
        .split(" ")
        .map((part) => `"${part}"`)
        .join(", ")}]`,
    );
  });
});

const canTestNginx =
  existsSync("/usr/sbin/nginx") && existsSync("/usr/bin/unshare") && process.getuid?.() === 0;

describe.skipIf(!canTestNginx)("deploy/nginx.conf as compose mounts it", () => {
  it("passes nginx -t, with app1 and app2 resolvable as in the compose network", () => {
    const root = mkdtempSync(path.join(tmpdir(), "nginx-t-"));
    const site = read("deploy/nginx.conf").replace("/var/cache/nginx/site", `${root}/cache`);
    writeFileSync(path.join(root, "site.conf"), site);
    writeFileSync(path.join(root, "hosts"), "127.0.0.1 localhost app1 app2\n");
    // The official image's nginx.conf, which includes conf.d/*.conf inside http { }.
    writeFileSync(
      path.join(root, "nginx.conf"),
      `worker_processes auto;
pid ${root}/nginx.pid;
error_log stderr;
events { worker_connections 1024; }
http {
  include /etc/nginx/mime.types;
  default_type application/octet-stream;
  sendfile on;
  keepalive_timeout 65;
  client_body_temp_path ${root}/body;
  proxy_temp_path ${root}/proxy;
  fastcgi_temp_path ${root}/fastcgi;
  uwsgi_temp_path ${root}/uwsgi;
  scgi_temp_path ${root}/scgi;
  include ${root}/site.conf;
}
`,
    );
    // A private mount namespace: the machine's /etc/hosts is never touched.
    const output = execFileSync(
      "/usr/bin/unshare",
      [
        "-m",
        "sh",
        "-c",
        `mount --bind ${root}/hosts /etc/hosts && /usr/sbin/nginx -t -c ${root}/nginx.conf 2>&1`,
      ],
      { encoding: "utf8" },
    );
    expect(output).toContain("test is successful");
  });
});
