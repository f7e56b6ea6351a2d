import { useEffect, useRef } from "react";
import { useLocation } from "react-router";
import { track } from "./track";

/**
 * Reports each page view, the first with the referrer. A prerendered page (the browser guessing
 * the next click) is reported only when the visitor actually opens it.
 */
export function PageViewTracker() {
  const { pathname } = useLocation();
  const first = useRef(true);
  useEffect(() => {
    const referrer = first.current ? document.referrer : "";
    first.current = false;
    const report = () => track("view", pathname, referrer);
    const prerendering = (document as Document & { prerendering?: boolean }).prerendering;
    if (!prerendering) return report();
    document.addEventListener("prerenderingchange", report, { once: true });
    return () => document.removeEventListener("prerenderingchange", report);
  }, [pathname]);
  return null;
}
