import { describe, expect, it } from "vitest";
import { checkForm, type FormSchema } from "~/platform/forms/form-answer";
import {
  newPasswordSchema,
  profileSchema,
  recoverySchema,
  signInSchema,
  signUpSchema,
} from "./account-schemas";

/** A form's data, or the code of its first problem (what an account action answers). */
function firstError<T>(schema: FormSchema<T>, values: unknown) {
  const result = checkForm(schema, values);
  return result.ok
    ? { success: true as const, data: result.data }
    : { success: false as const, error: result.errors[0]!.code };
}

const valid = { email: "ana@example.com", password: "12345678", confirmPassword: "12345678" };
const errorOf = (values: Record<string, unknown>) => {
  const result = firstError(signUpSchema, values);
  return result.success ? undefined : result.error;
};

describe("sign-up rules, in the spec's order", () => {
  it("accept valid input and trim and lower-case the e-mail", () => {
    expect(firstError(signUpSchema, { ...valid, email: "  Ana@Example.COM " })).toEqual({
      success: true,
      data: { email: "ana@example.com", password: "12345678", confirmPassword: "12345678" },
    });
  });

  it("1. e-mail must be valid", () => {
    expect(errorOf({ ...valid, email: "" })).toBe("emailInvalid");
    expect(errorOf({ ...valid, email: "ana@example" })).toBe("emailInvalid");
  });

  it("2. e-mail at most 255 characters", () => {
    expect(errorOf({ ...valid, email: `${"a".repeat(243)}@example.com` })).toBeUndefined();
    expect(errorOf({ ...valid, email: `${"a".repeat(244)}@example.com` })).toBe("emailTooLong");
  });

  it("3. password at least 8 and 4. at most 100 characters", () => {
    expect(errorOf({ ...valid, password: "1234567", confirmPassword: "1234567" })).toBe(
      "passwordTooShort",
    );
    const max = "x".repeat(100);
    expect(errorOf({ ...valid, password: max, confirmPassword: max })).toBeUndefined();
    expect(errorOf({ ...valid, password: `${max}x`, confirmPassword: `${max}x` })).toBe(
      "passwordTooLong",
    );
  });

  it("5. the confirmation must match", () => {
    expect(errorOf({ ...valid, confirmPassword: "87654321" })).toBe("passwordMismatch");
  });

  it("report the earliest rule first", () => {
    expect(errorOf({ email: "bad", password: "1", confirmPassword: "2" })).toBe("emailInvalid");
    expect(errorOf({ email: "ana@example.com", password: "1", confirmPassword: "2" })).toBe(
      "passwordTooShort",
    );
  });
});

describe("the other account forms", () => {
  it("sign-in lower-cases the e-mail and needs a password", () => {
    expect(firstError(signInSchema, { email: " A@B.ES ", password: "x" })).toEqual({
      success: true,
      data: { email: "a@b.es", password: "x" },
    });
    expect(firstError(signInSchema, { email: "a@b.es", password: "" })).toEqual({
      success: false,
      error: "passwordRequired",
    });
  });

  it("recovery trims and lower-cases the e-mail", () => {
    expect(firstError(recoverySchema, { email: " X@Y.COM" })).toEqual({
      success: true,
      data: { email: "x@y.com" },
    });
  });

  it("a new password follows the sign-up rules", () => {
    expect(firstError(newPasswordSchema, { password: "short", confirmPassword: "short" })).toEqual({
      success: false,
      error: "passwordTooShort",
    });
    expect(
      firstError(newPasswordSchema, { password: "long-enough", confirmPassword: "different" }),
    ).toEqual({
      success: false,
      error: "passwordMismatch",
    });
  });
});

describe("the profile", () => {
  const profileError = (values: Record<string, unknown>) => {
    const result = firstError(profileSchema, values);
    return result.success ? undefined : result.error;
  };

  it("accepts every field empty or missing, and trims what is given", () => {
    expect(firstError(profileSchema, {})).toEqual({
      success: true,
      data: {
        fullName: "",
        phone: "",
        company: "",
        bio: "",
        taxId: "",
        billingName: "",
        billingAddress: "",
      },
    });
    expect(
      firstError(profileSchema, { fullName: "  Ana García ", phone: " +34 (91) 123-45-67 " }),
    ).toMatchObject({
      success: true,
      data: { fullName: "Ana García", phone: "+34 (91) 123-45-67" },
    });
  });

  it("refuses over-long fields and a phone with letters, each with its own message", () => {
    expect(profileError({ fullName: "a".repeat(101) })).toBe("fullNameTooLong");
    expect(profileError({ phone: "llámame" })).toBe("phoneInvalid");
    expect(profileError({ phone: "1".repeat(31) })).toBe("phoneInvalid");
    expect(profileError({ company: "c".repeat(101) })).toBe("companyTooLong");
    expect(profileError({ bio: "b".repeat(500) })).toBeUndefined();
    // AEAT's NombreRazon takes 120 characters (issue 37): a longer name is refused here.
    expect(profileError({ billingName: "n".repeat(120) })).toBeUndefined();
    expect(profileError({ billingName: "n".repeat(121) })).toBe("billingNameTooLong");
    expect(profileError({ billingName: "Ana\u0007García" })).toBe("billingNameInvalid");
    expect(profileError({ billingName: "Ana\nGarcía" })).toBe("billingNameInvalid");
    expect(profileError({ billingAddress: "d".repeat(201) })).toBe("billingAddressTooLong");
    expect(profileError({ bio: "b".repeat(501) })).toBe("bioTooLong");
  });

  it("takes a NIF or NIE with its right control letter, written any way, and a name with it", () => {
    expect(
      firstError(profileSchema, { taxId: " 12.345.678-z ", billingName: "Ana García" }),
    ).toMatchObject({ success: true, data: { taxId: "12345678Z", billingName: "Ana García" } });
    expect(profileError({ taxId: "X1234567L", billingName: "Ana" })).toBeUndefined();
    expect(profileError({ taxId: "12345678A", billingName: "Ana" })).toBe("taxIdInvalid");
    expect(profileError({ taxId: "B12345678", billingName: "Ana S.L." })).toBe("taxIdInvalid");
    expect(profileError({ taxId: "12345678Z" })).toBe("billingNameRequired");
  });
});
