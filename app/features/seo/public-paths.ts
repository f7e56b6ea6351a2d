import { servicesWithPages } from "~/features/catalogue/services";

/** The pages every visitor sees the same: listed in the sitemap and served from the page cache. */
export function publicPaths(): string[] {
  return [
    "/",
    ...servicesWithPages().map((service) => service.path!),
    "/precios",
    "/terminos",
    "/privacidad",
    "/cookies",
    "/aviso-legal",
  ];
}
