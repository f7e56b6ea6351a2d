import { Cookie } from "lucide-react";
import { useEffect } from "react";
import { Link, useLocation } from "react-router";
import { Button } from "~/ui/button";
import { CloseButton } from "~/ui/close-button";
import { controlCookieBanner } from "./cookie-banner-controller";

/**
 * The staff's sign-in and panel set no cookie that needs consent, and the banner would cover
 * their forms: staff choose on the public site like anyone else.
 */
const STAFF_PAGES = /^\/(admin|login)(\/|$)/;

/**
 * The consent banner's markup: both its views, rendered below the screen and hidden from
 * everyone until its controller (cookie-banner-controller.ts) slides it in, so showing it is a
 * move, not new content: the page's own content stays its largest paint. It comes first in the
 * document, so the first Tab reaches it while it is open. On pages React hydrates the component
 * starts the controller itself; light pages' script starts the same controller.
 */
export function CookieBanner() {
  const staffPage = STAFF_PAGES.test(useLocation().pathname);
  useEffect(() => (staffPage ? undefined : controlCookieBanner(document)), [staffPage]);
  if (staffPage) return null;
  return (
    <section
      data-cookie-banner
      data-state="waiting"
      role="dialog"
      aria-modal="false"
      aria-labelledby="cookie-banner-main-title"
      aria-hidden
      inert
      className="fixed inset-x-0 bottom-0 z-50 translate-y-0 p-2 transition-transform duration-300 ease-out data-[state=waiting]:translate-y-[calc(100%+2rem)] motion-reduce:transition-none sm:p-4"
    >
      <div className="relative mx-auto max-h-[80dvh] max-w-3xl overflow-y-auto rounded-2xl border border-slate-200 bg-white p-4 shadow-2xl sm:p-6">
        <div data-view="main">
          <div className="flex items-start gap-3 pr-8">
            <Cookie className="mt-0.5 hidden size-6 shrink-0 text-brand-600 sm:block" aria-hidden />
            <div>
              <h2 id="cookie-banner-main-title" className="text-base font-semibold">
                Utilizamos cookies
              </h2>
              <p className="mt-1 text-[13px] leading-5 text-slate-600 sm:text-sm sm:leading-6">
                Usamos cookies esenciales para que el sitio funcione y, solo si lo aceptas, cookies
                de analítica para mejorarlo. Puedes cambiar tu elección cuando quieras. Más
                información en la{" "}
                <Link to="/cookies" className="font-medium text-brand-700 underline">
                  Política de Cookies
                </Link>
                .
              </p>
            </div>
          </div>
          <div className="mt-3 grid grid-cols-2 gap-2 sm:mt-4 sm:flex sm:justify-end">
            <Button variant="ghost" className="col-span-2 h-9 sm:h-11" data-action="customise">
              Personalizar
            </Button>
            <Button variant="secondary" className="px-2 sm:px-5" data-action="only-essential">
              Solo Esenciales
            </Button>
            <Button className="px-2 sm:px-5" data-action="accept-all">
              Aceptar Todas
            </Button>
          </div>
        </div>
        <div data-view="settings" hidden>
          <h2 id="cookie-banner-settings-title" className="pr-8 text-base font-semibold">
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
                <p id="cookie-banner-analytics" className="text-sm font-semibold text-ink">
                  Analítica
                </p>
                <p className="text-[13px] text-slate-600 sm:text-sm">
                  Una cookie propia que une las páginas de tu visita y nos dice si vuelves. Sin
                  terceros.
                </p>
              </div>
              <button
                type="button"
                role="switch"
                aria-checked="false"
                aria-labelledby="cookie-banner-analytics"
                data-action="toggle-analytics"
                className="group relative inline-flex h-6 w-11 shrink-0 items-center rounded-full bg-slate-300 transition-colors aria-checked:bg-brand-600"
              >
                <span className="inline-block size-5 translate-x-0.5 rounded-full bg-white shadow transition-transform group-aria-checked:translate-x-5" />
              </button>
            </li>
          </ul>
          <div className="mt-3 grid grid-cols-[auto_1fr] gap-2 sm:mt-4 sm:flex sm:justify-end">
            <Button variant="secondary" data-action="cancel">
              Cancelar
            </Button>
            <Button data-action="save">Guardar Preferencias</Button>
          </div>
        </div>
        {/* Last in the focus order: the choices come first, closing is the way out. */}
        <CloseButton data-action="close" className="top-2 right-2 sm:top-3 sm:right-3" />
      </div>
    </section>
  );
}
