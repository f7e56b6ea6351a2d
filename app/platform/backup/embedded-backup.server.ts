import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createConnection, createServer, type Server } from "node:net";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pgliteExtensions } from "../db/pglite-start.server";
import {
  backupFileName,
  BackupRefused,
  newestBackupTime,
  pruneBackups,
  readBackupFile,
  writeBackupFile,
} from "./backup-file.server";

/**
 * Backups of the embedded database (PGlite in `$DATA_DIR/db`), decision 047. The running server
 * owns the PGlite instance, and a second process must never open the same directory: so the
 * server makes every backup itself, with PGlite's `dumpDataDir`, which runs under the instance's
 * query lock (no statement runs while the files are read: a crash-consistent image, as a
 * PostgreSQL restarted after a power cut would find). `npm run db:backup` asks the running
 * server over a Unix socket in DATA_DIR (reachable only by the account that owns DATA_DIR), or,
 * when no server answers there, opens the directory itself.
 */

export const KIND = "pglite";
/** The database directory's tar inside an embedded backup. */
export const PGDATA = "pgdata.tar";
const FILES = "files/";
/** Small files of DATA_DIR kept with the database (generated local secrets). */
const MAX_SIDE_FILE_BYTES = 1024 * 1024;
const SOCKET = "backup.sock";
const DAY_MS = 24 * 60 * 60_000;
/** A backup is due when the newest is this old: checked hourly, so one a day. */
const DUE_AFTER_MS = DAY_MS - 60 * 60_000;

export type BackupResult = {
  file: string;
  /** Size of the compressed backup file. */
  bytes: number;
  /** Size of the database directory it holds, uncompressed. */
  databaseBytes: number;
  seconds: number;
};

export type Dump = () => Promise<Blob>;

export const controlSocketPath = (dataDir: string) => path.join(dataDir, SOCKET);
export const databaseDirectory = (dataDir: string) => path.join(dataDir, "db");
export const hasDatabase = (dataDir: string) =>
  existsSync(path.join(databaseDirectory(dataDir), "PG_VERSION"));

function sideFiles(dataDir: string) {
  if (!existsSync(dataDir)) return [];
  return readdirSync(dataDir)
    .filter((name) => {
      const stat = lstatSync(path.join(dataDir, name));
      return stat.isFile() && stat.size <= MAX_SIDE_FILE_BYTES && !name.endsWith(".partial");
    })
    .map((name) => ({
      name: `${FILES}${name}`,
      data: readFileSync(path.join(dataDir, name)),
      mode: lstatSync(path.join(dataDir, name)).mode & 0o777,
    }));
}

let pglitePackageVersion: string | undefined;
function pgliteVersion(): string {
  try {
    pglitePackageVersion ??= (
      JSON.parse(
        readFileSync(path.resolve("node_modules/@electric-sql/pglite/package.json"), "utf8"),
      ) as { version: string }
    ).version;
  } catch {
    pglitePackageVersion = "unknown";
  }
  return pglitePackageVersion;
}

/** One backup of the embedded database and DATA_DIR's small files into `backupDir`. */
export async function makeEmbeddedBackup(options: {
  dump: Dump;
  dataDir: string;
  backupDir: string;
  keep: number;
}): Promise<BackupResult> {
  const started = performance.now();
  const database = new Uint8Array(await (await options.dump()).arrayBuffer());
  const file = path.join(options.backupDir, backupFileName(KIND));
  const written = await writeBackupFile(
    file,
    KIND,
    [{ name: PGDATA, data: database }, ...sideFiles(options.dataDir)],
    { pglite: pgliteVersion(), node: process.version },
  );
  pruneBackups(options.backupDir, KIND, options.keep);
  return {
    file: written.file,
    bytes: written.bytes,
    databaseBytes: database.byteLength,
    seconds: Math.round((performance.now() - started) / 10) / 100,
  };
}

// ---------------------------------------------------------------------------------------------
// The running server's side

type Request = { backupDir?: string };
type Reply = { ok: true; result: BackupResult } | { ok: false; error: string };

export type EmbeddedBackups = {
  /** A backup now (the daily one, or one asked over the socket); one at a time. */
  backupNow(backupDir?: string): Promise<BackupResult>;
  stop(): Promise<void>;
};

/**
 * The server's embedded backups: the control socket `npm run db:backup` talks to, and, unless
 * `backupDir` is undefined (BACKUP_DIR=off), a daily backup there keeping the newest `keep`.
 */
export async function startEmbeddedBackups(options: {
  dump: Dump;
  dataDir: string;
  backupDir: string | undefined;
  keep: number;
  onBackup?: (result: BackupResult) => void;
  onError?: (error: unknown) => void;
}): Promise<EmbeddedBackups> {
  let running: Promise<BackupResult> | undefined;
  const backupNow = (backupDir = options.backupDir): Promise<BackupResult> => {
    if (!backupDir) return Promise.reject(new Error("BACKUP_DIR=off y no se indicó carpeta"));
    // One at a time: a second request waits for the first and then makes its own.
    const previous = running ?? Promise.resolve();
    const next = previous
      .catch(() => undefined)
      .then(() =>
        makeEmbeddedBackup({
          dump: options.dump,
          dataDir: options.dataDir,
          backupDir,
          keep: options.keep,
        }),
      );
    running = next;
    void next.then(
      (result) => options.onBackup?.(result),
      (error: unknown) => options.onError?.(error),
    );
    return next;
  };

  const server = await listenOnControlSocket(options.dataDir, backupNow);

  let timer: NodeJS.Timeout | undefined;
  if (options.backupDir) {
    const folder = options.backupDir;
    const check = () => {
      if (backupIsDue(newestBackupTime(folder, KIND), new Date()))
        backupNow(folder).catch(() => undefined);
    };
    // The first check a minute after start, not before ready (decision 039); then hourly.
    const first = setTimeout(() => {
      check();
      timer = setInterval(check, 60 * 60_000);
      timer.unref();
    }, 60_000);
    first.unref();
    timer = first;
  }

  return {
    backupNow,
    async stop() {
      clearTimeout(timer);
      clearInterval(timer);
      await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
      rmSync(controlSocketPath(options.dataDir), { force: true });
      await running?.catch(() => undefined);
    },
  };
}

/** Whether the daily backup is due, given when the newest one was made. */
export function backupIsDue(newest: Date | undefined, now: Date): boolean {
  return !newest || now.getTime() - newest.getTime() >= DUE_AFTER_MS;
}

async function listenOnControlSocket(
  dataDir: string,
  backupNow: (backupDir?: string) => Promise<BackupResult>,
): Promise<Server | undefined> {
  const socketPath = controlSocketPath(dataDir);
  // A socket file left by a process that died: nobody answers on it, so it can go.
  if (existsSync(socketPath)) {
    if (await serverAnswers(dataDir)) throw new Error(`otro servidor usa ${dataDir}`);
    rmSync(socketPath, { force: true });
  }
  const server = createServer((socket) => {
    let input = "";
    socket.setEncoding("utf8");
    socket.on("error", () => undefined);
    socket.on("data", (chunk: string) => {
      input += chunk;
      if (!input.includes("\n")) return;
      let request: Request = {};
      try {
        request = JSON.parse(input.slice(0, input.indexOf("\n"))) as Request;
      } catch {
        // an empty request asks for the configured folder
      }
      const reply = (answer: Reply) => socket.end(`${JSON.stringify(answer)}\n`);
      if (request.backupDir !== undefined && !path.isAbsolute(request.backupDir)) {
        reply({ ok: false, error: "la carpeta de destino debe ser una ruta absoluta" });
        return;
      }
      backupNow(request.backupDir).then(
        (result) => reply({ ok: true, result }),
        (error: unknown) => reply({ ok: false, error: (error as Error).message }),
      );
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(socketPath, () => resolve());
  });
  // Only the account that runs the server (and owns DATA_DIR) may ask for a backup.
  chmodSync(socketPath, 0o600);
  server.unref();
  return server;
}

// ---------------------------------------------------------------------------------------------
// The command line's side

/** Whether a running server listens on DATA_DIR's control socket. */
export function serverAnswers(dataDir: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection(controlSocketPath(dataDir));
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/**
 * Asks the server running on DATA_DIR for a backup into `backupDir`; undefined when no server
 * listens there (the caller may then open the directory itself).
 */
export function askRunningServer(
  dataDir: string,
  backupDir: string,
): Promise<BackupResult | undefined> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(controlSocketPath(dataDir));
    let answer = "";
    let connected = false;
    socket.setEncoding("utf8");
    socket.once("connect", () => {
      connected = true;
      socket.write(`${JSON.stringify({ backupDir } satisfies Request)}\n`);
    });
    socket.on("data", (chunk: string) => (answer += chunk));
    socket.once("error", (error: NodeJS.ErrnoException) => {
      if (!connected && (error.code === "ENOENT" || error.code === "ECONNREFUSED"))
        resolve(undefined);
      else reject(error);
    });
    socket.once("end", () => {
      try {
        const reply = JSON.parse(answer) as Reply;
        if (reply.ok) resolve(reply.result);
        else reject(new Error(reply.error));
      } catch {
        reject(new Error("el servidor cortó la conexión sin responder"));
      }
    });
  });
}

export type RestoreResult = {
  databaseDir: string;
  databaseBytes: number;
  files: string[];
  filesKept: string[];
  migrations: number;
  createdAt: string;
  seconds: number;
};

/**
 * Restores a backup file into DATA_DIR. Everything is checked before anything is written: the
 * whole file (checksums), that no server runs on DATA_DIR and that DATA_DIR holds no database.
 * The database is unpacked beside its final place, opened once (PGlite replays its WAL and the
 * migrations table is read), closed and renamed into place. DATA_DIR's small files are restored
 * where they are missing; existing ones are kept and listed.
 */
export async function restoreEmbeddedBackup(file: string, dataDir: string): Promise<RestoreResult> {
  const started = performance.now();
  const { manifest, members } = await readBackupFile(file);
  if (manifest.kind !== KIND)
    throw new BackupRefused(
      `es una copia de tipo ${manifest.kind}, no de la base de datos integrada (${KIND})`,
    );
  const database = members.get(PGDATA);
  if (!database) throw new BackupRefused(`falta ${PGDATA} en la copia`);
  if (await serverAnswers(dataDir))
    throw new BackupRefused(
      `hay un servidor en marcha sobre ${dataDir}: detenlo y restaura en un DATA_DIR nuevo`,
    );
  const target = databaseDirectory(dataDir);
  if (hasDatabase(dataDir))
    throw new BackupRefused(
      `${target} ya contiene una base de datos; no se sobrescribe: restaura en un DATA_DIR nuevo (o vacío)`,
    );
  if (existsSync(target) && readdirSync(target).length > 0)
    throw new BackupRefused(`${target} no está vacío; restaura en un DATA_DIR nuevo`);

  const staging = `${target}.restoring`;
  mkdirSync(dataDir, { recursive: true });
  rmSync(staging, { recursive: true, force: true });
  let migrations = 0;
  try {
    const client = new PGlite(staging, {
      loadDataDir: new Blob([new Uint8Array(database)]),
      extensions: pgliteExtensions,
    });
    try {
      await client.waitReady;
      const result = await client.query<{ n: number }>(
        "select count(*)::int as n from drizzle.__drizzle_migrations",
      );
      migrations = result.rows[0]?.n ?? 0;
    } finally {
      await client.close();
    }
    if (existsSync(target)) rmSync(target, { recursive: true });
    renameSync(staging, target);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    if (error instanceof BackupRefused) throw error;
    throw new BackupRefused(`la base de datos de la copia no arranca: ${(error as Error).message}`);
  }

  const files: string[] = [];
  const filesKept: string[] = [];
  for (const member of manifest.members.filter((m) => m.name.startsWith(FILES))) {
    const name = path.basename(member.name);
    const destination = path.join(dataDir, name);
    if (existsSync(destination)) {
      filesKept.push(name);
      continue;
    }
    writeFileSync(destination, members.get(member.name)!, { mode: member.mode || 0o600 });
    files.push(name);
  }
  return {
    databaseDir: target,
    databaseBytes: database.byteLength,
    files,
    filesKept,
    migrations,
    createdAt: manifest.createdAt,
    seconds: Math.round((performance.now() - started) / 10) / 100,
  };
}
