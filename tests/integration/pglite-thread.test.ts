import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { eq, sql } from "drizzle-orm";
import { pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";
import { drizzle } from "drizzle-orm/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isUniqueViolation } from "~/platform/db/errors";
import { PgliteThread } from "~/platform/db/pglite-thread.server";

/** The worker's TypeScript source, run through tsx where the build runs its bundle (decision 058). */
const workerSource = new URL("../support/pglite-worker-source.mjs", import.meta.url);
const startThread = (dataDir: string) => new PgliteThread(workerSource, { dataDir });

const notes = pgTable("notes", {
  id: serial("id").primaryKey(),
  title: text("title").notNull().unique("notes_title_key"),
  writtenAt: timestamp("written_at", { withTimezone: true, mode: "string" }).notNull(),
});

describe("the embedded database in its worker thread", () => {
  let thread: PgliteThread;
  let db: ReturnType<typeof drizzle<{ notes: typeof notes }>>;
  const count = async () => (await db.select().from(notes)).length;

  beforeAll(async () => {
    thread = startThread(mkdtempSync(path.join(tmpdir(), "pglite-thread-")));
    await thread.waitReady;
    await thread.exec(
      "create table notes (id serial primary key, title text not null constraint notes_title_key unique, written_at timestamptz not null)",
    );
    db = drizzle(thread as unknown as PGlite, { schema: { notes } });
  });
  // Closed by the last test; again here (a no-op then) if a test before it failed.
  afterAll(() => thread.close());

  it("answers drizzle's queries, with the types drizzle keeps as text kept as text", async () => {
    await db.insert(notes).values({ title: "uno", writtenAt: "2026-11-26 10:00:00+00" });
    const [row] = await db.select().from(notes).where(eq(notes.title, "uno"));
    expect(row).toEqual({ id: 1, title: "uno", writtenAt: "2026-11-26 10:00:00+00" });
    const { rows } = (await db.execute(sql`select 2::int8 as n, true as yes`)) as unknown as {
      rows: { n: number; yes: boolean }[];
    };
    expect(rows).toEqual([{ n: 2, yes: true }]);
  });

  it("commits a transaction, and rolls back one whose callback throws", async () => {
    const before = await count();
    await db.transaction(async (tx) => {
      await tx.insert(notes).values({ title: "dos", writtenAt: "2026-11-26 11:00:00+00" });
    });
    await expect(
      db.transaction(async (tx) => {
        await tx.insert(notes).values({ title: "tres", writtenAt: "2026-11-26 12:00:00+00" });
        throw new Error("changed my mind");
      }),
    ).rejects.toThrow("changed my mind");
    expect(await count()).toBe(before + 1);
    expect(await db.select().from(notes).where(eq(notes.title, "tres"))).toEqual([]);
  });

  it("carries PostgreSQL's error fields across, so a unique violation is recognised", async () => {
    const insertTwice = db.transaction(async (tx) => {
      await tx.insert(notes).values({ title: "cuatro", writtenAt: "2026-11-26 13:00:00+00" });
      await tx.insert(notes).values({ title: "cuatro", writtenAt: "2026-11-26 13:00:00+00" });
    });
    const error = await insertTwice.catch((caught: unknown) => caught);
    expect(isUniqueViolation(error, "notes_title_key")).toBe(true);
    // The failed transaction was rolled back as a whole, and the connection is usable.
    expect(await db.select().from(notes).where(eq(notes.title, "cuatro"))).toEqual([]);
  });

  it("holds other queries back while a transaction is open, as PGlite's one connection does", async () => {
    const before = await count();
    const order: string[] = [];
    let outside: Promise<number> | undefined;
    await db.transaction(async (tx) => {
      await tx.insert(notes).values({ title: "cinco", writtenAt: "2026-11-26 14:00:00+00" });
      outside = count().then((n) => {
        order.push("outside");
        return n;
      });
      // The outside query cannot run until COMMIT: give it every chance to jump the queue.
      await tx.execute(sql`select pg_sleep(0.05)`);
      order.push("transaction");
    });
    expect(await outside).toBe(before + 1);
    expect(order).toEqual(["transaction", "outside"]);
  });

  it("hands over its data directory as a tar", async () => {
    const tar = Buffer.from(await (await thread.dumpDataDir()).arrayBuffer());
    expect(tar.length).toBeGreaterThan(1_000_000);
    expect(tar.includes(Buffer.from("PG_VERSION"))).toBe(true);
  });

  it("refuses a parser it cannot run on the other thread", async () => {
    await expect(
      thread.query("select now()", [], { parsers: { 1184: (value) => new Date(value) } }),
    ).rejects.toThrow(/must keep the text/);
  });

  it("reports a database that cannot start, and answers nothing after", async () => {
    const notADirectory = path.join(mkdtempSync(path.join(tmpdir(), "pglite-thread-")), "file");
    writeFileSync(notADirectory, "not a database");
    const broken = startThread(notADirectory);
    await expect(broken.waitReady).rejects.toThrow();
    await expect(broken.query("select 1")).rejects.toThrow();
  });

  it("stops answering once closed", async () => {
    await thread.close();
    await expect(thread.query("select 1")).rejects.toThrow("closed");
  });
});
