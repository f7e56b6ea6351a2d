import { useLocation } from "react-router";
import type { Route } from "./+types/service";
import { priceFromText } from "~/features/catalogue/services";
import { serviceAt, ServicePage } from "~/features/marketing/service-page";
import { pageMeta } from "~/features/seo/meta";
import { siteFromMatches } from "~/features/seo/site";
import { serviceJsonLd } from "~/features/seo/structured-data";
import { lightPageHandle } from "~/platform/http/light-page";

export const handle = lightPageHandle;

export const meta: Route.MetaFunction = ({ matches, location }) => {
  const service = serviceAt(location.pathname);
  const site = siteFromMatches(matches);
  return pageMeta(matches, {
    title: service.name,
    description: `${service.shortDescription} ${priceFromText(service)}, pago único.`,
    path: location.pathname,
    jsonLd: site ? [serviceJsonLd(service, site)] : [],
  });
};

export default function Service({ matches }: Route.ComponentProps) {
  return (
    <ServicePage service={serviceAt(useLocation().pathname)} site={siteFromMatches(matches)} />
  );
}
