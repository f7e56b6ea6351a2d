import { describe, expect, it } from "vitest";
import { adminViewFrom } from "./admin-tabs";

const view = (query: string) => adminViewFrom(new URL(`https://example.com/admin${query}`));

describe("the admin view in the address", () => {
  it("opens the dashboard by default and any known tab by name", () => {
    expect(view("")).toEqual({ tab: "dashboard", search: "", status: "all", order: "recientes" });
    expect(view("?tab=pagos&estado=refunded&q=%20ana%20").tab).toBe("pagos");
    expect(view("?tab=pagos&estado=refunded&q=%20ana%20")).toMatchObject({
      search: "ana",
      status: "refunded",
    });
  });

  it("takes each tab's own status filter, and the tickets' order", () => {
    expect(view("?tab=tickets&estado=in_progress&orden=vencidos")).toMatchObject({
      tab: "tickets",
      status: "in_progress",
      order: "vencidos",
    });
    // A payment filter is no ticket filter, and the reverse.
    expect(view("?tab=tickets&estado=refunded").status).toBe("all");
    expect(view("?tab=pagos&estado=in_progress").status).toBe("all");
    expect(view("?tab=consultas&estado=completed").status).toBe("all");
    expect(view("?tab=tickets&orden=cualquiera").order).toBe("recientes");
  });

  it("falls back on anything it does not know, and caps the search", () => {
    expect(view("?tab=secretos&estado=robado")).toMatchObject({ tab: "dashboard", status: "all" });
    expect(view(`?tab=consultas&q=${"x".repeat(500)}`).search).toHaveLength(100);
  });
});
