import { ArrowRight, CheckCircle2, Clock } from "lucide-react";
import { Link } from "react-router";
import { ServiceIcon } from "~/features/catalogue/service-icon";
import { priceFromText, serviceByPath, type Service } from "~/features/catalogue/services";
import { VAT_INCLUDED } from "~/features/catalogue/vat";
import { BuyButton } from "~/features/payments/purchase-dialog";
import { ContactSection } from "~/features/contact/contact-section";
import type { SiteInfo } from "~/features/seo/site";

export type PagedService = Service & { page: NonNullable<Service["page"]> };

/** The routes of this module are generated from the catalogue, so the lookup always succeeds. */
export function serviceAt(pathname: string): PagedService {
  const service = serviceByPath(pathname);
  if (!service?.page) throw new Response("Not Found", { status: 404 });
  return { ...service, page: service.page };
}

/** A service's page: what it is, its price and buy button, what it includes, and contact. */
export function ServicePage({
  service,
  site,
}: {
  service: PagedService;
  site: SiteInfo | undefined;
}) {
  return (
    <>
      <section className="bg-gradient-to-b from-brand-50 to-white">
        <div className="mx-auto grid max-w-7xl gap-12 px-4 py-16 sm:px-6 sm:py-20 lg:grid-cols-5 lg:px-8">
          <div className="lg:col-span-3">
            <p className="inline-flex items-center gap-2 text-sm font-semibold text-brand-700">
              <ServiceIcon service={service} className="size-5" />
              {service.name}
            </p>
            <h1 className="mt-4 text-4xl font-bold tracking-tight sm:text-5xl">
              {service.page.headline}
            </h1>
            <p className="mt-6 text-lg leading-8 text-slate-600">{service.page.description}</p>
          </div>
          <aside
            aria-label="Precio"
            className="self-start rounded-2xl bg-white p-6 shadow-lg ring-1 ring-slate-200 sm:p-8 lg:col-span-2"
          >
            <p className="text-3xl font-bold tracking-tight text-ink">{priceFromText(service)}</p>
            <p className="text-sm font-medium text-slate-600">{VAT_INCLUDED}</p>
            <p className="mt-1 text-sm text-slate-500">Pago único • Sin cuotas</p>
            <p className="mt-6 flex gap-3 text-sm leading-6">
              <Clock className="size-5 shrink-0 text-brand-600" aria-hidden />
              <span>{service.page.promise}</span>
            </p>
            <BuyButton service={service} size="lg" className="mt-6 w-full" />
            <Link
              to={`/precios#${service.slug}`}
              className="mt-4 inline-flex w-full items-center justify-center gap-1 text-sm font-semibold text-brand-700 hover:underline"
            >
              Ver todos los precios
              <ArrowRight className="size-4" aria-hidden />
            </Link>
          </aside>
        </div>
      </section>
      <section aria-labelledby="incluye-title" className="py-16 sm:py-20">
        <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
          <h2 id="incluye-title" className="text-2xl font-bold tracking-tight sm:text-3xl">
            Qué incluye
          </h2>
          <ul className="mt-8 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {service.page.features.map((feature) => (
              <li
                key={feature}
                className="flex gap-3 rounded-xl border border-slate-200 bg-white p-5"
              >
                <CheckCircle2 className="size-6 shrink-0 text-brand-600" aria-hidden />
                <span className="text-sm leading-6 text-slate-700">{feature}</span>
              </li>
            ))}
          </ul>
        </div>
      </section>
      <ContactSection site={site} />
    </>
  );
}
