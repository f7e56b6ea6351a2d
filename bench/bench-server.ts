import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

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

export type RunningServer = {
  url: string;
  readyMs: number;
  dataDir: string;
  process: ChildProcess;
  stop(): Promise<void>;
};

/** The arguments of `npm start` after `node` (its heap limit included): the server as deployed. */
function startArguments(): string[] {
  const { scripts } = JSON.parse(readFileSync("package.json", "utf8")) as {
    scripts: { start: string };
  };
  return scripts.start.split(" ").slice(1);
}

/**
 * Starts the production build on a free port with a fresh data directory (or `dataDir`, for a
 * second start); times /readyz.
 */
export async function startServer(
  env: Record<string, string> = {},
  dataDir = mkdtempSync(path.join(tmpdir(), "bench-data-")),
  node = process.execPath,
): Promise<RunningServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child = spawn(node, startArguments(), {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      SITE_URL: url,
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
      ...env,
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/readyz`)).status === 200) break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const readyMs = Math.round(performance.now() - started);
  return {
    url,
    readyMs,
    dataDir,
    process: child,
    stop: () =>
      new Promise((resolve) => {
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[(values.length - 1) >> 1]!;

/**
 * Start to ready on the embedded database, `rounds` times each: a first start on an empty data
 * directory, then a second start on the same one (the database already there). Medians. On
 * `node`, this machine's by default.
 */
export async function measureStarts(rounds: number, node = process.execPath) {
  const first: number[] = [];
  const second: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const server = await startServer({}, undefined, node);
    first.push(server.readyMs);
    await server.stop();
    const again = await startServer({}, server.dataDir, node);
    second.push(again.readyMs);
    await again.stop();
    rmSync(server.dataDir, { recursive: true, force: true });
  }
  return { firstMs: median(first), secondMs: median(second), first, second };
}

/**
 * Production's Node (the Dockerfile's major) from the npm registry, as CI's second runtime is;
 * undefined when it cannot be had (offline).
 */
export function productionNode(): string | undefined {
  const major = /NODE_IMAGE=node:(\d+)/.exec(readFileSync("Dockerfile", "utf8"))?.[1];
  if (!major) return undefined;
  const found = spawnSync("npx", ["-y", "-p", `node@${major}`, "node", "-p", "process.execPath"], {
    encoding: "utf8",
    timeout: 120_000,
  });
  const binary = found.stdout.trim().split("\n").pop();
  return found.status === 0 && binary ? binary : undefined;
}
