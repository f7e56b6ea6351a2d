import { ShieldCheck } from "lucide-react";
import { PriceCard } from "~/features/catalogue/price-card";
import { BuyButton } from "~/features/payments/purchase-dialog";
import { services } from "~/features/catalogue/services";
import { buttonClasses } from "~/ui/button";
import { SectionLink } from "~/features/layout/section-link";

/** The most requested service is highlighted. */
const FEATURED_SLUG = "asistencia-digital";

/** /precios: every service with its price card and buy button. */
export function PricesPage() {
  return (
    <section className="bg-slate-50 py-16 sm:py-20">
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <div className="mx-auto max-w-2xl text-center">
          <p className="text-sm font-semibold tracking-wide text-brand-600 uppercase">Precios</p>
          <h1 className="mt-2 text-4xl font-bold tracking-tight sm:text-5xl">
            Precios claros, sin sorpresas
          </h1>
          <p className="mt-4 text-lg text-slate-600">
            Todos nuestros servicios tienen un precio cerrado. Pagas una vez y sabes desde el primer
            día qué recibirás y cuándo.
          </p>
        </div>
        <div className="mt-12 grid gap-6 md:grid-cols-2 lg:grid-cols-3">
          {services.map((service) => (
            <PriceCard
              key={service.slug}
              service={service}
              featured={service.slug === FEATURED_SLUG}
              action={
                <BuyButton
                  service={service}
                  className="w-full"
                  variant={service.slug === FEATURED_SLUG ? "primary" : "secondary"}
                />
              }
            />
          ))}
        </div>
        <div className="mt-14 flex flex-col items-center gap-4 text-center">
          <p className="text-lg font-semibold text-ink">¿No sabes qué servicio necesitas?</p>
          <SectionLink section="contacto" className={buttonClasses({ size: "lg" })}>
            Hablar con un experto
          </SectionLink>
          <p className="inline-flex items-center gap-2 text-sm text-slate-600">
            <ShieldCheck className="size-5 text-emerald-600" aria-hidden />
            100% seguro • Reembolso garantizado
          </p>
        </div>
      </div>
    </section>
  );
}
