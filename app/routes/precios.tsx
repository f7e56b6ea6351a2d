import type { Route } from "./+types/precios";
import { PricesPage } from "~/features/marketing/prices-page";
import { pageMeta } from "~/features/seo/meta";
import { lightPageHandle } from "~/platform/http/light-page";

export const handle = lightPageHandle;

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: "Precios",
    description:
      "Precios cerrados y pago único: consultoría desde 79€, asistencia informática, IA, desarrollo web, ciberseguridad y reputación digital.",
    path: "/precios",
  });

export default function Prices() {
  return <PricesPage />;
}
