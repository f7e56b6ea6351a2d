import type { ToastText } from "~/platform/http/toast";

/** The refusals every staff form shares, whichever feature owns the page. */
export const staffFormMessages = {
  invalidRequest: {
    title: "Solicitud no válida",
    description: "Actualiza la página e inténtalo de nuevo.",
  },
  saveFailed: {
    title: "Error al guardar",
    description: "Por favor, inténtalo de nuevo en unos minutos.",
  },
} satisfies Record<string, ToastText>;
