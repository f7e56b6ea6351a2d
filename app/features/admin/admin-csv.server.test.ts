import { describe, expect, it } from "vitest";
import { adminCsv } from "./admin-csv.server";

const inquiry = {
  id: "0b6f3c1e-5d2a-4f8e-9c7b-1a2b3c4d5e6f",
  name: '=HYPERLINK("http://x")',
  email: "ana@example.com",
  service: "ia",
  message: 'Hola; "precio"\ny plazos',
  createdAt: new Date("2026-11-22T09:05:00Z"),
};

describe("the admin CSV", () => {
  it("is a semicolon CSV with a byte order mark, named after the tab and the day", () => {
    const { fileName, body } = adminCsv(
      { tab: "consultas", rows: [inquiry] },
      new Date("2026-11-22T23:30:00Z"),
    );
    expect(fileName).toBe("consultas-2026-11-22.csv");
    expect(body.startsWith("\uFEFFFecha;Nombre;Email;Servicio;Mensaje\r\n")).toBe(true);
    expect(body.endsWith("\r\n")).toBe(true);
  });

  it("quotes what needs quoting and never lets a cell become a formula", () => {
    const { body } = adminCsv({ tab: "consultas", rows: [inquiry] }, new Date());
    const row = body.split("\r\n")[1]!;
    expect(row).toBe(
      `22/11/26, 10:05;"'=HYPERLINK(""http://x"")";ana@example.com;Consultoría en IA;"Hola; ""precio""\ny plazos"`,
    );
  });

  it("writes amounts with cents and statuses in Spanish", () => {
    const { body } = adminCsv(
      {
        tab: "pagos",
        rows: [
          {
            id: "p1",
            purchaseId: "u1",
            customerEmail: "ana@example.com",
            serviceName: "Ciberseguridad",
            amount: 44_900,
            currency: "EUR",
            status: "refunded",
            createdAt: new Date("2026-11-22T09:05:00Z"),
          },
        ],
      },
      new Date(),
    );
    expect(body.split("\r\n")[1]).toBe(
      "22/11/26, 10:05;ana@example.com;Ciberseguridad;449,00€;Reembolsado",
    );
  });
});
