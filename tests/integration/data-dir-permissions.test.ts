import { chmodSync, mkdirSync, mkdtempSync, readdirSync, lstatSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createPglite } from "~/platform/db/pglite-start.server";
import { makePrivate } from "~/platform/private-files";

/**
 * Issue 36, item 4 (decision 063): on a shared host the embedded database's files (sessions and
 * reset tokens in its WAL) were 0644 in 0755 folders. Now private from creation, and an old
 * directory is tightened at start.
 */
function modesUnder(root: string): Map<string, number> {
  const modes = new Map<string, number>();
  const walk = (entry: string) => {
    const stat = lstatSync(entry);
    modes.set(path.relative(root, entry) || ".", stat.mode & 0o777);
    if (stat.isDirectory()) for (const name of readdirSync(entry)) walk(path.join(entry, name));
  };
  walk(root);
  return modes;
}

const open = (modes: Map<string, number>) =>
  [...modes].filter(([, mode]) => (mode & 0o077) !== 0).map(([name]) => name);

describe("the data directory's permissions", () => {
  it("tightens a directory an earlier version left readable, and says how many entries", () => {
    const root = mkdtempSync(path.join(tmpdir(), "datos-abiertos-"));
    mkdirSync(path.join(root, "db", "pg_wal"), { recursive: true });
    writeFileSync(path.join(root, "db", "pg_wal", "000000010000000000000001"), "token");
    writeFileSync(path.join(root, "auth-secret"), "s");
    for (const entry of [root, path.join(root, "db"), path.join(root, "db", "pg_wal")])
      chmodSync(entry, 0o755);
    chmodSync(path.join(root, "db", "pg_wal", "000000010000000000000001"), 0o644);
    chmodSync(path.join(root, "auth-secret"), 0o644);
    expect(open(modesUnder(root))).toHaveLength(5);

    expect(makePrivate(root)).toBe(5);
    const after = modesUnder(root);
    expect(open(after)).toEqual([]);
    expect(after.get(".")).toBe(0o700);
    expect(after.get(path.join("db", "pg_wal", "000000010000000000000001"))).toBe(0o600);
  });

  it("creates the embedded database's files private from the start", async () => {
    const root = mkdtempSync(path.join(tmpdir(), "datos-nuevos-"));
    makePrivate(root);
    const pglite = createPglite(path.join(root, "db"));
    await pglite.exec("create table t (x int); insert into t values (1);");
    await pglite.close();
    const modes = modesUnder(root);
    expect(modes.size).toBeGreaterThan(100);
    expect(open(modes)).toEqual([]);
  });
});
