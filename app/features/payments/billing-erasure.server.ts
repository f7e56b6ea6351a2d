import { randomUUID } from "node:crypto";
import { and, eq, inArray } from "drizzle-orm";
import type { DatabaseTransaction } from "~/platform/db/client.server";
import { customers, invoices, payments, purchases } from "~/platform/db/schema";

type Transaction = DatabaseTransaction;

/**
 * Pseudonyms end in the reserved `.invalid` domain (RFC 2606), so no mail can ever reach one
 * and no real address can ever be one.
 */
const PSEUDONYM_DOMAIN = "cuenta-eliminada.invalid";

export function isBillingPseudonym(email: string): boolean {
  return email.endsWith(`@${PSEUDONYM_DOMAIN}`);
}

/**
 * GDPR erasure of the billing records of an account that is being deleted (decision 012): the
 * payments and customer totals stay for the accounts, but every billing e-mail the account paid
 * with (and its own address) is replaced by a random pseudonym, the same one in `payments` and
 * `customers` so a later refund still finds the totals, and the customer's name is dropped.
 * Simplified invoices lose the customer's name and e-mail (they need no customer identity);
 * complete ones keep them, as the law requires them kept (decision 025). Runs in the deletion's
 * transaction, before the user row goes.
 */
export async function pseudonymiseBilling(
  tx: Transaction,
  account: { userId: string; email: string },
): Promise<void> {
  const paid = await tx
    .select({ email: payments.customerEmail })
    .from(payments)
    .innerJoin(purchases, eq(payments.purchaseId, purchases.id))
    .where(eq(purchases.userId, account.userId));
  await tx
    .update(invoices)
    .set({ customerEmail: null, customerName: null })
    .where(
      and(
        eq(invoices.kind, "simplified"),
        inArray(
          invoices.purchaseId,
          tx
            .select({ id: purchases.id })
            .from(purchases)
            .where(eq(purchases.userId, account.userId)),
        ),
      ),
    );
  const emails = new Set([account.email.toLowerCase(), ...paid.map((row) => row.email)]);
  for (const email of emails) {
    if (isBillingPseudonym(email)) continue;
    const pseudonym = `${randomUUID()}@${PSEUDONYM_DOMAIN}`;
    await tx
      .update(customers)
      .set({ email: pseudonym, name: null, updatedAt: new Date() })
      .where(eq(customers.email, email));
    await tx
      .update(payments)
      .set({ customerEmail: pseudonym })
      .where(eq(payments.customerEmail, email));
  }
}
