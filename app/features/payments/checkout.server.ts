import { BILLING_FIELDS } from "~/features/billing/billing-data";
import { profileBillingOf } from "~/features/billing/profile-billing.server";
import { eq } from "drizzle-orm";
import { data, redirect } from "react-router";
import { serviceById, serviceBySlug, type Service } from "~/features/catalogue/services";
import { getViewer, type Viewer } from "~/features/identity/session.server";
import { getConfig } from "~/platform/config.server";
import { getDb } from "~/platform/db/database.server";
import { purchases } from "~/platform/db/schema";
import { checkForm, type FormRefusal } from "~/platform/forms/form-answer";
import { readForm, refuse, type RefuseInit } from "~/platform/http/form-reply.server";
import { getLogger } from "~/platform/logger.server";
import { hitRateLimit } from "~/platform/security/rate-limit.server";
import { checkoutSchema, type CheckoutBilling } from "./checkout-form";
import type { PaymentMessage } from "./payment-messages";
import { getPaymentProvider } from "./providers.server";

/** The payment page to go to, or a refusal in the words of `paymentMessages`. */
export type CheckoutResult = { url: string } | FormRefusal<PaymentMessage>;

/** What the dialog pre-fills from the profile ('' where it holds nothing). */
export type CheckoutDefaults = { billing: CheckoutBilling };

const fail = (code: PaymentMessage, status: number, init: Omit<RefuseInit, "status"> = {}) =>
  refuse(code, { status, ...init });

/**
 * Each checkout writes a purchase and calls the provider's API: a customer starts at most this
 * many in a window (a few retries and changes of mind are normal, hundreds are not).
 */
const CHECKOUTS_PER_CUSTOMER = { limit: 10, windowMs: 10 * 60_000 };

/** The profile's billing data, '' where it holds nothing. */
async function profileBilling(userId: string): Promise<CheckoutBilling> {
  const { name, taxId, address } = await profileBillingOf(userId);
  return { name, taxId, address };
}

export type PurchasePageData = {
  service: Service;
  /** Null until the customer's e-mail is verified: the page asks for that first. */
  billing: CheckoutBilling | null;
};

/**
 * The purchase page of the service `slug` (/comprar/:servicio): the dialog's checkout as a page
 * of its own, for a browser without JavaScript. 404 for a service the catalogue does not sell.
 */
/** The billing fields as typed, to fill the form again when it is refused. */
function typedBilling(fields: Record<string, string>) {
  return Object.fromEntries(
    Object.values(BILLING_FIELDS).flatMap((name) =>
      typeof fields[name] === "string" ? [[name, fields[name].slice(0, 500)]] : [],
    ),
  );
}

export async function purchasePage(viewer: Viewer, slug: string): Promise<PurchasePageData> {
  const service = serviceBySlug(slug);
  if (!service) throw new Response("Not Found", { status: 404 });
  return { service, billing: viewer.emailVerified ? await profileBilling(viewer.id) : null };
}

/**
 * The purchase page's post: the same checkout as the dialog's, which goes on to the payment page
 * itself instead of answering its address to the dialog's script.
 */
export async function startCheckoutFromPage(request: Request) {
  const answer = await startCheckout(request);
  const result = answer.data;
  return "url" in result ? redirect(result.url) : answer;
}

/**
 * Loads what the purchase dialog pre-fills: the billing data of the signed-in customer's profile
 * (asked with `?datos=facturacion`). Anything else, or anyone else, goes to the prices.
 */
export async function checkoutDefaults(request: Request) {
  const { viewer } = await getViewer(request);
  const asked = new URL(request.url).searchParams.get("datos") === "facturacion";
  if (!viewer?.emailVerified || !asked) return redirect("/precios");
  return data<CheckoutDefaults>({ billing: await profileBilling(viewer.id) });
}

/**
 * Starts a checkout for the service id in the form. Everything else (price, currency, name,
 * customer) comes from the catalogue and the session, never from the request.
 */
export async function startCheckout(request: Request) {
  const { viewer } = await getViewer(request);
  if (!viewer) return fail("signInRequired", 401);
  if (!viewer.emailVerified) return fail("emailNotVerified", 403);

  const form = await readForm(request);
  if (!form) return fail("failed", 400);
  const serviceId = Number(form.fields.serviceId);
  const service = Number.isInteger(serviceId) ? serviceById(serviceId) : undefined;
  if (!service) return fail("unknownService", 400);
  // The consent to begin at once, before paying (TRLGDCU art. 103 a), never assumed; and above
  // 400 € or for a business, the billing data of a complete invoice, before any row is written.
  const checked = checkForm(checkoutSchema(service.priceCents), form.fields);
  // The billing data come back with the refusal: a page answered without JavaScript shows them
  // again instead of empty fields (issue 39, item 13).
  if (!checked.ok) return refuse(checked.errors, { values: typedBilling(form.fields) });
  const { billing } = checked.data;

  const config = getConfig();
  const provider = getPaymentProvider(config);
  const priceId = config.stripe.priceIds[service.stripePriceEnv];
  if (provider.needsPriceId && !priceId) return fail("priceIdMissing", 400);

  const db = getDb();
  const limit = await hitRateLimit(db, `checkout:user:${viewer.id}`, CHECKOUTS_PER_CUSTOMER);
  if (!limit.allowed) return fail("tooManyAttempts", 429, { retryAfter: limit.retryAfterSeconds });
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
      billingName: billing?.name,
      billingTaxId: billing?.taxId || null,
      billingAddress: billing?.address,
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
    return data({ url: session.url });
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
