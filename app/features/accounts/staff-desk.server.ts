import { recordStaffAction } from "~/features/audit/audit.server";
import type { AuditAction } from "~/features/audit/audit-actions";
import {
  requireCapability,
  requireStaff,
  type Staff,
  type StaffRequest,
} from "~/features/identity/session.server";
import type { StaffCapability } from "~/features/identity/staff-roles";
import { requireRecentAuthentication } from "~/features/identity/step-up.server";
import type { StaffDesk } from "~/platform/security/staff-desk";

/** `staff`'s desk for this request: their role's capabilities, step-up and the audit log. */
export function staffDesk(request: Request, staff: Staff): StaffDesk<StaffCapability, AuditAction> {
  return {
    requireCapability: (capability) => requireCapability(staff, capability),
    requireRecentAuthentication: (options) => requireRecentAuthentication(request, options),
    recordAction: (db, entry) => recordStaffAction(db, { actor: staff, ...entry }),
  };
}

/** The staff guard (`requireStaff`) for a feature that takes a desk instead of an account. */
export async function requireStaffDesk(args: StaffRequest, capability: StaffCapability) {
  return staffDesk(args.request, await requireStaff(args, capability));
}
