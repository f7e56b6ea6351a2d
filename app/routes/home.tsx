import type { Route } from "./+types/home";
import { HomePage } from "~/features/marketing/home-page";
import { pageMeta } from "~/features/seo/meta";
import { siteFromMatches } from "~/features/seo/site";
import { organizationJsonLd } from "~/features/seo/structured-data";
import { lightPageHandle } from "~/platform/http/light-page";

export const handle = lightPageHandle;

export const meta: Route.MetaFunction = ({ matches }) => {
  const site = siteFromMatches(matches);
  return pageMeta(matches, {
    title: site?.brandName ?? "Inicio",
    description:
      "Servicios digitales a precio cerrado en España: asistencia informática, consultoría en IA, desarrollo web, ciberseguridad y reputación digital.",
    path: "/",
    jsonLd: site ? [organizationJsonLd(site)] : [],
  });
};

export default function Home({ matches }: Route.ComponentProps) {
  return <HomePage site={siteFromMatches(matches)} />;
}
