import { StatCardGrid } from "~/ui/signed-in/stat-cards";
import { Link } from "react-router";
import { formatPrice } from "~/features/catalogue/services";
import { DataTable } from "~/ui/signed-in/data-table";
import { DailyFiguresTable } from "./daily-figures-table";
import { formatCount } from "~/ui/numbers";
import { chartDay } from "./admin-chart-data";
import type { AdminAnalytics } from "./analytics-revenue.server";
import { analyticsPeriods } from "./admin-tabs";
import { SITE_LOCALE } from "~/platform/locale";

const percent = new Intl.NumberFormat(SITE_LOCALE.intl, {
  style: "percent",
  maximumFractionDigits: 1,
});
const share = (part: number, whole: number) => (whole > 0 ? percent.format(part / whole) : "—");

/** Analítica (issue #17): visits, pages, referrers and the funnel, next to the period's revenue. */
export function AdminAnalyticsSection({ report }: { report: AdminAnalytics }) {
  const { funnel } = report;
  const cards = [
    { label: "Páginas vistas", value: formatCount(report.views) },
    { label: "Visitantes únicos (suma diaria)", value: formatCount(report.visitors) },
    { label: "Visitas con analítica aceptada", value: formatCount(funnel.visits) },
    { label: "Ingresos del periodo", value: formatPrice(report.revenueCents, { cents: "always" }) },
    { label: "Pedidos del periodo", value: formatCount(report.orders) },
    { label: "Vistas desde el móvil", value: share(report.mobileViews, report.views) },
  ];
  const steps = [
    { label: "Visitas (entrada en el sitio)", value: funnel.visits },
    { label: "Vieron una página de servicio", value: funnel.serviceVisits },
    { label: "Abrieron la compra", value: funnel.dialogVisits },
    { label: "Enviaron una consulta", value: funnel.convertedVisits },
  ];
  return (
    <>
      <nav aria-label="Periodo" className="mt-5 flex gap-2">
        {analyticsPeriods.map((days) => (
          <Link
            key={days}
            to={
              days === analyticsPeriods[0]
                ? "/admin?tab=analitica"
                : `/admin?tab=analitica&dias=${days}`
            }
            aria-current={days === report.days ? "page" : undefined}
            className="rounded-full px-4 py-1.5 text-sm font-semibold ring-1 ring-slate-300 aria-[current=page]:bg-brand-700 aria-[current=page]:text-white aria-[current=page]:ring-brand-700"
          >
            Últimos {days} días
          </Link>
        ))}
      </nav>
      <div className="mt-5">
        <StatCardGrid cards={cards} columns="md:grid-cols-3" />
      </div>
      <VisitsChart daily={report.daily} />
      <div className="mt-8 grid grid-cols-1 gap-8 xl:grid-cols-2">
        <section
          aria-labelledby="embudo"
          className="min-w-0 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6"
        >
          <h2 id="embudo" className="text-lg font-semibold">
            Embudo por visita
          </h2>
          <p className="mt-1 text-sm text-slate-600">
            Solo visitas de quien aceptó la analítica. {formatCount(funnel.returningVisits)} de
            ellas fueron de visitantes que ya habían venido.
          </p>
          <ol className="mt-4 space-y-3">
            {steps.map((step, index) => (
              <li key={step.label}>
                <div className="flex justify-between gap-3 text-sm">
                  <span>
                    {index + 1}. {step.label}
                  </span>
                  <span className="font-semibold tabular-nums">
                    {formatCount(step.value)}
                    {index > 0 ? ` (${share(step.value, funnel.visits)})` : ""}
                  </span>
                </div>
                <div className="mt-1 h-2 rounded-full bg-slate-100" aria-hidden>
                  <div
                    className="h-2 rounded-full bg-brand-600"
                    style={{
                      width: funnel.visits > 0 ? `${(step.value / funnel.visits) * 100}%` : 0,
                    }}
                  />
                </div>
              </li>
            ))}
          </ol>
          <p className="mt-4 text-sm text-slate-600">
            Según nuestros registros, en el periodo: {formatCount(report.conversions.enquiries)}{" "}
            consultas, {formatCount(report.conversions.signups)} registros y{" "}
            {formatCount(report.conversions.payments)} pagos.
          </p>
        </section>
        <div className="grid min-w-0 gap-8">
          <TopTable caption="Páginas más vistas" header="Página" rows={report.pages} />
          <TopTable caption="Sitios de procedencia" header="Sitio" rows={report.referrers} />
        </div>
      </div>
    </>
  );
}

function TopTable({
  caption,
  header,
  rows,
}: {
  caption: string;
  header: string;
  rows: readonly { key: string; name?: string; views: number }[];
}) {
  return (
    <section className="min-w-0">
      <h2 className="text-lg font-semibold">{caption}</h2>
      {rows.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">Sin datos en este periodo.</p>
      ) : (
        <DataTable caption={caption} headers={[header, "Vistas"]} className="mt-3">
          {rows.map((row) => (
            <tr key={row.key}>
              <td className="px-4 py-2 break-all">
                {row.name ?? row.key}
                {row.name && row.name !== row.key ? (
                  <span className="block text-xs text-slate-500">{row.key}</span>
                ) : null}
              </td>
              <td className="px-4 py-2 tabular-nums">{formatCount(row.views)}</td>
            </tr>
          ))}
        </DataTable>
      )}
    </section>
  );
}

const CHART_WIDTH = 720;
const CHART_HEIGHT = 220;

/** The smallest of 1, 2, 5 or 10 times a power of ten at or above `value`: the chart's top. */
export function chartScaleTop(value: number): number {
  const magnitude = 10 ** Math.floor(Math.log10(Math.max(1, value)));
  return [1, 2, 5, 10].map((step) => step * magnitude).find((top) => top >= value)!;
}

/**
 * Views (bars) and unique visitors (line) per day, drawn by the server as SVG: no script, and
 * one image named by a summary; the same figures in a table for screen readers and keyboards.
 * Its axes are HTML beside the drawing (the drawing stretches to the width; text in it would too).
 */
function VisitsChart({ daily }: { daily: AdminAnalytics["daily"] }) {
  const top = chartScaleTop(Math.max(...daily.map((day) => day.views)));
  const ticks = [top, top / 2, 0].filter((tick) => Number.isInteger(tick));
  const step = CHART_WIDTH / daily.length;
  const y = (value: number) => CHART_HEIGHT - (value / top) * CHART_HEIGHT;
  const views = daily.reduce((total, day) => total + day.views, 0);
  const dayLabels = [daily[0]!, daily[Math.floor((daily.length - 1) / 2)]!, daily.at(-1)!];
  const summary = `Gráfico de páginas vistas y visitantes únicos por día, del ${chartDay(
    daily[0]!.day,
    "medium",
  )} al ${chartDay(daily.at(-1)!.day, "medium")}: ${formatCount(views)} páginas vistas.`;
  return (
    <section
      aria-labelledby="grafico-visitas"
      className="mt-8 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6"
    >
      <h2 id="grafico-visitas" className="text-lg font-semibold">
        Visitas por día (últimos {daily.length} días)
      </h2>
      <div className="mt-4 flex gap-2">
        <div
          // As tall as the drawing, not the column with the dates under it: each number at its line.
          className="relative h-48 w-12 shrink-0 self-start text-right text-xs text-slate-600 tabular-nums sm:h-56"
          aria-hidden
          data-chart-axis="y"
        >
          {ticks.map((tick) => (
            <span
              key={tick}
              className="absolute right-0 -translate-y-1/2 leading-none"
              style={{ top: `${(1 - tick / top) * 100}%` }}
            >
              {formatCount(tick)}
            </span>
          ))}
        </div>
        <div className="min-w-0 flex-1">
          <svg
            role="img"
            aria-label={summary}
            viewBox={`0 0 ${CHART_WIDTH} ${CHART_HEIGHT}`}
            preserveAspectRatio="none"
            className="block h-48 w-full border-b border-slate-300 sm:h-56"
          >
            {ticks
              .filter((tick) => tick > 0)
              .map((tick) => (
                <line
                  key={tick}
                  x1={0}
                  x2={CHART_WIDTH}
                  y1={y(tick)}
                  y2={y(tick)}
                  className="stroke-slate-200"
                  vectorEffect="non-scaling-stroke"
                />
              ))}
            {daily.map((day, index) => (
              <rect
                key={day.day}
                x={index * step + step * 0.15}
                width={step * 0.7}
                y={y(day.views)}
                height={CHART_HEIGHT - y(day.views)}
                className="fill-brand-200"
              />
            ))}
            <polyline
              fill="none"
              className="stroke-brand-700"
              strokeWidth={2}
              vectorEffect="non-scaling-stroke"
              points={daily
                .map((day, index) => `${index * step + step / 2},${y(day.visitors)}`)
                .join(" ")}
            />
          </svg>
          <p
            className="mt-1 flex justify-between text-xs text-slate-600"
            aria-hidden
            data-chart-axis="x"
          >
            {dayLabels.map((day, index) => (
              <span key={`${index}-${day.day}`}>{chartDay(day.day, "short")}</span>
            ))}
          </p>
        </div>
      </div>
      <p className="mt-2 flex gap-4 text-xs text-slate-600" aria-hidden>
        <span>
          <span className="mr-1 inline-block size-3 rounded-sm bg-brand-200" />
          Páginas vistas
        </span>
        <span>
          <span className="mr-1 inline-block h-0.5 w-4 bg-brand-700 align-middle" />
          Visitantes únicos
        </span>
      </p>
      <DailyFiguresTable
        caption="Visitas por día"
        daily={daily}
        columns={[
          { header: "Páginas vistas", value: (day) => formatCount(day.views) },
          { header: "Visitantes únicos", value: (day) => formatCount(day.visitors) },
        ]}
      />
    </section>
  );
}
