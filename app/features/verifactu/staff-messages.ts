import type { ToastText } from "~/platform/http/toast";
import { CANCELLATION_REASON_MAX, DESCRIPTION_MAX, RECIPIENT_NAME_MAX } from "./record-states";
import { staffFormMessages } from "~/ui/signed-in/staff-messages";

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
  saleCharged: {
    title: "Esta factura no se puede anular",
    description:
      "Corresponde a una venta cobrada: se corrige con una factura rectificativa (reembolso o desistimiento), no con una anulación.",
  },
  hasCorrective: {
    title: "Esta factura no se puede anular",
    description: "Ya tiene una factura rectificativa que la corrige.",
  },
  cancellationReason: {
    title: "Indica el motivo de la anulación",
    description: `Explica en una frase por qué la factura no debió emitirse (hasta ${CANCELLATION_REASON_MAX} caracteres).`,
  },
  confirmCancellation: {
    title: "Confirma la anulación",
    description: "Marca la casilla para confirmar que la factura se emitió por error.",
  },
  notCorrectable: {
    title: "Este registro no se puede subsanar",
    description:
      "Solo se subsana el último registro de alta de una factura que la AEAT haya rechazado o aceptado con errores, y una sola vez.",
  },
  correctionRecipientName: {
    title: "Revisa el nombre del destinatario",
    description: `Indica el nombre o la razón social tal como consta en la AEAT: hasta ${RECIPIENT_NAME_MAX} caracteres, sin saltos de línea.`,
  },
  correctionRecipientTaxId: {
    title: "Revisa el NIF del destinatario",
    description:
      "Su formato o su letra de control no son correctos (por ejemplo, 12345678Z o B12345674).",
  },
  correctionDescription: {
    title: "Revisa la descripción de la operación",
    description: `Describe la operación en una línea de hasta ${DESCRIPTION_MAX} caracteres.`,
  },
  ...staffFormMessages,
} satisfies Record<string, ToastText>;

export type VerifactuMessage = keyof typeof verifactuMessages;
