import type { ToastText } from "~/platform/http/toast";
import { z } from "~/platform/validation/zod";
import { deliveryStatuses } from "./after-sale-status";

/**
 * The forms of what happens after the payment, with their Spanish texts, shared by the pages and
 * the server: delivery (staff), staff refunds, and the customer's withdrawal (TRLGDCU art.
 * 102-108). The states themselves are in after-sale-status.ts, which public pages load.
 */

export const AFTER_SALE_LIMITS = { refundReasonMin: 5, refundReasonMax: 300, noteMax: 500 };

export const afterSaleMessages = {
  refundReasonInvalid: {
    title: "Motivo no válido",
    description: `Explica el motivo del reembolso (entre ${AFTER_SALE_LIMITS.refundReasonMin} y ${AFTER_SALE_LIMITS.refundReasonMax} caracteres).`,
  },
  refundConfirmRequired: {
    title: "Confirma el reembolso",
    description: "Marca la casilla para confirmar que devuelves el importe íntegro.",
  },
  notRefundable: {
    title: "No se puede reembolsar",
    description: "Solo se reembolsan pagos completados que no se hayan devuelto ya.",
  },
  refundRequested: {
    title: "Reembolso solicitado",
    description: "Stripe confirmará la devolución en unos segundos; la compra se marcará entonces.",
  },
  refunded: {
    title: "Pago reembolsado",
    description: "Hemos emitido la factura rectificativa y avisado al cliente.",
  },
  refundFailed: {
    title: "Error al reembolsar",
    description: "El proveedor de pagos no ha aceptado el reembolso. Inténtalo de nuevo.",
  },
  deliveryInvalid: { title: "Estado de entrega no válido" },
  deliveryNoteTooLong: {
    title: "Nota demasiado larga",
    description: `La nota no puede superar los ${AFTER_SALE_LIMITS.noteMax} caracteres.`,
  },
  deliveryNotPaid: {
    title: "Compra sin pagar",
    description: "Solo las compras pagadas tienen entrega.",
  },
  deliveryUpdated: {
    title: "Entrega actualizada",
    description: "Hemos avisado al cliente por correo.",
  },
  withdrawalConfirmRequired: {
    title: "Confirma el desistimiento",
    description: "Marca la casilla para confirmar que desistes del contrato.",
  },
  withdrawalNotAvailable: {
    title: "No puedes desistir de esta compra",
    description:
      "El plazo de 14 días ha terminado, el servicio ya se ha prestado por completo o ya desististe.",
  },
  withdrawalRecorded: {
    title: "Desistimiento registrado",
    description: "Te hemos enviado un acuse de recibo por correo con la fecha y la hora.",
  },
  saveFailed: { title: "Error al guardar", description: "Por favor, inténtalo de nuevo." },
} satisfies Record<string, ToastText>;

export type AfterSaleMessage = keyof typeof afterSaleMessages;

const stop = (error: AfterSaleMessage) => ({ error, abort: true });
const confirmed = (error: AfterSaleMessage) =>
  z._default(z.string(), "").check(z.refine((value: string) => value === "yes", stop(error)));

export const refundSchema = z.object({
  reason: z
    ._default(z.string(), "")
    .check(
      z.trim(),
      z.minLength(AFTER_SALE_LIMITS.refundReasonMin, stop("refundReasonInvalid")),
      z.maxLength(AFTER_SALE_LIMITS.refundReasonMax, stop("refundReasonInvalid")),
    ),
  confirm: confirmed("refundConfirmRequired"),
});

export const deliverySchema = z.object({
  deliveryStatus: z.enum(deliveryStatuses, stop("deliveryInvalid")),
  note: z
    ._default(z.string(), "")
    .check(z.trim(), z.maxLength(AFTER_SALE_LIMITS.noteMax, stop("deliveryNoteTooLong"))),
});

export const withdrawalSchema = z.object({ confirm: confirmed("withdrawalConfirmRequired") });
