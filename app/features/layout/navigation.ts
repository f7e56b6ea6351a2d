import { servicesWithPages } from "~/features/catalogue/services";

/** A link of the navigation bar: a page, or a section of the home page. */
export type NavItem =
  | { label: string; kind: "page"; to: string }
  | { label: string; kind: "section"; section: "servicios" | "contacto" };

export const navItems: readonly NavItem[] = [
  { label: "Inicio", kind: "page", to: "/" },
  { label: "Servicios", kind: "section", section: "servicios" },
  { label: "Precios", kind: "page", to: "/precios" },
  { label: "Contacto", kind: "section", section: "contacto" },
];

const servicePaths = new Set(servicesWithPages().map((service) => service.path));

/** Whether the item is the current page (service pages count as "Servicios"). */
export function isCurrentNavItem(item: NavItem, pathname: string): boolean {
  if (item.kind === "page") return item.to === pathname;
  return item.section === "servicios" && servicePaths.has(pathname);
}

/** Delay before scrolling from the mobile menu, so the menu has collapsed first (spec: 100 ms). */
export const MOBILE_HASH_SCROLL_DELAY_MS = 100;
