import { describe, expect, it } from "vitest";
import { csvCell, csvFileName, csvHeader, csvLines } from "./admin-csv.server";

/** An enquiry as the export's cursor gives it: dates already formatted by the database. */
const inquiry = {
  name: '=HYPERLINK("http://x")',
  email: "ana@example.com",
  service: "ia",
  message: 'Hola; "precio"\ny plazos',
  createdAt: "22/11/26, 10:05",
  handledAt: null,
};

describe("the admin CSV", () => {
  it("is a semicolon CSV with a byte order mark, named after the tab and the Madrid day", () => {
    expect(csvHeader("consultas")).toBe("\uFEFFFecha;Nombre;Email;Servicio;Mensaje;Atendida\r\n");
    // 23:30 UTC is already the next day in Madrid.
    expect(csvFileName("consultas", new Date("2026-11-22T23:30:00Z"))).toBe(
      "consultas-2026-11-23.csv",
    );
    expect(csvLines("consultas", [inquiry]).endsWith("\r\n")).toBe(true);
  });

  it("quotes what needs quoting and never lets a cell become a formula", () => {
    expect(csvLines("consultas", [inquiry])).toBe(
      `22/11/26, 10:05;"'=HYPERLINK(""http://x"")";ana@example.com;Consultoría en IA;"Hola; ""precio""\ny plazos";No\r\n`,
    );
    for (const start of ["=", "+", "-", "@"]) {
      expect(csvCell(`${start}1+1`)).toBe(`'${start}1+1`);
    }
    expect(csvCell("\t=1")).toBe("'\t=1");
    expect(csvCell("ana=1")).toBe("ana=1");
  });

  it("writes amounts with cents and statuses in Spanish", () => {
    const row = {
      createdAt: "22/11/26, 10:05",
      customerEmail: "ana@example.com",
      serviceName: "Ciberseguridad",
      amount: 44_900,
      status: "refunded",
    };
    expect(csvLines("pagos", [row])).toBe(
      "22/11/26, 10:05;ana@example.com;Ciberseguridad;449,00€;Reembolsado\r\n",
    );
  });
});
