import { LogOut, RefreshCw } from "lucide-react";
import { useEffect, useRef, type ReactNode } from "react";
import {
  Form,
  isRouteErrorResponse,
  Link,
  useLocation,
  useRevalidator,
  useRouteError,
  useRouteLoaderData,
} from "react-router";
import { usePageViewer } from "~/features/identity/page-viewer";
import { ButtonLink } from "~/ui/button";
import { LogoMark } from "~/ui/logo";
import { identityMessages } from "~/features/identity/identity-rules";
import { adminPages, adminTabs, sectionsFor, type AdminSection } from "./admin-tabs";

/**
 * The staff's own layout (issue 14): the panel's sections always in reach, the signed-in staff
 * member with 'Actualizar' and 'Salir', and no marketing header or footer. The layout route
 * `routes/admin-layout.tsx` holds it, with `handle = adminShellHandle` (the root layout then leaves
 * out the site's header, footer and `<main>`), for every staff page of `app/routes.ts`.
 *
 * At `lg` the sections are a sidebar; on a phone a bar of tabs that scrolls sideways and stays at
 * the top of the screen while the page scrolls under it.
 */
export const adminShellHandle = { shell: "admin" } as const;

/** The record pages that belong to a tab: a ticket's page is part of Tickets, and so on. */
const recordPagesOf: readonly [prefix: string, section: AdminSection][] = [
  ["/admin/tickets/", "tickets"],
  ["/admin/pagos/", "pagos"],
  ["/admin/clientes/", "clientes"],
  ["/admin/usuarios/", "usuarios"],
];

/**
 * The section an address belongs to: a record's page is part of its tab; the staff member's own
 * security page (their link in the bar) is none.
 */
function sectionOf(pathname: string, search: string): AdminSection | undefined {
  if (pathname.startsWith(OWN_SECURITY_PATH)) return undefined;
  const record = recordPagesOf.find(([prefix]) => pathname.startsWith(prefix));
  if (record) return record[1];
  const page = adminPages.find((candidate) => pathname.startsWith(candidate.href));
  if (page) return page.id;
  const tab = new URLSearchParams(search).get("tab");
  return adminTabs.find((candidate) => candidate.id === tab)?.id ?? "dashboard";
}

export function AdminShell({ children }: { children: ReactNode }) {
  const location = useLocation();
  const section = sectionOf(location.pathname, location.search);
  const brandName =
    (useRouteLoaderData("root") as { site?: { brandName: string } } | undefined)?.site?.brandName ??
    "";
  return (
    <div className="flex-1 bg-slate-50 lg:pl-64">
      {/* On a phone the whole bar sticks with its first two rows (104 px) above the screen. */}
      <header className="sticky -top-[6.5rem] z-30 bg-slate-900 text-slate-100 shadow-md lg:fixed lg:inset-y-0 lg:left-0 lg:flex lg:w-64 lg:flex-col lg:overflow-y-auto lg:shadow-none">
        <div className="flex h-14 items-center gap-3 px-4 lg:h-auto lg:px-5 lg:pt-6">
          <Link
            to="/"
            className="shrink-0 rounded-md"
            aria-label={brandName ? `${brandName}, inicio` : "Inicio"}
          >
            <LogoMark className="size-8" />
          </Link>
          <div className="min-w-0 leading-tight">
            {brandName ? <p className="truncate text-xs text-slate-400">{brandName}</p> : null}
            <p className="truncate font-semibold text-white lg:whitespace-normal">
              Panel de Administración
            </p>
          </div>
        </div>
        <StaffMember />
        <SectionTabs current={section} />
      </header>
      <main
        id="contenido"
        tabIndex={-1}
        className="mx-auto max-w-[96rem] min-w-0 px-4 py-6 focus:outline-none sm:px-6 lg:px-8 lg:py-8"
      >
        {children}
      </main>
    </div>
  );
}

const barButton =
  "inline-flex h-9 shrink-0 items-center gap-1.5 rounded-lg px-2.5 text-sm font-semibold text-slate-100 ring-1 ring-slate-600 ring-inset hover:bg-white/10 disabled:cursor-not-allowed disabled:opacity-70";

/** Where staff manage their own sign-in: second factor, passkeys, sessions (decisions 044, 045). */
const OWN_SECURITY_PATH = "/admin/seguridad";

/**
 * Who is signed in (a link to their own security page), 'Actualizar' (loads the page's data
 * again) and 'Salir'.
 */
function StaffMember() {
  const viewer = usePageViewer();
  const { revalidate, state } = useRevalidator();
  const { pathname } = useLocation();
  return (
    <div className="flex h-12 items-center gap-2 border-t border-white/10 px-4 lg:mt-5 lg:h-auto lg:flex-col lg:items-stretch lg:gap-3 lg:border-y lg:px-5 lg:py-4">
      <Link
        to={OWN_SECURITY_PATH}
        aria-current={pathname.startsWith(OWN_SECURITY_PATH) ? "page" : undefined}
        className="min-w-0 flex-1 truncate text-sm text-slate-300 underline-offset-2 hover:text-white hover:underline aria-[current=page]:text-white aria-[current=page]:underline"
        title={`${viewer?.email ?? ""}: seguridad de tu cuenta`}
      >
        <span className="sr-only">Seguridad de tu cuenta, sesión iniciada como </span>
        {viewer?.email}
      </Link>
      <div className="flex gap-2">
        <button
          type="button"
          className={barButton}
          onClick={() => void revalidate()}
          disabled={state === "loading"}
        >
          <RefreshCw
            className={`size-4 ${state === "loading" ? "animate-spin" : ""}`}
            aria-hidden
          />
          Actualizar
        </button>
        <Form method="post" action="/cerrar-sesion">
          <button type="submit" className={barButton}>
            <LogOut className="size-4" aria-hidden />
            Salir
          </button>
        </Form>
      </div>
    </div>
  );
}

/**
 * Links, not buttons: each section has its own address, and switching clears search and filter.
 * Only the sections the staff member's role may open are shown (the loaders refuse the rest).
 */
function SectionTabs({ current }: { current: AdminSection | undefined }) {
  const sections = sectionsFor(usePageViewer()?.staffRole);
  const list = useRef<HTMLUListElement>(null);
  // On a phone the bar scrolls sideways: bring the current section into view.
  useEffect(() => {
    const bar = list.current;
    const link = bar?.querySelector<HTMLElement>("[aria-current=page]");
    if (!bar || !link || bar.scrollWidth <= bar.clientWidth) return;
    bar.scrollLeft = link.offsetLeft - (bar.clientWidth - link.offsetWidth) / 2;
  }, [current]);
  return (
    <nav aria-label="Secciones del panel" className="border-t border-white/10 lg:border-0">
      <ul
        ref={list}
        className="scroll-fade-x flex gap-1 overflow-x-auto px-2 py-2 [scrollbar-width:thin] lg:flex-col lg:overflow-visible lg:px-3 lg:py-4 lg:[mask-image:none]"
      >
        {sections.map((tab) => {
          const active = tab.id === current;
          return (
            <li key={tab.id} className="shrink-0">
              <Link
                to={tab.href}
                aria-current={active ? "page" : undefined}
                className={`block rounded-lg px-3 py-2 text-sm font-semibold whitespace-nowrap focus-visible:-outline-offset-2 lg:py-2.5 ${
                  active
                    ? "bg-white text-slate-900"
                    : "text-slate-300 hover:bg-white/10 hover:text-white"
                }`}
              >
                {tab.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

const errorTexts = {
  404: { title: "No encontrado", description: "Lo que buscas no existe o se ha borrado." },
  403: identityMessages.staffForbidden,
  other: {
    title: "Algo ha salido mal",
    description: "Ha ocurrido un error inesperado. Inténtalo de nuevo en unos minutos.",
  },
} as const;

/**
 * The admin routes' error page, inside the shell: a missing ticket, a section the staff member's
 * role may not open (403, decision 043), or anything unexpected.
 */
export function AdminErrorPage() {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const text = status === 404 || status === 403 ? errorTexts[status] : errorTexts.other;
  return (
    <AdminShell>
      <div className="mx-auto max-w-xl py-16 text-center" data-error-status={status}>
        <h1 className="text-2xl font-bold tracking-tight">{text.title}</h1>
        <p className="mt-3 text-slate-600">{text.description}</p>
        <ButtonLink to="/admin" className="mt-8">
          Volver al panel
        </ButtonLink>
      </div>
    </AdminShell>
  );
}
