import { createHash } from "node:crypto";
import {
  closeSync,
  createReadStream,
  createWriteStream,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
} from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip, createGzip } from "node:zlib";

/**
 * One backup is one file: a gzip-compressed tar whose first member, `manifest.json`, names every
 * other member with its size and SHA-256 (decision 047). Plain `tar -tzf` lists it; reading it
 * back checks every byte against the manifest before anything is restored. A file is written
 * beside its final name, fsynced and renamed into place, so a full disk or a crash never leaves
 * a half backup under a backup's name nor touches an earlier one.
 */

export const BACKUP_FORMAT = "vertice-backup/1";
const MANIFEST = "manifest.json";

export type BackupMember = { name: string; data: Uint8Array; mode?: number };

export type ManifestMember = { name: string; bytes: number; sha256: string; mode: number };

export type BackupManifest = {
  format: typeof BACKUP_FORMAT;
  kind: string;
  createdAt: string;
  members: ManifestMember[];
  /** What made it: versions, row counts; informative only. */
  about: Record<string, unknown>;
};

/** A backup file that cannot be used; the message says why, in Spanish, for the operator. */
export class BackupRefused extends Error {}

const sha256 = (data: Uint8Array) => createHash("sha256").update(data).digest("hex");

// ---------------------------------------------------------------------------------------------
// tar (POSIX ustar): only what these files need, regular files with short names.

const BLOCK = 512;

function octal(value: number, width: number): string {
  return value.toString(8).padStart(width - 1, "0") + "\0";
}

function tarHeader(name: string, size: number, mode: number, mtime: number): Buffer {
  if (Buffer.byteLength(name) > 100) throw new Error(`tar member name too long: ${name}`);
  const header = Buffer.alloc(BLOCK);
  header.write(name, 0, 100, "utf8");
  header.write(octal(mode, 8), 100, "ascii");
  header.write(octal(0, 8), 108, "ascii");
  header.write(octal(0, 8), 116, "ascii");
  header.write(octal(size, 12), 124, "ascii");
  header.write(octal(mtime, 12), 136, "ascii");
  header.write("        ", 148, "ascii");
  header.write("0", 156, "ascii");
  header.write("ustar\0" + "00", 257, "ascii");
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(octal(sum, 7) + " ", 148, "ascii");
  return header;
}

function* tarChunks(members: BackupMember[], mtime: number): Generator<Uint8Array> {
  for (const member of members) {
    yield tarHeader(member.name, member.data.byteLength, member.mode ?? 0o600, mtime);
    yield member.data;
    const pad = (BLOCK - (member.data.byteLength % BLOCK)) % BLOCK;
    if (pad) yield Buffer.alloc(pad);
  }
  yield Buffer.alloc(BLOCK * 2);
}

function readTar(archive: Buffer): { name: string; data: Buffer; mode: number }[] {
  const members: { name: string; data: Buffer; mode: number }[] = [];
  let at = 0;
  while (at + BLOCK <= archive.length) {
    const header = archive.subarray(at, at + BLOCK);
    if (header.every((byte) => byte === 0)) return members;
    const text = (from: number, length: number) =>
      header
        .subarray(from, from + length)
        .toString("utf8")
        .replace(/\0.*$/s, "")
        .trim();
    const size = parseInt(text(124, 12), 8);
    const mode = parseInt(text(100, 8), 8);
    if (!Number.isFinite(size) || at + BLOCK + size > archive.length)
      throw new BackupRefused(
        "el archivo está truncado (un miembro del tar acaba antes de tiempo)",
      );
    members.push({
      name: text(0, 100),
      data: archive.subarray(at + BLOCK, at + BLOCK + size),
      mode,
    });
    at += BLOCK + Math.ceil(size / BLOCK) * BLOCK;
  }
  throw new BackupRefused("el archivo está truncado (falta el final del tar)");
}

// ---------------------------------------------------------------------------------------------
// Writing

/** `vertice-pglite-2026-11-26T03-00-00Z.tar.gz`: sorts by date, says what it holds. */
export function backupFileName(kind: string, at = new Date()): string {
  const stamp = at
    .toISOString()
    .replace(/\.\d{3}Z$/, "Z")
    .replaceAll(":", "-");
  return `vertice-${kind}-${stamp}.tar.gz`;
}

const PARTIAL = ".partial";

/**
 * Writes `members` as one backup file at `file`: to `<file>.partial` first, fsynced, then
 * renamed, and the folder fsynced so the rename itself survives a power cut. On any failure the
 * partial file is removed and the error thrown; nothing else in the folder is touched.
 */
export async function writeBackupFile(
  file: string,
  kind: string,
  members: BackupMember[],
  about: Record<string, unknown> = {},
): Promise<{ file: string; bytes: number; manifest: BackupManifest }> {
  const manifest: BackupManifest = {
    format: BACKUP_FORMAT,
    kind,
    createdAt: new Date().toISOString(),
    members: members.map((member) => ({
      name: member.name,
      bytes: member.data.byteLength,
      sha256: sha256(member.data),
      mode: member.mode ?? 0o600,
    })),
    about,
  };
  const all: BackupMember[] = [
    { name: MANIFEST, data: Buffer.from(JSON.stringify(manifest, null, 2)) },
    ...members,
  ];
  const folder = path.dirname(file);
  mkdirSync(folder, { recursive: true });
  const partial = file + PARTIAL;
  const fd = openSync(partial, "w", 0o600);
  try {
    await pipeline(
      Readable.from(tarChunks(all, Math.floor(Date.now() / 1000))),
      createGzip({ level: 6 }),
      createWriteStream("", { fd, autoClose: false }),
    );
    fsyncSync(fd);
    closeSync(fd);
    renameSync(partial, file);
  } catch (error) {
    try {
      closeSync(fd);
    } catch {
      // already closed
    }
    rmSync(partial, { force: true });
    throw error;
  }
  syncFolder(folder);
  return { file, bytes: statSync(file).size, manifest };
}

function syncFolder(folder: string) {
  const fd = openSync(folder, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

// ---------------------------------------------------------------------------------------------
// Reading

/**
 * Reads a backup file and checks all of it: gzip's own CRC and length (a truncated or altered
 * file fails here), the manifest, and each member's size and SHA-256. Throws BackupRefused with
 * the reason; returns the members by name only when every check passed.
 */
export async function readBackupFile(
  file: string,
): Promise<{ manifest: BackupManifest; members: Map<string, Buffer> }> {
  let size: number;
  try {
    size = statSync(file).size;
  } catch {
    throw new BackupRefused(`no existe el archivo ${file}`);
  }
  if (size === 0) throw new BackupRefused("el archivo está vacío");
  const chunks: Buffer[] = [];
  try {
    const gunzip = createReadStream(file).pipe(createGunzip());
    for await (const chunk of gunzip) chunks.push(chunk as Buffer);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code;
    throw new BackupRefused(
      reason === "Z_BUF_ERROR"
        ? "el archivo está truncado (la compresión gzip acaba antes de tiempo)"
        : `el archivo está dañado o no es una copia de seguridad (gzip: ${(error as Error).message})`,
    );
  }
  const tar = readTar(Buffer.concat(chunks));
  const [first, ...rest] = tar;
  if (first?.name !== MANIFEST) throw new BackupRefused("no es una copia de seguridad del sitio");
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(first.data.toString("utf8")) as BackupManifest;
  } catch {
    throw new BackupRefused("el manifiesto de la copia está dañado");
  }
  if (manifest.format !== BACKUP_FORMAT || !Array.isArray(manifest.members))
    throw new BackupRefused(`formato desconocido: ${String(manifest.format)}`);
  const members = new Map(rest.map((member) => [member.name, member.data]));
  if (members.size !== manifest.members.length)
    throw new BackupRefused(
      `la copia tiene ${members.size} partes y su manifiesto ${manifest.members.length}`,
    );
  for (const expected of manifest.members) {
    const data = members.get(expected.name);
    if (!data) throw new BackupRefused(`falta la parte ${expected.name}`);
    if (data.byteLength !== expected.bytes || sha256(data) !== expected.sha256)
      throw new BackupRefused(`la parte ${expected.name} no coincide con su suma SHA-256`);
  }
  return { manifest, members };
}

// ---------------------------------------------------------------------------------------------
// The folder of backups

/** The backups of one kind in `folder`, newest first (their names sort by date). */
export function listBackups(folder: string, kind: string): string[] {
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return [];
  }
  const prefix = `vertice-${kind}-`;
  return names
    .filter((name) => name.startsWith(prefix) && name.endsWith(".tar.gz"))
    .sort()
    .reverse()
    .map((name) => path.join(folder, name));
}

/** When the newest backup of `kind` in `folder` was made, from its name; undefined if none. */
export function newestBackupTime(folder: string, kind: string): Date | undefined {
  const newest = listBackups(folder, kind)[0];
  const stamp = newest && /(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})Z/.exec(newest);
  return stamp ? new Date(`${stamp[1]}T${stamp[2]}:${stamp[3]}:${stamp[4]}Z`) : undefined;
}

/**
 * Keeps the newest `keep` backups of `kind` and removes older ones, and any partial file left
 * by a write that was cut off. Called only after a new backup was written whole.
 */
export function pruneBackups(folder: string, kind: string, keep: number): string[] {
  const removed = listBackups(folder, kind).slice(keep);
  for (const file of removed) rmSync(file, { force: true });
  for (const name of readdirSync(folder))
    if (name.startsWith(`vertice-${kind}-`) && name.endsWith(PARTIAL))
      rmSync(path.join(folder, name), { force: true });
  return removed;
}
