import type { Database } from "~/platform/db/client.server";

/**
 * A signed-in staff member as a feature that knows no accounts, roles or audit log sees them
 * (verifactu: the legal records stay below identity; decision 075). The route's guard builds one
 * (`requireStaffDesk` in accounts/) and hands it to the feature. The type parameters name what
 * the feature asks for, so a capability or action that does not exist fails the typecheck where
 * the route hands the desk over.
 */
export interface StaffDesk<Capability extends string, Action extends string> {
  /** Throws 403 unless the member's role may do `capability`. */
  requireCapability(capability: Capability): void;
  /** Throws the way to /confirmar-identidad when the sign-in is older than the step-up window. */
  requireRecentAuthentication(options: { fallback: string; download?: boolean }): Promise<void>;
  /** Writes the action to the audit log with `db`: the action's transaction where it has one. */
  recordAction(
    db: Pick<Database, "insert">,
    entry: { action: Action; target?: string | number; details?: Record<string, unknown> },
  ): Promise<void>;
}
