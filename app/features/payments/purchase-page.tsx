import { ArrowLeft, CreditCard } from "lucide-react";
import { Link, useNavigation } from "react-router";
import { formatPrice, serviceHref } from "~/features/catalogue/services";
import { Button, ButtonLink } from "~/ui/button";
import { cardClasses, ValidatedForm } from "~/ui/form";
import { CheckoutFields, PriceBreakdown } from "./checkout-fields";
import { checkoutSchema } from "./checkout-form";
import type { FormRefusal } from "~/platform/forms/form-answer";
import type { CheckoutResult, PurchasePageData } from "./checkout.server";
import { BILLING_FIELDS } from "~/features/billing/billing-data";
import { paymentMessages } from "./payment-messages";

/**
 * The purchase dialog's checkout as a page (/comprar/:servicio): what a buy button leads a
 * signed-in customer to without JavaScript. Same price breakdown, billing data and consent; its
 * post goes on to the payment page.
 */
export function PurchasePage({
  page: { service, billing },
  answer,
}: {
  page: PurchasePageData;
  /** The checkout's refusal (its success is a redirect to the payment page). */
  answer: CheckoutResult | FormRefusal | undefined;
}) {
  const paying = useNavigation().state === "submitting";
  // Refused without JavaScript: the page comes back with what was typed, not the profile's.
  const typed = answer && "values" in answer ? answer.values : undefined;
  const shownBilling =
    billing && typed
      ? {
          name: typed[BILLING_FIELDS.name] ?? billing.name,
          taxId: typed[BILLING_FIELDS.taxId] ?? billing.taxId,
          address: typed[BILLING_FIELDS.address] ?? billing.address,
        }
      : billing;
  return (
    <section className="mx-auto max-w-xl px-4 py-12 sm:px-6">
      <Link
        to={serviceHref(service)}
        className="inline-flex items-center gap-1 text-sm font-semibold text-brand-700 underline"
      >
        <ArrowLeft className="size-4" aria-hidden />
        Volver a {service.name}
      </Link>
      <h1 className="mt-4 text-3xl font-bold tracking-tight">{service.name}</h1>
      <p className="mt-1 text-3xl font-bold text-ink">{formatPrice(service.priceCents)}</p>
      <p className="text-sm text-slate-500">Pago único • Sin cuotas</p>
      <div className={`${cardClasses} mt-6`}>
        <PriceBreakdown service={service} />
        {billing ? (
          <ValidatedForm
            schema={checkoutSchema(service.priceCents)}
            messages={paymentMessages}
            answer={answer}
            className="mt-4 grid gap-2"
            aria-label={`Comprar ${service.name}`}
          >
            <CheckoutFields service={service} billing={shownBilling ?? undefined} />
            <Button type="submit" size="lg" disabled={paying}>
              <CreditCard className="size-5" aria-hidden />
              {paying ? "Procesando..." : "Pagar ahora"}
            </Button>
            <ButtonLink to="/contacto" variant="secondary">
              Consultar primero
            </ButtonLink>
          </ValidatedForm>
        ) : (
          <div role="status" className="mt-4">
            <p className="font-semibold text-ink">{paymentMessages.emailNotVerified.title}</p>
            <p className="mt-1 text-sm text-slate-600">
              {paymentMessages.emailNotVerified.description}
            </p>
            <ButtonLink to="/verificar-email" className="mt-4 w-full">
              Verificar email
            </ButtonLink>
          </div>
        )}
      </div>
      <p className="mt-4 text-center text-xs text-slate-500">100% seguro • Reembolso garantizado</p>
    </section>
  );
}
