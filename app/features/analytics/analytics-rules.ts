/** What the beacon reports (issue #17): a page view, or a step of the sales funnel. */
export const analyticsKinds = ["view", "purchase_dialog", "enquiry", "signup", "payment"] as const;
export type AnalyticsKind = (typeof analyticsKinds)[number];

export const BEACON_PATH = "/api/analitica";

/** A visit ends after 30 minutes without a page view, as most analytics tools count it. */
export const VISIT_IDLE_SECONDS = 30 * 60;

/**
 * The path a view is counted under, or null when it is not counted: staff pages and the
 * developer mailbox are not the public's visits, and a customer's ticket or purchase pages count
 * as their section (their ids would say nothing and could identify someone).
 */
export function trackedPath(pathname: string): string | null {
  if (!/^\/[\w\-/.]{0,120}$/.test(pathname)) return null;
  if (/^\/(admin|dev|login)(\/|$)/.test(pathname)) return null;
  if (pathname.startsWith("/mi-cuenta/")) return "/mi-cuenta";
  if (pathname.startsWith("/pago-simulado/")) return "/pago-simulado";
  return pathname.length > 1 ? pathname.replace(/\/$/, "") : pathname;
}
