import { Bar, CartesianGrid, ComposedChart, Legend, Line, Tooltip, XAxis, YAxis } from "recharts";
import { formatPrice } from "~/features/catalogue/services";
import { chartDay, type DailyPoint } from "./admin-chart-data";
import { SITE_LOCALE } from "~/platform/locale";

/**
 * The dashboard's chart: completed revenue a day as bars, orders a day as a line. Loaded with
 * `React.lazy` only in the browser and only by the admin page (recharts is large); its wrapper,
 * summary and table of the same figures are rendered by the server (admin-dashboard.tsx).
 */

const BRAND = "#2452d9"; // --color-brand-600
const ORDERS = "#c2410c"; // orange-700: 5.2:1 on white, apart from the bars' blue
const GRID = "#e2e8f0";
const AXIS = "#475569";

const compactEuros = new Intl.NumberFormat(SITE_LOCALE.intl, {
  style: "currency",
  currency: "EUR",
  notation: "compact",
  maximumFractionDigits: 1,
});

export default function RevenueChart({ daily }: { daily: readonly DailyPoint[] }) {
  const data = daily.map((point) => ({
    day: point.day,
    revenue: point.revenueCents / 100,
    orders: point.orders,
  }));
  return (
    <ComposedChart
      responsive
      data={data}
      accessibilityLayer={false}
      margin={{ top: 8, right: 4, bottom: 0, left: 4 }}
      style={{ width: "100%", height: 300 }}
    >
      <CartesianGrid stroke={GRID} vertical={false} />
      <XAxis
        dataKey="day"
        tickFormatter={(day: string) => chartDay(day, "short")}
        tick={{ fill: AXIS, fontSize: 12 }}
        tickLine={false}
        axisLine={{ stroke: GRID }}
        minTickGap={24}
      />
      <YAxis
        yAxisId="revenue"
        tickFormatter={(euros: number) => compactEuros.format(euros)}
        tick={{ fill: AXIS, fontSize: 12 }}
        tickLine={false}
        axisLine={false}
        width={64}
      />
      <YAxis
        yAxisId="orders"
        orientation="right"
        allowDecimals={false}
        tick={{ fill: AXIS, fontSize: 12 }}
        tickLine={false}
        axisLine={false}
        width={40}
      />
      <Tooltip
        labelFormatter={(day) => chartDay(String(day), "long")}
        formatter={(value, name) =>
          name === "Ingresos"
            ? [formatPrice(Math.round(Number(value) * 100), { cents: "always" }), name]
            : [String(value), name]
        }
      />
      <Legend wrapperStyle={{ fontSize: 13 }} />
      <Bar
        yAxisId="revenue"
        dataKey="revenue"
        name="Ingresos"
        fill={BRAND}
        radius={[3, 3, 0, 0]}
        maxBarSize={14}
        isAnimationActive={false}
      />
      <Line
        yAxisId="orders"
        dataKey="orders"
        name="Pedidos"
        type="monotone"
        stroke={ORDERS}
        strokeWidth={2}
        dot={false}
        isAnimationActive={false}
      />
    </ComposedChart>
  );
}
