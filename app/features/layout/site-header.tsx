import { LogOut, Menu, UserRound, X } from "lucide-react";
import { useState } from "react";
import { Form, Link, useLocation } from "react-router";
import { Button, ButtonLink } from "~/ui/button";
import { Logo } from "~/ui/logo";
import {
  isCurrentNavItem,
  MOBILE_HASH_SCROLL_DELAY_MS,
  navItems,
  type NavItem,
} from "./navigation";
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

export function SiteHeader({
  brandName,
  viewer,
}: {
  brandName: string;
  viewer: { email: string } | null;
}) {
  const { pathname } = useLocation();
  // The menu belongs to the page it was opened on: any navigation closes it.
  const [openOnPath, setOpenOnPath] = useState<string | null>(null);
  const menuOpen = openOnPath === pathname;
  const closeMenu = () => setOpenOnPath(null);

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
        <button
          type="button"
          className="inline-flex size-10 items-center justify-center rounded-md text-slate-700 hover:bg-slate-100 md:hidden"
          aria-expanded={menuOpen}
          aria-controls="mobile-menu"
          aria-label={menuOpen ? "Cerrar menú" : "Abrir menú"}
          onClick={() => setOpenOnPath(menuOpen ? null : pathname)}
        >
          {menuOpen ? (
            <X className="size-6" aria-hidden />
          ) : (
            <Menu className="size-6" aria-hidden />
          )}
        </button>
      </nav>
      {menuOpen ? (
        <div id="mobile-menu" className="border-t border-slate-200 bg-white md:hidden">
          <ul className="space-y-1 px-4 py-3">
            {navItems.map((item) => (
              <li key={item.label}>
                <NavLinkItem
                  item={item}
                  pathname={pathname}
                  className={`${linkBase} block text-base`}
                  scrollDelayMs={MOBILE_HASH_SCROLL_DELAY_MS}
                  onNavigate={closeMenu}
                />
              </li>
            ))}
          </ul>
          {viewer ? (
            <div className="space-y-2 border-t border-slate-200 px-4 py-3">
              <p className="truncate text-sm text-slate-600">{viewer.email}</p>
              <div className="grid grid-cols-2 gap-2">
                <ButtonLink to="/mi-cuenta" variant="secondary" onClick={closeMenu}>
                  Mi Cuenta
                </ButtonLink>
                <Form method="post" action="/cerrar-sesion" onSubmit={closeMenu}>
                  <Button type="submit" variant="secondary" className="w-full">
                    Cerrar Sesión
                  </Button>
                </Form>
              </div>
            </div>
          ) : (
            <div className="grid grid-cols-2 gap-2 border-t border-slate-200 px-4 py-3">
              <ButtonLink to="/login-cliente" variant="secondary" onClick={closeMenu}>
                Iniciar Sesión
              </ButtonLink>
              <ButtonLink to="/registro" onClick={closeMenu}>
                Registrarse
              </ButtonLink>
            </div>
          )}
        </div>
      ) : null}
      <ScrollProgress />
    </header>
  );
}
