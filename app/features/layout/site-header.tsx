import { LayoutDashboard, LogOut, Menu, UserRound, X } from "lucide-react";
import { useEffect } from "react";
import { Form, Link, useLocation } from "react-router";
import { Button, ButtonLink } from "~/ui/button";
import { Logo } from "~/ui/logo";
import {
  isCurrentNavItem,
  MOBILE_HASH_SCROLL_DELAY_MS,
  navItems,
  type NavItem,
} from "./navigation";
import { enhanceMobileMenu, MOBILE_MENU_LABELS } from "./mobile-menu";
import { ScrollProgress } from "./scroll-progress";
import { SectionLink } from "./section-link";

const linkBase = "rounded-md px-3 py-2 text-sm font-medium transition-colors";
const linkIdle = "text-slate-600 hover:bg-slate-100 hover:text-ink";
const linkCurrent = "bg-brand-50 text-brand-700";

function NavLinkItem({
  item,
  pathname,
  className,
  scrollDelayMs,
  onNavigate,
}: {
  item: NavItem;
  pathname: string;
  className: string;
  scrollDelayMs?: number;
  onNavigate?: () => void;
}) {
  const current = isCurrentNavItem(item, pathname);
  const classes = `${className} ${current ? linkCurrent : linkIdle}`;
  const ariaCurrent = current ? ("page" as const) : undefined;
  if (item.kind === "page") {
    return (
      <Link to={item.to} className={classes} aria-current={ariaCurrent} onClick={onNavigate}>
        {item.label}
      </Link>
    );
  }
  return (
    <SectionLink
      section={item.section}
      className={classes}
      aria-current={ariaCurrent}
      scrollDelayMs={scrollDelayMs}
      onClick={onNavigate}
    >
      {item.label}
    </SectionLink>
  );
}

/** Who is signed in, as the header names them: a staff member also gets the way to the panel. */
type HeaderViewer = { email: string; staffRole?: string | null };

export function SiteHeader({
  brandName,
  viewer,
}: {
  brandName: string;
  viewer: HeaderViewer | null;
}) {
  const { pathname } = useLocation();
  // On pages React hydrates; light pages get the same behaviour from their own script.
  useEffect(() => enhanceMobileMenu(document), []);

  return (
    <header className="sticky top-0 z-40 border-b border-slate-200/80 bg-white/90 backdrop-blur supports-[backdrop-filter]:bg-white/75">
      <nav
        aria-label="Principal"
        className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-4 px-4 sm:px-6 lg:px-8"
      >
        <Logo brandName={brandName} />
        <ul className="hidden items-center gap-1 md:flex">
          {navItems.map((item) => (
            <li key={item.label}>
              <NavLinkItem item={item} pathname={pathname} className={linkBase} />
            </li>
          ))}
        </ul>
        <div className="hidden items-center gap-2 md:flex">
          {viewer ? (
            <>
              {viewer.staffRole ? (
                <ButtonLink to="/admin" variant="ghost" size="sm">
                  <LayoutDashboard className="size-4" aria-hidden />
                  Panel
                </ButtonLink>
              ) : null}
              <ButtonLink to="/mi-cuenta" variant="ghost" size="sm">
                <UserRound className="size-4" aria-hidden />
                Mi Cuenta
              </ButtonLink>
              <Form method="post" action="/cerrar-sesion">
                <button
                  type="submit"
                  aria-label="Cerrar Sesión"
                  title="Cerrar Sesión"
                  className="inline-flex size-9 items-center justify-center rounded-lg text-slate-600 hover:bg-slate-100 hover:text-ink"
                >
                  <LogOut className="size-5" aria-hidden />
                </button>
              </Form>
            </>
          ) : (
            <>
              <ButtonLink to="/login-cliente" variant="ghost" size="sm">
                Entrar
              </ButtonLink>
              <ButtonLink to="/registro" size="sm">
                Registro
              </ButtonLink>
            </>
          )}
        </div>
        <MobileMenu pathname={pathname} viewer={viewer} />
      </nav>
      <ScrollProgress />
    </header>
  );
}

/**
 * The phone menu: a native disclosure, so it opens and closes without JavaScript; with it,
 * Escape, a tap outside and any choice inside close it (mobile-menu.ts). Its panel lies over the
 * page under the header, so opening or closing it never moves the page.
 */
function MobileMenu({ pathname, viewer }: { pathname: string; viewer: HeaderViewer | null }) {
  return (
    <details data-mobile-menu className="group md:hidden">
      <summary
        aria-label={MOBILE_MENU_LABELS.open}
        className="inline-flex size-10 cursor-pointer list-none items-center justify-center rounded-md text-slate-700 hover:bg-slate-100 [&::-webkit-details-marker]:hidden"
      >
        <Menu className="size-6 group-open:hidden" aria-hidden />
        <X className="hidden size-6 group-open:block" aria-hidden />
      </summary>
      <div
        id="mobile-menu"
        className="absolute inset-x-0 top-full border-t border-b border-slate-200 bg-white shadow-lg"
      >
        <ul className="space-y-1 px-4 py-3">
          {navItems.map((item) => (
            <li key={item.label}>
              <NavLinkItem
                item={item}
                pathname={pathname}
                className={`${linkBase} block text-base`}
                scrollDelayMs={MOBILE_HASH_SCROLL_DELAY_MS}
              />
            </li>
          ))}
        </ul>
        {viewer ? (
          <div className="space-y-2 border-t border-slate-200 px-4 py-3">
            <p className="truncate text-sm text-slate-600">{viewer.email}</p>
            {viewer.staffRole ? (
              <ButtonLink to="/admin" variant="secondary" className="w-full">
                Panel de Administración
              </ButtonLink>
            ) : null}
            <div className="grid grid-cols-2 gap-2">
              <ButtonLink to="/mi-cuenta" variant="secondary">
                Mi Cuenta
              </ButtonLink>
              <Form method="post" action="/cerrar-sesion">
                <Button type="submit" variant="secondary" className="w-full">
                  Cerrar Sesión
                </Button>
              </Form>
            </div>
          </div>
        ) : (
          <div className="grid grid-cols-2 gap-2 border-t border-slate-200 px-4 py-3">
            <ButtonLink to="/login-cliente" variant="secondary">
              Iniciar Sesión
            </ButtonLink>
            <ButtonLink to="/registro">Registrarse</ButtonLink>
          </div>
        )}
      </div>
    </details>
  );
}
