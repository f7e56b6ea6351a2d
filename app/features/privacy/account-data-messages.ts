/** The Spanish texts of the data export and account deletion (spec sections 4, 5 and 8). */
export const DELETE_CONFIRMATION = "ELIMINAR";

export const accountDataMessages = {
  exported: { title: "Datos exportados correctamente" },
  exportFailed: { title: "Error al exportar datos", description: "Por favor, inténtalo de nuevo." },
  confirmationMismatch: { title: `Debes escribir "${DELETE_CONFIRMATION}" para confirmar` },
  passwordRequired: { title: "Escribe tu contraseña actual para eliminar la cuenta." },
  wrongPassword: { title: "Contraseña incorrecta", description: "Tu cuenta no se ha eliminado." },
  tooManyAttempts: {
    title: "Demasiados intentos",
    description: "Espera unos minutos antes de volver a intentarlo. Tu cuenta no se ha eliminado.",
  },
  lastAdministrator: {
    title: "No puedes eliminar tu cuenta",
    description:
      "Eres la única persona con el rol Administrador. Da ese rol a otra persona antes de eliminar tu cuenta.",
  },
  deleteFailed: { title: "Error al eliminar la cuenta. Contacta con soporte." },
  deleted: { title: "Cuenta eliminada correctamente" },
} as const;

/** The rights the customer area lists, with what the site does for each. */
export const dataRights = [
  { name: "Acceso y portabilidad", how: "Descarga todos tus datos en un archivo JSON." },
  { name: "Rectificación", how: "Corrige tu nombre, teléfono, empresa y biografía en tu perfil." },
  {
    name: "Supresión",
    how: "Elimina tu cuenta y tus datos personales. Las facturas se conservan el tiempo que exige la ley, sin tu nombre de usuario.",
  },
  {
    name: "Oposición y limitación",
    how: "Escríbenos al email de contacto y atenderemos tu solicitud en un mes como máximo.",
  },
] as const;
