import { lazy, Suspense } from "react";
import { formatPrice } from "~/features/catalogue/services";
import { DailyFiguresTable } from "./daily-figures-table";
import { formatCount } from "~/ui/numbers";
import { StatCardGrid } from "~/ui/signed-in/stat-cards";
import { useHydrated } from "~/ui/use-hydrated";
import { chartSummary, type DailyPoint } from "./admin-chart-data";
import { PaymentsTable } from "./tabs/payments-table";
import { TicketsTable } from "./tabs/tickets-table";
import type { ComponentProps } from "react";

// recharts only in the browser and only here: its own chunk, fetched by the dashboard.
const RevenueChart = lazy(() => import("./admin-chart"));

type Figures = {
  revenueCents: number;
  orders: number;
  users: number;
  openTickets: number;
  averageOrderCents: number | null;
  latestPayments: ComponentProps<typeof PaymentsTable>["rows"];
  /** Null for a role that may not open tickets. */
  latestTickets: ComponentProps<typeof TicketsTable>["rows"] | null;
  daily: readonly DailyPoint[];
};

const CHART_HEIGHT = "h-[300px]";

/** The dashboard (spec: /admin): figures, the 90-day chart, the latest payments and tickets. */
export function AdminDashboard({ figures }: { figures: Figures }) {
  // Money first; on a phone the revenue (up to '12.345.678,90€') has a row of its own.
  const cards = [
    {
      label: "Ingresos",
      value: formatPrice(figures.revenueCents, { cents: "always" }),
      wide: true,
    },
    { label: "Pedidos", value: formatCount(figures.orders) },
    {
      label: "Ticket medio",
      value:
        figures.averageOrderCents === null
          ? "—"
          : formatPrice(figures.averageOrderCents, { cents: "always" }),
    },
    { label: "Usuarios", value: formatCount(figures.users) },
    { label: "Tickets abiertos", value: formatCount(figures.openTickets) },
  ];
  return (
    <>
      <div className="mt-6">
        <StatCardGrid cards={cards} columns="md:grid-cols-3 2xl:grid-cols-5" />
      </div>
      <DailyChart daily={figures.daily} />
      <div className="mt-10 grid grid-cols-1 gap-10 2xl:grid-cols-2">
        <div className="min-w-0">
          <h2 className="text-lg font-semibold">Últimos pagos</h2>
          <PaymentsTable rows={figures.latestPayments} caption="Últimos pagos" />
        </div>
        {figures.latestTickets ? (
          <div className="min-w-0">
            <h2 className="text-lg font-semibold">Últimos tickets</h2>
            <TicketsTable rows={figures.latestTickets} caption="Últimos tickets" />
          </div>
        ) : null}
      </div>
    </>
  );
}

/**
 * The chart as one image named by a summary sentence; the same figures as a table in a
 * disclosure (rendered by the server, so it is there without JavaScript). The chart itself is
 * drawn in the browser once recharts has loaded.
 */
function DailyChart({ daily }: { daily: readonly DailyPoint[] }) {
  const hydrated = useHydrated();
  const placeholder = <div className={`${CHART_HEIGHT} animate-pulse rounded-lg bg-slate-100`} />;
  return (
    <section
      aria-labelledby="grafico-ingresos"
      className="mt-8 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6"
    >
      <h2 id="grafico-ingresos" className="text-lg font-semibold">
        Ingresos y pedidos (últimos {daily.length} días)
      </h2>
      <div role="img" aria-label={chartSummary(daily)} className={`mt-4 ${CHART_HEIGHT}`}>
        {hydrated ? (
          <Suspense fallback={placeholder}>
            <RevenueChart daily={daily} />
          </Suspense>
        ) : (
          placeholder
        )}
      </div>
      <DailyFiguresTable
        caption="Ingresos y pedidos por día"
        daily={daily}
        columns={[
          {
            header: "Ingresos",
            value: (point) => formatPrice(point.revenueCents, { cents: "always" }),
          },
          { header: "Pedidos", value: (point) => formatCount(point.orders) },
        ]}
      />
    </section>
  );
}
