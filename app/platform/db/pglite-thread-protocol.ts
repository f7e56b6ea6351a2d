/**
 * The messages between the server's main thread and the worker thread that runs its embedded
 * database (decision 058). One request, one answer, matched by `id`; a worker posts them in the
 * order its database finishes them.
 */

/** What drizzle asks of a query: rows as objects or arrays, and the types to leave as text. */
export type QueryShape = { rowMode?: "object" | "array"; textTypes?: number[] };

export type ThreadRequest =
  | { id: number; op: "query"; sql: string; params: unknown[]; shape: QueryShape; tx?: number }
  | { id: number; op: "exec"; sql: string; tx?: number }
  | { id: number; op: "begin" }
  | { id: number; op: "end"; tx: number; commit: boolean }
  | { id: number; op: "dump" }
  | { id: number; op: "close" };

/** A database error's fields, as PostgreSQL reports them (code, constraint, detail…). */
export type ThreadError = { name: string; message: string } & Record<string, unknown>;

export type ThreadAnswer =
  { id: number; ok: true; value: unknown } | { id: number; ok: false; error: ThreadError };

/** The worker's first message: its database has started, or could not. */
export type ThreadStart = { started: true } | { started: false; error: ThreadError };

export type ThreadStartData = { dataDir: string; template?: string };

/** The fields of an error worth carrying across: its own, enumerable ones (PostgreSQL's). */
export function describeError(error: unknown): ThreadError {
  if (!(error instanceof Error)) return { name: "Error", message: String(error) };
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(error))
    if (value === null || ["string", "number", "boolean"].includes(typeof value))
      fields[key] = value;
  return { ...fields, name: error.name, message: error.message };
}

/** An error thrown again on the calling thread, with the database's fields on it. */
export function reviveError(described: ThreadError): Error {
  const { name, message, ...fields } = described;
  const error = Object.assign(new Error(message), fields);
  error.name = name;
  return error;
}
