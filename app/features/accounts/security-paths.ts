import type { Viewer } from "~/features/identity/session.server";
import type { StaffRole } from "~/features/identity/staff-roles";

/** A signed-in account managing its own passkeys and sessions, with its staff role if any. */
export type SecurityActor = Viewer & { role: StaffRole | null };

/** The page where the account sees its factors, passkeys and sessions (decisions 044, 045). */
export function securityPagePath(actor: { role: StaffRole | null }): string {
  return actor.role ? "/admin/seguridad" : "/mi-cuenta/seguridad";
}
