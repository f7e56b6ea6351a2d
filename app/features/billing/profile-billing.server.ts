import { eq } from "drizzle-orm";
import type { Database } from "~/platform/db/client.server";
import { getDb } from "~/platform/db/database.server";
import { profiles } from "~/platform/db/schema";
import type { BillingData } from "./billing-data";

/**
 * The billing data a customer's profile holds, '' where it holds nothing, and their full name:
 * what a form that asks for billing data starts from (the checkout, the complete invoice).
 */
export async function profileBillingOf(
  userId: string,
  reader: Pick<Database, "select"> = getDb(),
): Promise<BillingData & { fullName: string }> {
  const [profile] = await reader
    .select({
      fullName: profiles.fullName,
      name: profiles.billingName,
      taxId: profiles.taxId,
      address: profiles.billingAddress,
    })
    .from(profiles)
    .where(eq(profiles.id, userId));
  return {
    fullName: profile?.fullName ?? "",
    name: profile?.name ?? "",
    taxId: profile?.taxId ?? "",
    address: profile?.address ?? "",
  };
}
