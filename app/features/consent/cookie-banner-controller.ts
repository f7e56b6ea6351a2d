import {
  BANNER_DELAY_MS,
  forgetAnalyticsCookie,
  readStoredConsent,
  storeConsent,
  type ConsentChoice,
} from "./cookie-consent";

/** Where focus goes when the banner closes and no control outside it had focus before. */
const SKIP_LINK_SELECTOR = "a[href='#contenido']";
const BANNER_SELECTOR = "[data-cookie-banner]";

type View = "main" | "settings";

/**
 * The consent banner's behaviour (decision 038: the same code on light pages and on pages React
 * hydrates). The server renders the banner below the screen, hidden from everyone ('waiting');
 * after 1 s it slides in unless a choice that still holds is stored (cookie-consent.ts). The
 * footer's 'Configurar cookies' (`data-cookie-settings`) reopens its settings at any time.
 * Without JavaScript it never shows (nothing to consent to). Returns the way to stop.
 */
export function controlCookieBanner(doc: Document): () => void {
  const view = doc.defaultView!;
  const banner = () => doc.querySelector<HTMLElement>(BANNER_SELECTOR);
  // The control that had focus before the banner took it, to give it back on close.
  let returnFocusTo: HTMLElement | null = null;

  const show = (which: View) => {
    const element = banner();
    if (!element) return;
    element.hidden = false;
    element.removeAttribute("aria-hidden");
    element.inert = false;
    element.dataset.state = "shown";
    for (const part of element.querySelectorAll<HTMLElement>("[data-view]"))
      part.hidden = part.dataset.view !== which;
    element.setAttribute("aria-labelledby", `cookie-banner-${which}-title`);
  };

  const close = () => {
    const element = banner();
    if (!element) return;
    const focused = doc.activeElement;
    const focusWasInside = element.contains(focused);
    element.hidden = true;
    if (!focusWasInside) return;
    const opener = returnFocusTo;
    returnFocusTo = null;
    if (opener?.isConnected) return opener.focus();
    // A keyboard user who came from the top of the page goes on from there; a mouse user's
    // focus is simply let go, so no skip link appears under their pointer.
    if (focused?.matches(":focus-visible")) {
      doc.querySelector<HTMLElement>(SKIP_LINK_SELECTOR)?.focus();
    } else if (focused instanceof HTMLElement) {
      focused.blur();
    }
  };

  const analyticsSwitch = () => banner()?.querySelector<HTMLElement>("[role=switch]");
  const setAnalytics = (on: boolean) => analyticsSwitch()?.setAttribute("aria-checked", String(on));

  const choose = (choice: ConsentChoice, withAnalytics: boolean) => {
    storeConsent(view.localStorage, choice, withAnalytics);
    if (!withAnalytics) forgetAnalyticsCookie(doc);
    close();
  };

  const openSettings = () => {
    const active = doc.activeElement;
    returnFocusTo = active instanceof HTMLElement ? active : null;
    setAnalytics(readStoredConsent(view.localStorage)?.preferences.analytics ?? false);
    show("settings");
    // Opened on request, the settings take focus, as a dialog the visitor asked for should.
    analyticsSwitch()?.focus();
  };

  const actions: Record<string, () => void> = {
    customise: () => show("settings"),
    "only-essential": () => choose("rejected", false),
    "accept-all": () => choose("accepted", true),
    "toggle-analytics": () =>
      setAnalytics(analyticsSwitch()?.getAttribute("aria-checked") !== "true"),
    cancel: () => show("main"),
    save: () => choose("custom", analyticsSwitch()?.getAttribute("aria-checked") === "true"),
    close,
  };

  const onClick = (event: MouseEvent) => {
    const target = event.target instanceof Element ? event.target : null;
    if (target?.closest("[data-cookie-settings]")) return openSettings();
    const action = target?.closest<HTMLElement>(`${BANNER_SELECTOR} [data-action]`)?.dataset.action;
    if (action && Object.hasOwn(actions, action)) actions[action]!();
  };
  const onKeyDown = (event: KeyboardEvent) => {
    const element = banner();
    if (event.key === "Escape" && element?.dataset.state === "shown" && !element.hidden) close();
  };
  const onFocusIn = (event: FocusEvent) => {
    // Remember where the visitor came from (a Tab from a page control) before entering.
    const element = banner();
    const from = event.relatedTarget;
    if (
      element?.contains(event.target as Node) &&
      from instanceof HTMLElement &&
      !element.contains(from)
    )
      returnFocusTo = from;
  };

  doc.addEventListener("click", onClick);
  doc.addEventListener("keydown", onKeyDown);
  doc.addEventListener("focusin", onFocusIn);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const element = banner();
  if (element && readStoredConsent(view.localStorage)) element.hidden = true;
  else if (element) timer = setTimeout(() => show("main"), BANNER_DELAY_MS);
  return () => {
    clearTimeout(timer);
    doc.removeEventListener("click", onClick);
    doc.removeEventListener("keydown", onKeyDown);
    doc.removeEventListener("focusin", onFocusIn);
  };
}
