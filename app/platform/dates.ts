/**
 * Dates as the site shows them. Every formatter names Spain's time zone: the server renders in
 * UTC and a visitor's browser in its own zone, and without one shared zone the hydrated text
 * would differ from the server's (a hydration error, and a time that jumps on screen).
 */
import { SITE_LOCALE } from "~/platform/locale";

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
    formatter = new Intl.DateTimeFormat(SITE_LOCALE.intl, {
      ...STYLES[style],
      timeZone: SITE_TIME_ZONE,
    });
    formatters.set(style, formatter);
  }
  return formatter.format(new Date(value));
}

let dayFormatter: Intl.DateTimeFormat | undefined;

/**
 * The calendar day in Spain of an instant, as AAAA-MM-DD: a sale at 00:20 in Madrid belongs to
 * that day, whatever UTC's date says. (Canadian English writes dates in that order.)
 */
export function siteDay(value: Date | string | number = new Date()): string {
  dayFormatter ??= new Intl.DateTimeFormat("en-CA", {
    timeZone: SITE_TIME_ZONE,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  });
  return dayFormatter.format(new Date(value));
}

/** The year in Spain of an instant: an invoice of 31 December at 23:30 in Madrid is of that year. */
export function siteYear(value: Date | string | number): number {
  return Number(siteDay(value).slice(0, 4));
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * A real calendar day written AAAA-MM-DD, as the staff's date filters and periods take it
 * (2026-02-30 is not one, nor a year before 2000), or null.
 */
export function calendarDay(value: string | null | undefined): string | null {
  const match = value ? DAY.exec(value) : null;
  if (!match) return null;
  const [, year, month, day] = match.map(Number) as [number, number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  const real = date.getUTCFullYear() === year && date.getUTCMonth() === month - 1;
  return real && date.getUTCDate() === day && year >= 2000 ? value! : null;
}
