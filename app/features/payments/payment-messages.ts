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
  declined: {
    title: "Pago rechazado",
    description: "Tu banco ha rechazado el pago. Puedes intentarlo de nuevo.",
  },
} as const;

export type PaymentMessage = keyof typeof paymentMessages;
