/**
 * Values as AEAT's VERI*FACTU schema writes them (Orden HAC/1177/2024 and the record
 * specification): dates dd-mm-aaaa and timestamps with their offset, both in Spain's peninsular
 * time, where the company is; amounts with a point and two decimals.
 */
export const SPAIN_TIME_ZONE = "Europe/Madrid";

const dateParts = new Intl.DateTimeFormat("en-GB", {
  timeZone: SPAIN_TIME_ZONE,
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  hourCycle: "h23",
  timeZoneName: "longOffset",
});

function partsOf(instant: Date) {
  const parts = Object.fromEntries(
    dateParts.formatToParts(instant).map((part) => [part.type, part.value]),
  ) as Record<Intl.DateTimeFormatPartTypes, string>;
  // "GMT+01:00"; "GMT" alone would be an offset of zero, which Spain never has.
  const offset = parts.timeZoneName.replace("GMT", "") || "+00:00";
  return { ...parts, offset };
}

/** dd-mm-aaaa: FechaExpedicionFactura and the QR's `fecha`. */
export function aeatDate(instant: Date): string {
  const { day, month, year } = partsOf(instant);
  return `${day}-${month}-${year}`;
}

/** aaaa-mm-ddThh:mm:ss+hh:mm: FechaHoraHusoGenRegistro. */
export function aeatTimestamp(instant: Date): string {
  const { year, month, day, hour, minute, second, offset } = partsOf(instant);
  return `${year}-${month}-${day}T${hour}:${minute}:${second}${offset}`;
}

/** Cents as AEAT's decimal: 12345 → "123.45", -1235 → "-12.35". */
export function aeatAmount(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  const absolute = Math.abs(cents);
  return `${sign}${Math.floor(absolute / 100)}.${String(absolute % 100).padStart(2, "0")}`;
}

/** A tax rate in percent as a decimal: 21 → "21.00". */
export function aeatRate(percent: number): string {
  return percent.toFixed(2);
}
