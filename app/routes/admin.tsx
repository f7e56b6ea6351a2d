import { LogOut, Search } from "lucide-react";
import { Form, Link } from "react-router";
import type { Route } from "./+types/admin";
import { requireAdmin } from "~/features/accounts/session.server";
import { adminPanel } from "~/features/admin/admin-data.server";
import { AdminListingTable, PaymentsTable, TicketsTable } from "~/features/admin/admin-tables";
import {
  adminTabs,
  statusFiltersOf,
  ticketOrders,
  type AdminView,
} from "~/features/admin/admin-tabs";
import { formatPrice } from "~/features/catalogue/services";
import { pageMeta } from "~/features/seo/meta";
import { Button } from "~/ui/button";
import { Field, Select } from "~/ui/form";
import { DownloadLink } from "~/ui/download-link";
import { RefreshButton } from "~/ui/refresh-button";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: "Panel de Administración",
    description: "Panel interno.",
    path: "/admin",
    noIndex: true,
  });

export async function loader({ request }: Route.LoaderArgs) {
  const admin = await requireAdmin(request);
  return { admin, ...(await adminPanel(new URL(request.url))) };
}

export default function AdminPanel({ loaderData }: Route.ComponentProps) {
  const { admin, view, dashboard, listing } = loaderData;
  return (
    <section className="mx-auto max-w-6xl px-4 py-10 sm:px-6">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold tracking-tight">Panel de Administración</h1>
          <p className="text-slate-600">{admin.email}</p>
        </div>
        <div className="flex gap-2">
          <RefreshButton label="Actualizar" />
          <Form method="post" action="/cerrar-sesion">
            <Button type="submit" variant="ghost">
              <LogOut className="size-4" aria-hidden />
              Salir
            </Button>
          </Form>
        </div>
      </div>
      <AdminTabs current={view.tab} />
      {dashboard ? (
        <Dashboard figures={dashboard} />
      ) : listing ? (
        <>
          <ListControls view={view} />
          <AdminListingTable listing={listing} />
        </>
      ) : null}
    </section>
  );
}

/** Links, not buttons: each tab has its own address, and switching clears search and filter. */
function AdminTabs({ current }: { current: AdminView["tab"] }) {
  return (
    <nav aria-label="Secciones del panel" className="mt-8 border-b border-slate-200">
      <ul className="-mb-px flex flex-wrap gap-1">
        {adminTabs.map((tab) => (
          <li key={tab.id}>
            <Link
              to={tab.id === "dashboard" ? "/admin" : `/admin?tab=${tab.id}`}
              aria-current={tab.id === current ? "page" : undefined}
              className={`inline-block border-b-2 px-4 py-2 text-sm font-semibold ${
                tab.id === current
                  ? "border-brand-600 text-brand-700"
                  : "border-transparent text-slate-600 hover:text-ink"
              }`}
            >
              {tab.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function ListControls({ view }: { view: AdminView }) {
  const filters = statusFiltersOf(view.tab);
  const tickets = view.tab === "tickets";
  const exportQuery = new URLSearchParams({
    tab: view.tab,
    q: view.search,
    estado: view.status,
    ...(tickets ? { orden: view.order } : {}),
  });
  return (
    <div className="mt-6 flex flex-wrap items-end justify-between gap-4">
      {/* Keyed by the view: another tab starts with an empty search, as the spec asks. */}
      <Form
        key={exportQuery.toString()}
        method="get"
        className="flex flex-wrap items-end gap-3"
        role="search"
      >
        <input type="hidden" name="tab" value={view.tab} />
        <Field
          label="Buscar"
          frameClassName="w-64"
          type="search"
          name="q"
          defaultValue={view.search}
          maxLength={100}
        />
        {filters ? (
          <Select label="Estado" name="estado" defaultValue={view.status}>
            {filters.map((filter) => (
              <option key={filter.value} value={filter.value}>
                {filter.label}
              </option>
            ))}
          </Select>
        ) : null}
        {tickets ? (
          <Select label="Orden" name="orden" defaultValue={view.order}>
            {ticketOrders.map((order) => (
              <option key={order.value} value={order.value}>
                {order.label}
              </option>
            ))}
          </Select>
        ) : null}
        <Button type="submit" variant="secondary">
          <Search className="size-4" aria-hidden />
          Buscar
        </Button>
      </Form>
      <DownloadLink
        href={`/admin/exportar?${exportQuery.toString()}`}
        label="Exportar CSV"
        busyLabel="Exportando..."
        fallbackName={`${view.tab}.csv`}
        succeeded={{ title: "CSV exportado" }}
        failed={{ title: "Error al exportar", description: "Por favor, inténtalo de nuevo." }}
      />
    </div>
  );
}

function Dashboard({
  figures,
}: {
  figures: NonNullable<Route.ComponentProps["loaderData"]["dashboard"]>;
}) {
  const cards = [
    { label: "Ingresos", value: formatPrice(figures.revenueCents, { cents: "always" }) },
    { label: "Pedidos", value: String(figures.orders) },
    { label: "Usuarios", value: String(figures.users) },
    { label: "Tickets abiertos", value: String(figures.openTickets) },
  ];
  return (
    <>
      <dl className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {cards.map((card) => (
          <div key={card.label} className="rounded-xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
            <dt className="text-sm text-slate-500">{card.label}</dt>
            <dd className="mt-1 text-2xl font-bold text-ink">{card.value}</dd>
          </div>
        ))}
      </dl>
      <h2 className="mt-10 text-xl font-semibold">Últimos pagos</h2>
      <PaymentsTable rows={figures.latestPayments} caption="Últimos pagos" />
      <h2 className="mt-10 text-xl font-semibold">Últimos tickets</h2>
      <TicketsTable rows={figures.latestTickets} caption="Últimos tickets" />
    </>
  );
}
