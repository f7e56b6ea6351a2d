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

/**
 * Details as short text, one "name: value" per field that has one; a change `{ from, to }` as
 * "a → b".
 */
export function auditDetailsText(details: Record<string, unknown> | null | undefined): string {
  if (!details) return "";
  const text = (value: unknown): string =>
    blank(value) ? "—" : typeof value === "object" ? JSON.stringify(value) : String(value);
  const parts: string[] = [];
  const { from, to, ...rest } = details;
  if ("from" in details || "to" in details) parts.push(`${text(from)} → ${text(to)}`);
  for (const [name, value] of Object.entries(rest))
    if (!blank(value)) parts.push(`${name}: ${text(value)}`);
  return parts.join(" · ");
}
