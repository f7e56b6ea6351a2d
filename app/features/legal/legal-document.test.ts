import { describe, expect, it } from "vitest";
import { revisionDateText } from "./legal-document";
import { SITE_LOCALE } from "~/platform/locale";

describe("revisionDateText", () => {
  it("writes every day of a year as es-ES Intl's long date does", () => {
    const longDate = new Intl.DateTimeFormat(SITE_LOCALE.intl, {
      dateStyle: "long",
      timeZone: "UTC",
    });
    for (let day = 0; day < 366; day++) {
      const date = new Date(Date.UTC(2028, 0, 1 + day));
      const iso = date.toISOString().slice(0, 10);
      expect(revisionDateText(iso)).toBe(longDate.format(date));
    }
  });
});
