import { describe, expect, it } from "vitest";
import {
  correctiveInvoiceType,
  requiresCompleteInvoice,
  saleInvoiceType,
  SIMPLIFIED_INVOICE_LIMIT_CENTS,
} from "./invoice-type";

describe("invoice type", () => {
  it("asks for billing data above 400 € IVA included, or for a business", () => {
    expect(SIMPLIFIED_INVOICE_LIMIT_CENTS).toBe(40_000);
    expect(requiresCompleteInvoice(40_000, false)).toBe(false);
    expect(requiresCompleteInvoice(40_001, false)).toBe(true);
    expect(requiresCompleteInvoice(44_900, false)).toBe(true);
    expect(requiresCompleteInvoice(9_900, true)).toBe(true);
  });

  it("issues a complete invoice only to an identified buyer", () => {
    expect(saleInvoiceType({ name: "Ana Ruiz", taxId: "12345678Z" })).toBe("F1");
    expect(saleInvoiceType({ name: "Ana Ruiz", taxId: null })).toBe("F2");
    expect(saleInvoiceType({ name: null, taxId: "12345678Z" })).toBe("F2");
    expect(saleInvoiceType(undefined)).toBe("F2");
  });

  it("corrects a complete invoice with R1 and a simplified one with R5", () => {
    expect(correctiveInvoiceType("F1")).toBe("R1");
    expect(correctiveInvoiceType("F3")).toBe("R1");
    expect(correctiveInvoiceType("F2")).toBe("R5");
  });
});
