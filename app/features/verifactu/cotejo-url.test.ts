import { describe, expect, it } from "vitest";
import { cotejoUrl } from "./cotejo-url";

/** AEAT's examples ("Detalle de las especificaciones técnicas del código «QR»", v0.4.7 §§4, 8). */
describe("the QR's cotejo URL", () => {
  const example = {
    issuerTaxId: "89890001K",
    invoiceNumber: "12345678-G33",
    issueDate: "01-09-2024",
    importeTotal: "241.4",
  };

  it("points to AEAT's test host in pruebas", () => {
    expect(cotejoUrl(example, "pruebas")).toBe(
      "https://prewww2.aeat.es/wlpl/TIKE-CONT/ValidarQR?nif=89890001K&numserie=12345678-G33&fecha=01-09-2024&importe=241.4",
    );
  });

  it("points to AEAT's production host in produccion", () => {
    expect(cotejoUrl(example, "produccion")).toBe(
      "https://www2.agenciatributaria.gob.es/wlpl/TIKE-CONT/ValidarQR?nif=89890001K&numserie=12345678-G33&fecha=01-09-2024&importe=241.4",
    );
  });

  it("URL-encodes the values: AEAT's 12345678&G33 becomes 12345678%26G33", () => {
    expect(
      cotejoUrl({ ...example, invoiceNumber: "12345678&G33", issueDate: "01-01-2024" }, "pruebas"),
    ).toBe(
      "https://prewww2.aeat.es/wlpl/TIKE-CONT/ValidarQR?nif=89890001K&numserie=12345678%26G33&fecha=01-01-2024&importe=241.4",
    );
  });

  it("encodes a space as %20 and every reserved character, and decodes back to the number", () => {
    const invoiceNumber = "F 2026/1+2=3?#!'()*%";
    const url = cotejoUrl({ ...example, invoiceNumber }, "pruebas");
    expect(url).toContain("numserie=F%202026%2F1%2B2%3D3%3F%23%21%27%28%29%2A%25&");
    expect(new URL(url).searchParams.get("numserie")).toBe(invoiceNumber);
  });

  it("keeps the total as the record writes it, with its point", () => {
    const url = cotejoUrl({ ...example, importeTotal: "449.00" }, "pruebas");
    expect(new URL(url).searchParams.get("importe")).toBe("449.00");
  });
});
