/**
 * The embedded database in a worker thread, seen from the main thread as the part of PGlite's
 * interface the server uses (query, exec, transaction, dumpDataDir, close), so drizzle's PGlite
 * driver runs on it unchanged. PGlite's start is about 0.3–0.5 s of WebAssembly on whichever thread
 * runs it; on its own thread it overlaps the loading of the server's modules (decision 058).
 *
 * Queries keep PGlite's own order and exclusivity: the worker runs them on its one connection, and
 * a transaction holds PGlite's lock from its BEGIN to its COMMIT or ROLLBACK, as in process.
 */
import { Worker } from "node:worker_threads";
import type { PGlite, QueryOptions, Results, Transaction } from "@electric-sql/pglite";
import {
  reviveError,
  type QueryShape,
  type ThreadAnswer,
  type ThreadRequest,
  type ThreadStart,
  type ThreadStartData,
} from "./pglite-thread-protocol";

/** What the server and drizzle use of a PGlite instance; PGlite itself and PgliteThread have it. */
export type EmbeddedClient = Pick<
  PGlite,
  "query" | "exec" | "transaction" | "dumpDataDir" | "close" | "waitReady"
>;

type Pending = { resolve(value: unknown): void; reject(error: Error): void };
type RequestBody = ThreadRequest extends infer R
  ? R extends unknown
    ? Omit<R, "id">
    : never
  : never;

/** A parser the thread can honour: one that keeps the text as PostgreSQL sent it. */
const TEXT_PROBE = "2026-01-01 00:00:00+00";
const checkedShapes = new WeakMap<object, QueryShape>();

/**
 * Functions cannot cross threads: a query's parsers are sent as the types they apply to, and
 * only parsers that keep the text (all that drizzle's driver gives) are accepted.
 */
function shapeOf(options: QueryOptions | undefined): QueryShape {
  if (!options) return {};
  const known = checkedShapes.get(options);
  if (known) return known;
  const { rowMode, parsers, serializers, blob, onNotice, paramTypes } = options;
  if (serializers || blob || onNotice || paramTypes)
    throw new Error("The embedded database's thread takes rowMode and text parsers only");
  const textTypes = Object.entries(parsers ?? {}).map(([type, parse]) => {
    if (parse(TEXT_PROBE, Number(type)) !== TEXT_PROBE)
      throw new Error(`The parser of type ${type} must keep the text for the database's thread`);
    return Number(type);
  });
  const shape = { rowMode, textTypes };
  checkedShapes.set(options, shape);
  return shape;
}

export class PgliteThread implements EmbeddedClient {
  readonly waitReady: Promise<void>;
  #worker: Worker;
  #pending = new Map<number, Pending>();
  #nextId = 1;
  /** Why the thread can no longer answer, once it cannot. */
  #stopped: Error | undefined;

  /** `script`: the build's pglite-worker.js (the tests run its source through tsx). */
  constructor(script: URL, start: ThreadStartData) {
    this.#worker = new Worker(script, { workerData: start });
    // An idle database does not keep the process alive; one with a question pending does.
    this.#worker.unref();
    this.waitReady = new Promise<void>((resolve, reject) => {
      this.#worker.once("message", (first: ThreadStart) => {
        if (first.started) resolve();
        else reject(this.#stop(reviveError(first.error)));
        this.#worker.on("message", (answer: ThreadAnswer) => this.#settle(answer));
      });
      this.#worker.once("error", (error) => reject(this.#stop(error)));
      this.#worker.once("exit", (code) =>
        reject(this.#stop(new Error(`The embedded database's thread stopped (exit code ${code})`))),
      );
    });
  }

  #stop(reason: Error): Error {
    this.#stopped ??= reason;
    for (const pending of this.#pending.values()) pending.reject(reason);
    this.#pending.clear();
    this.#worker.unref();
    return reason;
  }

  #settle(answer: ThreadAnswer) {
    const pending = this.#pending.get(answer.id);
    if (!pending) return;
    this.#pending.delete(answer.id);
    if (this.#pending.size === 0) this.#worker.unref();
    if (answer.ok) pending.resolve(answer.value);
    else pending.reject(reviveError(answer.error));
  }

  #ask<T>(request: RequestBody): Promise<T> {
    if (this.#stopped) return Promise.reject(this.#stopped);
    const id = this.#nextId++;
    if (this.#pending.size === 0) this.#worker.ref();
    return new Promise<T>((resolve, reject) => {
      this.#pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.#worker.postMessage({ ...request, id } as ThreadRequest);
    });
  }

  async query<T>(sql: string, params: unknown[] = [], options?: QueryOptions, tx?: number) {
    return this.#ask<Results<T>>({ op: "query", sql, params, shape: shapeOf(options), tx });
  }

  async exec(sql: string, _options?: QueryOptions, tx?: number) {
    return this.#ask<Results[]>({ op: "exec", sql, tx });
  }

  /** BEGIN on the worker (under PGlite's lock), `callback`, then COMMIT, or ROLLBACK if it threw. */
  async transaction<T>(callback: (tx: Transaction) => Promise<T>): Promise<T> {
    const id = await this.#ask<number>({ op: "begin" });
    let closed = false;
    const end = async (commit: boolean) => {
      if (closed) return;
      closed = true;
      await this.#ask({ op: "end", tx: id, commit });
    };
    const tx: Transaction = {
      query: (sql, params, options) => this.query(sql, params, options, id),
      exec: (sql, options) => this.exec(sql, options, id),
      sql: () => Promise.reject(new Error("Use query() on the embedded database's thread")),
      listen: () => Promise.reject(new Error("LISTEN is not offered by the database's thread")),
      rollback: () => end(false),
      get closed() {
        return closed;
      },
    };
    let result: T;
    try {
      result = await callback(tx);
    } catch (error) {
      await end(false).catch(() => undefined);
      throw error;
    }
    await end(true);
    return result;
  }

  async dumpDataDir(): Promise<Blob> {
    const bytes = await this.#ask<ArrayBuffer>({ op: "dump" });
    return new Blob([bytes], { type: "application/x-tar" });
  }

  async close(): Promise<void> {
    if (this.#stopped) return;
    await this.waitReady.catch(() => undefined);
    await this.#ask({ op: "close" });
    this.#stop(new Error("The embedded database is closed"));
    await this.#worker.terminate();
  }
}
