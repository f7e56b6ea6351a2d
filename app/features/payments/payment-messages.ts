import { billingDataMessages } from "~/features/billing/billing-data";

/** The Spanish texts of the purchase flow (spec section 8), shared by dialog and server. */
export const paymentMessages = {
  signInRequired: { title: "Debes iniciar sesión para realizar un pago" },
  emailNotVerified: {
    title: "Email no verificado",
    description: "Debes verificar tu email antes de realizar un pago.",
  },
  priceIdMissing: {
    title: "Price ID no configurado para este servicio. Por favor, contacta con soporte.",
  },
  noSession: { title: "No se recibió la sesión de pago" },
  failed: {
    title: "Error al procesar el pago",
    description: "Por favor, intenta de nuevo o contacta con nosotros.",
  },
  unknownService: {
    title: "Error al procesar el pago",
    description: "El servicio seleccionado no existe.",
  },
  tooManyAttempts: {
    title: "Demasiados intentos",
    description:
      "Has iniciado demasiados pagos seguidos. Espera unos minutos y vuelve a intentarlo.",
  },
  immediateStartConsentRequired: {
    title: "Falta tu conformidad",
    description:
      "Marca la casilla para pedir que empecemos el servicio ya y confirmar que conoces tu derecho de desistimiento.",
  },
  ...billingDataMessages,
  declined: {
    title: "Pago rechazado",
    description: "Tu banco ha rechazado el pago. Puedes intentarlo de nuevo.",
  },
} as const;

/** What the customer ticks before paying (TRLGDCU art. 103 a), stored with the purchase. */
export const IMMEDIATE_START_CONSENT =
  "Pido que el servicio empiece de inmediato y acepto que, una vez prestado por completo, perderé el derecho de desistimiento de 14 días.";

/** The tick that asks for a complete invoice below 400 € (above it, the data is always asked). */
export const COMPLETE_INVOICE_REQUEST = "Necesito factura completa (empresa o profesional)";

export type PaymentMessage = keyof typeof paymentMessages;
