import { describe, expect, it } from "vitest";
import { isValidPersonalTaxId, normaliseTaxId } from "./spanish-tax-id";

describe("Spanish NIF and NIE", () => {
  it("accepts identifiers whose check letter is right", () => {
    for (const id of ["12345678Z", "00000000T", "X1234567L", "Y0000000Z", "Z7654321H"])
      expect(isValidPersonalTaxId(id), id).toBe(true);
  });

  it("refuses a wrong check letter, a wrong shape or a company code", () => {
    for (const id of [
      "12345678A",
      "1234567Z",
      "X12345678L",
      "W1234567L",
      "B12345678",
      "",
      "12345678z",
    ])
      expect(isValidPersonalTaxId(id), id).toBe(false);
  });

  it("stores what people type with spaces, dots and dashes the one way", () => {
    expect(normaliseTaxId(" 12.345.678-z ")).toBe("12345678Z");
    expect(isValidPersonalTaxId(normaliseTaxId("x-1234567-l"))).toBe(true);
  });
});
