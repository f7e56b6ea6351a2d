import { Clock, Mail, ShieldCheck } from "lucide-react";
import { SectionHeading } from "~/ui/section-heading";
import type { ContactAnswer } from "./contact-action.server";
import { ContactForm } from "./contact-form";

/** The contact section (#contacto) of the home page and every service page. */
export function ContactSection({
  site,
  serverResult,
  headingLevel = "h2",
}: {
  /** The site's facts (seo's SiteInfo); without them the human check stays on. */
  site: { contactEmail: string; humanCheck: boolean } | undefined;
  /** The answer of a form posted without JavaScript. */
  serverResult?: ContactAnswer;
  headingLevel?: "h1" | "h2";
}) {
  const contactEmail = site?.contactEmail ?? "";
  const humanCheck = site?.humanCheck ?? true;
  return (
    <section id="contacto" aria-labelledby="contacto-title" className="bg-slate-50 py-20 sm:py-24">
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <SectionHeading
          id="contacto-title"
          eyebrow="Contacto"
          title="Cuéntanos qué necesitas"
          level={headingLevel}
        >
          Te respondemos en menos de 24 horas laborables, sin compromiso.
        </SectionHeading>
        <div className="mt-12 grid gap-10 lg:grid-cols-5">
          <ul className="space-y-6 lg:col-span-2">
            <ContactPoint
              icon={<Clock className="size-5" aria-hidden />}
              title="Respuesta en 24 horas"
            >
              Un especialista revisa tu consulta y te propone la mejor solución.
            </ContactPoint>
            <ContactPoint
              icon={<Mail className="size-5" aria-hidden />}
              title="Escríbenos directamente"
            >
              <a href={`mailto:${contactEmail}`} className="font-medium text-brand-700 underline">
                {contactEmail}
              </a>
            </ContactPoint>
            <ContactPoint
              icon={<ShieldCheck className="size-5" aria-hidden />}
              title="Tus datos, protegidos"
            >
              Solo usamos tus datos para responder a tu consulta, conforme al RGPD.
            </ContactPoint>
          </ul>
          <div className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8 lg:col-span-3">
            <ContactForm serverResult={serverResult} humanCheck={humanCheck} />
          </div>
        </div>
      </div>
    </section>
  );
}

function ContactPoint({
  icon,
  title,
  children,
}: {
  icon: React.ReactNode;
  title: string;
  children: React.ReactNode;
}) {
  return (
    <li className="flex gap-4">
      <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-brand-600 text-white">
        {icon}
      </span>
      <div>
        <p className="font-semibold text-ink">{title}</p>
        <p className="mt-1 text-sm leading-6 text-slate-600">{children}</p>
      </div>
    </li>
  );
}
