import { describe, expect, it } from "vitest";
import { fieldErrorText, placeReply, type FormReply } from "./form-answer";

const bad = { title: "Email inválido", description: "Por favor, introduce un email válido." };
const short = { title: "La contraseña debe tener al menos 8 caracteres" };
const denied = { title: "Email o contraseña incorrectos" };

const refusal = (
  issues: FormReply["issues"] & object,
  action?: FormReply["action"],
): FormReply => ({
  tone: "error",
  text: issues[0]!.text,
  issues,
  action,
});

describe("placeReply: each error once (decision 055)", () => {
  const box = { toasts: false, live: true };

  it("leaves one field's error to its field: no box, no toast", () => {
    expect(placeReply(refusal([{ field: "email", text: bad }]), box)).toEqual({});
  });

  it("sums up several errors in the box", () => {
    const reply = refusal([
      { field: "email", text: bad },
      { field: "password", text: short },
    ]);
    expect(placeReply(reply, box)).toEqual({ box: reply });
  });

  it("says an error about no field in the box, without a toast", () => {
    const reply = refusal([{ text: denied }]);
    expect(placeReply(reply, box)).toEqual({ box: reply });
  });

  it("keeps the box for a link the answer offers", () => {
    const reply = refusal([{ field: "email", text: bad }], { label: "Verificar", to: "/v" });
    expect(placeReply(reply, box)).toEqual({ box: reply });
  });

  it("in a form whose errors the spec makes toasts, a running page shows a toast and no box", () => {
    const one = refusal([{ field: "email", text: bad }]);
    const several = refusal([
      { field: "email", text: bad },
      { field: "password", text: short },
    ]);
    const whole = refusal([{ text: denied }]);
    for (const reply of [one, several, whole])
      expect(placeReply(reply, { toasts: true, live: true })).toEqual({ toast: reply });
  });

  it("without JavaScript (the answer in the server's HTML) the box rule holds in every form", () => {
    const one = refusal([{ field: "email", text: bad }]);
    const several = refusal([
      { field: "email", text: bad },
      { field: "password", text: short },
    ]);
    for (const toasts of [true, false]) {
      expect(placeReply(one, { toasts, live: false })).toEqual({});
      expect(placeReply(several, { toasts, live: false })).toEqual({ box: several });
    }
  });

  it("a notice keeps its box and toast, a toast alone in a toast form", () => {
    const notice: FormReply = { tone: "success", text: { title: "Perfil actualizado" } };
    expect(placeReply(notice, box)).toEqual({ box: notice, toast: notice });
    expect(placeReply(notice, { toasts: false, live: false })).toEqual({ box: notice });
    expect(placeReply(notice, { toasts: true, live: true })).toEqual({ toast: notice });
  });
});

describe("fieldErrorText", () => {
  it("says the title and the sentence, or the title alone", () => {
    expect(fieldErrorText(bad)).toBe("Email inválido. Por favor, introduce un email válido.");
    expect(fieldErrorText(short)).toBe("La contraseña debe tener al menos 8 caracteres");
    expect(fieldErrorText({ title: "¡Hecho!", description: "Otra frase." })).toBe(
      "¡Hecho! Otra frase.",
    );
  });
});
