/**
 * Where the site keeps its files (the embedded database, local secrets, backups) when DATA_DIR
 * does not say. Kept apart from config.server.ts, whose parser loads Zod and every schema: the
 * production entry reads the embedded database's place from here before those load (decision 060).
 */
import path from "node:path";

export const DEFAULT_DATA_DIR = "./data";

/** DATA_DIR as the configuration reads it: trimmed, relative to the working directory. */
export const resolveDataDir = (value: string) => path.resolve(value.trim());

/**
 * The data directory the configuration will read from `env` for the embedded database, or
 * undefined when it will use PostgreSQL (a DATABASE_URL that is not blank) or refuse a blank
 * DATA_DIR. The same reading as config.server.ts's, without its checks: a value it then
 * refuses stops the start there.
 */
export function embeddedDataDirIn(env: NodeJS.ProcessEnv): string | undefined {
  if (env.DATABASE_URL?.trim()) return undefined;
  const dataDir = env.DATA_DIR ?? DEFAULT_DATA_DIR;
  return dataDir.trim() ? resolveDataDir(dataDir) : undefined;
}
