import { randomBytes } from "node:crypto";
import { createServer, type Server, type Socket } from "node:net";
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type DatabaseHandle } from "~/platform/db/client.server";
import { withDatabase } from "../support/test-database";

// Runs in the PostgreSQL pass only (TEST_DATABASE_URL set). The database restarting under load
// is tests/cluster (npm run test:faults); these are its two causes of a crash or a hang, alone.
describe("the pool when the database goes away", () => {
  const serverUrl = process.env.TEST_DATABASE_URL!;
  const name = `test_loss_${randomBytes(4).toString("hex")}`;
  let admin: pg.Client;
  let handle: DatabaseHandle;
  const uncaught: unknown[] = [];
  const record = (error: unknown) => uncaught.push(error);

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    handle = openDatabase({ kind: "postgres", url: withDatabase(serverUrl, name) });
    process.on("uncaughtException", record);
  });

  afterAll(async () => {
    process.off("uncaughtException", record);
    await handle.close();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  });

  it("survives a connection ended in the middle of a transaction, and answers again", async () => {
    const transaction = handle.db.transaction(async (tx) => {
      const result = (await tx.execute(sql`select pg_backend_pid() as pid`)) as {
        rows: { pid: number }[];
      };
      const [row] = result.rows;
      // The server ends this connection (as a restart does) while the transaction holds it.
      await admin.query("select pg_terminate_backend($1)", [row!.pid]);
      await new Promise((resolve) => setTimeout(resolve, 200));
      await tx.execute(sql`select 1`);
    });
    await expect(transaction).rejects.toThrow();
    // The 'error' the connection emitted while checked out must not reach the process.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(uncaught).toEqual([]);
    await expect(handle.ping()).resolves.toBeUndefined();
  });

  it("gives up connecting to a database that never answers, instead of waiting for ever", async () => {
    const sockets: Socket[] = [];
    const silent: Server = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const { port } = silent.address() as { port: number };
    const hung = openDatabase({
      kind: "postgres",
      url: `postgres://postgres@127.0.0.1:${port}/none`,
      connectTimeoutMs: 300,
    });
    try {
      const started = performance.now();
      await expect(hung.ping()).rejects.toThrow();
      expect(performance.now() - started).toBeLessThan(2000);
    } finally {
      await hung.close();
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});
