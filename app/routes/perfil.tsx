import { BadgeCheck } from "lucide-react";
import type { Route } from "./+types/perfil";
import { requireCustomer } from "~/features/accounts/session.server";
import { pageMeta } from "~/features/seo/meta";
import { ButtonLink } from "~/ui/button";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: "Mi perfil",
    description: "Tus datos de cliente.",
    path: "/perfil",
    noIndex: true,
  });

export async function loader({ request }: Route.LoaderArgs) {
  return { viewer: await requireCustomer(request) };
}

/** The profile editor comes with the customer-area work; the route is already protected. */
export default function Profile({ loaderData: { viewer } }: Route.ComponentProps) {
  return (
    <section className="mx-auto max-w-2xl px-4 py-12 sm:px-6">
      <h1 className="text-3xl font-bold tracking-tight">Mi perfil</h1>
      <div className="mt-6 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
        <p className="text-sm text-slate-500">Email</p>
        <p className="font-medium text-ink">{viewer.email}</p>
        {viewer.emailVerified ? (
          <p className="mt-2 inline-flex items-center gap-1 text-sm font-medium text-emerald-700">
            <BadgeCheck className="size-4" aria-hidden />
            Email verificado
          </p>
        ) : null}
      </div>
      <ButtonLink to="/mi-cuenta" variant="secondary" className="mt-6">
        Volver a Mi Cuenta
      </ButtonLink>
    </section>
  );
}
