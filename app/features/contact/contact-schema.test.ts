import { describe, expect, it } from "vitest";
import { checkForm, textOf, type FormFields } from "~/platform/forms/form-answer";
import { contactMessages } from "./contact-messages";
import { contactSchema } from "./contact-schema";

/** The contact form's check: its data, or its problems in the spec's order, one per field. */
function validateContact(values: Record<string, unknown>) {
  const result = checkForm(contactSchema, values);
  return result.ok
    ? { success: true as const, data: result.data }
    : { success: false as const, errors: result.errors };
}

/** A problem's Spanish text, as the form shows it for the values typed. */
const contactErrorText = (code: string, values: FormFields) =>
  textOf(contactMessages, { code }, values);

const valid = {
  name: "Ana García",
  email: "ana@example.com",
  service: "ciberseguridad",
  message: "Necesito una auditoría de mi tienda online.",
};

const codes = (values: Record<string, unknown>) => {
  const result = validateContact(values);
  return result.success ? [] : result.errors.map((error) => error.code);
};

describe("contact rules", () => {
  it("accept a valid enquiry and trim its values", () => {
    const result = validateContact({
      ...valid,
      name: "  Ana García ",
      message: `  ${valid.message}  `,
    });
    expect(result).toEqual({ success: true, data: { ...valid } });
  });

  it("1. name empty or blank: 'Nombre requerido'", () => {
    expect(codes({ ...valid, name: "" })).toEqual(["nameRequired"]);
    expect(codes({ ...valid, name: "   " })).toEqual(["nameRequired"]);
    expect(codes({ ...valid, name: undefined })).toEqual(["nameRequired"]);
  });

  it("2. name of 1 character after trimming is too short; 2 is enough", () => {
    expect(codes({ ...valid, name: " A " })).toEqual(["nameTooShort"]);
    expect(codes({ ...valid, name: " Al " })).toEqual([]);
  });

  it("3. e-mail empty or without text@text.text: 'Email inválido'", () => {
    for (const email of [
      "",
      "ana",
      "ana@",
      "ana@example",
      "@example.com",
      "ana @example.com",
      "ana@example.",
    ]) {
      expect(codes({ ...valid, email }), email).toEqual(["emailInvalid"]);
    }
    expect(codes({ ...valid, email: " ana@example.es " })).toEqual([]);
    expect(codes({ ...valid, email: `${"a".repeat(244)}@example.com` })).toEqual(["emailInvalid"]);
  });

  it("4. service not chosen or unknown: 'Servicio requerido'", () => {
    expect(codes({ ...valid, service: "" })).toEqual(["serviceRequired"]);
    expect(codes({ ...valid, service: "hacking" })).toEqual(["serviceRequired"]);
    expect(codes({ ...valid, service: "otro" })).toEqual([]);
  });

  it("5. message empty: 'Mensaje requerido'", () => {
    expect(codes({ ...valid, message: "" })).toEqual(["messageRequired"]);
    expect(codes({ ...valid, message: "    " })).toEqual(["messageRequired"]);
  });

  it("6. message of 9 characters after trimming is too short, showing the length; 10 is enough", () => {
    expect(codes({ ...valid, message: "  123456789  " })).toEqual(["messageTooShort"]);
    expect(codes({ ...valid, message: "1234567890" })).toEqual([]);
    expect(contactErrorText("messageTooShort", { message: "  123456789  " }).description).toContain(
      "9",
    );
  });

  it("7. message of 5001 characters is too long; 5000 is fine", () => {
    expect(codes({ ...valid, message: "x".repeat(5001) })).toEqual(["messageTooLong"]);
    expect(codes({ ...valid, message: "x".repeat(5000) })).toEqual([]);
  });

  it("report the failures in the spec's order", () => {
    expect(codes({ name: "", email: "x", service: "", message: "" })).toEqual([
      "nameRequired",
      "emailInvalid",
      "serviceRequired",
      "messageRequired",
    ]);
    expect(codes({ message: "corto", service: "ia", email: "bad", name: "A" })).toEqual([
      "nameTooShort",
      "emailInvalid",
      "messageTooShort",
    ]);
  });

  it("give each failure the spec's title", () => {
    expect(contactErrorText("nameRequired", {}).title).toBe("Nombre requerido");
    expect(contactErrorText("nameRequired", {}).description).toBe(
      "Por favor, ingresa tu nombre completo.",
    );
    expect(contactErrorText("nameTooShort", {}).title).toBe("Nombre muy corto");
    expect(contactErrorText("emailInvalid", {}).title).toBe("Email inválido");
    expect(contactErrorText("serviceRequired", {}).title).toBe("Servicio requerido");
    expect(contactErrorText("messageRequired", {}).title).toBe("Mensaje requerido");
    expect(contactErrorText("messageTooShort", { message: "hola" }).title).toBe(
      "Mensaje demasiado corto",
    );
    expect(contactErrorText("messageTooLong", {}).title).toBe("Mensaje demasiado largo");
  });
});
