/**
 * The worker thread that runs the production server's embedded database (decision 058). It starts
 * PGlite on the directory it is given, says so, then answers the main thread's requests
 * (pglite-thread-protocol.ts) in the order they come, on PGlite's one connection.
 */
import nodeModule from "node:module";
import { parentPort, workerData } from "node:worker_threads";
import type { PGlite, Transaction } from "@electric-sql/pglite";
import {
  describeError,
  type QueryShape,
  type ThreadAnswer,
  type ThreadRequest,
  type ThreadStart,
  type ThreadStartData,
} from "./pglite-thread-protocol";
import { raiseWasmTieringBudget } from "./wasm-tiering.server";

// Before PGlite's JavaScript loads: its compiled code is then kept between starts (Node ≥ 22.1).
(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();
raiseWasmTieringBudget();
const { createPglite } = await import("./pglite-start.server");

const port = parentPort!;
const { dataDir, template } = workerData as ThreadStartData;

/** A transaction open on the main thread's behalf, and how it ends. */
type OpenTransaction = { tx: Transaction; end(commit: boolean): Promise<void> };
const transactions = new Map<number, OpenTransaction>();
let nextTransaction = 1;

/** Drizzle's parsers keep some types as text: the same parser object for the same types. */
const keepText = (text: string) => text;
const parsersByTypes = new Map<string, Record<number, (text: string) => string>>();
function optionsOf(shape: QueryShape) {
  const types = shape.textTypes ?? [];
  const key = types.join(",");
  let parsers = parsersByTypes.get(key);
  if (!parsers) {
    parsers = Object.fromEntries(types.map((type) => [type, keepText]));
    parsersByTypes.set(key, parsers);
  }
  return { rowMode: shape.rowMode, parsers };
}

/** A rollback asked for by the main thread, not an error of the transaction. */
const ROLLBACK_ASKED = Symbol("rollback asked");

function begin(pg: PGlite): Promise<number> {
  const id = nextTransaction++;
  return new Promise((opened, failed) => {
    const outcome = pg.transaction(
      (tx) =>
        new Promise<void>((commit, rollback) => {
          transactions.set(id, {
            tx,
            async end(wanted) {
              transactions.delete(id);
              if (wanted) commit();
              else rollback(ROLLBACK_ASKED);
              await settled;
            },
          });
          opened(id);
        }),
    );
    const settled = outcome.then(
      () => undefined,
      (error: unknown) => {
        if (error !== ROLLBACK_ASKED) throw error;
      },
    );
    // BEGIN itself failed: nothing was opened. (A failed COMMIT is the end request's answer.)
    settled.catch((error: unknown) => {
      if (!transactions.has(id)) failed(error);
    });
  });
}

async function answer(pg: PGlite, request: ThreadRequest): Promise<unknown> {
  const on = (tx?: number): PGlite | Transaction => {
    if (tx === undefined) return pg;
    const open = transactions.get(tx);
    if (!open) throw new Error(`No open transaction ${tx}`);
    return open.tx;
  };
  switch (request.op) {
    case "query":
      return on(request.tx).query(request.sql, request.params, optionsOf(request.shape));
    case "exec":
      return on(request.tx).exec(request.sql);
    case "begin":
      return begin(pg);
    case "end": {
      const open = transactions.get(request.tx);
      if (!open) throw new Error(`No open transaction ${request.tx}`);
      return open.end(request.commit);
    }
    case "dump":
      return (await pg.dumpDataDir("none")).arrayBuffer();
    case "close":
      return pg.close();
  }
}

function reply(message: ThreadAnswer) {
  const transfer = message.ok && message.value instanceof ArrayBuffer ? [message.value] : [];
  port.postMessage(message, transfer);
}

const pg = createPglite(dataDir, template);
try {
  await pg.waitReady;
  port.postMessage({ started: true } satisfies ThreadStart);
} catch (error) {
  port.postMessage({ started: false, error: describeError(error) } satisfies ThreadStart);
  process.exit(1);
}

port.on("message", (request: ThreadRequest) => {
  answer(pg, request).then(
    (value: unknown) => reply({ id: request.id, ok: true, value }),
    (error: unknown) => reply({ id: request.id, ok: false, error: describeError(error) }),
  );
});
