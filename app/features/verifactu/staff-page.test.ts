import { describe, expect, it } from "vitest";
import { chainCheckText } from "./staff-page";

describe("what 'Comprobar cadena' says", () => {
  it("counts one record in the singular and many in the plural", () => {
    expect(chainCheckText({ checked: 1, seconds: 0.02 })).toBe(
      "Cadena íntegra: 1 registro comprobado en 0,02 s",
    );
    expect(chainCheckText({ checked: 859_947, seconds: 2.55 })).toBe(
      "Cadena íntegra: 859.947 registros comprobados en 2,55 s",
    );
  });

  it("names the first break by record and invoice", () => {
    expect(
      chainCheckText({
        checked: 10,
        seconds: 0.1,
        firstBreak: { recordId: 8, invoiceNumber: "F2026-000008", reason: "hash" },
      }),
    ).toMatch(/registro 8 \(factura F2026-000008\): la huella no coincide/);
  });
});
