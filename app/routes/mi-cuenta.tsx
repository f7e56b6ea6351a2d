import { LogOut, UserRound } from "lucide-react";
import { Form } from "react-router";
import type { Route } from "./+types/mi-cuenta";
import { accountOverview } from "~/features/accounts/account-overview.server";
import { requireCustomer } from "~/features/accounts/session.server";
import { formatPrice } from "~/features/catalogue/services";
import { purchaseStatusLabel } from "~/features/payments/purchase-status";
import { AccountDataSection } from "~/features/privacy/account-data-section";
import { pageMeta } from "~/features/seo/meta";
import { Button, ButtonLink } from "~/ui/button";
import { formatDate } from "~/ui/dates";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: "Mi Cuenta",
    description: "Tu área de cliente.",
    path: "/mi-cuenta",
    noIndex: true,
  });

export async function loader({ request }: Route.LoaderArgs) {
  return accountOverview(await requireCustomer(request));
}

export default function Account({
  loaderData: { viewer, fullName, purchases: latest, totals },
}: Route.ComponentProps) {
  return (
    <section className="mx-auto max-w-5xl px-4 py-12 sm:px-6">
      <div className="flex flex-col gap-6 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:flex-row sm:items-center sm:justify-between">
        <div className="flex items-center gap-4">
          <span className="flex size-14 items-center justify-center rounded-full bg-brand-50 text-brand-600">
            <UserRound className="size-7" aria-hidden />
          </span>
          <div>
            <h1 className="text-2xl font-bold tracking-tight">{fullName ?? "Mi Cuenta"}</h1>
            <p className="text-slate-600">{viewer.email}</p>
            <p className="text-sm text-slate-500">
              Miembro desde {formatDate(viewer.createdAt, "monthYear")}
            </p>
          </div>
        </div>
        <div className="flex gap-2">
          <ButtonLink to="/perfil" variant="secondary">
            Editar Perfil
          </ButtonLink>
          <Form method="post" action="/cerrar-sesion">
            <Button type="submit" variant="ghost">
              <LogOut className="size-4" aria-hidden />
              Cerrar Sesión
            </Button>
          </Form>
        </div>
      </div>
      <dl className="mt-6 grid grid-cols-2 gap-4 sm:max-w-md">
        {[
          { label: "Compras", value: String(totals.purchases) },
          { label: "Total gastado", value: formatPrice(totals.spentCents, { cents: "always" }) },
        ].map((stat) => (
          <div key={stat.label} className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
            <dt className="text-sm text-slate-500">{stat.label}</dt>
            <dd className="mt-1 text-2xl font-bold text-ink">{stat.value}</dd>
          </div>
        ))}
      </dl>
      {latest.length === 0 ? (
        <div className="mt-8 rounded-2xl bg-slate-50 p-8 text-center ring-1 ring-slate-200">
          <p className="text-lg font-semibold text-ink">Aún no tienes compras</p>
          <p className="mt-2 text-slate-600">
            Cuando contrates un servicio, aquí verás su estado y tus tickets de soporte.
          </p>
          <ButtonLink to="/precios" className="mt-6">
            Ver precios
          </ButtonLink>
        </div>
      ) : (
        <section aria-labelledby="compras-title" className="mt-8">
          <h2 id="compras-title" className="text-xl font-semibold">
            Tus últimas compras
          </h2>
          <ul className="mt-4 divide-y divide-slate-200 rounded-2xl bg-white ring-1 ring-slate-200">
            {latest.map((purchase) => (
              <li
                key={purchase.id}
                className="flex flex-wrap items-center justify-between gap-2 p-4"
              >
                <div>
                  <p className="font-semibold text-ink">{purchase.serviceName}</p>
                  <p className="text-sm text-slate-500">
                    {formatDate(purchase.createdAt, "date")}
                    {purchase.completedAt
                      ? ` · completada el ${formatDate(purchase.completedAt, "date")}`
                      : ""}
                  </p>
                </div>
                <div className="text-right">
                  <p className="font-semibold text-ink">
                    {formatPrice(purchase.price)} {purchase.currency}
                  </p>
                  <p className="text-sm text-slate-600">{purchaseStatusLabel(purchase.status)}</p>
                </div>
              </li>
            ))}
          </ul>
        </section>
      )}
      <AccountDataSection />
    </section>
  );
}
