import { describe, expect, it } from "vitest";
import { checkForm } from "~/platform/forms/form-answer";
import { checkoutSchema } from "./checkout-form";
import { paymentMessages } from "./payment-messages";

const CONSENT = { immediateStart: "yes" };
const BILLING = {
  billingName: "  Ferretería Ejemplo S.L. ",
  billingTaxId: "b-1234567.4",
  billingAddress: " Calle Mayor 1, 28013 Madrid ",
};
const ABOVE_LIMIT = 44_900;
const AT_LIMIT = 40_000;

const check = (totalCents: number, fields: Record<string, string>) =>
  checkForm(checkoutSchema(totalCents), fields);

describe("the checkout's billing data (a complete invoice above 400 € or for a business)", () => {
  it("asks above 400 € for name and address, each next to its field, then the consent", () => {
    expect(check(ABOVE_LIMIT, {})).toEqual({
      ok: false,
      errors: [
        { code: "billingNameRequired", field: "billingName" },
        { code: "billingAddressRequired", field: "billingAddress" },
        { code: "immediateStartConsentRequired", field: "immediateStart" },
      ],
    });
  });

  it("takes them above 400 €, trimmed and the tax id normalised", () => {
    expect(check(ABOVE_LIMIT, { ...CONSENT, ...BILLING })).toEqual({
      ok: true,
      data: {
        immediateStart: "yes",
        billing: {
          name: "Ferretería Ejemplo S.L.",
          taxId: "B12345674",
          address: "Calle Mayor 1, 28013 Madrid",
        },
      },
    });
  });

  it("above 400 € a consumer may leave out the tax id (RD 1619/2012 art. 6.1.d)", () => {
    expect(check(ABOVE_LIMIT, { ...CONSENT, ...BILLING, billingTaxId: "  " })).toEqual({
      ok: true,
      data: {
        immediateStart: "yes",
        billing: {
          name: "Ferretería Ejemplo S.L.",
          taxId: "",
          address: "Calle Mayor 1, 28013 Madrid",
        },
      },
    });
  });

  it("refuses a tax id whose check character is wrong, or that is no Spanish tax id", () => {
    for (const taxId of ["12345678A", "B12345675", "ES12345678Z", "12345678", "X1234567Z"])
      expect(check(ABOVE_LIMIT, { ...CONSENT, ...BILLING, billingTaxId: taxId })).toEqual({
        ok: false,
        errors: [{ code: "billingTaxIdInvalid", field: "billingTaxId" }],
      });
  });

  it("accepts a NIF, a NIE and a company code", () => {
    for (const taxId of ["12345678Z", "X1234567L", "A28015865", "Q2826000H"])
      expect(check(ABOVE_LIMIT, { ...CONSENT, ...BILLING, billingTaxId: taxId }).ok, taxId).toBe(
        true,
      );
  });

  it("refuses blank and over-long texts", () => {
    const result = check(ABOVE_LIMIT, {
      ...CONSENT,
      billingName: "   ",
      billingTaxId: "12345678Z",
      billingAddress: "x".repeat(201),
    });
    expect(result).toEqual({
      ok: false,
      errors: [
        { code: "billingNameRequired", field: "billingName" },
        { code: "billingAddressTooLong", field: "billingAddress" },
      ],
    });
  });

  it("refuses a name AEAT would refuse: over 120 characters, or with a control character (issue 37)", () => {
    const name = (billingName: string) =>
      check(ABOVE_LIMIT, { ...CONSENT, ...BILLING, billingName });
    expect(name("á".repeat(120)).ok).toBe(true);
    expect(name("a".repeat(121))).toEqual({
      ok: false,
      errors: [{ code: "billingNameTooLong", field: "billingName" }],
    });
    for (const control of ["\u0000", "\u0007", "\n", "\u0085"])
      expect(name(`Ferretería${control}Ejemplo`), JSON.stringify(control)).toEqual({
        ok: false,
        errors: [{ code: "billingNameInvalid", field: "billingName" }],
      });
  });

  it("up to 400 € (IVA included) a consumer buys without billing data, and typed data is ignored", () => {
    expect(check(AT_LIMIT, CONSENT)).toEqual({ ok: true, data: { immediateStart: "yes" } });
    expect(check(AT_LIMIT, { ...CONSENT, billingTaxId: "nonsense" })).toEqual({
      ok: true,
      data: { immediateStart: "yes" },
    });
  });

  it("a business under 400 € must give the data, and it is then kept", () => {
    const business = { ...CONSENT, businessBuyer: "yes" };
    expect(check(7_900, business)).toMatchObject({
      ok: false,
      errors: [{ field: "billingName" }, { field: "billingTaxId" }, { field: "billingAddress" }],
    });
    expect(check(7_900, { ...business, ...BILLING })).toMatchObject({
      ok: true,
      data: { billing: { taxId: "B12345674" } },
    });
  });

  it("still never assumes the consent to begin at once", () => {
    expect(check(7_900, {})).toEqual({
      ok: false,
      errors: [{ code: "immediateStartConsentRequired", field: "immediateStart" }],
    });
    expect(check(ABOVE_LIMIT, { ...BILLING, immediateStart: "no" })).toEqual({
      ok: false,
      errors: [{ code: "immediateStartConsentRequired", field: "immediateStart" }],
    });
  });

  it("has a Spanish message for every code it gives", () => {
    for (const code of [
      "billingNameRequired",
      "billingNameTooLong",
      "billingTaxIdRequired",
      "billingTaxIdInvalid",
      "billingAddressRequired",
      "billingAddressTooLong",
    ])
      expect(paymentMessages).toHaveProperty(code);
  });
});
