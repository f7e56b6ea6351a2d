import { Construction } from "lucide-react";
import { useMatches } from "react-router";
import type { Route } from "./+types/coming-soon";
import { pageMeta } from "~/features/seo/meta";
import { ButtonLink } from "~/ui/button";

/**
 * Temporary pages for the routes of the spec whose features have not landed yet
 * (the payment test page). Each is replaced by its feature.
 */
const titles: Record<string, string> = {
  "payment-test": "Prueba de pagos",
};

export const meta: Route.MetaFunction = ({ matches, location }) => {
  const id = matches.at(-1)?.id ?? "";
  return pageMeta(matches, {
    title: titles[id] ?? "Próximamente",
    description: "Esta sección estará disponible muy pronto.",
    path: location.pathname,
    noIndex: true,
  });
};

export default function ComingSoon() {
  const id = useMatches().at(-1)?.id ?? "";
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center">
      <Construction className="size-12 text-brand-600" aria-hidden />
      <h1 className="mt-4 text-3xl font-bold tracking-tight">{titles[id] ?? "Próximamente"}</h1>
      <p className="mt-4 text-slate-600">
        Estamos terminando esta sección. Mientras tanto, escríbenos y te atenderemos personalmente.
      </p>
      <ButtonLink to="/#contacto" className="mt-8">
        Contactar
      </ButtonLink>
    </section>
  );
}
