import { randomUUID } from "node:crypto";
import type { Database } from "~/platform/db/client.server";
import type { purchases } from "~/platform/db/schema";
import { insertPurchase, type Purchase } from "./purchases";
import { checkoutSessionEvent } from "./stripe-events";
import { deliverStripeEvent } from "./stripe-webhook";

type Payer = { email?: string; name?: string; paymentIntent?: string };

/**
 * A guest's purchase of Asistencia Informática (149 €) paid as Stripe completes it, through the
 * signed webhook: the payment issues its invoice and the invoice its billing record. `values`
 * change the purchase (price, billing data), `payer` the checkout's customer.
 */
export async function paidPurchase(
  db: Database,
  values: Partial<typeof purchases.$inferInsert> = {},
  { email = "facturas@example.com", name = "Cliente de Facturas", paymentIntent }: Payer = {},
): Promise<{ purchase: Purchase; status: number }> {
  const purchase = await insertPurchase(db, {
    userId: null,
    serviceId: 2,
    serviceName: "Asistencia Informática",
    price: 14_900,
    checkoutSessionId: `cs_test_${randomUUID()}`,
    ...values,
  });
  const answer = await deliverStripeEvent(
    db,
    checkoutSessionEvent("checkout.session.completed", purchase, { email, name, paymentIntent }),
  );
  return { purchase, status: answer.status };
}
