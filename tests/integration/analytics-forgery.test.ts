import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { analyticsWithRevenue } from "~/features/admin/analytics-revenue.server";
import {
  beaconAllowed,
  BEACON_NETWORKS_TRACKED,
  BEACONS_PER_MINUTE,
  recordBeacon,
} from "~/features/analytics/analytics.server";
import {
  analyticsEvents,
  contactInquiries,
  paymentDayTotals,
  userRoles,
  users,
} from "~/platform/db/schema";
import { setupTestDatabase } from "../support/test-database";

/**
 * Issue #24, finding 3: what a script can make the Analítica tab say. Payments and sign-ups come
 * from our own records, a made-up referring site is not listed, the beacon limit holds per IPv6
 * /64 and is never reset wholesale.
 */
const database = setupTestDatabase();

const USER_AGENT =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";

const send = (body: unknown, address: string) =>
  recordBeacon(
    new Request("http://localhost/api/analitica", {
      method: "POST",
      headers: { "Content-Type": "text/plain", "User-Agent": USER_AGENT },
      body: JSON.stringify(body),
    }),
    address,
    "localhost",
  );

const eventsOfKind = async (kind: string) =>
  (
    await database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(analyticsEvents)
      .where(sql`${analyticsEvents.kind} = ${kind}`)
  )[0]!.n;

describe("forged analytics", () => {
  it("refuses payment and sign-up beacons: only the server's records count those", async () => {
    for (const kind of ["payment", "signup"]) {
      for (let index = 0; index < 20; index += 1) {
        const answer = await send(
          { kind, path: "/pago-exitoso", visit: "f".repeat(32) },
          `192.0.2.${index}`,
        );
        expect(answer.status).toBe(400);
      }
      expect(await eventsOfKind(kind)).toBe(0);
    }
  });

  it("reports enquiries, sign-ups and payments from the records, never from beacons", async () => {
    // Forged steps already in the events (as before the fix), on their own consented visits.
    await database.db.execute(sql`
      insert into ${analyticsEvents} (day, kind, path, device, visitor_hash, visit_id, returning_visitor)
      select (now() at time zone 'Europe/Madrid')::date, kind, '/', 'desktop', 'h' || n, md5(kind || n), false
      from unnest(array['view', 'payment', 'signup', 'enquiry']) as kind, generate_series(1, 20) as n`);
    const [customer] = await database.db
      .insert(users)
      .values({ id: "registro-real", name: "Ana", email: "ana-registro@example.com" })
      .returning();
    await database.db
      .insert(users)
      .values({ id: "jefa-real", name: "Jefa", email: "jefa-registro@example.com" });
    await database.db.insert(userRoles).values({ userId: "jefa-real", role: "admin" });
    await database.db.insert(contactInquiries).values({
      name: "Luis",
      email: "luis@example.com",
      service: "ia",
      message: "Una consulta de verdad.",
    });
    await database.db.insert(paymentDayTotals).values({
      day: sql`(now() at time zone 'Europe/Madrid')::date`,
      status: "completed",
      payments: 2,
      amount: 30_000,
    });
    expect(customer).toBeDefined();

    const report = await analyticsWithRevenue(database.db, 30);
    expect(report.conversions).toEqual({ enquiries: 1, signups: 1, payments: 2 });
    // The funnel's last step is what visits reported, but never more than the enquiries we got.
    expect(report.funnel.convertedVisits).toBe(1);
  });

  it("lists known referring sites by name, and any other as 'otros sitios'", async () => {
    await database.db.delete(analyticsEvents);
    const referrers = [
      "https://www.google.es/search?q=web",
      "https://www.linkedin.com/feed/",
      "https://compra-aqui-barato.example/oferta",
      "https://evil.test/",
      "http://203.0.113.9/",
    ];
    for (const [index, referrer] of referrers.entries())
      expect((await send({ kind: "view", path: "/", referrer }, `198.18.0.${index}`)).status).toBe(
        204,
      );
    const report = await analyticsWithRevenue(database.db, 30);
    expect(report.referrers.map((row) => row.key).sort()).toEqual(
      ["google.es", "linkedin.com", "otros sitios"].sort(),
    );
    expect(report.referrers.find((row) => row.key === "otros sitios")?.views).toBe(3);
  });
});

describe("the beacon limit", () => {
  it("counts every address of one IPv6 /64 as one sender", () => {
    const now = Date.now();
    for (let index = 1; index <= BEACONS_PER_MINUTE; index += 1)
      expect(beaconAllowed(`2001:db8:24:3::${index.toString(16)}`, now)).toBe(true);
    expect(beaconAllowed("2001:db8:24:3:ffff::1", now)).toBe(false);
    expect(beaconAllowed("2001:db8:24:4::1", now)).toBe(true);
    expect(beaconAllowed("2001:db8:24:3::1", now + 60_001)).toBe(true);
  });

  it("is never emptied wholesale: a full table keeps every sender's count", () => {
    // Past the minutes the tests above began.
    const now = Date.now() + 3 * 60_000;
    const flooder = "203.0.113.200";
    for (let index = 0; index < BEACONS_PER_MINUTE; index += 1) beaconAllowed(flooder, now);
    expect(beaconAllowed(flooder, now)).toBe(false);
    // A flood of other senders within the same minute, past the table's size.
    for (let index = 0; index <= BEACON_NETWORKS_TRACKED; index += 1)
      beaconAllowed(
        `2001:db8:${Math.floor(index / 65_536).toString(16)}:${(index % 65_536).toString(16)}::1`,
        now + 1,
      );
    expect(beaconAllowed(flooder, now + 2)).toBe(false);
    // Once the minute is over, the table makes room again.
    expect(beaconAllowed("198.51.100.1", now + 60_010)).toBe(true);
  });
});
