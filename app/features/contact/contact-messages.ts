import type { FormFields, MessageBook } from "~/platform/forms/form-answer";
import type { ToastText } from "~/platform/http/toast";
import { CONTACT_LIMITS } from "./contact-limits";
import type { ContactErrorCode } from "./contact-schema";

/** The Spanish texts of the contact form (spec sections 5 and 8): the one place they live. */

/** What the contact action answers besides the fields' problems (codes of `contactMessages`). */
export type ContactAnswerCode = "sent" | "error" | "rate-limited" | "human-check-failed";

/** The contact form's message book: each field's problems, then the action's answers. */
export const contactMessages = {
  nameRequired: {
    title: "Nombre requerido",
    description: "Por favor, ingresa tu nombre completo.",
  },
  nameTooShort: {
    title: "Nombre muy corto",
    description: `El nombre debe tener al menos ${CONTACT_LIMITS.nameMin} caracteres.`,
  },
  nameTooLong: {
    title: "Nombre muy largo",
    description: `El nombre no puede superar los ${CONTACT_LIMITS.nameMax} caracteres.`,
  },
  emailInvalid: { title: "Email inválido", description: "Por favor, ingresa un email válido." },
  serviceRequired: {
    title: "Servicio requerido",
    description: "Por favor, selecciona un servicio.",
  },
  messageRequired: { title: "Mensaje requerido", description: "Por favor, escribe tu mensaje." },
  /** Counts what was typed. */
  messageTooShort: ({ values }: { values: FormFields }) => ({
    title: "Mensaje demasiado corto",
    description: `El mensaje debe tener al menos ${CONTACT_LIMITS.messageMin} caracteres (actualmente ${
      (values.message ?? "").trim().length
    }).`,
  }),
  messageTooLong: {
    title: "Mensaje demasiado largo",
    description: `El mensaje no puede superar los ${CONTACT_LIMITS.messageMax} caracteres.`,
  },
  sent: {
    title: "¡Mensaje enviado!",
    description:
      "Te responderemos en menos de 24 horas. Revisa tu email: te hemos enviado una confirmación.",
  },
  error: { title: "Error al enviar", description: "Por favor, inténtalo de nuevo." },
  "rate-limited": {
    title: "Demasiadas consultas",
    description: "Has enviado varias consultas seguidas. Espera unos minutos e inténtalo de nuevo.",
  },
  "human-check-failed": {
    title: "Verificación de seguridad fallida",
    description:
      "No hemos podido comprobar que eres una persona. Espera unos segundos e inténtalo de nuevo.",
  },
} satisfies MessageBook<ContactErrorCode | ContactAnswerCode>;

/** The send button's words: while the security check loads, ready, and while sending. */
export const contactSubmitLabels = {
  loading: "Cargando...",
  idle: "Enviar consulta",
  busy: "Enviando consulta...",
} as const;

export type ContactSubmitState = keyof typeof contactSubmitLabels;

/** Toasts of the form itself, before anything is sent. */
export const contactToasts = {
  humanCheckNotReady: {
    title: "Verificación de seguridad no lista",
    description: "La verificación de seguridad aún no ha terminado. Espera un momento y envíalo.",
  },
  serviceSelected: (serviceName: string): ToastText => ({
    title: "Servicio seleccionado",
    description: `Hemos preparado tu consulta sobre ${serviceName}. Revisa el mensaje y envíalo.`,
  }),
} satisfies Record<string, ToastText | ((name: string) => ToastText)>;
