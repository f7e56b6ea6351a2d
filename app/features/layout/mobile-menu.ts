/** The phone menu's toggle, named for what it does next. */
export const MOBILE_MENU_LABELS = { open: "Abrir menú", close: "Cerrar menú" } as const;

const MENU_SELECTOR = "details[data-mobile-menu]";

/**
 * What JavaScript adds to the native disclosure of the phone menu: Escape closes it and gives
 * focus back to its toggle, a tap outside it or on any link or button inside it closes it (a
 * page React navigates in place would otherwise keep it open), and the toggle's name follows its
 * state. Listeners sit on the document, so a header React re-renders keeps them. Returns the way
 * to take them off.
 */
export function enhanceMobileMenu(doc: Document): () => void {
  const openMenu = () => {
    const menu = doc.querySelector<HTMLDetailsElement>(MENU_SELECTOR);
    return menu?.open ? menu : null;
  };
  const close = (menu: HTMLDetailsElement, { focusToggle }: { focusToggle: boolean }) => {
    menu.open = false;
    if (focusToggle) menu.querySelector("summary")?.focus();
  };
  const onToggle = (event: Event) => {
    const menu = event.target;
    if (!(menu instanceof HTMLDetailsElement) || !menu.matches(MENU_SELECTOR)) return;
    menu
      .querySelector("summary")
      ?.setAttribute("aria-label", menu.open ? MOBILE_MENU_LABELS.close : MOBILE_MENU_LABELS.open);
  };
  const onKeyDown = (event: KeyboardEvent) => {
    const menu = openMenu();
    if (menu && event.key === "Escape") close(menu, { focusToggle: true });
  };
  const onClick = (event: MouseEvent) => {
    const menu = openMenu();
    const target = event.target;
    if (!menu || !(target instanceof Element)) return;
    const inside = menu.contains(target);
    if (!inside || (target.closest("a, button") && !target.closest("summary")))
      close(menu, { focusToggle: false });
  };
  // `toggle` does not bubble: it is heard while it goes down to the menu.
  doc.addEventListener("toggle", onToggle, true);
  doc.addEventListener("keydown", onKeyDown);
  doc.addEventListener("click", onClick);
  return () => {
    doc.removeEventListener("toggle", onToggle, true);
    doc.removeEventListener("keydown", onKeyDown);
    doc.removeEventListener("click", onClick);
  };
}
