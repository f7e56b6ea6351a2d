import { randomBytes } from "node:crypto";
import type Stripe from "stripe";
import type { Service } from "~/features/catalogue/services";
import { getConfig, type AppConfig } from "~/platform/config.server";

export type CheckoutRequest = {
  purchaseId: string;
  userId: string;
  customerEmail: string;
  service: Service;
  /** The Stripe price of the service (stripe provider only). */
  priceId?: string;
  successUrl: string;
  cancelUrl: string;
};

export type CheckoutSession = { sessionId: string; url: string | null };

/** Where the customer pays: Stripe's hosted Checkout, or our local simulation of it. */
export type PaymentProvider = {
  name: "stripe" | "simulated";
  needsPriceId: boolean;
  createCheckout(request: CheckoutRequest): Promise<CheckoutSession>;
};

/**
 * The Stripe SDK, pointed at STRIPE_API_BASE when set (tests use a local stand-in). Loaded on
 * the first payment or webhook, not at start: it is a fifth of the server's start-up time.
 */
export async function stripeClient(config: AppConfig): Promise<Stripe> {
  const { default: StripeSdk } = await import("stripe");
  const base = config.stripe.apiBase ? new URL(config.stripe.apiBase) : undefined;
  return new StripeSdk(config.stripe.secretKey ?? "sk_test_simulated", {
    maxNetworkRetries: 2,
    telemetry: false,
    timeout: 20_000,
    ...(base && {
      host: base.hostname,
      port: base.port || (base.protocol === "https:" ? 443 : 80),
      protocol: base.protocol.replace(":", "") as "http" | "https",
    }),
  });
}

function stripeProvider(config: AppConfig): PaymentProvider {
  return {
    name: "stripe",
    needsPriceId: true,
    async createCheckout(request) {
      const stripe = await stripeClient(config);
      const metadata = { purchase_id: request.purchaseId, user_id: request.userId };
      const session = await stripe.checkout.sessions.create(
        {
          mode: "payment",
          currency: "eur",
          line_items: [{ price: request.priceId!, quantity: 1 }],
          customer_email: request.customerEmail,
          client_reference_id: request.purchaseId,
          metadata,
          // The payment intent carries the purchase too, for payment_intent.* events.
          payment_intent_data: { metadata },
          success_url: request.successUrl,
          cancel_url: request.cancelUrl,
        },
        // Retrying the same purchase can never open a second session.
        { idempotencyKey: `checkout-${request.purchaseId}` },
      );
      return { sessionId: session.id, url: session.url };
    },
  };
}

export const SIMULATED_CHECKOUT_PATH = "/pago-simulado";

function simulatedProvider(config: AppConfig): PaymentProvider {
  return {
    name: "simulated",
    needsPriceId: false,
    async createCheckout() {
      const sessionId = `cs_sim_${randomBytes(12).toString("hex")}`;
      return { sessionId, url: `${config.siteUrl}${SIMULATED_CHECKOUT_PATH}/${sessionId}` };
    },
  };
}

/**
 * The simulated checkout (and /test-pagos's refund button) exists only in local mode without a
 * Stripe key: never in production, whose configuration requires the key anyway.
 */
export function simulatedPaymentsAvailable(config = getConfig()): boolean {
  return !config.isProduction && !config.stripe.secretKey;
}

/** Stripe when STRIPE_SECRET_KEY is set, otherwise the simulation (the local default). */
export function getPaymentProvider(config = getConfig()): PaymentProvider {
  if (config.stripe.secretKey) return stripeProvider(config);
  if (simulatedPaymentsAvailable(config)) return simulatedProvider(config);
  throw new Error("STRIPE_SECRET_KEY is missing in production: payments are never simulated there");
}
