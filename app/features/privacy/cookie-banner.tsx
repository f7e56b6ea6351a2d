import { Cookie, X } from "lucide-react";
import { useEffect, useId, useState, useSyncExternalStore } from "react";
import { Link } from "react-router";
import { Button } from "~/ui/button";
import { BANNER_DELAY_MS, readStoredConsent, storeConsent } from "./cookie-consent";

/** The stored choice changes only through this banner, which then hides itself. */
const noSubscription = () => () => undefined;

/** "waiting": rendered below the screen, hidden from everyone, until it slides in. */
type View = "waiting" | "hidden" | "main" | "settings";

/**
 * The consent banner: slides in after 1 s until the visitor makes a choice. The server renders
 * it below the screen, so showing it is a move, not new content: the page's own content stays
 * its largest paint. Without JavaScript it never shows (nothing to consent to).
 */
export function CookieBanner() {
  const [view, setView] = useState<View>("waiting");
  const [analytics, setAnalytics] = useState(false);
  const titleId = useId();

  // False while hydrating (the server cannot know), then what this browser has stored.
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

  if (view === "hidden" || (choiceStored && view === "waiting")) return null;
  const waiting = view === "waiting";

  const choose = (choice: "accepted" | "rejected" | "custom", withAnalytics: boolean) => {
    storeConsent(window.localStorage, choice, withAnalytics);
    setView("hidden");
  };

  return (
    <section
      role="dialog"
      aria-modal="false"
      aria-labelledby={titleId}
      aria-hidden={waiting || undefined}
      inert={waiting || undefined}
      className={`fixed inset-x-0 bottom-0 z-50 p-3 transition-transform duration-300 ease-out motion-reduce:transition-none sm:p-4 ${
        waiting ? "translate-y-[calc(100%+2rem)]" : "translate-y-0"
      }`}
    >
      <div className="relative mx-auto max-w-3xl rounded-2xl border border-slate-200 bg-white p-5 shadow-2xl sm:p-6">
        <button
          type="button"
          onClick={() => setView("hidden")}
          aria-label="Cerrar"
          className="absolute top-3 right-3 inline-flex size-9 items-center justify-center rounded-md text-slate-500 hover:bg-slate-100 hover:text-ink"
        >
          <X className="size-5" aria-hidden />
        </button>
        {view !== "settings" ? (
          <>
            <div className="flex items-start gap-3 pr-8">
              <Cookie className="mt-0.5 size-6 shrink-0 text-brand-600" aria-hidden />
              <div>
                <h2 id={titleId} className="text-base font-semibold">
                  Utilizamos cookies
                </h2>
                <p className="mt-1 text-sm leading-6 text-slate-600">
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
            <div className="mt-4 flex flex-col gap-2 sm:flex-row sm:justify-end">
              <Button variant="ghost" onClick={() => setView("settings")}>
                Personalizar
              </Button>
              <Button variant="secondary" onClick={() => choose("rejected", false)}>
                Solo Esenciales
              </Button>
              <Button onClick={() => choose("accepted", true)}>Aceptar Todas</Button>
            </div>
          </>
        ) : (
          <>
            <h2 id={titleId} className="pr-8 text-base font-semibold">
              Preferencias de cookies
            </h2>
            <ul className="mt-4 divide-y divide-slate-200 rounded-lg border border-slate-200">
              <li className="flex items-center justify-between gap-4 p-4">
                <div>
                  <p className="text-sm font-semibold text-ink">Esenciales</p>
                  <p className="text-sm text-slate-600">
                    Necesarias para la sesión y para recordar tu elección. Siempre activas.
                  </p>
                </div>
                <span className="text-sm font-medium text-emerald-700">Siempre activas</span>
              </li>
              <li className="flex items-center justify-between gap-4 p-4">
                <div>
                  <p id={`${titleId}-analytics`} className="text-sm font-semibold text-ink">
                    Analítica
                  </p>
                  <p className="text-sm text-slate-600">
                    Nos ayudan a entender cómo se usa el sitio, de forma agregada.
                  </p>
                </div>
                <Switch
                  checked={analytics}
                  onChange={setAnalytics}
                  labelledBy={`${titleId}-analytics`}
                />
              </li>
            </ul>
            <div className="mt-4 flex flex-col gap-2 sm:flex-row sm:justify-end">
              <Button variant="secondary" onClick={() => setView("main")}>
                Cancelar
              </Button>
              <Button onClick={() => choose("custom", analytics)}>Guardar Preferencias</Button>
            </div>
          </>
        )}
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
