import { Link } from "react-router";
import { formatPrice, type Service } from "~/features/catalogue/services";
import { splitVat, VAT_INCLUDED, VAT_RATE_PERCENT } from "~/features/catalogue/vat";
import { Checkbox } from "~/ui/form";
import { BillingFields } from "./billing-fields";
import type { CheckoutBilling } from "./checkout-form";
import { IMMEDIATE_START_CONSENT } from "./payment-messages";

/** What the buyer pays, split as the invoice will be: base, IVA and total. */
export function PriceBreakdown({ service }: { service: Service }) {
  const { baseCents, vatCents } = splitVat(service.priceCents);
  return (
    <dl className="mt-4 grid grid-cols-[1fr_auto] gap-x-4 gap-y-1 rounded-lg bg-slate-50 p-3 text-sm">
      <dt className="text-slate-600">Base imponible</dt>
      <dd className="text-right">{formatPrice(baseCents, { cents: "always" })}</dd>
      <dt className="text-slate-600">IVA ({VAT_RATE_PERCENT} %)</dt>
      <dd className="text-right">{formatPrice(vatCents, { cents: "always" })}</dd>
      <dt className="font-semibold text-ink">Total a pagar ({VAT_INCLUDED})</dt>
      <dd className="text-right font-semibold text-ink">
        {formatPrice(service.priceCents, { cents: "always" })}
      </dd>
    </dl>
  );
}

/**
 * The fields a checkout posts (checkout-form.ts checks them): the service, the billing data of a
 * complete invoice and the consent to begin at once. The dialog and the purchase page share them;
 * the page passes the profile's billing data, so the fields are there without JavaScript.
 */
export function CheckoutFields({
  service,
  billing,
}: {
  service: Service;
  billing?: CheckoutBilling;
}) {
  return (
    <>
      <input type="hidden" name="serviceId" value={service.id} />
      <BillingFields totalCents={service.priceCents} profileBilling={billing} />
      <Checkbox
        name="immediateStart"
        value="yes"
        required
        className="mb-2"
        label={
          <>
            {IMMEDIATE_START_CONSENT} He leído los{" "}
            <Link to="/terminos#desistimiento" target="_blank" className="font-semibold underline">
              términos y el derecho de desistimiento
            </Link>
            .
          </>
        }
      />
    </>
  );
}
