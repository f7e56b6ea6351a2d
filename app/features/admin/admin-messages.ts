import { staffFormMessages } from "~/ui/signed-in/staff-messages";
import type { ToastText } from "~/platform/http/toast";

/** The admin panel's Spanish messages: toasts of its actions and their refusals. */
export const adminMessages = {
  inquiryHandled: { title: "Consulta marcada como atendida" },
  inquiryPending: { title: "Consulta marcada como pendiente" },
  inquiryNotFound: {
    title: "Consulta no encontrada",
    description: "Puede que se haya eliminado. Actualiza la lista.",
  },
  roleChanged: { title: "Rol actualizado" },
  confirmRoleChange: {
    title: "Confirma el cambio de rol",
    description: "Elige de nuevo el rol y confirma el cambio cuando se te pregunte.",
  },
  userNotFound: {
    title: "Usuario no encontrado",
    description: "Puede que la cuenta se haya eliminado. Actualiza la lista.",
  },
  lastAdmin: {
    title: "No se puede quitar el último administrador",
    description: "Concede antes el rol de administrador a otra persona.",
  },
  ownRole: {
    title: "No puedes quitarte tu propio rol",
    description: "Pide a otro administrador que lo haga.",
  },
  unverifiedStaff: {
    title: "La cuenta no tiene el email verificado",
    description: "Solo una cuenta con el email verificado puede tener un rol del equipo.",
  },
  secondFactorReset: {
    title: "Verificación en dos pasos restablecida",
    description: "La cuenta deberá configurarla de nuevo al iniciar sesión.",
  },
  confirmSecondFactorReset: {
    title: "Confirma el restablecimiento",
    description: "Marca la casilla de confirmación para restablecer la verificación en dos pasos.",
  },
  ownSecondFactor: {
    title: "No puedes restablecer tu propia verificación",
    description: "Pide a otro administrador que lo haga, o usa un código de recuperación.",
  },
  noSecondFactor: {
    title: "La cuenta no tiene verificación en dos pasos",
    description: "No hay nada que restablecer. Actualiza la lista.",
  },
  sessionsEnded: {
    title: "Sesiones cerradas",
    description: "La cuenta tendrá que volver a iniciar sesión en todos sus dispositivos.",
  },
  confirmEndSessions: {
    title: "Confirma el cierre de sesiones",
    description: "Marca la casilla de confirmación para cerrar todas las sesiones de la cuenta.",
  },
  ownSessions: {
    title: "Tus sesiones se gestionan en tu página de seguridad",
    description: "Desde allí puedes cerrar cualquiera de ellas.",
  },
  ...staffFormMessages,
} satisfies Record<string, ToastText>;

export type AdminMessage = keyof typeof adminMessages;
