import { desc, eq, ilike, inArray, sql, type SQL } from "drizzle-orm";
import { accountRoleLabel, staffRoles } from "~/features/identity/staff-roles";
import type { Database } from "~/platform/db/client.server";
import { profiles, userRoles, users } from "~/platform/db/schema";
import type { AdminView } from "../admin-tabs";
import { sqlCsvText, sqlOwnLabel, sqlCsvDateTime, yesNo } from "./csv-cells.server";
import {
  cappedCount,
  containsPattern,
  countRows,
  SEARCH_COUNT_CAP,
  type ListFilterView,
  type ListTab,
  type PageWindow,
  type RowCount,
} from "./list-query.server";
import { selectAccounts } from "../staff-view-of-accounts.server";

// Usuarios: the accounts, newest first, with their name and their staff role.

/**
 * Ids of the accounts whose address or name contains `search`: two indexed searches joined by
 * UNION (an OR across the join could use neither index).
 */
function usersMatching(db: Database, search: string) {
  const pattern = containsPattern(search);
  return db
    .select({ id: users.id })
    .from(users)
    .where(ilike(users.email, pattern))
    .union(
      db
        .select({ id: profiles.id })
        .from(profiles)
        .where(ilike(sql`coalesce(${profiles.fullName}, '')`, pattern)),
    );
}

function userFilter(db: Database, { search }: ListFilterView): SQL | undefined {
  return search ? inArray(users.id, usersMatching(db, search)) : undefined;
}

/** A search counts the matching ids alone: every one is an account (profiles share its id). */
function countUsers(db: Database, view: AdminView): Promise<RowCount> {
  if (!view.search) return countRows(db, users, undefined, false);
  return cappedCount(
    db,
    usersMatching(db, view.search)
      .limit(SEARCH_COUNT_CAP + 1)
      .as("matches"),
  );
}

function userRows(db: Database, filter: SQL | undefined, { limit, offset }: PageWindow) {
  const pageIds = db
    .select({ id: users.id })
    .from(users)
    .where(filter)
    .orderBy(desc(users.createdAt), desc(users.id))
    .limit(limit)
    .offset(offset);
  return selectAccounts(db)
    .where(inArray(users.id, pageIds))
    .orderBy(desc(users.createdAt), desc(users.id));
}

export type UserRow = Awaited<ReturnType<typeof userRows>>[number];

export const usersTab: ListTab<UserRow> = {
  filter: userFilter,
  count: (db, view) => countUsers(db, view),
  rows: userRows,
  csv: {
    columns: [
      ["Alta", sqlCsvDateTime(users.createdAt)],
      ["Email", sqlCsvText(users.email)],
      ["Nombre", sqlCsvText(profiles.fullName)],
      ["Email verificado", yesNo(users.emailVerified)],
      ["Rol", sqlOwnLabel(userRoles.role, staffRoles, accountRoleLabel)],
    ],
    order: [users.createdAt, users.id],
    rows: (db, fields, where) =>
      db
        .select(fields)
        .from(users)
        .leftJoin(profiles, eq(profiles.id, users.id))
        .leftJoin(userRoles, eq(userRoles.userId, users.id))
        .where(where)
        .$dynamic(),
  },
};
