import { inArray, lt, sql } from "drizzle-orm";
import type { Database } from "~/platform/db/client.server";
import { staffAuditLog } from "~/platform/db/schema";
import type { AuditAction } from "./audit-actions";

/**
 * Who acted: the account (null when none did, as the operator's bootstrap, or none matched a
 * failed sign-in), its address and staff role at that moment, and where the request came from.
 * A signed-in staff member (`Staff` of identity/session.server.ts) is one as it is.
 */
export type AuditActor = {
  id: string | null;
  email: string | null;
  role?: string | null;
  clientAddress?: string | null;
  userAgent?: string | null;
};

export type StaffActionRecord = {
  actor: AuditActor;
  action: AuditAction;
  /** The id of what the action was on: a ticket, a payment, an account, a record. */
  target?: string | number | null;
  /** What else an auditor needs: the change (`from`, `to`), a reason, an export's filters. */
  details?: Record<string, unknown>;
};

/** The database or the transaction of the action: the row commits, or not, with the action. */
export type AuditWriter = Pick<Database, "insert">;

function clip(value: string | number | null | undefined, max: number): string | null {
  if (value === null || value === undefined) return null;
  return String(value).replaceAll("\u0000", "").slice(0, max);
}

/** Text fields without NUL bytes, which jsonb refuses (a row that fails would fail the action). */
function storable(value: unknown): unknown {
  if (typeof value === "string") return value.replaceAll("\u0000", "");
  if (Array.isArray(value)) return value.map(storable);
  if (value && typeof value === "object")
    return Object.fromEntries(
      Object.entries(value).map(([name, field]) => [
        name.replaceAll("\u0000", ""),
        storable(field),
      ]),
    );
  return value ?? null;
}

/**
 * Writes one row of the staff audit log. Call it with the action's transaction where the action
 * has one, so there is never an action without its row nor a row without its action. The time
 * is the database's (a trigger stamps it).
 */
export async function recordStaffAction(db: AuditWriter, record: StaffActionRecord) {
  const { actor } = record;
  await db.insert(staffAuditLog).values({
    actorId: clip(actor.id, 64),
    actorEmail: clip(actor.email, 320),
    actorRole: clip(actor.role, 20),
    action: record.action,
    targetId: clip(record.target, 200),
    details: storable(record.details ?? {}) as Record<string, unknown>,
    clientAddress: clip(actor.clientAddress, 100),
    userAgent: clip(actor.userAgent, 512),
  });
}

/** How long rows are kept; the trigger of migration 0012 holds the same two years. */
export const AUDIT_RETENTION_YEARS = 2;

const PRUNE_BATCH = 5_000;

/**
 * The retention job: deletes the rows older than two years, a batch at a time, and answers how
 * many. The trigger lets exactly these rows go and refuses any other DELETE, so a mistake here
 * fails instead of erasing history. Run it with the hourly clean-up of old rows.
 */
export async function pruneStaffAuditLog(db: Database): Promise<number> {
  const old = lt(
    staffAuditLog.at,
    sql`now() - make_interval(years => ${sql.raw(String(AUDIT_RETENTION_YEARS))})`,
  );
  let deleted = 0;
  for (;;) {
    const batch = db
      .select({ id: staffAuditLog.id })
      .from(staffAuditLog)
      .where(old)
      .limit(PRUNE_BATCH);
    const rows = await db
      .delete(staffAuditLog)
      .where(inArray(staffAuditLog.id, batch))
      .returning({ id: staffAuditLog.id });
    deleted += rows.length;
    if (rows.length < PRUNE_BATCH) return deleted;
  }
}
