import { LogOut, Plus, UserRound } from "lucide-react";
import type { ReactNode } from "react";
import { Form, Link } from "react-router";
import { Button, ButtonLink } from "~/ui/button";
import { formatDate } from "~/platform/dates";
import {
  AccountTabPanel,
  AccountTabs,
  NEW_TICKET_PATH,
  PurchasesPanel,
  StatCards,
  TicketsPanel,
} from "./account-area";
import type { accountOverview } from "./account-overview.server";
import { accountTabPath } from "./account-tabs";

type Overview = Awaited<ReturnType<typeof accountOverview>>;

/**
 * Mi Cuenta: the customer's header, stats and tabs. Configuración shows `settings`, which the
 * route fills with the data-rights section (privacy builds on this feature, not the other way).
 */
export function AccountPage({ overview, settings }: { overview: Overview; settings: ReactNode }) {
  const { tab, stats } = overview;
  return (
    <section className="mx-auto max-w-5xl px-4 py-12 sm:px-6">
      <AccountHeader overview={overview} />
      <StatCards stats={stats} />
      <AccountTabs active={tab} />
      <AccountTabPanel tab={tab}>
        {tab === "resumen" ? <Summary overview={overview} /> : null}
        {tab === "compras" ? (
          <>
            <h2 className="sr-only">Historial de compras</h2>
            <PurchasesPanel purchases={overview.purchases} withHelp />
          </>
        ) : null}
        {tab === "soporte" ? <Support overview={overview} /> : null}
        {tab === "configuracion" ? settings : null}
      </AccountTabPanel>
    </section>
  );
}

function AccountHeader({ overview: { viewer, fullName } }: { overview: Overview }) {
  return (
    <div className="flex flex-col gap-6 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:flex-row sm:items-center sm:justify-between">
      <div className="flex min-w-0 items-center gap-4">
        <span className="flex size-14 shrink-0 items-center justify-center rounded-full bg-brand-50 text-brand-600">
          <UserRound className="size-7" aria-hidden />
        </span>
        <div className="min-w-0">
          <h1 className="text-2xl font-bold tracking-tight break-words">
            {fullName ?? "Mi Cuenta"}
          </h1>
          <p className="break-all text-slate-600">{viewer.email}</p>
          <p className="text-sm text-slate-500">
            Miembro desde {formatDate(viewer.createdAt, "monthYear")}
          </p>
        </div>
      </div>
      <div className="flex flex-wrap gap-2">
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
  );
}

function PanelHeading({ id, title, more }: { id: string; title: string; more?: string }) {
  return (
    <div className="mb-4 flex flex-wrap items-baseline justify-between gap-2">
      <h2 id={id} className="text-xl font-semibold">
        {title}
      </h2>
      {more ? (
        <Link to={more} className="text-sm font-semibold text-brand-700 hover:underline">
          Ver todo
        </Link>
      ) : null}
    </div>
  );
}

function Summary({ overview: { purchases, tickets } }: { overview: Overview }) {
  if (purchases?.length === 0 && tickets?.length === 0)
    return (
      <div className="rounded-2xl bg-slate-50 p-8 text-center ring-1 ring-slate-200">
        <h2 className="text-lg font-semibold text-ink">Aún no tienes compras ni tickets</h2>
        <p className="mt-2 text-slate-600">
          Cuando contrates un servicio, aquí verás su estado y tus tickets de soporte.
        </p>
        <ButtonLink to="/precios" className="mt-6">
          Ver precios
        </ButtonLink>
      </div>
    );
  return (
    <div className="space-y-8">
      <section aria-labelledby="resumen-compras">
        <PanelHeading
          id="resumen-compras"
          title="Tus últimas compras"
          more={accountTabPath("compras")}
        />
        <PurchasesPanel purchases={purchases} withHelp={false} />
      </section>
      <section aria-labelledby="resumen-tickets">
        <PanelHeading
          id="resumen-tickets"
          title="Tus últimos tickets"
          more={accountTabPath("soporte")}
        />
        <TicketsPanel tickets={tickets} withButton />
      </section>
    </div>
  );
}

function Support({ overview: { tickets } }: { overview: Overview }) {
  return (
    <>
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <h2 className="text-xl font-semibold">Tickets de soporte</h2>
        <ButtonLink to={NEW_TICKET_PATH}>
          <Plus className="size-4" aria-hidden />
          Nuevo Ticket
        </ButtonLink>
      </div>
      <TicketsPanel tickets={tickets} withButton />
    </>
  );
}
