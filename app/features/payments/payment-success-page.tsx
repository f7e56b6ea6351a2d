import { CheckCircle2, FileText, Loader2, Mail, MessageCircle, PhoneCall } from "lucide-react";
import { Link } from "react-router";
import { formatPrice } from "~/features/catalogue/services";
import { VAT_INCLUDED } from "~/features/catalogue/vat";
import { ButtonLink } from "~/ui/button";
import { formatDate } from "~/platform/dates";
import type { PaymentReceipt } from "./payment-receipt.server";

type AccountLinks = { purchases: string; support: string };

/** Seconds between reloads while the provider's confirmation is on its way (the route's meta). */
export const RECEIPT_REFRESH_SECONDS = 4;

/**
 * /pago-exitoso, where a paid checkout lands: what was bought and what happens next, with the
 * spec's texts. A signed-in customer also gets the receipt of the purchase (amount, order,
 * invoice, where to ask) once the webhook confirmed it, and word that it is on its way until then.
 */
export function PaymentSuccessPage({
  receipt = null,
  serviceName = null,
  links,
}: {
  receipt?: PaymentReceipt | null;
  /** The purchase's, or a catalogue service the address names; never the address's text. */
  serviceName?: string | null;
  links?: AccountLinks;
}) {
  const service = serviceName ?? "servicio";
  return (
    <section className="mx-auto max-w-2xl px-4 py-20 text-center sm:py-24">
      <CheckCircle2 className="mx-auto size-16 text-emerald-600" aria-hidden />
      <h1 className="mt-6 text-3xl font-bold tracking-tight sm:text-4xl">¡Pago completado!</h1>
      <p className="mt-4 text-lg text-slate-600">Has contratado: {service}</p>
      {receipt && links ? <ReceiptCard receipt={receipt} links={links} /> : null}
      <div className="mt-10 rounded-2xl bg-slate-50 p-6 text-left ring-1 ring-slate-200">
        <h2 className="text-lg font-semibold">Próximos pasos</h2>
        <ul className="mt-4 space-y-4 text-sm leading-6">
          <li className="flex gap-3">
            <Mail className="size-5 shrink-0 text-brand-600" aria-hidden />
            Revisa tu email: te hemos enviado la confirmación y el recibo de tu compra.
          </li>
          <li className="flex gap-3">
            <PhoneCall className="size-5 shrink-0 text-brand-600" aria-hidden />
            Un especialista se pondrá en contacto contigo en menos de 24 horas para empezar.
          </li>
        </ul>
      </div>
      <div className="mt-10 flex flex-col justify-center gap-3 sm:flex-row">
        <ButtonLink to="/">Volver al inicio</ButtonLink>
        <ButtonLink to="/#contacto" variant="secondary">
          Contactar
        </ButtonLink>
      </div>
      <p className="mt-6 text-sm text-slate-500">
        ¿Dudas sobre tu compra? Consulta tus compras en{" "}
        <Link to="/mi-cuenta" className="font-medium text-brand-700 underline">
          Mi Cuenta
        </Link>
        .
      </p>
    </section>
  );
}

/** The customer's receipt, or that the confirmation is on its way (the page reloads itself). */
function ReceiptCard({ receipt, links }: { receipt: PaymentReceipt; links: AccountLinks }) {
  if (receipt.state === "confirming")
    return (
      <div
        role="status"
        className="mt-8 flex gap-3 rounded-2xl bg-amber-50 p-5 text-left text-sm text-amber-950 ring-1 ring-amber-200"
      >
        <Loader2 className="size-5 shrink-0 motion-safe:animate-spin" aria-hidden />
        <p>
          <strong>Estamos recibiendo la confirmación de tu pago.</strong> Esta página se actualiza
          sola en unos segundos. Tu recibo y tu factura aparecerán aquí y en{" "}
          <Link to={links.purchases} className="font-semibold underline">
            tus compras
          </Link>
          .
        </p>
      </div>
    );
  return (
    <section
      aria-labelledby="receipt-heading"
      className="mt-8 rounded-2xl bg-white p-6 text-left ring-1 ring-slate-200"
    >
      <h2 id="receipt-heading" className="text-lg font-semibold">
        Recibo de tu compra
      </h2>
      <dl className="mt-4 grid gap-3 text-sm sm:grid-cols-2">
        <div>
          <dt className="text-slate-600">Importe pagado</dt>
          <dd className="mt-0.5 font-semibold text-ink">
            {formatPrice(receipt.amountCents, { cents: "always" })}{" "}
            <span className="font-normal text-slate-600">({VAT_INCLUDED})</span>
          </dd>
        </div>
        <div>
          <dt className="text-slate-600">Fecha</dt>
          <dd className="mt-0.5 font-medium text-ink">
            {formatDate(receipt.paidAt, "longDateTime")}
          </dd>
        </div>
        <div className="sm:col-span-2">
          <dt className="text-slate-600">Referencia del pedido</dt>
          <dd className="mt-0.5 font-mono text-xs break-all text-ink">{receipt.reference}</dd>
        </div>
        <div className="sm:col-span-2">
          <dt className="text-slate-600">Factura</dt>
          <dd className="mt-0.5">
            {receipt.invoice ? (
              <a
                href={`/mi-cuenta/facturas/${receipt.invoice.id}`}
                download
                className="inline-flex items-center gap-1 font-semibold text-brand-700 underline"
              >
                <FileText className="size-4" aria-hidden />
                Descargar factura {receipt.invoice.number}
              </a>
            ) : (
              <span className="text-slate-700">Estará en tus compras en cuanto se emita.</span>
            )}
          </dd>
        </div>
      </dl>
      <ul className="mt-5 space-y-2 border-t border-slate-200 pt-4 text-sm leading-6">
        <li>
          Sigue el estado de tu pedido (pagado, en curso, entregado) en{" "}
          <Link to={links.purchases} className="font-semibold text-brand-700 underline">
            Mi Cuenta › Compras
          </Link>
          .
        </li>
        <li className="flex gap-2">
          <MessageCircle className="mt-0.5 size-4 shrink-0 text-brand-600" aria-hidden />
          <span>
            ¿Alguna pregunta sobre este pedido? Escríbenos desde{" "}
            <Link to={links.support} className="font-semibold text-brand-700 underline">
              Soporte
            </Link>{" "}
            indicando su referencia.
          </span>
        </li>
      </ul>
    </section>
  );
}
