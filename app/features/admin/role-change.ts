import { staffRoleLabels, type StaffRole } from "~/features/identity/staff-roles";

/**
 * What a role change asks before it is made (issue 28 item 4, decision 054), in the dialog and
 * on the confirmation page alike: who, which role, and in one sentence what that role may do,
 * from the capabilities of `staffCapabilities` (identity/staff-roles.ts). Shared by the server
 * and the browser.
 */

/** What each role may do, in one sentence, from its capabilities. */
export const roleAbilities: Record<StaffRole, string> = {
  support:
    "Podrá atender consultas y tickets y ver los clientes, sin acceso a pagos, facturas ni roles.",
  finance:
    "Podrá ver el resumen, los pagos (con reembolsos y entregas), las facturas, Analítica, Verifactu y los clientes, sin acceso a tickets ni roles.",
  admin:
    "Podrá hacerlo todo en el panel, también cambiar los roles del equipo y leer la auditoría.",
};

/** The person as the question names them: their name and e-mail, or the e-mail alone. */
export type RoleChangePerson = { email: string; fullName: string | null };

export type RoleChangeQuestion = {
  /** The question: '¿Hacer a Ana López (ana@…) Administrador?'. */
  title: string;
  /** What follows from it. */
  description: string;
  /** The confirm button: 'Hacer Administrador', 'Quitar el rol'. */
  confirmLabel: string;
  /** Asking for the role the account already has: nothing to confirm. */
  unchanged: boolean;
};

const personOf = ({ email, fullName }: RoleChangePerson) =>
  fullName?.trim() ? `${fullName.trim()} (${email})` : email;

/** The question for giving `person` (who has `from`) the role `to` (null: none, a customer). */
export function roleChangeQuestion(
  person: RoleChangePerson,
  from: StaffRole | null,
  to: StaffRole | null,
): RoleChangeQuestion {
  const who = personOf(person);
  if (from === to)
    return {
      title: to
        ? `${who} ya tiene el rol ${staffRoleLabels[to]}`
        : `${who} ya es cliente, sin rol del equipo`,
      description: "No hay nada que cambiar.",
      confirmLabel: "",
      unchanged: true,
    };
  if (!to)
    return {
      title: `¿Quitar a ${who} el rol ${staffRoleLabels[from!]}?`,
      description: "Quedará como cliente y dejará de tener acceso al panel de administración.",
      confirmLabel: "Quitar el rol",
      unchanged: false,
    };
  return {
    title: `¿Hacer a ${who} ${staffRoleLabels[to]}?`,
    description: roleAbilities[to],
    confirmLabel: `Hacer ${staffRoleLabels[to]}`,
    unchanged: false,
  };
}

/** The role a form names: a staff role, or 'cliente' (none); undefined for anything else. */
export function requestedRole(value: string | null | undefined): StaffRole | null | undefined {
  if (value === "cliente") return null;
  return value === "support" || value === "finance" || value === "admin" ? value : undefined;
}

/** The Usuarios list to go back to, from its query as the row's form sends it ('?tab=…'). */
export function usersListHref(search: string | null | undefined): string {
  const params = new URLSearchParams(search ?? "");
  // Only the list's own parameters, and always the Usuarios tab.
  const kept = new URLSearchParams({ tab: "usuarios" });
  for (const key of ["q", "pagina", "por"]) {
    const value = params.get(key);
    if (value) kept.set(key, value.slice(0, 100));
  }
  return `/admin?${kept}`;
}

/** The confirmation page's address (without JavaScript, the row's form goes there). */
export const roleChangePath = (userId: string) => `/admin/usuarios/${userId}/rol`;
