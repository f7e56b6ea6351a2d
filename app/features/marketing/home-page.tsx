import { ArrowRight, BadgeCheck, Clock, Lock, Sparkles } from "lucide-react";
import { ServiceCard } from "~/features/catalogue/service-card";
import { servicesForHome } from "~/features/catalogue/services";
import { SectionLink } from "~/features/layout/section-link";
import { ContactSection } from "~/features/contact/contact-section";
import type { SiteInfo } from "~/features/seo/site";
import { buttonClasses } from "~/ui/button";
import { SectionHeading } from "~/ui/section-heading";

const HERO_TEXT =
  "Asistencia técnica global, IA, desarrollo web, ciberseguridad y reputación digital. Todo en un solo lugar.";

const guarantees = [
  {
    icon: Clock,
    title: "Respuesta en 24 horas",
    text: "Te contactamos en menos de un día laborable.",
  },
  {
    icon: BadgeCheck,
    title: "Pago único • Sin cuotas",
    text: "Precio cerrado, sin permanencias ni sorpresas.",
  },
  {
    icon: Lock,
    title: "100% seguro • Reembolso garantizado",
    text: "Pago con tarjeta cifrado de extremo a extremo.",
  },
];

const strengths = [
  {
    icon: BadgeCheck,
    title: "Precio cerrado",
    text: "Sabes lo que pagas desde el principio. Pago único, sin cuotas ni sorpresas.",
  },
  {
    icon: Clock,
    title: "Plazos claros",
    text: "Cada servicio tiene un plazo de entrega comprometido por escrito.",
  },
  {
    icon: Lock,
    title: "Pago 100% seguro",
    text: "Pagos con tarjeta cifrados y reembolso garantizado si no podemos cumplir.",
  },
  {
    icon: Sparkles,
    title: "Expertos reales",
    text: "Profesionales certificados que te explican cada paso en tu idioma.",
  },
];

/** The home page: hero, services, why us, and the contact form. */
export function HomePage({ site }: { site: SiteInfo | undefined }) {
  return (
    <>
      <section className="relative overflow-hidden bg-gradient-to-b from-brand-900 via-brand-800 to-brand-700 text-white">
        <div className="mx-auto grid max-w-7xl items-center gap-12 px-4 py-20 sm:px-6 sm:py-24 lg:grid-cols-12 lg:px-8">
          <div className="lg:col-span-7">
            <p className="inline-flex items-center gap-2 rounded-full bg-white/10 px-3 py-1 text-sm font-medium text-brand-100 ring-1 ring-white/20">
              <BadgeCheck className="size-4" aria-hidden />
              Servicios digitales a precio cerrado
            </p>
            <h1 className="mt-6 text-4xl font-bold tracking-tight text-white sm:text-5xl">
              {HERO_TEXT}
            </h1>
            <p className="mt-6 max-w-2xl text-lg leading-8 text-brand-100">
              Para empresas y particulares en toda España. Resolvemos hoy lo que te frena y
              preparamos tu negocio para lo que viene.
            </p>
            <div className="mt-10 flex flex-col gap-3 sm:flex-row">
              <SectionLink
                section="servicios"
                className={buttonClasses({ variant: "inverse", size: "lg" })}
              >
                Ver servicios
                <ArrowRight className="size-5" aria-hidden />
              </SectionLink>
              <SectionLink
                section="contacto"
                className={buttonClasses({ variant: "outlineInverse", size: "lg" })}
              >
                Contactar
              </SectionLink>
            </div>
          </div>
          <ul
            aria-label="Nuestras garantías"
            className="hidden space-y-4 rounded-2xl bg-white/10 p-8 ring-1 ring-white/20 lg:col-span-5 lg:block"
          >
            {guarantees.map(({ icon: Icon, title, text }) => (
              <li key={title} className="flex gap-4">
                <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-white text-brand-700">
                  <Icon className="size-5" aria-hidden />
                </span>
                <div>
                  <p className="font-semibold text-white">{title}</p>
                  <p className="text-sm leading-6 text-brand-100">{text}</p>
                </div>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section id="servicios" aria-labelledby="servicios-title" className="py-20 sm:py-24">
        <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
          <SectionHeading
            id="servicios-title"
            eyebrow="Servicios"
            title="Todo lo digital, resuelto por expertos"
          >
            Elige el servicio que necesitas o empieza con una consultoría puntual de una hora.
          </SectionHeading>
          <ul className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {servicesForHome().map((service) => (
              <li key={service.slug} className="flex">
                <ServiceCard service={service} />
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section
        aria-labelledby="ventajas-title"
        className="border-t border-slate-200 py-20 sm:py-24"
      >
        <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
          <SectionHeading
            id="ventajas-title"
            eyebrow="Por qué elegirnos"
            title="Una empresa en la que puedes confiar"
          />
          <ul className="mt-12 grid gap-8 sm:grid-cols-2 lg:grid-cols-4">
            {strengths.map(({ icon: Icon, title, text }) => (
              <li key={title}>
                <span className="flex size-11 items-center justify-center rounded-xl bg-brand-600 text-white">
                  <Icon className="size-5" aria-hidden />
                </span>
                <h3 className="mt-4 font-semibold">{title}</h3>
                <p className="mt-2 text-sm leading-6 text-slate-600">{text}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <ContactSection site={site} />
    </>
  );
}
