import { spawn, spawnSync } from "node:child_process";
import { appendFileSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "./harness";

/** The newest PostgreSQL server installed from Debian's packages, or undefined. */
export function postgresBinaries(): string | undefined {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((version) => existsSync(path.join(root, version, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(root, versions[0], "bin") : undefined;
}

export type PrivatePostgres = {
  url: string;
  /** The cluster's folder (its socket is there) and data folder, and its port. */
  root: string;
  data: string;
  port: number;
  /** Runs a program as the cluster's owner (the postgres user when run as root). */
  runAsOwner(file: string, args: string[]): Promise<string>;
  /** pg_ctl stop: `fast` (a clean shutdown) or `immediate` (as a crash: recovery at start). */
  stop(mode: "fast" | "immediate"): Promise<void>;
  /** pg_ctl start; resolves once the server accepts connections. */
  start(): Promise<void>;
  destroy(): Promise<void>;
};

/**
 * A PostgreSQL cluster of this run only: its own data folder and port, made with the Debian
 * server's initdb and pg_ctl. The machine's shared server is never touched. initdb refuses to
 * run as root, so as root the cluster belongs to (and runs as) the postgres user.
 */
export type PrivatePostgresOptions = {
  /** Lines appended to postgresql.conf before the first start (`name = 'value'`). */
  settings?: Record<string, string>;
  /** Fills the data folder instead of initdb (a restore); runs as the cluster's owner. */
  fill?: (data: string, runAsOwner: PrivatePostgres["runAsOwner"]) => Promise<void>;
};

export async function startPrivatePostgres(
  setup: PrivatePostgresOptions = {},
): Promise<PrivatePostgres> {
  const bin = postgresBinaries();
  if (!bin) throw new Error("no PostgreSQL server binaries under /usr/lib/postgresql");
  const root = mkdtempSync(path.join(tmpdir(), "cluster-pg-"));
  const data = path.join(root, "data");
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const ids = spawnSync("id", ["-u", "postgres"], { encoding: "utf8" });
    const gids = spawnSync("id", ["-g", "postgres"], { encoding: "utf8" });
    chownSync(root, Number(ids.stdout.trim()), Number(gids.stdout.trim()));
  }
  const command = (tool: string, args: string[]) =>
    asRoot
      ? ["runuser", "-u", "postgres", "--", path.join(bin, tool), ...args]
      : [path.join(bin, tool), ...args];
  const runAsOwner = (program: string, args: string[]) =>
    new Promise<string>((resolve, reject) => {
      const [file, ...rest] = asRoot
        ? ["runuser", "-u", "postgres", "--", program, ...args]
        : [program, ...args];
      const child = spawn(file!, rest, { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
      let output = "";
      child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
      child.once("error", reject);
      child.once("exit", (code) =>
        code === 0
          ? resolve(output)
          : reject(new Error(`${path.basename(program)} ${args.join(" ")} failed: ${output}`)),
      );
    });
  // Asynchronous: the clients of the run keep sending while the server stops and starts.
  const run = async (tool: string, args: string[]) => {
    await runAsOwner(path.join(bin, tool), args);
  };
  if (setup.fill)
    await setup.fill(data, runAsOwner).catch((error: unknown) => {
      rmSync(root, { recursive: true, force: true });
      throw error;
    });
  else
    await run("initdb", [
      "-D",
      data,
      "-A",
      "trust",
      "-U",
      "postgres",
      "-E",
      "UTF8",
      "--locale=C",
      "--no-sync",
    ]);
  if (setup.settings) {
    const lines = Object.entries(setup.settings).map(
      ([name, value]) => `${name} = '${value.replaceAll("'", "''")}'`,
    );
    appendFileSync(path.join(data, "postgresql.conf"), `\n${lines.join("\n")}\n`);
  }
  const port = await freePort();
  const options = `-p ${port} -k ${root} -c listen_addresses=127.0.0.1 -c max_connections=50`;
  const start = () =>
    run("pg_ctl", [
      "-D",
      data,
      "-l",
      path.join(root, "server.log"),
      "-o",
      options,
      "-w",
      "-t",
      "30",
      "start",
    ]);
  // However the run ends (a failed check, Ctrl-C), the cluster does not outlive it.
  const stopAtExit = () => {
    const [file, ...rest] = command("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
    spawnSync(file!, rest, { stdio: "ignore", cwd: root });
    rmSync(root, { recursive: true, force: true });
  };
  process.once("exit", stopAtExit);
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    root,
    data,
    port,
    runAsOwner,
    stop: (mode) => run("pg_ctl", ["-D", data, "-m", mode, "-w", "-t", "30", "stop"]),
    start,
    async destroy() {
      process.off("exit", stopAtExit);
      try {
        await run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
      } catch {
        // already stopped
      }
      rmSync(root, { recursive: true, force: true });
    },
  };
}
