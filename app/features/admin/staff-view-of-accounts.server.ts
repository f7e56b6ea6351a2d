import { eq } from "drizzle-orm";
import type { Database } from "~/platform/db/client.server";
import { getDb } from "~/platform/db/database.server";
import { profiles, userRoles, users } from "~/platform/db/schema";

/**
 * An account as the staff pages read it: the user, their profile and their staff role (null for
 * a customer), one row each. Usuarios, a customer's page and the role change all select it here;
 * the caller adds its `where` and order.
 */
export function selectAccounts(db: Pick<Database, "select"> = getDb()) {
  return db
    .select({
      id: users.id,
      email: users.email,
      emailVerified: users.emailVerified,
      createdAt: users.createdAt,
      /** A confirmed second factor (decision 044): an administrator may reset it. */
      twoFactorEnabled: users.twoFactorEnabled,
      fullName: profiles.fullName,
      phone: profiles.phone,
      company: profiles.company,
      taxId: profiles.taxId,
      billingName: profiles.billingName,
      billingAddress: profiles.billingAddress,
      role: userRoles.role,
    })
    .from(users)
    .leftJoin(profiles, eq(profiles.id, users.id))
    .leftJoin(userRoles, eq(userRoles.userId, users.id));
}
