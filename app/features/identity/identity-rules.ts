import type { ToastText } from "~/platform/http/toast";

/** Better Auth enforces these; the account forms check them first (account-schemas.ts). */
export const PASSWORD_LIMITS = { min: 8, max: 100 } as const;

/** What the guards and the verification link tell a visitor (spec section 8). */
export const identityMessages = {
  adminSessionRequired: { title: "Debes iniciar sesión" },
  staffSessionEnded: {
    title: "Tu sesión ha caducado",
    description:
      "Las sesiones del personal terminan tras 30 minutos sin actividad o 12 horas después de iniciarlas. Vuelve a iniciar sesión.",
  },
  accessDenied: { title: "Acceso denegado" },
  staffForbidden: {
    title: "Sin permiso",
    description:
      "Tu rol no da acceso a esta sección. Si la necesitas, pídeselo a un administrador.",
  },
  secondFactorRequired: {
    title: "Configura la verificación en dos pasos",
    description:
      "Para entrar en el panel, el personal necesita un segundo factor además de la contraseña.",
  },
  stepUpRequired: {
    title: "Confirma tu identidad",
    description: "Por seguridad, vuelve a confirmar quién eres antes de continuar.",
  },
  emailVerifiedSignIn: {
    title: "Email verificado",
    description: "Tu dirección está confirmada. Inicia sesión para continuar.",
  },
} as const satisfies Record<string, ToastText>;
