import { lt, sql } from "drizzle-orm";
import type { Database } from "../db/client.server";
import { rateLimitBuckets } from "../db/schema";

export type RateLimitRule = { limit: number; windowMs: number };

export type RateLimitResult = { allowed: boolean; retryAfterSeconds: number };

/**
 * One atomic upsert per hit, prepared once per database: concurrent hits never lose a count,
 * and a busy form does not rebuild the same SQL for every request.
 */
function prepareHit(db: Database) {
  const windowSeconds = sql.placeholder("windowSeconds");
  const windowExpired = sql`${rateLimitBuckets.windowStartedAt} <= now() - make_interval(secs => ${windowSeconds}::float8)`;
  return db
    .insert(rateLimitBuckets)
    .values({ key: sql.placeholder("key"), windowStartedAt: sql`now()`, hits: 1 })
    .onConflictDoUpdate({
      target: rateLimitBuckets.key,
      set: {
        hits: sql`case when ${windowExpired} then 1 else ${rateLimitBuckets.hits} + 1 end`,
        windowStartedAt: sql`case when ${windowExpired} then now() else ${rateLimitBuckets.windowStartedAt} end`,
      },
    })
    .returning({
      hits: rateLimitBuckets.hits,
      msLeft: sql<number>`greatest(0, extract(epoch from (${rateLimitBuckets.windowStartedAt} + make_interval(secs => ${windowSeconds}::float8) - now())) * 1000)::float8`,
    })
    .prepare("rate_limit_hit");
}

const preparedHits = new WeakMap<Database, ReturnType<typeof prepareHit>>();

/**
 * Counts one hit for `key` in a fixed window kept in the database, so the limit holds across
 * instances.
 */
export async function hitRateLimit(
  db: Database,
  key: string,
  { limit, windowMs }: RateLimitRule,
): Promise<RateLimitResult> {
  let hit = preparedHits.get(db);
  if (!hit) preparedHits.set(db, (hit = prepareHit(db)));
  const [bucket] = await hit.execute({ key, windowSeconds: windowMs / 1000 });
  const hits = bucket?.hits ?? 1;
  return {
    allowed: hits <= limit,
    retryAfterSeconds: Math.max(1, Math.ceil(Number(bucket?.msLeft ?? windowMs) / 1000)),
  };
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
