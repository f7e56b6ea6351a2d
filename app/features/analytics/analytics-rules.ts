/**
 * What the beacon reports (issue #17): a page view, or a step of a visit towards a sale. Sign-ups
 * and payments are not among them: anyone can send a beacon, so those are counted from our own
 * records (decision 035).
 */
export const analyticsKinds = ["view", "purchase_dialog", "enquiry"] as const;
export type AnalyticsKind = (typeof analyticsKinds)[number];

/** The row every referring site outside `knownReferrers` is counted under. */
export const OTHER_REFERRERS = "otros sitios";

/**
 * Referring sites listed by name (search engines, social networks, AI assistants): a beacon's
 * referrer is whatever its sender wrote, so a site we do not know is counted, never named.
 * Each entry matches the host and its subdomains; `google.*` any of Google's country domains.
 */
const knownReferrers = [
  /^google\.(?:[a-z]{2,3}|com?\.[a-z]{2})$/,
  /^(?:bing|duckduckgo|yahoo|ecosia|qwant|startpage|yandex|baidu)\.[a-z.]{2,6}$/,
  /^search\.brave\.com$/,
  /^(?:l\.|lm\.)?facebook\.com$/,
  /^(?:instagram|linkedin|pinterest|reddit|tiktok|youtube|threads|bsky)\.(?:com|app|net)$/,
  /^(?:x|twitter)\.com$/,
  /^(?:t\.co|lnkd\.in|t\.me|wa\.me)$/,
  /^(?:chatgpt\.com|chat\.openai\.com|perplexity\.ai|gemini\.google\.com|copilot\.microsoft\.com)$/,
];

/** The name a referring host is listed under: itself when known, otherwise OTHER_REFERRERS. */
export function listedReferrer(host: string): string {
  const bare = host.replace(/^(?:www|m|mobile)\./, "");
  return knownReferrers.some((known) => known.test(bare)) ? bare : OTHER_REFERRERS;
}

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
