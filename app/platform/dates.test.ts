import { describe, expect, it } from "vitest";
import { calendarDay, siteDay, siteYear } from "./dates";

describe("Spain's calendar", () => {
  it("dates an instant by Madrid's day, not UTC's, in winter and in summer", () => {
    // 23:30 UTC on 7 December is 00:30 on the 8th in Madrid (UTC+1).
    expect(siteDay(new Date("2026-12-07T23:30:00Z"))).toBe("2026-12-08");
    expect(siteDay(new Date("2026-12-07T22:59:59Z"))).toBe("2026-12-07");
    // 22:30 UTC on 31 July is 00:30 on 1 August (UTC+2).
    expect(siteDay("2026-07-31T22:30:00Z")).toBe("2026-08-01");
    // New Year's Eve at 23:30 UTC is already next year in Spain.
    expect(siteYear(new Date("2026-12-31T23:30:00Z"))).toBe(2027);
  });

  it("takes a real calendar day written AAAA-MM-DD, and nothing else", () => {
    expect(calendarDay("2026-02-28")).toBe("2026-02-28");
    expect(calendarDay("2028-02-29")).toBe("2028-02-29");
    for (const value of ["2026-02-29", "2026-02-30", "2026-13-01", "2026-1-01", "1999-12-31"])
      expect(calendarDay(value), value).toBeNull();
    for (const value of ["", null, undefined, "2026-02-28T00:00", " 2026-02-28"])
      expect(calendarDay(value)).toBeNull();
  });
});
