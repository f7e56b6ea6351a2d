import { describe, expect, it } from "vitest";
import { adminQuery, adminViewFrom } from "./admin-tabs";

const view = (query: string) => adminViewFrom(new URL(`https://example.com/admin${query}`));

describe("the admin view in the address", () => {
  it("opens the dashboard by default and any known tab by name", () => {
    expect(view("")).toEqual({
      tab: "dashboard",
      search: "",
      status: "all",
      order: "recientes",
      page: 1,
      pageSize: 25,
      inquiryId: null,
      days: 30,
    });
    expect(view("?tab=pagos&estado=refunded&q=%20ana%20").tab).toBe("pagos");
    expect(view("?tab=pagos&estado=refunded&q=%20ana%20")).toMatchObject({
      search: "ana",
      status: "refunded",
    });
  });

  it("opens Analítica on 30 days, or 90 when asked, and keeps 90 in its links", () => {
    expect(view("?tab=analitica")).toMatchObject({ tab: "analitica", days: 30 });
    expect(view("?tab=analitica&dias=90").days).toBe(90);
    expect(view("?tab=analitica&dias=7").days).toBe(30);
    expect(adminQuery(view("?tab=analitica&dias=90"))).toBe("tab=analitica&dias=90");
    expect(adminQuery(view("?tab=analitica"))).toBe("tab=analitica");
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

  it("reads the page and its size, and refuses anything else", () => {
    expect(view("?tab=pagos&pagina=3&por=100")).toMatchObject({ page: 3, pageSize: 100 });
    for (const page of ["0", "-2", "1e3", "abc", "2.5", "99999999999"])
      expect(view(`?tab=pagos&pagina=${page}`).page, page).toBeLessThanOrEqual(1_000_000);
    expect(view("?tab=pagos&pagina=-2").page).toBe(1);
    expect(view("?tab=pagos&pagina=abc").page).toBe(1);
    expect(view("?tab=pagos&por=1000").pageSize).toBe(25);
  });

  it("opens an enquiry's dialog only on Consultas and only for an id", () => {
    const id = "0b6f3c2e-4a1d-4e5f-9a7b-1c2d3e4f5a6b";
    expect(view(`?tab=consultas&consulta=${id}`).inquiryId).toBe(id);
    expect(view(`?tab=pagos&consulta=${id}`).inquiryId).toBeNull();
    expect(view("?tab=consultas&consulta=1%20or%201=1").inquiryId).toBeNull();
    expect(view("?tab=consultas&estado=handled").status).toBe("handled");
  });
});

describe("the address of a view", () => {
  it("keeps search, filter and size, and leaves out the defaults", () => {
    const current = view("?tab=pagos&q=ana&estado=completed&pagina=4&por=50");
    expect(adminQuery(current)).toBe("tab=pagos&q=ana&estado=completed&pagina=4&por=50");
    expect(adminQuery(current, { page: 1 })).toBe("tab=pagos&q=ana&estado=completed&por=50");
    expect(adminQuery(current, { paging: false })).toBe("tab=pagos&q=ana&estado=completed");
    expect(adminQuery(view("?tab=tickets&orden=vencidos"))).toBe("tab=tickets&orden=vencidos");
  });
});
