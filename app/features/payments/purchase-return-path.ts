/** The query parameter that opens a service's purchase dialog: `?comprar=<slug>`. */
export const BUY_PARAM = "comprar";

/**
 * Where sign-up and login send the visitor back to: this page with the service's dialog open
 * (`?comprar=<slug>`), scrolled to its card (`#<slug>`) when that is all a page without
 * JavaScript can do.
 */
export function returnPathFor(pathname: string, slug: string): string {
  return `${pathname}?${BUY_PARAM}=${encodeURIComponent(slug)}#${slug}`;
}

/** The purchase page of a service: the dialog's checkout for a browser without JavaScript. */
export function purchasePagePath(service: { slug: string }): string {
  return `/comprar/${service.slug}`;
}
