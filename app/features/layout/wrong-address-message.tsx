import { useSyncExternalStore } from "react";

/**
 * What a visitor is told when a form fails because the page was opened at another address than
 * the site's (SITE_URL): the server refuses such posts (the origin check), and without this the
 * page could only say that something went wrong.
 */
export function WrongAddressMessage({ here, site }: { here: string; site: string }) {
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center">
      <p className="text-sm font-semibold text-brand-600">403</p>
      <h1 className="mt-2 text-3xl font-bold tracking-tight">Dirección no válida</h1>
      <p className="mt-4 text-slate-600">
        Esta página está abierta en <span className="wrap-anywhere">{here}</span>, pero el sitio
        está en <span className="wrap-anywhere">{site}</span>: los formularios solo funcionan en la
        dirección del sitio.
      </p>
      <a
        href={`${site}/`}
        className="mt-8 font-semibold text-brand-700 underline underline-offset-4"
      >
        Ir a {site}
      </a>
    </section>
  );
}

const unchanging = () => () => undefined;

/**
 * The page's own origin and the site's when they differ, or null. The server cannot know the
 * address the browser shows: it renders null, and the browser reads its own after hydration.
 */
export function useWrongAddress(siteUrl: string | undefined) {
  const here = useSyncExternalStore(
    unchanging,
    () => window.location.origin,
    () => null,
  );
  if (!here || !siteUrl) return null;
  const site = new URL(siteUrl).origin;
  return here === site ? null : { here, site };
}
