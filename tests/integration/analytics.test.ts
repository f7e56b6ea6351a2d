import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  analyticsReport,
  dailySalt,
  recordBeacon,
  RAW_EVENT_DAYS,
  rollUpAnalytics,
  visitorHash,
} from "~/features/analytics/analytics.server";
import { analyticsDays, analyticsEvents } from "~/platform/db/schema";
import { setupTestDatabase } from "../support/test-database";

const database = setupTestDatabase();

const ADDRESS = "203.0.113.77";
const USER_AGENT =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) MarcadorUA/9f3c Chrome/131.0 Safari/537.36";
const SITE_HOST = "localhost";

function beacon(body: unknown, headers: Record<string, string> = {}) {
  return new Request("http://localhost/api/analitica", {
    method: "POST",
    headers: { "Content-Type": "text/plain", "User-Agent": USER_AGENT, ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

const send = (body: unknown, headers: Record<string, string> = {}, address = ADDRESS) =>
  recordBeacon(beacon(body, headers), address, SITE_HOST);

const eventCount = async () =>
  (await database.db.select({ n: sql<number>`count(*)::int` }).from(analyticsEvents))[0]!.n;

/** Every row of every table of the schema, as text. */
async function everyRowAsText(): Promise<string> {
  const tables = (await database.db.execute(
    sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
  )) as unknown as { rows: { table_name: string }[] };
  let dump = "";
  for (const { table_name } of tables.rows) {
    const rows = (await database.db.execute(
      sql`select t::text as row from ${sql.identifier(table_name)} as t`,
    )) as unknown as { rows: { row: string }[] };
    dump += rows.rows.map((row) => row.row).join("\n");
  }
  return dump;
}

describe("the analytics beacon", () => {
  it("counts a view without storing the address or the user agent anywhere", async () => {
    const answer = await send({
      kind: "view",
      path: "/precios",
      referrer: "https://www.google.es/search?q=web",
    });
    expect(answer.status).toBe(204);
    const [event] = await database.db.select().from(analyticsEvents);
    expect(event).toMatchObject({
      kind: "view",
      path: "/precios",
      referrerHost: "google.es",
      device: "desktop",
      visitId: null,
      returning: null,
    });
    const dump = await everyRowAsText();
    expect(dump).toContain("/precios");
    expect(dump).not.toContain(ADDRESS);
    expect(dump).not.toContain("MarcadorUA");
    // Nor the day's salt, in either of the spellings a careless log would use.
    expect(dump).not.toContain(dailySalt().toString("hex"));
    expect(dump).not.toContain(dailySalt().toString("base64"));
  });

  it("hashes a visitor with a salt of the day: same day, same hash; another day, another", () => {
    const monday = new Date("2026-11-23T10:00:00Z");
    const sameMonday = new Date("2026-11-23T21:00:00Z");
    const tuesday = new Date("2026-11-24T10:00:00Z");
    const first = visitorHash(ADDRESS, USER_AGENT, monday);
    expect(visitorHash(ADDRESS, USER_AGENT, sameMonday)).toBe(first);
    const mondaySalt = dailySalt(monday).toString("hex");
    expect(visitorHash(ADDRESS, USER_AGENT, tuesday)).not.toBe(first);
    expect(dailySalt(tuesday).toString("hex")).not.toBe(mondaySalt);
    // Monday's salt is gone: going back to Monday makes a new one, so its hashes can't be redone.
    expect(visitorHash(ADDRESS, USER_AGENT, monday)).not.toBe(first);
  });

  it("ignores bots, prefetches and staff pages; refuses what is not a beacon with a 4xx", async () => {
    const before = await eventCount();
    const bot = await recordBeacon(
      beacon(
        { kind: "view", path: "/" },
        { "User-Agent": "Mozilla/5.0 (compatible; Googlebot/2.1)" },
      ),
      ADDRESS,
      SITE_HOST,
    );
    expect(bot.status).toBe(204);
    expect((await send({ kind: "view", path: "/" }, { "Sec-Purpose": "prefetch" })).status).toBe(
      204,
    );
    expect((await send({ kind: "view", path: "/admin" })).status).toBe(204);
    expect(await eventCount()).toBe(before);

    for (const garbage of ["kind=view&path=/", "{", JSON.stringify({ kind: "hack", path: "/" })]) {
      const answer = await send(garbage);
      expect(answer.status, garbage).toBe(400);
      expect(await answer.text()).toBe("Datos de analítica no válidos.");
    }
    expect((await send({ kind: "view", path: "/".repeat(3_000) })).status).toBe(413);
    expect(await eventCount()).toBe(before);
  });

  it("keeps a visit only with consent, and never for Do Not Track or Global Privacy Control", async () => {
    const visit = "a".repeat(32);
    await send({ kind: "view", path: "/contacto", visit, returning: true });
    await send({ kind: "view", path: "/contacto", visit: "b".repeat(32) }, { "Sec-GPC": "1" });
    await send({ kind: "view", path: "/contacto", visit: "c".repeat(32) }, { DNT: "1" });
    const rows = await database.db
      .select({ visitId: analyticsEvents.visitId, returning: analyticsEvents.returning })
      .from(analyticsEvents)
      .where(sql`${analyticsEvents.path} = '/contacto'`);
    expect(rows).toHaveLength(3);
    expect(rows.filter((row) => row.visitId !== null)).toEqual([
      { visitId: visit, returning: true },
    ]);
  });

  it("counts 10,000 beacons sent at once, every one", async () => {
    const before = await eventCount();
    const answers = await Promise.all(
      Array.from({ length: 10_000 }, (_, index) =>
        send(
          { kind: "view", path: "/desarrollo-web" },
          {},
          `198.51.${Math.floor(index / 250)}.${index % 250}`,
        ),
      ),
    );
    expect(answers.every((answer) => answer.status === 204)).toBe(true);
    expect(await eventCount()).toBe(before + 10_000);
    const report = await analyticsReport(30);
    expect(report.pages.find((page) => page.key === "/desarrollo-web")?.views).toBe(10_000);
  }, 120_000);

  it("rolls closed days into daily totals, funnel included, and deletes raw events after 30 days", async () => {
    await database.db.delete(analyticsEvents);
    const day = (ago: number) => sql`(now() at time zone 'Europe/Madrid')::date - ${ago}::int`;
    const event = (ago: number, kind: string, path: string, visitId: string | null) =>
      sql`(${day(ago)}, ${kind}, ${path}, 'desktop', ${`h-${visitId ?? "anon"}`}, ${visitId}, ${visitId ? false : null})`;
    const servicePath = "/desarrollo-web";
    await database.db.execute(sql`
      insert into ${analyticsEvents} (day, kind, path, device, visitor_hash, visit_id, returning_visitor)
      values ${sql.join(
        [
          event(2, "view", "/", "v1"),
          event(2, "view", servicePath, "v1"),
          event(2, "purchase_dialog", servicePath, "v1"),
          event(2, "enquiry", "/contacto", "v1"),
          event(2, "view", "/", "v2"),
          event(2, "view", "/precios", null),
          event(RAW_EVENT_DAYS + 5, "view", "/", null),
        ],
        sql`, `,
      )}`);
    await rollUpAnalytics(database.db);
    await rollUpAnalytics(database.db); // twice: the second changes nothing
    const [twoDaysAgo] = await database.db
      .select()
      .from(analyticsDays)
      .where(sql`${analyticsDays.day} = ${day(2)}`);
    expect(twoDaysAgo).toMatchObject({
      views: 4,
      visitors: 3,
      visits: 2,
      serviceVisits: 1,
      dialogVisits: 1,
      convertedVisits: 1,
      enquiries: 1,
    });
    // The old day's totals stay; its raw events are gone.
    expect(await database.db.select().from(analyticsDays)).toHaveLength(2);
    expect(await eventCount()).toBe(6);

    const report = await analyticsReport(30);
    expect(report.views).toBe(4);
    expect(report.funnel).toMatchObject({
      visits: 2,
      serviceVisits: 1,
      dialogVisits: 1,
      convertedVisits: 1,
    });
    expect(report.daily).toHaveLength(30);
    expect(report.daily.reduce((total, each) => total + each.views, 0)).toBe(4);
    expect(report.pages[0]).toEqual({ key: "/", views: 2 });
  });
});
