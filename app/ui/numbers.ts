import { SITE_LOCALE } from "~/platform/locale";

/** Counts as Spain writes them (es-ES): 1.000.000. Four digits stay together: 1000. */

const counts = new Intl.NumberFormat(SITE_LOCALE.intl);

export function formatCount(value: number): string {
  return counts.format(value);
}
