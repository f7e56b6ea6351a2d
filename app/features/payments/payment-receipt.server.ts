import { and, desc, eq, gt, sql } from "drizzle-orm";
import { invoicesOfPurchases } from "~/features/billing/invoices.server";
import { services } from "~/features/catalogue/services";
import type { Viewer } from "~/features/identity/session.server";
import { getDb } from "~/platform/db/database.server";
import { payments, purchases } from "~/platform/db/schema";

/** A checkout lands on /pago-exitoso within minutes; an older purchase is not this visit's. */
const RECEIPT_WINDOW = sql`now() - interval '1 day'`;

export type PaymentReceipt =
  | { state: "confirming"; serviceName: string }
  | {
      state: "paid";
      serviceName: string;
      amountCents: number;
      reference: string;
      paidAt: Date;
      invoice: { id: string; number: string } | null;
    };

/**
 * /pago-exitoso?service={name} (the spec's address, unchanged): for a signed-in customer, the
 * receipt of their newest purchase of that service from the last day, once the webhook confirmed
 * it, or word that the confirmation is on its way. Nobody else's order is ever read: the purchase
 * is looked for among the viewer's own. An anonymous visitor, or a name matching none of the
 * viewer's recent purchases, gets null: the spec's generic page.
 */
export async function paymentReceipt(
  viewer: Viewer | null,
  url: URL,
): Promise<PaymentReceipt | null> {
  const serviceName = url.searchParams.get("service")?.trim().slice(0, 120);
  if (!viewer || !serviceName) return null;
  const [newest] = await getDb()
    .select({
      id: purchases.id,
      status: purchases.status,
      serviceName: purchases.serviceName,
      completedAt: purchases.completedAt,
      amount: payments.amount,
    })
    .from(purchases)
    .leftJoin(payments, eq(payments.purchaseId, purchases.id))
    .where(
      and(
        eq(purchases.userId, viewer.id),
        eq(purchases.serviceName, serviceName),
        gt(purchases.createdAt, RECEIPT_WINDOW),
      ),
    )
    .orderBy(desc(purchases.createdAt))
    .limit(1);
  if (!newest) return null;
  if (newest.status === "pending") return { state: "confirming", serviceName: newest.serviceName };
  // Failed, cancelled, withdrawn or refunded: this page is not where those are told (Compras is).
  if (newest.status !== "completed" || !newest.completedAt || newest.amount === null) return null;
  const invoices = await invoicesOfPurchases([newest.id]);
  return {
    state: "paid",
    serviceName: newest.serviceName,
    amountCents: newest.amount,
    reference: newest.id,
    paidAt: newest.completedAt,
    invoice: invoices.get(newest.id)?.sale ?? null,
  };
}

/**
 * The service /pago-exitoso names ('Has contratado: …'): the purchase's when there is a receipt,
 * else the query's only when it is a service of the catalogue, else null (the spec's 'servicio').
 * Never the query's text as such: the page would say whatever a link told it to (issue 36).
 */
function purchasedServiceName(receipt: PaymentReceipt | null, url: URL): string | null {
  if (receipt) return receipt.serviceName;
  const asked = url.searchParams.get("service")?.trim();
  return services.find((service) => service.name === asked)?.name ?? null;
}

/** /pago-exitoso's loader: the receipt (signed in) and the service the page names. */
export async function paymentSuccess(viewer: Viewer | null, url: URL) {
  const receipt = await paymentReceipt(viewer, url);
  return { receipt, serviceName: purchasedServiceName(receipt, url) };
}
