import { Mail } from "lucide-react";
import { Link } from "react-router";
import { serviceHref, servicesForHome } from "~/features/catalogue/services";
import type { SiteInfo } from "~/features/seo/site";
import { Logo } from "~/ui/logo";
import { FacebookIcon, InstagramIcon, LinkedInIcon, XIcon } from "~/ui/social-icons";

// Placeholder profiles until the company publishes its own (spec: placeholder targets).
const socialLinks = [
  { label: "LinkedIn", href: "https://www.linkedin.com/", Icon: LinkedInIcon },
  { label: "X", href: "https://x.com/", Icon: XIcon },
  { label: "Instagram", href: "https://www.instagram.com/", Icon: InstagramIcon },
  { label: "Facebook", href: "https://www.facebook.com/", Icon: FacebookIcon },
];

const quickLinks = [
  { label: "Inicio", to: "/" },
  { label: "Servicios", to: "/#servicios" },
  { label: "Precios", to: "/precios" },
  { label: "Contacto", to: "/#contacto" },
];

const legalLinks = [
  { label: "Privacidad", to: "/privacidad" },
  { label: "Términos", to: "/terminos" },
  { label: "Cookies", to: "/cookies" },
  { label: "Aviso legal", to: "/aviso-legal" },
];

const footerLink = "text-sm text-slate-300 transition-colors hover:text-white";

/** The items of a footer column, one link each. */
function FooterLinks({ links }: { links: { label: string; to: string }[] }) {
  return links.map((link) => (
    <li key={link.to}>
      <Link to={link.to} className={footerLink}>
        {link.label}
      </Link>
    </li>
  ));
}

export function SiteFooter({ site }: { site: SiteInfo }) {
  return (
    <footer className="bg-slate-950 text-slate-300" aria-labelledby="footer-heading">
      <h2 id="footer-heading" className="sr-only">
        Pie de página
      </h2>
      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-14 sm:px-6 md:grid-cols-2 lg:grid-cols-4 lg:px-8">
        <div className="space-y-4">
          <Logo brandName={site.brandName} inverse />
          <p className="text-sm leading-6 text-slate-400">
            Asistencia técnica, inteligencia artificial, desarrollo web, ciberseguridad y reputación
            digital para empresas y particulares.
          </p>
          <a
            href={`mailto:${site.contactEmail}`}
            className={`${footerLink} inline-flex items-center gap-2`}
          >
            <Mail className="size-4" aria-hidden />
            {site.contactEmail}
          </a>
          <ul className="flex gap-3">
            {socialLinks.map(({ label, href, Icon }) => (
              <li key={label}>
                <a
                  href={href}
                  target="_blank"
                  rel="noopener noreferrer"
                  aria-label={label}
                  className="inline-flex size-9 items-center justify-center rounded-full bg-white/10 text-slate-200 transition-colors hover:bg-white/20 hover:text-white"
                >
                  <Icon />
                </a>
              </li>
            ))}
          </ul>
        </div>
        <FooterColumn title="Servicios">
          <FooterLinks
            links={servicesForHome().map((service) => ({
              label: service.name,
              to: serviceHref(service),
            }))}
          />
        </FooterColumn>
        <FooterColumn title="Enlaces rápidos">
          <FooterLinks links={quickLinks} />
        </FooterColumn>
        <FooterColumn title="Legal">
          <FooterLinks links={legalLinks} />
          <li>
            {/* Withdrawing consent must be as easy as giving it (AEPD): one click, any page. */}
            <button type="button" data-cookie-settings className={footerLink}>
              Configurar cookies
            </button>
          </li>
        </FooterColumn>
      </div>
      <div className="border-t border-white/10">
        <p className="mx-auto max-w-7xl px-4 py-6 text-sm text-slate-400 sm:px-6 lg:px-8">
          © {site.year} {site.brandName}. Todos los derechos reservados.
        </p>
      </div>
    </footer>
  );
}

function FooterColumn({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <div>
      <h3 className="text-sm font-semibold tracking-wide text-white uppercase">{title}</h3>
      <ul className="mt-4 space-y-3">{children}</ul>
    </div>
  );
}
