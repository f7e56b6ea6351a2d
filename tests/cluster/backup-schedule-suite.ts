/**
 * compose.yaml's pgBackRest, outside Docker (decision 053): no container engine runs here, so the
 * pieces compose puts together are run on a private cluster instead. The cluster gets the `db`
 * service's own `-c` settings from compose.yaml (its archive_command unchanged), pgBackRest reads
 * deploy/pgbackrest.conf itself with only the paths moved into this run's folder (as
 * PGBACKREST_* variables, pgBackRest's own override), and deploy/postgres/backup-schedule.sh runs
 * as the `db-backup` service runs it, as the postgres user:
 *
 *   - first start on an empty repository: the stanza is created, WAL archiving checked, and a
 *     full backup made; the schedule then waits for BACKUP_TIME and makes a differential backup
 *     (BACKUP_FULL_WEEKDAY is another day), then stops (BACKUP_MAX_RUNS=1, for this test);
 *   - a second start finds the stanza and the full backup and makes none at start; SIGTERM
 *     during its wait stops it at once with exit 0;
 *   - a bad BACKUP_TIME is refused with exit 2 before anything runs;
 *   - the repository then restores: a new cluster from the differential backup (with the full
 *     one it depends on) holds a row written just before it.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { chownSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { check, figures, log, REPO, waitFor } from "./harness";
import { startPrivatePostgres, type PrivatePostgres } from "./private-postgres";

const yaml = createRequire(import.meta.url)("js-yaml") as { load(text: string): unknown };
const SCRIPT = path.join(REPO, "deploy/postgres/backup-schedule.sh");
const CONFIG = path.join(REPO, "deploy/pgbackrest.conf");
const BACKUP_RUNS_MIGRATION = path.join(REPO, "drizzle/0016_backup_runs.sql");

/** The `-c name=value` settings compose.yaml gives the db service. */
function composeDatabaseSettings(): Record<string, string> {
  const compose = yaml.load(readFileSync(path.join(REPO, "compose.yaml"), "utf8")) as {
    services: { db: { command: string[] } };
  };
  const command = compose.services.db.command;
  return Object.fromEntries(
    command
      .filter((_, i) => command[i - 1] === "-c")
      .map((setting) => {
        const at = setting.indexOf("=");
        return [setting.slice(0, at), setting.slice(at + 1)];
      }),
  );
}

function postgresIds(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) =>
    Number(execFileSync("id", [flag, "postgres"], { encoding: "utf8" }).trim());
  return { uid: id("-u"), gid: id("-g") };
}

type Run = { child: ChildProcess; output: () => string; exit: Promise<number | null> };

/** The schedule script as the db-backup service runs it: /bin/sh, as postgres. */
function schedule(env: Record<string, string>): Run {
  const owner = postgresIds();
  const [file, ...args] = owner
    ? // setpriv execs the script (no process in between): SIGTERM reaches the shell itself.
      [
        "setpriv",
        `--reuid=${owner.uid}`,
        `--regid=${owner.gid}`,
        "--init-groups",
        "/bin/sh",
        SCRIPT,
      ]
    : ["/bin/sh", SCRIPT];
  const child = spawn(file!, args, {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exit = new Promise<number | null>((resolve) => child.once("exit", resolve));
  return { child, output: () => output, exit };
}

/** A BACKUP_TIME (HH:MM, UTC) at least 20 s ahead: the next minute, or the one after. */
function nextMinute(): { time: string; weekday: number } {
  const at = new Date(Date.now() + 20_000);
  at.setUTCSeconds(0, 0);
  at.setUTCMinutes(at.getUTCMinutes() + 1);
  const time = `${String(at.getUTCHours()).padStart(2, "0")}:${String(at.getUTCMinutes()).padStart(2, "0")}`;
  return { time, weekday: at.getUTCDay() === 0 ? 7 : at.getUTCDay() };
}

export async function backupScheduleSuite() {
  const owner = postgresIds();
  const root = mkdtempSync(path.join(tmpdir(), "backup-schedule-"));
  for (const folder of ["repo", "spool", "lock", "log"]) mkdirSync(path.join(root, folder));
  if (owner)
    for (const folder of ["", "repo", "spool", "lock", "log"])
      chownSync(path.join(root, folder), owner.uid, owner.gid);
  // deploy/pgbackrest.conf as shipped; only where things live moves into this run's folder.
  const pgbackrestEnv: Record<string, string> = {
    PGBACKREST_CONFIG: CONFIG,
    PGBACKREST_REPO1_PATH: path.join(root, "repo"),
    PGBACKREST_SPOOL_PATH: path.join(root, "spool"),
    PGBACKREST_LOCK_PATH: path.join(root, "lock"),
    PGBACKREST_LOG_PATH: path.join(root, "log"),
  };
  const settings = composeDatabaseSettings();
  check(
    settings.archive_command === "pgbackrest --stanza=site archive-push %p",
    `compose.yaml's archive_command is ${settings.archive_command}`,
  );
  let source: PrivatePostgres | undefined;
  let restored: PrivatePostgres | undefined;
  let saved: Record<string, string | undefined> = {};
  try {
    // Made first without archiving: its folder (pg1-path, which archive-push needs) is known
    // only then. compose's settings go in with ALTER SYSTEM, and the server restarts with the
    // PGBACKREST_* variables in its environment, where its archive_command runs.
    source = await startPrivatePostgres();
    const env = {
      ...pgbackrestEnv,
      PGBACKREST_PG1_PATH: source.data,
      PGBACKREST_PG1_PORT: String(source.port),
      PGBACKREST_PG1_SOCKET_PATH: source.root,
      PGBACKREST_LOG_LEVEL_CONSOLE: "warn",
      // Where the script records each backup (compose gives the site's database and user).
      PGHOST: "127.0.0.1",
      PGPORT: String(source.port),
      PGUSER: "postgres",
      PGDATABASE: "postgres",
      PATH: process.env.PATH ?? "",
    };
    const admin = new pg.Client({ connectionString: source.url });
    await admin.connect();
    for (const [name, value] of Object.entries(settings))
      await admin.query(`alter system set ${name} = ${pg.escapeLiteral(value)}`);
    await admin.end();
    await source.stop("fast");
    saved = Object.fromEntries(Object.keys(env).map((key) => [key, process.env[key]]));
    Object.assign(process.env, env);
    await source.start();
    const client = new pg.Client({ connectionString: source.url });
    // A failed check stops the server under it: the check's error is the one reported.
    client.on("error", () => undefined);
    await client.connect();
    const shown = await client.query<{ setting: string }>(
      "select current_setting('archive_command') as setting",
    );
    check(
      shown.rows[0]?.setting === settings.archive_command,
      `archive_command is ${shown.rows[0]?.setting}`,
    );
    await client.query("create table kept (note text)");
    await client.query("insert into kept values ('before the first start')");
    // The site's table, as its migration makes it: the script records each backup in it.
    for (const statement of readFileSync(BACKUP_RUNS_MIGRATION, "utf8").split(
      "--> statement-breakpoint",
    ))
      await client.query(statement);

    const bad = schedule({ ...env, BACKUP_TIME: "25:00" });
    check((await bad.exit) === 2, `BACKUP_TIME=25:00: exit ${await bad.exit}, ${bad.output()}`);
    check(/write the time as HH:MM/.test(bad.output()), `BACKUP_TIME=25:00: ${bad.output()}`);

    log("backup schedule: first start on an empty repository, then one scheduled backup");
    const { time, weekday } = nextMinute();
    const started = performance.now();
    const first = schedule({
      ...env,
      BACKUP_TIME: time,
      BACKUP_FULL_WEEKDAY: String((weekday % 7) + 1),
      BACKUP_MAX_RUNS: "1",
    });
    await waitFor(
      "the full backup at the first start",
      () => first.output().includes("full backup done"),
      { timeoutMs: 120_000, everyMs: 200 },
    );
    await client.query("insert into kept values ('before the differential backup')");
    const firstExit = await first.exit;
    const out = first.output();
    check(firstExit === 0, `the first run ended with ${firstExit}: ${out}`);
    for (const line of [
      "stanza site ready, WAL archiving checked",
      "starting a full backup",
      `next backup in`,
      "starting a diff backup",
      "diff backup done",
      "stopping after 1 scheduled backup(s)",
    ])
      check(out.includes(line), `the first run did not log "${line}": ${out}`);
    const recorded = await client.query<{ kind: string }>(
      "select kind from backup_runs order by finished_at",
    );
    check(
      recorded.rows.map((row) => row.kind).join(",") === "pgbackrest-full,pgbackrest-diff",
      `backup_runs holds ${JSON.stringify(recorded.rows)}: ${out}`,
    );
    figures["backup schedule: first start to a scheduled diff backup (s)"] =
      Math.round((performance.now() - started) / 100) / 10;

    const info = JSON.parse(
      execFileSync("pgbackrest", ["--stanza=site", "info", "--output=json"], {
        env: { ...process.env, ...env },
        encoding: "utf8",
      }),
    ) as { backup: { type: string; label: string }[]; archive: { min: string; max: string }[] }[];
    const sets = info[0]!.backup.map((backup) => backup.type);
    check(sets.join(",") === "full,diff", `the repository holds ${sets.join(",")}`);
    figures["backup schedule: repository"] =
      `${sets.join(" + ")}; WAL ${info[0]!.archive[0]?.min} … ${info[0]!.archive[0]?.max}`;

    log("backup schedule: a second start makes no backup at start; SIGTERM ends its wait");
    const second = schedule({ ...env, BACKUP_TIME: "00:00" });
    await waitFor("the second start to wait", () => second.output().includes("next backup in"), {
      timeoutMs: 60_000,
      everyMs: 200,
    });
    check(
      !second.output().includes("starting a"),
      `the second start made a backup: ${second.output()}`,
    );
    const signalled = performance.now();
    second.child.kill("SIGTERM");
    const secondExit = await second.exit;
    const stopMs = Math.round(performance.now() - signalled);
    check(secondExit === 0 && stopMs < 5_000, `SIGTERM: exit ${secondExit} after ${stopMs} ms`);
    figures["backup schedule: SIGTERM during the wait, stopped in (ms)"] = stopMs;
    await client.end();

    log("backup schedule: the differential backup restores into a new cluster");
    // The restored server must find its WAL with what its restore_command says, not the source's.
    for (const key of ["PGBACKREST_PG1_PATH", "PGBACKREST_PG1_PORT", "PGBACKREST_PG1_SOCKET_PATH"])
      delete process.env[key];
    const diff = info[0]!.backup.at(-1)!.label;
    restored = await startPrivatePostgres({
      fill: async (data, runAsOwner) => {
        await runAsOwner("/usr/bin/mkdir", ["-m", "700", data]);
        await runAsOwner("/usr/bin/env", [
          ...Object.entries(env).map(([key, value]) => `${key}=${value}`),
          "pgbackrest",
          "--stanza=site",
          "restore",
          `--pg1-path=${data}`,
          `--set=${diff}`,
          "--type=immediate",
          "--target-action=promote",
        ]);
      },
      settings: { archive_mode: "off" },
    });
    const rows = await waitFor(
      "the restored cluster to leave recovery",
      async () => {
        const reader = new pg.Client({ connectionString: restored!.url });
        await reader.connect();
        try {
          const recovering = await reader.query<{ r: boolean }>("select pg_is_in_recovery() as r");
          if (recovering.rows[0]?.r !== false) return undefined;
          return (await reader.query<{ note: string }>("select note from kept order by note")).rows;
        } finally {
          await reader.end();
        }
      },
      { timeoutMs: 60_000, everyMs: 500 },
    );
    check(
      rows.map((row) => row.note).join(" | ") ===
        "before the differential backup | before the first start",
      `the restored cluster holds: ${JSON.stringify(rows)}`,
    );
  } finally {
    for (const [key, value] of Object.entries(saved))
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    await restored?.destroy();
    await source?.destroy();
    rmSync(root, { recursive: true, force: true });
  }
}
