import { createHash, randomBytes } from "node:crypto";
import { and, eq, gte, inArray, isNotNull, lt, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { z } from "zod";
import { servicesWithPages } from "~/features/catalogue/services";
import type { Database } from "~/platform/db/client.server";
import { getDb } from "~/platform/db/database.server";
import {
  analyticsDayPages,
  analyticsDayReferrers,
  analyticsDays,
  analyticsEvents,
} from "~/platform/db/schema";
import { visitorKey } from "~/platform/security/client-address.server";
import { SITE_TIME_ZONE, siteDay } from "~/platform/dates";
import { analyticsKinds, listedReferrer, trackedPath } from "./analytics-rules";

/** Raw events are kept this many days; after that only their day's totals remain. */
export const RAW_EVENT_DAYS = 30;
const BEACON_MAX_BYTES = 2_048;
/**
 * Per address (an IPv6 /64 as one) and minute: an office behind one address stays below; a
 * script does not.
 */
export const BEACONS_PER_MINUTE = 600;
/** Senders whose minute is running that one instance keeps count of (a few MB at most). */
export const BEACON_NETWORKS_TRACKED = 50_000;

const beaconSchema = z.object({
  kind: z.enum(analyticsKinds),
  path: z.string().max(200),
  referrer: z.string().max(1_000).optional(),
  visit: z
    .string()
    .regex(/^[a-f0-9]{32}$/)
    .optional(),
  returning: z.boolean().optional(),
});

/** Crawlers, link previews, audits and headless browsers: not visitors. */
const NOT_A_VISITOR =
  /bot|crawl|spider|slurp|archiver|preview|facebookexternalhit|lighthouse|pagespeed|headless|phantom|curl|wget|python|java\/|go-http|httpclient|okhttp/i;

export function deviceClass(userAgent: string): "mobile" | "tablet" | "desktop" {
  if (/ipad|tablet|android(?!.*mobile)/i.test(userAgent)) return "tablet";
  if (/mobi|iphone|ipod|android/i.test(userAgent)) return "mobile";
  return "desktop";
}

/**
 * The referring site as listed (a known site's host, or "otros sitios"), or null for none, for
 * ourselves, or for something not a web URL.
 */
export function referrerHost(referrer: string | undefined, siteHost: string): string | null {
  if (!referrer) return null;
  try {
    const url = new URL(referrer);
    if (url.protocol !== "https:" && url.protocol !== "http:") return null;
    const host = url.hostname.toLowerCase().replace(/^www\./, "");
    return host === siteHost.replace(/^www\./, "") ? null : listedReferrer(host);
  } catch {
    return null;
  }
}

/**
 * The day's salt: random, in this process's memory only, replaced when the Madrid day changes.
 * Once replaced, nobody (ourselves included) can recompute a hash of yesterday, so the hashes
 * count a day's unique visitors and link nothing across days.
 */
let salt: { day: string; secret: Buffer } | undefined;
export function dailySalt(now = new Date()): Buffer {
  const day = siteDay(now);
  if (salt?.day !== day) salt = { day, secret: randomBytes(32) };
  return salt.secret;
}

export function visitorHash(address: string, userAgent: string, now = new Date()): string {
  return createHash("sha256")
    .update(dailySalt(now))
    .update(address)
    .update("\0")
    .update(userAgent)
    .digest("base64url")
    .slice(0, 22);
}

/** Each sender's running minute, in the order the minutes began (a Map keeps insertion order). */
const recentBeacons = new Map<string, { count: number; resetAt: number }>();

/**
 * Whether one more beacon from this address fits its minute. Counts are per /64 for IPv6 (one
 * subscriber's many addresses). Only finished minutes are dropped, oldest first, so no flood of
 * senders can reset another's count; while BEACON_NETWORKS_TRACKED minutes are running, a new
 * sender waits for one to end (analytics loses a few views rather than its limit).
 */
export function beaconAllowed(address: string, now = Date.now()): boolean {
  const key = visitorKey(address);
  const entry = recentBeacons.get(key);
  if (entry && entry.resetAt > now) {
    entry.count += 1;
    return entry.count <= BEACONS_PER_MINUTE;
  }
  recentBeacons.delete(key);
  for (const [oldest, { resetAt }] of recentBeacons) {
    if (resetAt > now) break;
    recentBeacons.delete(oldest);
  }
  if (recentBeacons.size >= BEACON_NETWORKS_TRACKED) return false;
  recentBeacons.set(key, { count: 1, resetAt: now + 60_000 });
  return true;
}

const noContent = () => new Response(null, { status: 204 });
const refused = (status: number, text: string) =>
  new Response(text, { status, headers: { "Content-Type": "text/plain; charset=utf-8" } });

/**
 * Records one beacon. Bots, prefetches and pages that are not counted answer 204 and write
 * nothing; the address and the user agent are used for the hash and the device class and never
 * written. A browser that asks not to be tracked (Sec-GPC, DNT) counts only in the aggregates.
 */
export async function recordBeacon(
  request: Request,
  clientAddress: string,
  siteHost: string,
): Promise<Response> {
  const headers = request.headers;
  if (Number(headers.get("content-length") ?? 0) > BEACON_MAX_BYTES)
    return refused(413, "Datos de analítica demasiado grandes.");
  const text = await request.text();
  if (text.length > BEACON_MAX_BYTES) return refused(413, "Datos de analítica demasiado grandes.");
  let parsed: z.infer<typeof beaconSchema>;
  try {
    parsed = beaconSchema.parse(JSON.parse(text));
  } catch {
    return refused(400, "Datos de analítica no válidos.");
  }
  const userAgent = headers.get("user-agent") ?? "";
  const purpose = `${headers.get("sec-purpose") ?? ""} ${headers.get("purpose") ?? ""}`;
  const path = trackedPath(parsed.path);
  if (!path || !userAgent || NOT_A_VISITOR.test(userAgent) || /prefetch|prerender/i.test(purpose))
    return noContent();
  if (!beaconAllowed(clientAddress)) return refused(429, "Demasiadas solicitudes.");
  const optedOut = headers.get("sec-gpc") === "1" || headers.get("dnt") === "1";
  const visitId = optedOut ? null : (parsed.visit ?? null);
  await getDb()
    .insert(analyticsEvents)
    .values({
      day: sql`(now() at time zone ${SITE_TIME_ZONE})::date`,
      kind: parsed.kind,
      path,
      referrerHost: parsed.kind === "view" ? referrerHost(parsed.referrer, siteHost) : null,
      device: deviceClass(userAgent),
      visitorHash: visitorHash(clientAddress, userAgent),
      visitId,
      returning: visitId ? (parsed.returning ?? false) : null,
    });
  return noContent();
}

const today = sql`(now() at time zone ${SITE_TIME_ZONE})::date`;
const servicePaths = servicesWithPages().map((service) => service.path!);

/** The totals of each day of raw events matching `where`: one definition for rollup and today. */
function dayTotals(db: Database, where: SQL | undefined) {
  const e = analyticsEvents;
  const visitsWhere = (condition: SQL) =>
    sql<number>`count(distinct ${e.visitId}) filter (where ${condition})::int`;
  return db
    .select({
      day: e.day,
      views: sql<number>`count(*) filter (where ${e.kind} = 'view')::int`.as("views"),
      visitors: sql<number>`count(distinct ${e.visitorHash})::int`.as("visitors"),
      mobileViews:
        sql<number>`count(*) filter (where ${e.kind} = 'view' and ${e.device} = 'mobile')::int`.as(
          "mobile_views",
        ),
      visits: sql<number>`count(distinct ${e.visitId})::int`.as("visits"),
      returningVisits: visitsWhere(sql`${e.returning}`).as("returning_visits"),
      serviceVisits: visitsWhere(
        sql`${e.kind} = 'view' and ${e.path} in (${sql.join(
          servicePaths.map((path) => sql`${path}`),
          sql`, `,
        )})`,
      ).as("service_visits"),
      dialogVisits: visitsWhere(sql`${e.kind} = 'purchase_dialog'`).as("dialog_visits"),
      convertedVisits: visitsWhere(sql`${e.kind} = 'enquiry'`).as("converted_visits"),
      enquiries: sql<number>`count(*) filter (where ${e.kind} = 'enquiry')::int`.as("enquiries"),
      // No longer reported by beacons (decision 035): the report counts them from our records.
      // The columns stay for the days rolled up before.
      signups: sql<number>`0`.as("signups"),
      payments: sql<number>`0`.as("payments"),
    })
    .from(e)
    .where(where)
    .groupBy(e.day);
}

/** Views per day and page of the raw events matching `where`. */
function pageViews(db: Database, where: SQL | undefined) {
  const e = analyticsEvents;
  return db
    .select({ day: e.day, path: e.path, views: sql<number>`count(*)::int`.as("views") })
    .from(e)
    .where(and(eq(e.kind, "view"), where))
    .groupBy(e.day, e.path);
}

/** Views per day and referring site of the raw events matching `where`. */
function referrerViews(db: Database, where: SQL | undefined) {
  const e = analyticsEvents;
  return db
    .select({
      day: e.day,
      host: sql<string>`${e.referrerHost}`.as("host"),
      views: sql<number>`count(*)::int`.as("views"),
    })
    .from(e)
    .where(and(eq(e.kind, "view"), isNotNull(e.referrerHost), where))
    .groupBy(e.day, e.referrerHost);
}

/**
 * Rolls every closed day that has raw events and no totals yet into the daily tables, then
 * deletes raw events older than RAW_EVENT_DAYS. Idempotent, and safe to run concurrently (the
 * second run's inserts conflict and do nothing).
 */
export async function rollUpAnalytics(db: Database = getDb()) {
  // The closed days that have raw events and no totals: one index probe per day, not a scan of
  // the raw events (a report runs this first, and 30 days can hold millions of rows).
  const found = (await db.execute(sql`
    select to_char(candidate, 'YYYY-MM-DD') as day
    from generate_series(
      (select min(${analyticsEvents.day}) from ${analyticsEvents}), ${today} - 1, interval '1 day'
    ) as candidate
    where not exists (select 1 from ${analyticsDays} where ${analyticsDays.day} = candidate::date)
      and exists (select 1 from ${analyticsEvents} where ${analyticsEvents.day} = candidate::date)`)) as unknown as {
    rows: { day: string }[];
  };
  const days = found.rows.map((row) => row.day);
  const expired = lt(analyticsEvents.day, sql`${today} - ${RAW_EVENT_DAYS}::int`);
  if (days.length === 0) {
    await db.delete(analyticsEvents).where(expired);
    return;
  }
  await db.transaction(async (tx) => {
    const open = inArray(analyticsEvents.day, days);
    await tx.insert(analyticsDayPages).select(pageViews(tx, open)).onConflictDoNothing();
    await tx.insert(analyticsDayReferrers).select(referrerViews(tx, open)).onConflictDoNothing();
    await tx.insert(analyticsDays).select(dayTotals(tx, open)).onConflictDoNothing();
    await tx.delete(analyticsEvents).where(expired);
  });
}

export type AnalyticsDay = { day: string; views: number; visitors: number };

/**
 * The Analítica section for the last `days` days, today included: closed days from the daily
 * totals, today from its raw events, so it stays fast at millions of page views.
 */
export async function analyticsReport(days: number, db: Database = getDb()) {
  await rollUpAnalytics(db);
  const firstDay = sql`${today} - ${days - 1}::int`;
  const todayOnly = eq(analyticsEvents.day, today);
  const [closed, live, pages, referrers] = await Promise.all([
    db.select().from(analyticsDays).where(gte(analyticsDays.day, firstDay)),
    dayTotals(db, todayOnly),
    topOf(db, {
      closed: [analyticsDayPages, analyticsDayPages.path],
      today: [pageViews(db, todayOnly), "path"],
      firstDay,
    }),
    topOf(db, {
      closed: [analyticsDayReferrers, analyticsDayReferrers.host],
      today: [referrerViews(db, todayOnly), "host"],
      firstDay,
    }),
  ]);
  const totals = [...closed, ...live];
  const sum = (field: Exclude<keyof (typeof totals)[number], "day">) =>
    totals.reduce((total, day) => total + day[field], 0);
  return {
    days,
    daily: fillDays(totals, days),
    views: sum("views"),
    visitors: sum("visitors"),
    mobileViews: sum("mobileViews"),
    funnel: {
      visits: sum("visits"),
      returningVisits: sum("returningVisits"),
      serviceVisits: sum("serviceVisits"),
      dialogVisits: sum("dialogVisits"),
      /** Visits that reported an enquiry: a beacon, so the staff report caps it (decision 035). */
      convertedVisits: sum("convertedVisits"),
    },
    pages,
    referrers,
  };
}

export type AnalyticsReport = Awaited<ReturnType<typeof analyticsReport>>;

const TOP_ROWS = 10;

/** The most viewed keys of the period: closed days' totals plus today's raw events. */
async function topOf(
  db: Database,
  {
    closed: [table, key],
    today: [todayRows, todayKey],
    firstDay,
  }: {
    closed: [typeof analyticsDayPages | typeof analyticsDayReferrers, AnyPgColumn];
    today: [SQLWrapper, string];
    firstDay: SQL;
  },
) {
  const period = sql`(select ${key} as key, ${table.views} as views from ${table} where ${table.day} >= ${firstDay} union all select ${sql.identifier(todayKey)} as key, views from (${todayRows}) as today)`;
  const rows = await db.execute<{ key: string; views: number }>(
    sql`select key, sum(views)::int as views from ${period} as period group by key order by views desc, key limit ${TOP_ROWS}`,
  );
  return (rows as unknown as { rows: { key: string; views: number }[] }).rows.map((row) => ({
    key: row.key,
    views: Number(row.views),
  }));
}

/** Every day of the period, oldest first, a day without visits as zeros. */
function fillDays(totals: { day: string; views: number; visitors: number }[], days: number) {
  const byDay = new Map(totals.map((day) => [day.day, day]));
  // Calendar arithmetic at UTC midnight, where no summer time moves a day.
  const lastDay = Date.parse(`${siteDay()}T00:00:00Z`);
  return Array.from({ length: days }, (_, index): AnalyticsDay => {
    const day = new Date(lastDay - (days - 1 - index) * 86_400_000).toISOString().slice(0, 10);
    const found = byDay.get(day);
    return { day, views: found?.views ?? 0, visitors: found?.visitors ?? 0 };
  });
}
