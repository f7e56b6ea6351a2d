import { useEffect, useRef, useState, type RefObject } from "react";
import { useFetcher } from "react-router";
import { requiresCompleteInvoice } from "~/features/billing/invoice-type";
import { Checkbox, Field } from "~/ui/form";
import { BILLING_FIELDS, BILLING_LIMITS } from "~/features/billing/billing-data";
import type { CheckoutBilling } from "./checkout-form";
import type { CheckoutDefaults } from "./checkout.server";
import { COMPLETE_INVOICE_REQUEST } from "./payment-messages";

/**
 * The billing data of a complete invoice in the purchase dialog: always asked above 400 €, and
 * below it when the buyer ticks that they need one. Only a business must give its NIF (RD
 * 1619/2012 art. 6.1.d); a consumer's complete invoice names them and their address. Pre-filled from the customer's profile: by
 * the dialog once shown, or from `profileBilling` when the page brings it (the purchase page,
 * which shows the fields from the start, so they are there without JavaScript; the checkout
 * ignores them unless the tick or the amount asks for a complete invoice).
 */
export function BillingFields({
  totalCents,
  profileBilling,
}: {
  totalCents: number;
  profileBilling?: CheckoutBilling;
}) {
  const [business, setBusiness] = useState(false);
  const needed = requiresCompleteInvoice(totalCents, business);
  const asked = needed || profileBilling !== undefined;
  const fields = useRef<HTMLFieldSetElement>(null);
  const loading = useProfileBilling(asked && !profileBilling, fields);
  return (
    <>
      {requiresCompleteInvoice(totalCents, false) ? (
        <p className="text-sm text-slate-600">
          Por encima de 400 € la factura es completa: indica los datos que debe llevar.
        </p>
      ) : (
        <Checkbox
          name={BILLING_FIELDS.business}
          value="yes"
          label={COMPLETE_INVOICE_REQUEST}
          checked={business}
          onChange={(event) => setBusiness(event.currentTarget.checked)}
        />
      )}
      {asked ? (
        <fieldset ref={fields} aria-busy={loading} className="grid gap-2">
          <legend className={needed ? "sr-only" : "text-sm text-slate-600"}>
            {needed ? "Datos de facturación" : "Datos de facturación (solo para factura completa)"}
          </legend>
          <Field
            name={BILLING_FIELDS.name}
            label="Nombre o razón social"
            required={needed}
            maxLength={BILLING_LIMITS.name}
            autoComplete="name"
            defaultValue={profileBilling?.name}
          />
          <Field
            name={BILLING_FIELDS.taxId}
            label="NIF, NIE o CIF"
            required={business}
            hint={business ? undefined : "Obligatorio para empresas y profesionales."}
            defaultValue={profileBilling?.taxId}
            maxLength={BILLING_LIMITS.taxId}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
          />
          <Field
            name={BILLING_FIELDS.address}
            label="Domicilio fiscal"
            required={needed}
            defaultValue={profileBilling?.address}
            maxLength={BILLING_LIMITS.address}
            autoComplete="street-address"
            placeholder="Calle y número, código postal, localidad"
          />
        </fieldset>
      ) : null}
    </>
  );
}

/**
 * Loads the profile's billing data once the fields are shown and writes it into the fields still
 * empty (never over what the buyer typed meanwhile). True until it is in.
 */
function useProfileBilling(asked: boolean, fields: RefObject<HTMLFieldSetElement | null>) {
  const { load, data, state } = useFetcher<CheckoutDefaults>();
  const requested = useRef(false);
  useEffect(() => {
    if (!asked || requested.current) return;
    requested.current = true;
    void load("/checkout?datos=facturacion");
  }, [asked, load]);
  const billing = data && "billing" in data ? data.billing : undefined;
  useEffect(() => {
    const form = fields.current;
    if (!billing || !form) return;
    for (const key of ["name", "taxId", "address"] as const) {
      const input = form.elements.namedItem(BILLING_FIELDS[key]);
      if (input instanceof HTMLInputElement && !input.value) input.value = billing[key];
    }
  }, [billing, fields, asked]);
  return asked && (state !== "idle" || data === undefined);
}
