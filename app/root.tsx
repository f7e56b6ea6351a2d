import { useEffect } from "react";
import {
  data,
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useMatches,
  useRouteError,
  useRouteLoaderData,
} from "react-router";
import type { Route } from "./+types/root";
import { SiteFooter } from "~/features/layout/site-footer";
import { SiteHeader } from "~/features/layout/site-header";
import { NotFoundMessage } from "~/features/layout/not-found-message";
import { MaintenanceMessage } from "~/features/layout/maintenance-message";
import { useWrongAddress, WrongAddressMessage } from "~/features/layout/wrong-address-message";
import { CookieBanner } from "~/features/consent/cookie-banner";
import { PageViewTracker } from "~/features/analytics/page-view-tracker";
import { getSiteInfo } from "~/features/seo/site.server";
import { useNonce } from "~/platform/security/nonce";
import { ButtonLink } from "~/ui/button";
import { FormAlertTemplates } from "~/ui/form";
import { SiteStyles } from "~/ui/site-styles";
import { showToast } from "~/ui/toast";
import { getPageViewer } from "~/features/accounts/profile.server";
import { VisitorPurchaseDialog } from "~/features/payments/purchase-dialog-parts";
import { takeToast } from "~/platform/http/toast.server";
import { NoScriptToast } from "~/ui/noscript-toast";
import { routesAskForLightPage } from "~/platform/http/light-page";
import type { Toast } from "~/platform/http/toast";
import lightPageScriptUrl from "virtual:light-page-script";
import { SITE_LOCALE } from "~/platform/locale";

// In development the stylesheet also loads as a module, so style edits apply without a reload.
if (import.meta.env.DEV) void import("./app.css");

export const links: Route.LinksFunction = () => [
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export async function loader({ request }: Route.LoaderArgs) {
  const { viewer, headers } = await getPageViewer(request);
  const { toast, header } = await takeToast(request);
  if (header) headers.append("Set-Cookie", header);
  return data({ site: getSiteInfo(), viewer, toast }, { headers });
}

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  const data = useRouteLoaderData<typeof loader>("root");
  // Pages with their own shell (the admin panel's `handle = { shell: "admin" }`) bring their own
  // header, navigation and <main>: the site's header and footer are left out.
  const matches = useMatches();
  const ownShell = matches.some(
    (match) => (match.handle as { shell?: string } | undefined)?.shell === "admin",
  );
  // An anonymous visitor's public page: HTML and one small script, no React in the browser.
  const light = data !== undefined && !data.viewer && routesAskForLightPage(matches);
  return (
    <html lang={SITE_LOCALE.lang}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#1d41b0" />
        <Meta />
        <SiteStyles />
        <Links />
        {light ? <script type="module" src={lightPageScriptUrl} /> : null}
      </head>
      <body className="flex min-h-dvh flex-col">
        {/* First in the document, so that while it is open it is first in the focus order. */}
        <CookieBanner />
        <a
          href="#contenido"
          className="sr-only z-50 rounded-md bg-white px-4 py-2 font-semibold text-brand-700 focus-visible:not-sr-only focus-visible:fixed focus-visible:top-2 focus-visible:left-2"
        >
          Saltar al contenido
        </a>
        {data && ownShell ? (
          children
        ) : (
          <>
            {data ? <SiteHeader brandName={data.site.brandName} viewer={data.viewer} /> : null}
            <main id="contenido" className="flex-1">
              {children}
            </main>
            {data ? <SiteFooter site={data.site} /> : null}
          </>
        )}
        {data?.toast ? <NoScriptToast toast={data.toast} /> : null}
        {light ? (
          <>
            <VisitorPurchaseDialog />
            <FormAlertTemplates />
            <PageToast toast={data.toast} />
          </>
        ) : (
          <>
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        )}
      </body>
    </html>
  );
}

/** A light page's toast after a redirect, shown by its script (JSON: never run, never parsed as HTML). */
function PageToast({ toast }: { toast: Toast | null }) {
  if (!toast) return null;
  const json = JSON.stringify(toast).replace(/</g, "\\u003c");
  return (
    <script type="application/json" id="page-toast" dangerouslySetInnerHTML={{ __html: json }} />
  );
}

export default function App({ loaderData }: Route.ComponentProps) {
  // Browser tests wait for this mark instead of sleeping until the page is interactive.
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  const { toast } = loaderData;
  useEffect(() => {
    if (toast) void showToast(toast.kind, toast);
  }, [toast]);
  return (
    <>
      <PageViewTracker />
      <Outlet />
    </>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const data = useRouteLoaderData<typeof loader>("root");
  const misplaced = useWrongAddress(data?.site.siteUrl);
  if (misplaced) return <WrongAddressMessage {...misplaced} />;
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundMessage />;
  if (isRouteErrorResponse(error) && error.status === 503) return <MaintenanceMessage />;
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center">
      <h1 className="text-3xl font-bold tracking-tight">Algo ha salido mal</h1>
      <p className="mt-4 text-slate-600">
        Ha ocurrido un error inesperado. Inténtalo de nuevo en unos minutos.
      </p>
      <ButtonLink to="/" className="mt-8">
        Volver al inicio
      </ButtonLink>
    </section>
  );
}
