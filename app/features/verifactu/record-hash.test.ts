import { describe, expect, it } from "vitest";
import { aeatAmount, aeatDate, aeatRate, aeatTimestamp } from "./aeat-formats";
import { altaHash, altaHashInput, anulacionHash } from "./record-hash.server";

/**
 * AEAT's worked examples ("Detalle de las especificaciones técnicas para generación de la huella
 * o hash de los registros de facturación", v0.1.2, sections 5.1 and 5.2): a first registro de
 * alta, the next one chained to it, and a registro de anulación chained to that.
 */
const FIRST = "3C464DAF61ACB827C65FDA19F352A4E3BDC2C640E9E9FC4CC058073F38F12F60";
const SECOND = "F7B94CFD8924EDFF273501B01EE5153E4CE8F259766F88CF6ACB8935802A2B97";
const CANCELLATION = "177547C0D57AC74748561D054A9CEC14B4C4EA23D1BEFD6F2E69E3A388F90C68";

const example = {
  issuerTaxId: "89890001K",
  invoiceNumber: "12345678/G33",
  issueDate: "01-01-2024",
  invoiceType: "F1",
  cuotaTotal: "12.35",
  importeTotal: "123.45",
  previousHash: "",
  generatedAt: "2024-01-01T19:20:30+01:00",
};

describe("the huella of a billing record", () => {
  it("gives AEAT's first example, with no previous record", () => {
    expect(altaHashInput(example)).toBe(
      "IDEmisorFactura=89890001K&NumSerieFactura=12345678/G33&FechaExpedicionFactura=01-01-2024&TipoFactura=F1&CuotaTotal=12.35&ImporteTotal=123.45&Huella=&FechaHoraHusoGenRegistro=2024-01-01T19:20:30+01:00",
    );
    expect(altaHash(example)).toBe(FIRST);
  });

  it("chains the second example to the first", () => {
    expect(
      altaHash({
        ...example,
        invoiceNumber: "12345679/G34",
        previousHash: FIRST,
        generatedAt: "2024-01-01T19:20:35+01:00",
      }),
    ).toBe(SECOND);
  });

  it("gives AEAT's example of a registro de anulación chained to the second", () => {
    expect(
      anulacionHash({
        issuerTaxId: "89890001K",
        invoiceNumber: "12345679/G34",
        issueDate: "01-01-2024",
        previousHash: SECOND,
        generatedAt: "2024-01-01T19:20:40+01:00",
      }),
    ).toBe(CANCELLATION);
  });

  it("trims the values it hashes, and any other change moves the hash", () => {
    expect(altaHash({ ...example, invoiceNumber: " 12345678/G33 " })).toBe(FIRST);
    expect(altaHash({ ...example, importeTotal: "123.46" })).not.toBe(FIRST);
    expect(altaHash({ ...example, generatedAt: "2024-01-01T19:20:31+01:00" })).not.toBe(FIRST);
  });
});

describe("AEAT's formats", () => {
  it("writes dates and timestamps in Spain's time with the offset of the day", () => {
    // 23:30 UTC on 31 December is already 1 January in Madrid (winter, +01:00).
    expect(aeatDate(new Date("2026-12-31T23:30:00Z"))).toBe("01-01-2027");
    expect(aeatTimestamp(new Date("2026-12-31T23:30:00Z"))).toBe("2027-01-01T00:30:00+01:00");
    expect(aeatTimestamp(new Date("2026-07-01T10:00:05Z"))).toBe("2026-07-01T12:00:05+02:00");
  });

  it("changes the offset at the second Spain changes its clocks, and tells the repeated hour apart", () => {
    // Last Sunday of March 2027: 02:00 CET becomes 03:00 CEST at 01:00 UTC.
    expect(aeatTimestamp(new Date("2027-03-28T00:59:59Z"))).toBe("2027-03-28T01:59:59+01:00");
    expect(aeatTimestamp(new Date("2027-03-28T01:00:00Z"))).toBe("2027-03-28T03:00:00+02:00");
    // Last Sunday of October 2027: 02:30 happens twice, first on summer time, then on winter time.
    expect(aeatTimestamp(new Date("2027-10-31T00:30:00Z"))).toBe("2027-10-31T02:30:00+02:00");
    expect(aeatTimestamp(new Date("2027-10-31T01:30:00Z"))).toBe("2027-10-31T02:30:00+01:00");
  });

  it("writes amounts with a point and two decimals, negative ones with a minus", () => {
    expect(aeatAmount(12_345)).toBe("123.45");
    expect(aeatAmount(5)).toBe("0.05");
    expect(aeatAmount(-1_235)).toBe("-12.35");
    expect(aeatAmount(0)).toBe("0.00");
    expect(aeatRate(21)).toBe("21.00");
  });
});
