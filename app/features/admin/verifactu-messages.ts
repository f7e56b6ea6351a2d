import type { ToastText } from "~/platform/http/toast";

/** The Verifactu page's Spanish messages: its actions' answers and refusals. */
export const verifactuMessages = {
  chainIntact: { title: "Cadena íntegra" },
  chainBroken: { title: "La cadena de registros está rota" },
  recordNotFound: {
    title: "Registro no encontrado",
    description: "Actualiza la lista e inténtalo de nuevo.",
  },
  notCancellable: {
    title: "Este registro no se puede anular",
    description:
      "Solo se anula el último registro de alta de una factura que la AEAT no haya rechazado.",
  },
  confirmCancellation: {
    title: "Confirma la anulación",
    description: "Marca la casilla para confirmar que la factura se emitió por error.",
  },
  notCorrectable: {
    title: "Este registro no se puede subsanar",
    description: "Solo se subsana un registro rechazado que no se haya subsanado ya.",
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

export type VerifactuMessage = keyof typeof verifactuMessages;
