import { ArrowRight } from "lucide-react";
import { Link } from "react-router";
import { ServiceIcon } from "./service-icon";
import { formatPrice, serviceHref, type Service } from "./services";
import { VAT_INCLUDED } from "./vat";

/** A card of the home page's services section, linking to the service. */
export function ServiceCard({ service }: { service: Service }) {
  return (
    <Link
      to={serviceHref(service)}
      className="group flex w-full flex-col rounded-2xl border border-slate-200 bg-white p-6 shadow-sm transition hover:-translate-y-0.5 hover:border-brand-200 hover:shadow-md"
    >
      <span className="flex size-12 items-center justify-center rounded-xl bg-brand-50 text-brand-600 transition-colors group-hover:bg-brand-600 group-hover:text-white">
        <ServiceIcon service={service} />
      </span>
      <h3 className="mt-5 text-lg font-semibold">{service.name}</h3>
      <p className="mt-2 flex-1 text-sm leading-6 text-slate-600">{service.shortDescription}</p>
      <span className="mt-5 flex items-center justify-between text-sm font-semibold">
        <span className="text-ink">
          Desde {formatPrice(service.priceCents)}{" "}
          <span className="font-normal text-slate-600">{VAT_INCLUDED}</span>
        </span>
        <span className="inline-flex items-center gap-1 text-brand-700">
          Ver más
          <ArrowRight
            className="size-4 transition-transform group-hover:translate-x-0.5"
            aria-hidden
          />
        </span>
      </span>
    </Link>
  );
}
