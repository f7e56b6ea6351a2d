import { describe, expect, it } from "vitest";
import { csvFileName, csvHeader } from "./admin-csv.server";

// The cells themselves are written by the database: tests/integration/admin-panel.test.ts.
describe("the admin CSV", () => {
  it("is a semicolon CSV with a byte order mark, named after the tab and the Madrid day", () => {
    expect(csvHeader("consultas")).toBe("\uFEFFFecha;Nombre;Email;Servicio;Mensaje;Atendida\r\n");
    expect(csvHeader("pagos")).toBe(
      "\uFEFFFecha;Email;Servicio;Factura;Base imponible (€);IVA (€);Total (€);Estado\r\n",
    );
    // 23:30 UTC is already the next day in Madrid.
    expect(csvFileName("consultas", new Date("2026-11-22T23:30:00Z"))).toBe(
      "consultas-2026-11-23.csv",
    );
  });
});
