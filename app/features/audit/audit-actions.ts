/**
 * What the staff audit log records (decision 043): one code per kind of staff action, with its
 * Spanish label. Shared by the server (rows, CSV) and the page (filter, table). A new staff
 * action gets a code here and a `recordStaffAction` call in the same transaction as the action.
 */
export const auditActionLabels = {
  "staff.sign_in": "Inicio de sesión",
  "staff.sign_in_failed": "Inicio de sesión fallido",
  "role.change": "Cambio de rol",
  "factor.enrolled": "Verificación en dos pasos activada",
  "factor.disabled": "Verificación en dos pasos desactivada",
  "factor.reset": "Verificación en dos pasos restablecida",
  "factor.recovery_codes": "Códigos de recuperación nuevos",
  "factor.recovery_code_used": "Código de recuperación usado",
  "staff.second_factor_failed": "Segundo factor fallido",
  "staff.password_reset": "Contraseña restablecida por correo",
  "staff.reauthenticated": "Identidad confirmada",
  "staff.reauthentication_failed": "Confirmación de identidad fallida",
  "passkey.added": "Llave de acceso añadida",
  "account.deleted": "Cuenta del equipo eliminada",
  "passkey.renamed": "Llave de acceso renombrada",
  "passkey.removed": "Llave de acceso eliminada",
  "session.revoked": "Sesión cerrada en otro dispositivo",
  "session.revoked_all": "Sesión cerrada en todos los dispositivos",
  "session.ended_by_admin": "Sesiones cerradas por un administrador",
  "enquiry.handled": "Consulta atendida",
  "enquiry.pending": "Consulta pendiente",
  "ticket.reply": "Respuesta a un ticket",
  "ticket.status": "Estado de un ticket",
  "ticket.priority": "Prioridad de un ticket",
  "payment.refund": "Reembolso",
  "payment.refund_failed": "Reembolso fallido en el proveedor",
  "payment.delivery": "Estado de la entrega",
  "verifactu.cancel": "Anulación de un registro Verifactu",
  "verifactu.correct": "Subsanación de un registro Verifactu",
  "export.csv": "Exportación CSV",
  "export.invoice_book": "Libro de facturas",
  "export.verifactu": "Exportación Verifactu (XML)",
  "export.audit": "Exportación del registro de auditoría",
} as const;

export type AuditAction = keyof typeof auditActionLabels;

export const auditActions = Object.keys(auditActionLabels) as AuditAction[];

export function isAuditAction(value: unknown): value is AuditAction {
  return typeof value === "string" && Object.hasOwn(auditActionLabels, value);
}

/** An action's label; a code this version does not know (an older row) as itself. */
export function auditActionLabel(action: string): string {
  return isAuditAction(action) ? auditActionLabels[action] : action;
}

/**
 * The staff roles a row records, in words. The roles themselves are identity's
 * (identity/staff-roles.ts, which this tier-0 folder may not import); a test holds the two to
 * the same labels.
 */
export const actorRoleLabels: Record<string, string> = {
  support: "Soporte",
  finance: "Finanzas",
  admin: "Administrador",
};

export function actorRoleLabel(role: string | null): string {
  if (!role) return "";
  return Object.hasOwn(actorRoleLabels, role) ? actorRoleLabels[role]! : role;
}

/** The page of the panel a row's target opens, when it has one. */
export function auditTargetHref(action: string, targetId: string | null): string | null {
  if (!targetId) return null;
  if (action.startsWith("ticket.")) return `/admin/tickets/${encodeURIComponent(targetId)}`;
  if (action.startsWith("payment.")) return `/admin/pagos/${encodeURIComponent(targetId)}`;
  return null;
}

const blank = (value: unknown) => value === null || value === undefined || value === "";

/** The fields of a row's details, as a person reads them (the stored names are short codes). */
const detailLabels: Record<string, string> = {
  email: "Email",
  motivo: "Motivo",
  metodo: "Método",
  puerta: "Acceso",
  sesion: "Sesión",
  sesiones: "Sesiones",
  llave: "Llave",
  via: "Vía",
  por: "Por",
  rol: "Rol",
  factor: "Factor",
  ticket: "Ticket",
  adjuntos: "Adjuntos",
  nota: "Nota",
  compra: "Compra",
  importe: "Importe",
  proveedor: "Proveedor",
  factura: "Factura",
  registroAnulacion: "Registro de anulación",
  registroSubsanacion: "Registro de subsanación",
  descripcion: "Descripción",
  destinatario: "Destinatario",
  nifDestinatario: "NIF del destinatario",
  desde: "Desde",
  hasta: "Hasta",
  formato: "Formato",
  tab: "Pestaña",
  q: "Búsqueda",
  estado: "Estado",
  orden: "Orden",
  accion: "Acción",
  quien: "Quién",
  device: "Dispositivo",
  what: "Qué",
};

/**
 * The codes rows store for what changed, in words: roles, ticket states and priorities, delivery
 * states, providers and factors. The vocabularies are other features' (this tier-0 folder may
 * not import them); `staff-roles.test.ts` holds each to its owner's labels.
 */
export const auditValueLabels: Record<string, Record<string, string>> = {
  role: { ...actorRoleLabels, cliente: "Cliente", customer: "Cliente" },
  ticketStatus: {
    open: "Abierto",
    in_progress: "En curso",
    resolved: "Resuelto",
    closed: "Cerrado",
  },
  ticketPriority: { urgent: "Urgente", high: "Alta", medium: "Media", low: "Baja" },
  delivery: { pending: "Pendiente de inicio", in_progress: "En curso", delivered: "Entregado" },
  provider: { stripe: "Stripe", simulated: "Simulado (local)" },
  factor: { totp: "Aplicación de autenticación", passkey: "Llave de acceso" },
  format: { csv: "CSV", xlsx: "XLSX" },
  /** Why a staff sign-in failed (accounts/staff-sign-ins.server.ts's SignInFailure). */
  signInFailure: {
    wrong_credentials: "Contraseña incorrecta o cuenta desconocida",
    email_not_verified: "Email sin verificar",
    not_staff: "La cuenta no es del equipo",
  },
};

/** Which vocabulary a change `{ from, to }` of an action speaks. */
const changeVocabulary: Record<string, string> = {
  "role.change": "role",
  "ticket.status": "ticketStatus",
  "ticket.priority": "ticketPriority",
  "payment.delivery": "delivery",
};

/** Which vocabulary a field speaks, whatever the action. */
const fieldVocabulary: Record<string, string> = {
  motivo: "signInFailure",
  rol: "role",
  proveedor: "provider",
  factor: "factor",
  formato: "format",
};

function inWords(vocabulary: string | undefined, value: string): string {
  const labels = vocabulary ? auditValueLabels[vocabulary] : undefined;
  return labels && Object.hasOwn(labels, value) ? labels[value]! : value;
}

/**
 * Details as short text, one "Name: value" per field that has one, in words; a change
 * `{ from, to }` as "a → b". `action` names the vocabulary of the change.
 */
export function auditDetailsText(
  details: Record<string, unknown> | null | undefined,
  action = "",
): string {
  if (!details) return "";
  const text = (value: unknown, vocabulary?: string): string =>
    blank(value)
      ? "—"
      : typeof value === "object"
        ? JSON.stringify(value)
        : typeof value === "boolean"
          ? value
            ? "Sí"
            : "No"
          : inWords(vocabulary, String(value));
  const parts: string[] = [];
  const { from, to, ...rest } = details;
  const changes = changeVocabulary[action];
  if ("from" in details || "to" in details)
    parts.push(`${text(from, changes)} → ${text(to, changes)}`);
  for (const [name, value] of Object.entries(rest))
    if (!blank(value))
      parts.push(`${detailLabels[name] ?? name}: ${text(value, fieldVocabulary[name])}`);
  return parts.join(" · ");
}
