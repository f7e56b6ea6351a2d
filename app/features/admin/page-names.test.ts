import { describe, expect, it } from "vitest";
import { chartScaleTop } from "./admin-analytics";
import { pageNameOf } from "./page-names";

describe("Analítica's names and scale", () => {
  it("names the site's pages, services and legal pages, and shows any other path as it is", () => {
    expect(pageNameOf("/")).toBe("Inicio");
    expect(pageNameOf("/ciberseguridad")).toBe("Ciberseguridad");
    expect(pageNameOf("/aviso-legal")).toBe("Aviso Legal");
    expect(pageNameOf("/mi-cuenta")).toBe("Mi Cuenta");
    expect(pageNameOf("/comprar/ciberseguridad")).toBe("Comprar Ciberseguridad");
    expect(pageNameOf("/comprar/no-existe")).toBe("/comprar/no-existe");
    expect(pageNameOf("/no-existe")).toBe("/no-existe");
  });

  it("tops the chart at 1, 2 or 5 times a power of ten, never below the highest day", () => {
    expect([0, 1, 2, 3, 7, 10, 11, 99, 101, 1_234].map(chartScaleTop)).toEqual([
      1, 1, 2, 5, 10, 10, 20, 100, 200, 2_000,
    ]);
  });
});
