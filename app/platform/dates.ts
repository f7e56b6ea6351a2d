/**
 * Dates as the site shows them. Every formatter names Spain's time zone: the server renders in
 * UTC and a visitor's browser in its own zone, and without one shared zone the hydrated text
 * would differ from the server's (a hydration error, and a time that jumps on screen).
 */
export const SITE_TIME_ZONE = "Europe/Madrid";

const STYLES = {
  /** 22 nov 2026 */
  date: { dateStyle: "medium" },
  /** noviembre de 2026 */
  monthYear: { month: "long", year: "numeric" },
  /** 22/11/26, 19:32 */
  shortDateTime: { dateStyle: "short", timeStyle: "short" },
  /** 22/11/26, 19:32:05 */
  shortDateTimeSeconds: { dateStyle: "short", timeStyle: "medium" },
  /** 22 de noviembre de 2026, 19:32 */
  longDateTime: { dateStyle: "long", timeStyle: "short" },
} satisfies Record<string, Intl.DateTimeFormatOptions>;

export type DateStyle = keyof typeof STYLES;

// Created on first use: building an Intl formatter is far dearer than using one.
const formatters = new Map<DateStyle, Intl.DateTimeFormat>();

export function formatDate(value: Date | string | number, style: DateStyle): string {
  let formatter = formatters.get(style);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("es-ES", { ...STYLES[style], timeZone: SITE_TIME_ZONE });
    formatters.set(style, formatter);
  }
  return formatter.format(new Date(value));
}
