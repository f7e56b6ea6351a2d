/** Numbers as Spain writes them (es-ES): 1.000.000, 45 %. Four digits stay together: 1000. */

const counts = new Intl.NumberFormat("es-ES");
const percents = new Intl.NumberFormat("es-ES", { style: "percent", maximumFractionDigits: 0 });

export function formatCount(value: number): string {
  return counts.format(value);
}

/** `fraction` of 1 as a percentage: 0.45 → "45 %". */
export function formatPercent(fraction: number): string {
  return percents.format(fraction);
}
