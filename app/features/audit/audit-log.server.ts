import { startOfNextSiteDay, startOfSiteDay } from "~/platform/db/site-days.server";
import { and, count, desc, eq, gte, ilike, lt, or, sql, type SQL } from "drizzle-orm";
import type { Database } from "~/platform/db/client.server";
import { getDb } from "~/platform/db/database.server";
import { staffAuditLog, users } from "~/platform/db/schema";
import { downloadResponse, snapshotPages, textStream } from "~/platform/http/downloads.server";
import { formatDate, siteDay } from "~/platform/dates";
import { actorRoleLabel, auditActionLabel, auditDetailsText } from "./audit-actions";
import { recordStaffAction, type AuditActor } from "./audit.server";
import { auditFilterDetails, auditViewFrom, type AuditFilters } from "./audit-view";

/**
 * The audit page counts matching rows up to this many and then says "more than": the log of
 * two years can hold millions of rows, and the filters are how to find one.
 */
export const AUDIT_COUNT_CAP = 10_000;

/** Rows per page of the CSV: one query each, streamed as the client reads. */
export const AUDIT_EXPORT_PAGE_ROWS = 1_000;

/** `ILIKE '%text%'` with the text's own `%`, `_` and `\` taken literally. */
const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function filterOf(filters: AuditFilters): SQL | undefined {
  return and(
    filters.who
      ? ilike(sql`coalesce(${staffAuditLog.actorEmail}, '')`, containsPattern(filters.who))
      : undefined,
    filters.action ? eq(staffAuditLog.action, filters.action) : undefined,
    filters.from ? gte(staffAuditLog.at, startOfSiteDay(filters.from)) : undefined,
    filters.to ? lt(staffAuditLog.at, startOfNextSiteDay(filters.to)) : undefined,
  );
}

const rowFields = {
  id: staffAuditLog.id,
  at: staffAuditLog.at,
  actorId: staffAuditLog.actorId,
  actorEmail: staffAuditLog.actorEmail,
  actorRole: staffAuditLog.actorRole,
  action: staffAuditLog.action,
  targetId: staffAuditLog.targetId,
  details: staffAuditLog.details,
  clientAddress: staffAuditLog.clientAddress,
  userAgent: staffAuditLog.userAgent,
};

export type AuditRow = {
  id: number;
  at: Date;
  actorId: string | null;
  actorEmail: string | null;
  actorRole: string | null;
  action: string;
  targetId: string | null;
  /** The address of the account the row acted on, when its target is one that still exists. */
  targetEmail?: string | null;
  details: Record<string, unknown>;
  clientAddress: string | null;
  userAgent: string | null;
};

const newestFirst = [desc(staffAuditLog.at), desc(staffAuditLog.id)];

/** The audit page at `url`: a page of the rows its filters match, newest first. */
export async function auditLogPage(url: URL) {
  const view = auditViewFrom(url);
  const db = getDb();
  const filter = filterOf(view);
  const [counted] = await db.select({ total: count() }).from(
    db
      .select({ one: sql`1`.as("one") })
      .from(staffAuditLog)
      .where(filter)
      .limit(AUDIT_COUNT_CAP + 1)
      .as("matches"),
  );
  const capped = (counted?.total ?? 0) > AUDIT_COUNT_CAP;
  const total = capped ? AUDIT_COUNT_CAP : (counted?.total ?? 0);
  const pages = Math.max(1, Math.ceil(total / view.pageSize));
  // An address past the last page (a hand-made link, a narrower filter) shows the last one.
  const number = Math.min(view.page, pages);
  const rows: AuditRow[] = await db
    .select({ ...rowFields, targetEmail: users.email })
    .from(staffAuditLog)
    // An account acted on is named by its address while it exists (the row keeps only its id).
    .leftJoin(users, eq(users.id, staffAuditLog.targetId))
    .where(filter)
    .orderBy(...newestFirst)
    .limit(view.pageSize)
    .offset((number - 1) * view.pageSize);
  return {
    view: { ...view, page: number },
    rows,
    page: { number, size: view.pageSize, total, capped, pages },
  };
}

export type AuditLogPage = Awaited<ReturnType<typeof auditLogPage>>;

export const AUDIT_CSV_COLUMNS = [
  "Fecha",
  "Quién",
  "Rol",
  "Acción",
  "Código",
  "Objeto",
  "Detalles",
  "Dirección IP",
  "Navegador",
] as const;

/**
 * A cell of the CSV: quoted when it holds a semicolon, quote or line break, and never read as a
 * formula by a spreadsheet (a leading apostrophe), as the panel's other CSVs write text.
 */
export function csvCell(value: string | null | undefined): string {
  const text = value ?? "";
  const neutral = /^[-=+@\t\r]/.test(text) ? `'${text}` : text;
  return /[";\r\n]/.test(text) ? `"${neutral.replaceAll('"', '""')}"` : neutral;
}

export function auditCsvLine(row: AuditRow): string {
  return `${[
    formatDate(row.at, "shortDateTimeSeconds"),
    row.actorEmail ?? "",
    actorRoleLabel(row.actorRole),
    auditActionLabel(row.action),
    row.action,
    row.targetId ?? "",
    auditDetailsText(row.details, row.action),
    row.clientAddress ?? "",
    row.userAgent ?? "",
  ]
    .map(csvCell)
    .join(";")}\r\n`;
}

/** "auditoria-2026-11-26.csv": the Madrid day of the export. */
export function auditCsvFileName(now: Date): string {
  const day = siteDay(now);
  return `auditoria-${day}.csv`;
}

/** Where the previous page ended: its last row's time as the database wrote it (microseconds). */
type PageEnd = { atKey: string; id: number };

/** One page of rows after `after`, newest first. */
async function csvPage(db: Database, filters: AuditFilters, after?: PageEnd) {
  const end = after ? sql`cast(${after.atKey} as timestamptz)` : undefined;
  const beyond = end
    ? or(lt(staffAuditLog.at, end), and(eq(staffAuditLog.at, end), lt(staffAuditLog.id, after!.id)))
    : undefined;
  return db
    .select({ ...rowFields, atKey: sql<string>`${staffAuditLog.at}::text` })
    .from(staffAuditLog)
    .where(and(filterOf(filters), beyond))
    .orderBy(...newestFirst)
    .limit(AUDIT_EXPORT_PAGE_ROWS) as Promise<(AuditRow & { atKey: string })[]>;
}

/**
 * The CSV of the rows the filters in `url` match (every page), semicolon-separated with the
 * UTF-8 byte order mark a Spanish Excel needs, streamed a page at a time as the client reads,
 * all from one snapshot of the log.
 * The export itself is an audited action: its row, with the filters, is written first.
 */
export async function auditLogExport(url: URL, actor: AuditActor): Promise<Response> {
  const view = auditViewFrom(url);
  const db = getDb();
  await recordStaffAction(db, {
    actor,
    action: "export.audit",
    details: auditFilterDetails(view),
  });
  const pages = snapshotPages<string, PageEnd>(
    db,
    async (tx, after) => {
      const rows = await csvPage(tx, view, after);
      const end = rows.at(-1);
      return {
        page: rows.map(auditCsvLine).join(""),
        next:
          end && rows.length === AUDIT_EXPORT_PAGE_ROWS
            ? { atKey: end.atKey, id: end.id }
            : undefined,
      };
    },
    "the audit log export",
  );
  return downloadResponse(textStream(`\uFEFF${AUDIT_CSV_COLUMNS.join(";")}\r\n`, pages), {
    fileName: auditCsvFileName(new Date()),
    contentType: "text/csv; charset=utf-8",
  });
}
