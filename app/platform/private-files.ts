/**
 * The data directory is the site's alone (decision 063): the embedded database keeps sessions,
 * password-reset tokens and customers' data in its files and its WAL, so on a shared host no
 * other user may read them. The data directory is 0700 before anything is written in it, so no
 * other user can reach a file inside at any moment; its files are 0600 too: new ones through
 * the process's umask, and the ones PGlite writes with explicit modes (its first cluster, a
 * template's copy) tightened as soon as they exist. A directory made by an earlier version is
 * tightened at start. No logger here: the production entry calls it before anything loads.
 */
import { chmodSync, lstatSync, mkdirSync, readdirSync } from "node:fs";
import path from "node:path";

const GROUP_AND_OTHERS = 0o077;

/** New files and directories of this process: only its user may read or write them. */
export function restrictNewFiles() {
  try {
    process.umask(GROUP_AND_OTHERS);
  } catch {
    // A worker thread cannot set it; the main thread set it before starting the worker.
  }
}

/** Count of files and directories tightened, per directory, so a second call does not walk again. */
const tightened = new Map<string, number>();

/**
 * Makes `dir` (created if missing) and everything in it private to this user; returns how many
 * entries had wider permissions. Symbolic links are not followed.
 */
export function makePrivate(dir: string): number {
  const root = path.resolve(dir);
  const known = tightened.get(root);
  if (known !== undefined) return known;
  restrictNewFiles();
  mkdirSync(root, { recursive: true, mode: 0o700 });
  const changed = tightenTree(root);
  tightened.set(root, changed);
  return changed;
}

/** Every entry under `root` (itself included) private to this user; how many were not. */
export function tightenTree(root: string): number {
  let changed = 0;
  const pending = [root];
  while (pending.length > 0) {
    const current = pending.pop()!;
    const stat = lstatSync(current, { throwIfNoEntry: false });
    if (!stat || stat.isSymbolicLink()) continue;
    if ((stat.mode & GROUP_AND_OTHERS) !== 0) {
      chmodSync(current, stat.mode & 0o700);
      changed += 1;
    }
    if (stat.isDirectory())
      for (const name of readdirSync(current)) pending.push(path.join(current, name));
  }
  return changed;
}
