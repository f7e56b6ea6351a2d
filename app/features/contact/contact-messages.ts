import type { ToastText } from "~/platform/http/toast";
import { CONTACT_LIMITS, type ContactErrorCode } from "./contact-schema";

/** The Spanish texts of the contact form (spec sections 5 and 8): the one place they live. */

export function contactErrorText(code: ContactErrorCode, values: { message?: string }): ToastText {
  switch (code) {
    case "nameRequired":
      return { title: "Nombre requerido", description: "Por favor, ingresa tu nombre completo." };
    case "nameTooShort":
      return {
        title: "Nombre muy corto",
        description: `El nombre debe tener al menos ${CONTACT_LIMITS.nameMin} caracteres.`,
      };
    case "nameTooLong":
      return {
        title: "Nombre muy largo",
        description: `El nombre no puede superar los ${CONTACT_LIMITS.nameMax} caracteres.`,
      };
    case "emailInvalid":
      return { title: "Email inválido", description: "Por favor, ingresa un email válido." };
    case "serviceRequired":
      return { title: "Servicio requerido", description: "Por favor, selecciona un servicio." };
    case "messageRequired":
      return { title: "Mensaje requerido", description: "Por favor, escribe tu mensaje." };
    case "messageTooShort":
      return {
        title: "Mensaje demasiado corto",
        description: `El mensaje debe tener al menos ${CONTACT_LIMITS.messageMin} caracteres (actualmente ${
          (values.message ?? "").trim().length
        }).`,
      };
    case "messageTooLong":
      return {
        title: "Mensaje demasiado largo",
        description: `El mensaje no puede superar los ${CONTACT_LIMITS.messageMax} caracteres.`,
      };
  }
}

export const contactToasts = {
  sent: {
    title: "¡Mensaje enviado!",
    description:
      "Te responderemos en menos de 24 horas. Revisa tu email: te hemos enviado una confirmación.",
  },
  failed: { title: "Error al enviar", description: "Por favor, inténtalo de nuevo." },
  rateLimited: {
    title: "Demasiadas consultas",
    description: "Has enviado varias consultas seguidas. Espera unos minutos e inténtalo de nuevo.",
  },
  humanCheckNotReady: {
    title: "Verificación de seguridad no lista",
    description: "La verificación de seguridad aún no ha terminado. Espera un momento y envíalo.",
  },
  humanCheckFailed: {
    title: "Verificación de seguridad fallida",
    description:
      "No hemos podido comprobar que eres una persona. Espera unos segundos e inténtalo de nuevo.",
  },
  serviceSelected: (serviceName: string): ToastText => ({
    title: "Servicio seleccionado",
    description: `Hemos preparado tu consulta sobre ${serviceName}. Revisa el mensaje y envíalo.`,
  }),
} satisfies Record<string, ToastText | ((name: string) => ToastText)>;
