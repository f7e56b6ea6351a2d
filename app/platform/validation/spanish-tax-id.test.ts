import { describe, expect, it } from "vitest";
import {
  isValidCompanyTaxId,
  isValidPersonalTaxId,
  isValidSpanishTaxId,
  normaliseTaxId,
} from "./spanish-tax-id";

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

describe("Spanish company codes (CIF)", () => {
  it("accepts codes whose control character is right, digit or letter as the kind says", () => {
    for (const id of ["B12345674", "A28015865", "Q2826000H", "G12345674", "G1234567D", "S2800568D"])
      expect(isValidCompanyTaxId(id), id).toBe(true);
  });

  it("refuses a wrong control, the wrong kind of control, a wrong shape or a personal id", () => {
    for (const id of ["B12345675", "B1234567D", "Q28260008", "I12345674", "B1234567", "12345678Z"])
      expect(isValidCompanyTaxId(id), id).toBe(false);
  });

  it("a Spanish tax id is any of the three", () => {
    for (const id of ["12345678Z", "X1234567L", "B12345674"])
      expect(isValidSpanishTaxId(id), id).toBe(true);
    expect(isValidSpanishTaxId("B12345675")).toBe(false);
  });
});
