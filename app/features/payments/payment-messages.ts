import { AEAT_NAME_MAX } from "~/platform/validation/aeat-text";
/**
 * The longest billing texts a purchase stores (the profile's limits); here, not in the dialog's
 * rules (checkout-form.ts), so the texts that name them need not bring those rules along.
 */
export const BILLING_LIMITS = { name: AEAT_NAME_MAX, taxId: 20, address: 200 } as const;

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
  billingNameRequired: {
    title: "Falta el nombre o la razón social",
    description: "Indica el nombre o la razón social que debe figurar en la factura.",
  },
  billingNameTooLong: {
    title: "Nombre demasiado largo",
    description: `El nombre o la razón social no puede superar los ${BILLING_LIMITS.name} caracteres.`,
  },
  billingNameInvalid: {
    title: "Nombre no válido",
    description:
      "El nombre o la razón social no puede llevar saltos de línea ni caracteres de control.",
  },
  billingTaxIdRequired: {
    title: "Falta el NIF, NIE o CIF",
    description: "La factura completa de una empresa o un profesional lleva su NIF, NIE o CIF.",
  },
  billingTaxIdInvalid: {
    title: "NIF, NIE o CIF no válido",
    description:
      "Su formato o su letra de control no son correctos (por ejemplo, 12345678Z o B12345674).",
  },
  billingAddressRequired: {
    title: "Falta el domicilio fiscal",
    description: "Indica calle y número, código postal y localidad.",
  },
  billingAddressTooLong: {
    title: "Domicilio demasiado largo",
    description: `El domicilio fiscal no puede superar los ${BILLING_LIMITS.address} caracteres.`,
  },
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
