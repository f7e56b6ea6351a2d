import type { ToastText } from "~/platform/http/toast";

/** The admin panel's Spanish messages: toasts of its actions and their refusals. */
export const adminMessages = {
  inquiryHandled: { title: "Consulta marcada como atendida" },
  inquiryPending: { title: "Consulta marcada como pendiente" },
  inquiryNotFound: {
    title: "Consulta no encontrada",
    description: "Puede que se haya eliminado. Actualiza la lista.",
  },
  adminGranted: { title: "Rol de administrador concedido" },
  adminRevoked: { title: "Rol de administrador retirado" },
  userNotFound: {
    title: "Usuario no encontrado",
    description: "Puede que la cuenta se haya eliminado. Actualiza la lista.",
  },
  lastAdmin: {
    title: "No se puede quitar el último administrador",
    description: "Concede antes el rol a otra persona.",
  },
  ownRole: {
    title: "No puedes quitarte tu propio rol",
    description: "Pide a otro administrador que lo haga.",
  },
  unverifiedAdmin: {
    title: "La cuenta no tiene el email verificado",
    description: "Solo una cuenta con el email verificado puede ser administradora.",
  },
  invalidRequest: {
    title: "Solicitud no válida",
    description: "Actualiza la página e inténtalo de nuevo.",
  },
  saveFailed: {
    title: "Error al guardar",
    description: "Por favor, inténtalo de nuevo en unos minutos.",
  },
} satisfies Record<string, ToastText>;

export type AdminMessage = keyof typeof adminMessages;
