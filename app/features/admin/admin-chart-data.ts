import { formatPrice } from "~/features/catalogue/services";
import { SITE_LOCALE } from "~/platform/locale";

/** One day of the dashboard's chart: a Madrid calendar day, "YYYY-MM-DD". */
export type DailyPoint = { day: string; revenueCents: number; orders: number };

// Its own formatter (not ui/numbers): this module is shared with the chart's lazy chunk, and
// a ui module shared by two chunks would join the chunk every public page loads.
const counts = new Intl.NumberFormat(SITE_LOCALE.intl);
const formatCount = (value: number) => counts.format(value);

const dayFormats = {
  /** 3 mar */
  short: new Intl.DateTimeFormat(SITE_LOCALE.intl, {
    day: "numeric",
    month: "short",
    timeZone: "UTC",
  }),
  /** 3 mar 2026 */
  medium: new Intl.DateTimeFormat(SITE_LOCALE.intl, { dateStyle: "medium", timeZone: "UTC" }),
  /** martes, 3 de marzo de 2026 */
  long: new Intl.DateTimeFormat(SITE_LOCALE.intl, { dateStyle: "full", timeZone: "UTC" }),
};

/**
 * A chart day in Spanish. The day is already Madrid's calendar day: it is read and written at
 * UTC midnight so no time zone moves it.
 */
export function chartDay(day: string, style: keyof typeof dayFormats): string {
  return dayFormats[style].format(new Date(`${day}T00:00:00Z`));
}

/** What the chart shows, in one sentence: the accessible name of its image. */
export function chartSummary(daily: readonly DailyPoint[]): string {
  if (daily.length === 0) return "Ingresos y pedidos: sin datos.";
  const revenue = daily.reduce((total, point) => total + point.revenueCents, 0);
  const orders = daily.reduce((total, point) => total + point.orders, 0);
  const best = daily.reduce((top, point) => (point.revenueCents > top.revenueCents ? point : top));
  const span = `del ${chartDay(daily[0]!.day, "medium")} al ${chartDay(daily.at(-1)!.day, "medium")}`;
  const totals = `${formatPrice(revenue, { cents: "always" })} en ${formatCount(orders)} ${
    orders === 1 ? "pedido" : "pedidos"
  }`;
  const peak =
    best.revenueCents > 0
      ? `; el mejor día, ${chartDay(best.day, "medium")}, con ${formatPrice(best.revenueCents, {
          cents: "always",
        })} en ${formatCount(best.orders)} ${best.orders === 1 ? "pedido" : "pedidos"}`
      : "";
  return `Gráfico de ingresos y pedidos por día, ${span}: ${totals}${peak}.`;
}
