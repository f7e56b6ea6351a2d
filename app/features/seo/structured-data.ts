import { priceAmount, type Service } from "~/features/catalogue/services";
import type { SiteInfo } from "./site";

export function organizationJsonLd(site: SiteInfo) {
  return {
    "@context": "https://schema.org",
    "@type": "Organization",
    name: site.brandName,
    legalName: site.legalName,
    url: `${site.siteUrl}/`,
    email: site.contactEmail,
    areaServed: "ES",
    description:
      "Asistencia técnica global, IA, desarrollo web, ciberseguridad y reputación digital para empresas y particulares en España.",
    address: { "@type": "PostalAddress", streetAddress: site.address, addressCountry: "ES" },
  };
}

export function serviceJsonLd(service: Service, site: SiteInfo) {
  const url = `${site.siteUrl}${service.path ?? `/precios#${service.slug}`}`;
  return {
    "@context": "https://schema.org",
    "@type": "Service",
    name: service.name,
    description: service.page?.description ?? service.shortDescription,
    url,
    areaServed: "ES",
    provider: { "@type": "Organization", name: site.brandName, url: `${site.siteUrl}/` },
    offers: {
      "@type": "Offer",
      price: priceAmount(service.priceCents),
      priceCurrency: "EUR",
      availability: "https://schema.org/InStock",
      url,
    },
  };
}
