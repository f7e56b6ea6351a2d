import type { ComponentProps } from "react";
import { Link, useLocation } from "react-router";

/** Scrolls to a section of the home page, or goes to /#section from any other page. */
export function scrollToSection(section: string) {
  document.getElementById(section)?.scrollIntoView({ block: "start" });
}

type SectionLinkProps = Omit<ComponentProps<typeof Link>, "to"> & {
  section: string;
  /** Wait before scrolling (the mobile menu collapses first). */
  scrollDelayMs?: number;
};

export function SectionLink({ section, scrollDelayMs = 0, onClick, ...props }: SectionLinkProps) {
  const { pathname } = useLocation();
  return (
    <Link
      to={`/#${section}`}
      onClick={(event) => {
        onClick?.(event);
        if (pathname !== "/" || event.defaultPrevented) return;
        event.preventDefault();
        if (scrollDelayMs > 0) window.setTimeout(() => scrollToSection(section), scrollDelayMs);
        else scrollToSection(section);
      }}
      {...props}
    />
  );
}
