import { useEffect, useRef } from "react";
import { useLocation } from "react-router";
import { reportPageView } from "./track";

/** Reports each page view React shows, the first with the referrer. */
export function PageViewTracker() {
  const { pathname } = useLocation();
  const first = useRef(true);
  useEffect(() => {
    const referrer = first.current ? document.referrer : "";
    first.current = false;
    return reportPageView(pathname, referrer);
  }, [pathname]);
  return null;
}
