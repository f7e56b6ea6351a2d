import { Cookie } from "lucide-react";
import { useEffect, useId, useRef, useState, useSyncExternalStore } from "react";
import { Link, useLocation } from "react-router";
import { Button } from "~/ui/button";
import { CloseButton } from "~/ui/close-button";
import {
  forgetAnalyticsCookie,
  BANNER_DELAY_MS,
  OPEN_SETTINGS_EVENT,
  readStoredConsent,
  storeConsent,
  type ConsentChoice,
} from "./cookie-consent";

/** The stored choice changes only through this banner, which then hides itself. */
const noSubscription = () => () => undefined;

/** "waiting": rendered below the screen, hidden from everyone, until it slides in. */
type View = "waiting" | "hidden" | "main" | "settings";

/** Where focus goes when the banner closes and no control outside it had focus before. */
const SKIP_LINK_SELECTOR = "a[href='#contenido']";

/**
 * The consent banner: slides in after 1 s until the visitor makes a choice that still holds
 * (see cookie-consent.ts). The server renders it below the screen, so showing it is a move, not
 * new content: the page's own content stays its largest paint. It comes first in the document,
 * so the first Tab reaches it while it is open. 'Configurar cookies' in the footer reopens its
 * settings at any time. Without JavaScript it never shows (nothing to consent to).
 */
/**
 * The staff's sign-in and panel set no cookie that needs consent, and the banner would cover
 * their forms: staff choose on the public site like anyone else.
 */
const STAFF_PAGES = /^\/(admin|login)(\/|$)/;

export function CookieBanner() {
  const [view, setView] = useState<View>("waiting");
  const [analytics, setAnalytics] = useState(false);
  const titleId = useId();
  const staffPage = STAFF_PAGES.test(useLocation().pathname);
  const panelRef = useRef<HTMLDivElement>(null);
  // The control that had focus before the banner took it, to give it back on close.
  const returnFocusTo = useRef<HTMLElement | null>(null);

  // False while hydrating (the server cannot know), then whether a valid record is stored.
  const choiceStored = useSyncExternalStore(
    noSubscription,
    () => readStoredConsent(window.localStorage) !== null,
    () => false,
  );

  useEffect(() => {
    if (choiceStored) return;
    const timer = window.setTimeout(() => setView("main"), BANNER_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [choiceStored]);

  useEffect(() => {
    const openSettings = () => {
      const active = document.activeElement;
      returnFocusTo.current = active instanceof HTMLElement ? active : null;
      setAnalytics(readStoredConsent(window.localStorage)?.preferences.analytics ?? false);
      setView("settings");
    };
    window.addEventListener(OPEN_SETTINGS_EVENT, openSettings);
    return () => window.removeEventListener(OPEN_SETTINGS_EVENT, openSettings);
  }, []);

  // Opened on request, the settings take focus, as a dialog the visitor asked for should.
  useEffect(() => {
    if (view === "settings") panelRef.current?.querySelector<HTMLElement>("[role=switch]")?.focus();
  }, [view]);

  if (staffPage || view === "hidden" || (choiceStored && view === "waiting")) return null;
  const waiting = view === "waiting";

  const close = () => {
    const focused = document.activeElement;
    const focusWasInside = panelRef.current?.contains(focused) ?? false;
    setView("hidden");
    if (!focusWasInside) return;
    const opener = returnFocusTo.current;
    returnFocusTo.current = null;
    if (opener?.isConnected) return opener.focus();
    // A keyboard user who came from the top of the page goes on from there; a mouse user's
    // focus is simply let go, so no skip link appears under their pointer.
    if (focused?.matches(":focus-visible")) {
      document.querySelector<HTMLElement>(SKIP_LINK_SELECTOR)?.focus();
    } else if (focused instanceof HTMLElement) {
      focused.blur();
    }
  };

  const choose = (choice: ConsentChoice, withAnalytics: boolean) => {
    storeConsent(window.localStorage, choice, withAnalytics);
    if (!withAnalytics) forgetAnalyticsCookie(document);
    close();
  };

  return (
    <section
      role="dialog"
      aria-modal="false"
      aria-labelledby={titleId}
      aria-hidden={waiting || undefined}
      inert={waiting || undefined}
      onFocus={(event) => {
        // Remember where the visitor came from (a Tab from a page control) before entering.
        const from = event.relatedTarget;
        if (from instanceof HTMLElement && !event.currentTarget.contains(from)) {
          returnFocusTo.current = from;
        }
      }}
      onKeyDown={(event) => {
        if (event.key === "Escape" && !waiting) close();
      }}
      className={`fixed inset-x-0 bottom-0 z-50 p-2 transition-transform duration-300 ease-out motion-reduce:transition-none sm:p-4 ${
        waiting ? "translate-y-[calc(100%+2rem)]" : "translate-y-0"
      }`}
    >
      <div
        ref={panelRef}
        className="relative mx-auto max-h-[80dvh] max-w-3xl overflow-y-auto rounded-2xl border border-slate-200 bg-white p-4 shadow-2xl sm:p-6"
      >
        {view !== "settings" ? (
          <>
            <div className="flex items-start gap-3 pr-8">
              <Cookie
                className="mt-0.5 hidden size-6 shrink-0 text-brand-600 sm:block"
                aria-hidden
              />
              <div>
                <h2 id={titleId} className="text-base font-semibold">
                  Utilizamos cookies
                </h2>
                <p className="mt-1 text-[13px] leading-5 text-slate-600 sm:text-sm sm:leading-6">
                  Usamos cookies esenciales para que el sitio funcione y, solo si lo aceptas,
                  cookies de analítica para mejorarlo. Puedes cambiar tu elección cuando quieras.
                  Más información en la{" "}
                  <Link to="/cookies" className="font-medium text-brand-700 underline">
                    Política de Cookies
                  </Link>
                  .
                </p>
              </div>
            </div>
            <div className="mt-3 grid grid-cols-2 gap-2 sm:mt-4 sm:flex sm:justify-end">
              <Button
                variant="ghost"
                className="col-span-2 h-9 sm:h-11"
                onClick={() => setView("settings")}
              >
                Personalizar
              </Button>
              <Button
                variant="secondary"
                className="px-2 sm:px-5"
                onClick={() => choose("rejected", false)}
              >
                Solo Esenciales
              </Button>
              <Button className="px-2 sm:px-5" onClick={() => choose("accepted", true)}>
                Aceptar Todas
              </Button>
            </div>
          </>
        ) : (
          <>
            <h2 id={titleId} className="pr-8 text-base font-semibold">
              Preferencias de cookies
            </h2>
            <ul className="mt-3 divide-y divide-slate-200 rounded-lg border border-slate-200 sm:mt-4">
              <li className="flex items-center justify-between gap-4 p-3 sm:p-4">
                <div>
                  <p className="text-sm font-semibold text-ink">Esenciales</p>
                  <p className="text-[13px] text-slate-600 sm:text-sm">
                    Necesarias para la sesión y para recordar tu elección. Siempre activas.
                  </p>
                </div>
                <span className="text-sm font-medium text-emerald-700">Siempre activas</span>
              </li>
              <li className="flex items-center justify-between gap-4 p-3 sm:p-4">
                <div>
                  <p id={`${titleId}-analytics`} className="text-sm font-semibold text-ink">
                    Analítica
                  </p>
                  <p className="text-[13px] text-slate-600 sm:text-sm">
                    Una cookie propia que une las páginas de tu visita y nos dice si vuelves. Sin
                    terceros.
                  </p>
                </div>
                <Switch
                  checked={analytics}
                  onChange={setAnalytics}
                  labelledBy={`${titleId}-analytics`}
                />
              </li>
            </ul>
            <div className="mt-3 grid grid-cols-[auto_1fr] gap-2 sm:mt-4 sm:flex sm:justify-end">
              <Button variant="secondary" onClick={() => setView("main")}>
                Cancelar
              </Button>
              <Button onClick={() => choose("custom", analytics)}>Guardar Preferencias</Button>
            </div>
          </>
        )}
        {/* Last in the focus order: the choices come first, closing is the way out. */}
        <CloseButton onClick={close} className="top-2 right-2 sm:top-3 sm:right-3" />
      </div>
    </section>
  );
}

function Switch({
  checked,
  onChange,
  labelledBy,
}: {
  checked: boolean;
  onChange: (value: boolean) => void;
  labelledBy: string;
}) {
  return (
    <button
      type="button"
      role="switch"
      aria-checked={checked}
      aria-labelledby={labelledBy}
      onClick={() => onChange(!checked)}
      className={`relative inline-flex h-6 w-11 shrink-0 items-center rounded-full transition-colors ${
        checked ? "bg-brand-600" : "bg-slate-300"
      }`}
    >
      <span
        className={`inline-block size-5 rounded-full bg-white shadow transition-transform ${
          checked ? "translate-x-5" : "translate-x-0.5"
        }`}
      />
    </button>
  );
}
