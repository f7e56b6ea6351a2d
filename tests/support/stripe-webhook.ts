import { handleWebhook } from "~/features/payments/webhook.server";
import { getConfig } from "~/platform/config.server";
import type { Database } from "~/platform/db/client.server";
import { signEvent } from "./stripe-events";

/** Signs `event` with the configured webhook secret, as Stripe does, and hands it to the webhook. */
export function deliverStripeEvent(db: Database, event: object) {
  const { payload, header } = signEvent(event, getConfig().stripe.webhookSecret);
  return handleWebhook(db, payload, header);
}
