import { lt, sql } from "drizzle-orm";
import type { Database } from "../db/client.server";
import { rateLimitBuckets } from "../db/schema";

export type RateLimitRule = { limit: number; windowMs: number };

export type RateLimitResult = { allowed: boolean; retryAfterSeconds: number };

/**
 * Counts one hit for `key` in a fixed window kept in the database, so the limit holds across
 * instances. One atomic upsert: concurrent hits never lose a count.
 */
export async function hitRateLimit(
  db: Database,
  key: string,
  { limit, windowMs }: RateLimitRule,
): Promise<RateLimitResult> {
  const windowExpired = sql`${rateLimitBuckets.windowStartedAt} <= now() - make_interval(secs => ${windowMs / 1000})`;
  const [bucket] = await db
    .insert(rateLimitBuckets)
    .values({ key, windowStartedAt: sql`now()`, hits: 1 })
    .onConflictDoUpdate({
      target: rateLimitBuckets.key,
      set: {
        hits: sql`case when ${windowExpired} then 1 else ${rateLimitBuckets.hits} + 1 end`,
        windowStartedAt: sql`case when ${windowExpired} then now() else ${rateLimitBuckets.windowStartedAt} end`,
      },
    })
    .returning({
      hits: rateLimitBuckets.hits,
      msLeft: sql<number>`greatest(0, extract(epoch from (${rateLimitBuckets.windowStartedAt} + make_interval(secs => ${windowMs / 1000}) - now())) * 1000)::float8`,
    });
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
