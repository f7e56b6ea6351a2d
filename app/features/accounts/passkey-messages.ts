import type { ToastText } from "~/platform/http/toast";

/** Passkeys and sessions (decision 045): their Spanish messages, for server and browser. */
export const PASSKEY_NAME_MAX = 60;

export const securityMessages = {
  passkeyAdded: {
    title: "Llave de acceso añadida",
    description: "Ya puedes entrar con ella, sin contraseña.",
  },
  passkeyRenamed: { title: "Llave de acceso renombrada" },
  passkeyRemoved: { title: "Llave de acceso eliminada" },
  passkeyNameInvalid: {
    title: "Nombre no válido",
    description: `Escribe un nombre de 1 a ${PASSKEY_NAME_MAX} caracteres.`,
  },
  passkeyNotFound: {
    title: "Esa llave de acceso ya no existe",
    description: "Recarga la página para ver tus llaves.",
  },
  passkeyLastFactor: {
    title: "No puedes eliminar tu único segundo factor",
    description:
      "El personal necesita siempre un segundo factor. Añade otra llave o una aplicación de autenticación antes de eliminar esta.",
  },
  stepUpRequired: {
    title: "Confirma tu identidad",
    description:
      "Por seguridad, vuelve a confirmar quién eres antes de añadir una llave de acceso.",
  },
  passkeyNotFresh: {
    title: "Vuelve a iniciar sesión",
    description: "Por seguridad, para añadir una llave de acceso inicia sesión de nuevo.",
  },
  passkeyRegistrationFailed: {
    title: "No se ha podido añadir la llave",
    description:
      "El dispositivo no la ha creado o no ha comprobado que eres tú (PIN, huella o cara). Inténtalo de nuevo.",
  },
  passkeyCancelled: {
    title: "Operación cancelada",
    description: "No se ha usado ninguna llave de acceso.",
  },
  passkeyUnsupported: {
    title: "Tu navegador no admite llaves de acceso",
    description: "Usa tu email y contraseña, o un navegador actualizado.",
  },
  passkeyAlreadyRegistered: {
    title: "Esta llave ya está registrada",
    description: "Este dispositivo ya tiene una llave de acceso para tu cuenta.",
  },
  passkeySignInFailed: {
    title: "No se ha podido entrar con la llave",
    description:
      "La llave no es de ninguna cuenta de este sitio o no ha comprobado que eres tú. Inténtalo de nuevo o usa tu contraseña.",
  },
  passkeyOtherAccount: {
    title: "Esa llave de acceso es de otra cuenta",
    description: "Usa la llave de la cuenta con la que has empezado a iniciar sesión.",
  },
  passkeyNotStaff: {
    title: "Acceso denegado",
    description: "Esa llave no es de una cuenta del personal.",
  },
  passkeyTooMany: {
    title: "Demasiados intentos",
    description: "Espera un momento antes de volver a intentarlo.",
  },
  passkeyUnavailable: {
    title: "Servicio no disponible",
    description: "No hemos podido completar la operación. Inténtalo de nuevo en unos minutos.",
  },
  sessionRevoked: { title: "Sesión cerrada en ese dispositivo" },
  sessionNotFound: {
    title: "Esa sesión ya no está activa",
    description: "Recarga la página para ver tus sesiones.",
  },
  signedOutEverywhere: {
    title: "Has cerrado sesión en todos los dispositivos",
    description: "Vuelve a iniciar sesión para continuar.",
  },
  securityFormInvalid: { title: "Solicitud no válida", description: "Recarga la página." },
} satisfies Record<string, ToastText>;

export type SecurityMessage = keyof typeof securityMessages;

export function isSecurityMessage(code: unknown): code is SecurityMessage {
  return typeof code === "string" && Object.hasOwn(securityMessages, code);
}
