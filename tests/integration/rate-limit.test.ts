import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { rateLimitBuckets } from "~/platform/db/schema";
import {
  backoffLockMs,
  backoffWait,
  clearFailures,
  hitRateLimit,
  pruneRateLimits,
  recordFailure,
} from "~/platform/security/rate-limit.server";
import { setupTestDatabase } from "../support/test-database";

const database = setupTestDatabase();
const rule = { limit: 3, windowMs: 60_000 };

describe("rate limits in the database", () => {
  it("allow up to the limit in a window and refuse the next hit with a retry time", async () => {
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await hitRateLimit(database.db, "test:a", rule));
    expect(results.map((r) => r.allowed)).toEqual([true, true, true, false]);
    expect(results[3]!.retryAfterSeconds).toBeGreaterThan(50);
    expect(results[3]!.retryAfterSeconds).toBeLessThanOrEqual(60);
  });

  it("count each key on its own", async () => {
    expect((await hitRateLimit(database.db, "test:b", rule)).allowed).toBe(true);
  });

  it("start a new window once the old one has passed", async () => {
    await database.db
      .update(rateLimitBuckets)
      .set({ windowStartedAt: sql`now() - interval '61 seconds'` })
      .where(eq(rateLimitBuckets.key, "test:a"));
    expect((await hitRateLimit(database.db, "test:a", rule)).allowed).toBe(true);
  });

  it("never lose a count under concurrent hits", async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        hitRateLimit(database.db, "test:c", { limit: 5, windowMs: 60_000 }),
      ),
    );
    expect(results.filter((r) => r.allowed)).toHaveLength(5);
    const [bucket] = await database.db
      .select()
      .from(rateLimitBuckets)
      .where(eq(rateLimitBuckets.key, "test:c"));
    expect(bucket?.hits).toBe(20);
  });

  it("prune windows that ended long ago", async () => {
    await database.db
      .update(rateLimitBuckets)
      .set({ windowStartedAt: sql`now() - interval '2 days'` })
      .where(eq(rateLimitBuckets.key, "test:b"));
    await pruneRateLimits(database.db);
    const keys = (await database.db.select().from(rateLimitBuckets)).map((b) => b.key).sort();
    expect(keys).toEqual(["test:a", "test:c"]);
  });
});

describe("back-off after failures", () => {
  const backoff = {
    freeFailures: 2,
    firstLockMs: 10_000,
    maxLockMs: 40_000,
    forgetAfterMs: 3_600_000,
  };
  const failuresOf = async (key: string) =>
    (await database.db.select().from(rateLimitBuckets).where(eq(rateLimitBuckets.key, key)))[0]
      ?.hits;

  it("lock after the free failures, doubling with each further one up to the maximum", () => {
    expect([1, 2, 3, 4, 5].map((failures) => backoffLockMs(failures, backoff))).toEqual([
      0, 10_000, 20_000, 40_000, 40_000,
    ]);
  });

  it("wait for the longest lock of the keys asked about", async () => {
    await recordFailure(database.db, "fail:a", backoff);
    const keys = [
      { key: "fail:a", rule: backoff },
      { key: "fail:b", rule: backoff },
    ];
    expect(await backoffWait(database.db, keys)).toBeUndefined();
    for (let i = 0; i < 3; i++) await recordFailure(database.db, "fail:b", backoff);
    // 20 s, less the moment since the third failure.
    expect(await backoffWait(database.db, keys)).toBeGreaterThanOrEqual(19);
    expect(await backoffWait(database.db, keys)).toBeLessThanOrEqual(20);
    await clearFailures(database.db, "fail:b");
    expect(await backoffWait(database.db, keys)).toBeUndefined();
  });

  it("forget failures an hour after the last one, and count anew", async () => {
    for (let i = 0; i < 4; i++) await recordFailure(database.db, "fail:c", backoff);
    await database.db
      .update(rateLimitBuckets)
      .set({ windowStartedAt: sql`now() - interval '61 minutes'` })
      .where(eq(rateLimitBuckets.key, "fail:c"));
    expect(await backoffWait(database.db, [{ key: "fail:c", rule: backoff }])).toBeUndefined();
    await recordFailure(database.db, "fail:c", backoff);
    expect(await failuresOf("fail:c")).toBe(1);
  });
});
