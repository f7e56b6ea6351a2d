import { Check, Zap } from "lucide-react";
import type { ReactNode } from "react";
import { ServiceIcon } from "./service-icon";
import { formatPrice, type Service } from "./services";
import { VAT_INCLUDED } from "./vat";

/**
 * A card of /precios; its id is the anchor other pages link to. The page gives the card its
 * action (the buy button), so the catalogue knows nothing of payments.
 */
export function PriceCard({
  service,
  featured = false,
  action,
}: {
  service: Service;
  featured?: boolean;
  action: ReactNode;
}) {
  return (
    <article
      id={service.slug}
      aria-labelledby={`${service.slug}-title`}
      className={`relative flex flex-col rounded-2xl bg-white p-6 shadow-sm ring-1 sm:p-8 ${
        featured ? "ring-2 ring-brand-600" : "ring-slate-200"
      }`}
    >
      <div className="flex items-center justify-between gap-3">
        <span className="flex size-11 items-center justify-center rounded-xl bg-brand-50 text-brand-600">
          <ServiceIcon service={service} />
        </span>
        <span className="inline-flex items-center gap-1 rounded-full bg-emerald-50 px-3 py-1 text-xs font-semibold text-emerald-800">
          <Zap className="size-3.5" aria-hidden />
          Entrega Rápida
        </span>
      </div>
      <h2 id={`${service.slug}-title`} className="mt-5 text-xl font-semibold">
        {service.name}
      </h2>
      <p className="mt-2 text-sm leading-6 text-slate-600">{service.shortDescription}</p>
      <p className="mt-6 flex items-baseline gap-2">
        <span className="text-4xl font-bold tracking-tight text-ink">
          {formatPrice(service.priceCents)}
        </span>
        <span className="text-sm font-medium text-slate-600">{VAT_INCLUDED}</span>
      </p>
      <p className="mt-1 text-sm text-slate-500">Pago único • Sin cuotas</p>
      <ul className="mt-6 flex-1 space-y-3 text-sm">
        {service.priceFeatures.map((feature) => (
          <li key={feature} className="flex gap-3">
            <Check className="size-5 shrink-0 text-brand-600" aria-hidden />
            <span>{feature}</span>
          </li>
        ))}
      </ul>
      <div className="mt-8">{action}</div>
    </article>
  );
}
