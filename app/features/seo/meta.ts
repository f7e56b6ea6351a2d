import type { MetaDescriptor } from "react-router";
import { siteFromMatches, type SiteInfo } from "./site";
import { SITE_LOCALE } from "~/platform/locale";

type PageMetaInput = {
  title: string;
  description: string;
  /** Path of the canonical URL, e.g. /precios */
  path: string;
  /** Structured data objects (schema.org), each rendered as JSON-LD. */
  jsonLd?: Record<string, unknown>[];
  /** Set on pages search engines should not index (account pages, 404). */
  noIndex?: boolean;
};

export function pageTitle(title: string, brandName: string) {
  return title === brandName ? brandName : `${title} | ${brandName}`;
}

/** Title with the brand suffix, description, canonical URL, Open Graph and JSON-LD. */
export function pageMeta(
  matches: Parameters<typeof siteFromMatches>[0],
  input: PageMetaInput,
): MetaDescriptor[] {
  const site: Pick<SiteInfo, "brandName" | "siteUrl"> = siteFromMatches(matches) ?? {
    brandName: "",
    siteUrl: "",
  };
  const title = pageTitle(input.title, site.brandName);
  const url = `${site.siteUrl}${input.path === "/" ? "/" : input.path}`;
  return [
    { title },
    { name: "description", content: input.description },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:type", content: "website" },
    { property: "og:locale", content: SITE_LOCALE.openGraph },
    { property: "og:site_name", content: site.brandName },
    { property: "og:title", content: title },
    { property: "og:description", content: input.description },
    { property: "og:url", content: url },
    { name: "twitter:card", content: "summary" },
    ...(input.noIndex ? [{ name: "robots", content: "noindex" }] : []),
    ...(input.jsonLd ?? []).map((data) => ({ "script:ld+json": data })),
  ];
}

/** The meta of a page behind sign-in or otherwise private: as `pageMeta`, never indexed. */
export function privatePageMeta(
  matches: Parameters<typeof siteFromMatches>[0],
  input: Omit<PageMetaInput, "noIndex" | "jsonLd">,
): MetaDescriptor[] {
  return pageMeta(matches, { ...input, noIndex: true });
}
