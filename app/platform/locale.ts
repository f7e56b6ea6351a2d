/**
 * The site's language, said once (decision 079): the document's `lang`, the locale of every
 * `Intl` date and number, and the Open Graph locale. The site is Spanish for Spain; a second
 * language starts here (docs/architecture.md, "Recipe: a second language").
 */
export const SITE_LOCALE = {
  /** `<html lang>` of pages and mails (BCP 47). */
  lang: "es",
  /** The locale of `Intl.DateTimeFormat` and `Intl.NumberFormat`. */
  intl: "es-ES",
  /** `og:locale` (language_TERRITORY). */
  openGraph: "es_ES",
} as const;
