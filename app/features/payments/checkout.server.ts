import { eq } from "drizzle-orm";
import { data } from "react-router";
import { serviceById } from "~/features/catalogue/services";
import { getViewer } from "~/features/accounts/session.server";
import { getConfig } from "~/platform/config.server";
import { getDb } from "~/platform/db/database.server";
import { purchases } from "~/platform/db/schema";
import { getLogger } from "~/platform/logger.server";
import { hitRateLimit } from "~/platform/security/rate-limit.server";
import type { PaymentMessage } from "./payment-messages";
import { getPaymentProvider } from "./providers.server";

export type CheckoutResult = { url: string } | { error: PaymentMessage };

const fail = (error: PaymentMessage, status: number, headers?: HeadersInit) =>
  data<CheckoutResult>({ error }, { status, headers });

/**
 * Each checkout writes a purchase and calls the provider's API: a customer starts at most this
 * many in a window (a few retries and changes of mind are normal, hundreds are not).
 */
const CHECKOUTS_PER_CUSTOMER = { limit: 10, windowMs: 10 * 60_000 };

/**
 * Starts a checkout for the service id in the form. Everything else (price, currency, name,
 * customer) comes from the catalogue and the session, never from the request.
 */
export async function startCheckout(request: Request) {
  const { viewer } = await getViewer(request);
  if (!viewer) return fail("signInRequired", 401);
  if (!viewer.emailVerified) return fail("emailNotVerified", 403);

  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return fail("failed", 400);
  }
  const serviceId = Number(form.get("serviceId"));
  const service = Number.isInteger(serviceId) ? serviceById(serviceId) : undefined;
  if (!service) return fail("unknownService", 400);
  // The consent to begin at once, before paying (TRLGDCU art. 103 a): never assumed.
  if (form.get("immediateStart") !== "yes") return fail("immediateStartConsentRequired", 400);

  const config = getConfig();
  const provider = getPaymentProvider(config);
  const priceId = config.stripe.priceIds[service.stripePriceEnv];
  if (provider.needsPriceId && !priceId) return fail("priceIdMissing", 400);

  const db = getDb();
  const limit = await hitRateLimit(db, `checkout:user:${viewer.id}`, CHECKOUTS_PER_CUSTOMER);
  if (!limit.allowed)
    return fail("tooManyAttempts", 429, { "Retry-After": String(limit.retryAfterSeconds) });
  const [purchase] = await db
    .insert(purchases)
    .values({
      userId: viewer.id,
      serviceId: service.id,
      serviceName: service.name,
      price: service.priceCents,
      currency: "EUR",
      provider: provider.name,
      immediateStartConsentAt: new Date(),
    })
    .returning({ id: purchases.id });
  try {
    const session = await provider.createCheckout({
      purchaseId: purchase!.id,
      userId: viewer.id,
      customerEmail: viewer.email,
      service,
      priceId,
      successUrl: `${config.siteUrl}/pago-exitoso?service=${encodeURIComponent(service.name)}`,
      cancelUrl: `${config.siteUrl}/precios`,
    });
    await db
      .update(purchases)
      .set({ checkoutSessionId: session.sessionId, updatedAt: new Date() })
      .where(eq(purchases.id, purchase!.id));
    if (!session.url) return fail("noSession", 502);
    return data<CheckoutResult>({ url: session.url });
  } catch (error) {
    getLogger().error({ err: error, purchaseId: purchase!.id }, "checkout could not be created");
    await db
      .update(purchases)
      .set({ status: "failed", updatedAt: new Date() })
      .where(eq(purchases.id, purchase!.id));
    // The provider's own message names configuration (price ids, modes): it stays in the log.
    return fail("failed", 502);
  }
}
