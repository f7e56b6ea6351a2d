import { and, eq, inArray, lt, sql, type Placeholder, type SQL } from "drizzle-orm";
import type { Database } from "../db/client.server";
import { rateLimitBuckets } from "../db/schema";

export type RateLimitRule = { limit: number; windowMs: number };

export type RateLimitResult = { allowed: boolean; retryAfterSeconds: number };

/**
 * The upsert that counts one hit on a window's row: atomic, so concurrent hits never lose a
 * count, and the row stays locked until the hit's transaction ends. It returns the hits so far
 * and the milliseconds left in the window (`ms_left`).
 */
function upsertHit(
  insert: ReturnType<ReturnType<Database["insert"]>["values"]>,
  windowSeconds: number | Placeholder,
) {
  const windowExpired = sql`${rateLimitBuckets.windowStartedAt} <= now() - make_interval(secs => ${windowSeconds}::float8)`;
  return insert
    .onConflictDoUpdate({
      target: rateLimitBuckets.key,
      set: {
        hits: sql`case when ${windowExpired} then 1 else ${rateLimitBuckets.hits} + 1 end`,
        windowStartedAt: sql`case when ${windowExpired} then now() else ${rateLimitBuckets.windowStartedAt} end`,
      },
    })
    .returning({
      hits: rateLimitBuckets.hits,
      msLeft:
        sql<number>`greatest(0, extract(epoch from (${rateLimitBuckets.windowStartedAt} + make_interval(secs => ${windowSeconds}::float8) - now())) * 1000)::float8`.as(
          "ms_left",
        ),
    });
}

/** One hit per statement, prepared once per database: a busy form does not rebuild its SQL. */
function prepareHit(db: Database) {
  const hit = db
    .insert(rateLimitBuckets)
    .values({ key: sql.placeholder("key"), windowStartedAt: sql`now()`, hits: 1 });
  return upsertHit(hit, sql.placeholder("windowSeconds")).prepare("rate_limit_hit");
}

const preparedHits = new WeakMap<Database, ReturnType<typeof prepareHit>>();

/** What a hit answers, from the hits counted so far and the milliseconds left in the window. */
export function rateLimitResult(
  bucket: { hits: number; msLeft: number } | undefined,
  { limit, windowMs }: RateLimitRule,
): RateLimitResult {
  const hits = bucket?.hits ?? 1;
  return {
    allowed: hits <= limit,
    retryAfterSeconds: Math.max(1, Math.ceil(Number(bucket?.msLeft ?? windowMs) / 1000)),
  };
}

/**
 * Counts one hit for `key` in a fixed window kept in the database, so the limit holds across
 * instances.
 */
export async function hitRateLimit(
  db: Database,
  key: string,
  rule: RateLimitRule,
): Promise<RateLimitResult> {
  let hit = preparedHits.get(db);
  if (!hit) preparedHits.set(db, (hit = prepareHit(db)));
  const [bucket] = await hit.execute({ key, windowSeconds: rule.windowMs / 1000 });
  return rateLimitResult(bucket, rule);
}

/**
 * The same hit as SQL to run inside a larger statement (a data-modifying CTE), so that the count
 * and what it guards commit together. It counts only when `when` holds (an SQL condition, e.g.
 * on an earlier CTE), and returns `hits` and `ms_left` then, no row otherwise: read them with
 * `rateLimitResult`. The key and the window may be placeholders of a prepared statement.
 */
export function rateLimitHitSql(
  db: Database,
  { key, windowSeconds }: { key: string | Placeholder; windowSeconds: number | Placeholder },
  when: SQL,
): SQL {
  const hit = db.insert(rateLimitBuckets).select(sql`select ${key}::text, now(), 1 where ${when}`);
  return upsertHit(hit, windowSeconds).getSQL();
}

/**
 * Growing back-off after failures (sign-ins): `freeFailures` may come one after another; then
 * the key is locked for `firstLockMs`, doubled with each further failure up to `maxLockMs`.
 * Failures are forgotten `forgetAfterMs` after the last one (at most the day of the pruning).
 */
export type BackoffRule = {
  freeFailures: number;
  firstLockMs: number;
  maxLockMs: number;
  forgetAfterMs: number;
};

/** How long `failures` consecutive failures lock a key, in milliseconds. */
export function backoffLockMs(failures: number, rule: BackoffRule): number {
  if (failures < rule.freeFailures) return 0;
  const doublings = Math.min(failures - rule.freeFailures, 30);
  return Math.min(rule.firstLockMs * 2 ** doublings, rule.maxLockMs);
}

/**
 * The seconds to wait before the next attempt on any of these keys, or undefined when none is
 * locked. Times are the database's, like the failures' own, so every instance agrees.
 */
export async function backoffWait(
  db: Database,
  keys: { key: string; rule: BackoffRule }[],
): Promise<number | undefined> {
  const rows = await db
    .select({
      key: rateLimitBuckets.key,
      failures: rateLimitBuckets.hits,
      msSinceLast: sql<number>`(extract(epoch from (now() - ${rateLimitBuckets.windowStartedAt})) * 1000)::float8`,
    })
    .from(rateLimitBuckets)
    .where(
      inArray(
        rateLimitBuckets.key,
        keys.map(({ key }) => key),
      ),
    );
  let waitMs = 0;
  for (const row of rows) {
    const rule = keys.find(({ key }) => key === row.key)!.rule;
    const sinceLast = Number(row.msSinceLast);
    if (sinceLast >= rule.forgetAfterMs) continue;
    waitMs = Math.max(waitMs, backoffLockMs(row.failures, rule) - sinceLast);
  }
  return waitMs > 0 ? Math.ceil(waitMs / 1000) : undefined;
}

/**
 * Failures of a key not forgotten yet (`forgetAfterMs` after the last one), for a rule that
 * only slows attempts down and never refuses them.
 */
export async function recentFailures(
  db: Database,
  key: string,
  forgetAfterMs: number,
): Promise<number> {
  const [row] = await db
    .select({ failures: rateLimitBuckets.hits })
    .from(rateLimitBuckets)
    .where(
      and(
        eq(rateLimitBuckets.key, key),
        sql`${rateLimitBuckets.windowStartedAt} > now() - make_interval(secs => ${forgetAfterMs / 1000}::float8)`,
      ),
    );
  return row?.failures ?? 0;
}

/**
 * Counts one failure for `key` in one atomic upsert: `hits` holds the consecutive failures and
 * `window_started_at` the last one (the start of the lock it causes).
 */
export async function recordFailure(db: Database, key: string, rule: BackoffRule) {
  const forgotten = sql`${rateLimitBuckets.windowStartedAt} <= now() - make_interval(secs => ${rule.forgetAfterMs / 1000}::float8)`;
  await db
    .insert(rateLimitBuckets)
    .values({ key, windowStartedAt: sql`now()`, hits: 1 })
    .onConflictDoUpdate({
      target: rateLimitBuckets.key,
      set: {
        hits: sql`case when ${forgotten} then 1 else ${rateLimitBuckets.hits} + 1 end`,
        windowStartedAt: sql`now()`,
      },
    });
}

/** Forgets the failures of `key` (after a success). */
export async function clearFailures(db: Database, key: string) {
  await db.delete(rateLimitBuckets).where(eq(rateLimitBuckets.key, key));
}

/** Drops windows that ended long ago; run now and then by the server. */
export async function pruneRateLimits(db: Database, olderThanMs = 24 * 60 * 60_000) {
  await db
    .delete(rateLimitBuckets)
    .where(
      lt(
        rateLimitBuckets.windowStartedAt,
        sql`now() - make_interval(secs => ${olderThanMs / 1000})`,
      ),
    );
}
