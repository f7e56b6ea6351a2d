/**
 * Staff roles and the one table of what each may do (issue 26, decision 043). Every staff loader
 * and action asks `staffCan` (through `requireStaff` or `requireCapability` in
 * session.server.ts), and the admin shell shows only the sections a role may open. Shared by the
 * server and the browser: no server code here.
 *
 * - `support` answers tickets and enquiries and reads customers: no payments, refunds, invoices,
 *   Verifactu, analytics, exports of payments, roles or audit log.
 * - `finance` handles payments, invoices, refunds, delivery, Verifactu and their exports.
 * - `admin` may do everything, and is the only one who changes roles and reads the audit log.
 */
export const staffRoles = ["support", "finance", "admin"] as const;
export type StaffRole = (typeof staffRoles)[number];

export const staffRoleLabels: Record<StaffRole, string> = {
  support: "Soporte",
  finance: "Finanzas",
  admin: "Administrador",
};

export function isStaffRole(value: unknown): value is StaffRole {
  return staffRoles.includes(value as StaffRole);
}

/** An account's role in words: its staff role, or 'Cliente' without one. */
export function accountRoleLabel(role: string | null | undefined): string {
  return isStaffRole(role) ? staffRoleLabels[role] : "Cliente";
}

const everyone = ["support", "finance", "admin"] as const;
const supportDesk = ["support", "admin"] as const;
const money = ["finance", "admin"] as const;
const adminOnly = ["admin"] as const;

/** Each capability and the roles that have it: the whole authorisation policy of the staff. */
export const staffCapabilities = {
  /** The dashboard: revenue, orders and the latest payments. */
  "dashboard.view": money,
  /** Consultas: the list, an enquiry's dialog. */
  "enquiries.view": supportDesk,
  /** Mark an enquiry handled or pending. */
  "enquiries.handle": supportDesk,
  /** The CSV of Consultas. */
  "enquiries.export": supportDesk,
  /** Tickets: the list, a ticket with its conversation and files. */
  "tickets.view": supportDesk,
  /** Reply to a ticket, change its status or priority. */
  "tickets.answer": supportDesk,
  /** The CSV of Tickets. */
  "tickets.export": supportDesk,
  /** Clientes: the list of customers. */
  "customers.view": everyone,
  /** The CSV of Clientes (every customer with what they spent). */
  "customers.export": money,
  /** Pagos: the list, a payment's page and its invoices (PDF). */
  "payments.view": money,
  /** A full refund from a payment's page. */
  "payments.refund": money,
  /** A change of a purchase's delivery status. */
  "payments.delivery": money,
  /** The CSV of Pagos and the libro registro de facturas expedidas. */
  "payments.export": money,
  /** Analítica: visits and revenue. */
  "analytics.view": money,
  /** Verifactu: the records, the queue, 'Comprobar cadena', the declaración responsable. */
  "verifactu.view": money,
  /** 'Anular registro' and 'Subsanar y reenviar'. */
  "verifactu.manage": money,
  /** The records of a period as AEAT's XML. */
  "verifactu.export": money,
  /** Usuarios: every account with its role. */
  "users.view": adminOnly,
  /** The CSV of Usuarios. */
  "users.export": adminOnly,
  /** Give or take a staff role. */
  "roles.manage": adminOnly,
  /** Reset another account's second factor, when its owner lost it (decision 044). */
  "factors.reset": adminOnly,
  /** End every session of another account (ASVS 5.0 7.4.5; decision 063). */
  "sessions.end": adminOnly,
  /** Auditoría: the staff audit log and its CSV. */
  "audit.view": adminOnly,
} as const satisfies Record<string, readonly StaffRole[]>;

export type StaffCapability = keyof typeof staffCapabilities;

/** Whether `role` (null: no staff role) may do `capability`. */
export function staffCan(role: StaffRole | null | undefined, capability: StaffCapability): boolean {
  // Own keys only: "constructor" or "__proto__" (from a crafted form) are no capability.
  if (!role || !Object.hasOwn(staffCapabilities, capability)) return false;
  return (staffCapabilities[capability] as readonly StaffRole[]).includes(role);
}
