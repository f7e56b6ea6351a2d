import {
  ANALYTICS_COOKIE,
  ANALYTICS_COOKIE_MONTHS,
  analyticsAllowed,
  forgetAnalyticsCookie,
} from "~/features/consent/cookie-consent";
import {
  BEACON_PATH,
  trackedPath,
  VISIT_IDLE_SECONDS,
  type AnalyticsKind,
} from "./analytics-rules";

type Visit = { id: string; returning: boolean };

/** 32 hex digits; getRandomValues, unlike randomUUID, works outside secure contexts too. */
const randomVisitId = () =>
  Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) =>
    byte.toString(16).padStart(2, "0"),
  ).join("");

/** The visit this view belongs to, from the analytics cookie, renewed on every view. */
function currentVisit(now: number): Visit {
  const stored = document.cookie.match(
    new RegExp(`(?:^|; )${ANALYTICS_COOKIE}=([\\w-]+)\\.(\\d+)\\.([01])`),
  );
  const idle = stored ? now - Number(stored[2]) > VISIT_IDLE_SECONDS : true;
  const visit = {
    id: stored && !idle ? stored[1]! : randomVisitId(),
    // A visitor whose cookie outlived an earlier visit is returning.
    returning: stored ? idle || stored[3] === "1" : false,
  };
  const secure = location.protocol === "https:" ? "; Secure" : "";
  document.cookie = `${ANALYTICS_COOKIE}=${visit.id}.${now}.${visit.returning ? 1 : 0}; Max-Age=${
    ANALYTICS_COOKIE_MONTHS * 30 * 86_400
  }; Path=/; SameSite=Lax${secure}`;
  return visit;
}

function privacySignal() {
  const nav = navigator as Navigator & { globalPrivacyControl?: boolean };
  return nav.globalPrivacyControl === true || nav.doNotTrack === "1";
}

/**
 * Reports a page view or a funnel step. Without analytics consent (or with Do Not Track / Global
 * Privacy Control) it carries only the page and the referrer: no cookie is read, written or sent.
 */
export function track(kind: AnalyticsKind, pathname = location.pathname, referrer = "") {
  const path = trackedPath(pathname);
  if (!path) return;
  const consented = analyticsAllowed(localStorage) && !privacySignal();
  if (!consented) forgetAnalyticsCookie(document);
  const visit = consented ? currentVisit(Math.floor(Date.now() / 1000)) : undefined;
  const body = JSON.stringify({
    kind,
    path,
    referrer,
    visit: visit?.id,
    returning: visit?.returning,
  });
  // A beacon that outlives the page (keepalive, as sendBeacon) but, unlike sendBeacon, never
  // carries a cookie: the server needs none, and a visitor's session cookie is not its business.
  fetch(BEACON_PATH, { method: "POST", body, keepalive: true, credentials: "omit" }).catch(
    () => undefined,
  );
}

/**
 * Reports a page view (the first of a visit with its referrer) once the page is really seen: a
 * prerendered page (the browser guessing the next click) only when the visitor opens it.
 * Returns the way to call it off.
 */
export function reportPageView(pathname: string, referrer: string): () => void {
  const report = () => track("view", pathname, referrer);
  if (!(document as Document & { prerendering?: boolean }).prerendering) {
    report();
    return () => undefined;
  }
  document.addEventListener("prerenderingchange", report, { once: true });
  return () => document.removeEventListener("prerenderingchange", report);
}
