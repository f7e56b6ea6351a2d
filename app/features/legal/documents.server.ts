import { getConfig } from "~/platform/config.server";
import { cookiesDocument, legalNoticeDocument, privacyDocument, termsDocument } from "./documents";
import type { LegalDocument } from "./legal-document";

const builders = {
  terminos: termsDocument,
  privacidad: privacyDocument,
  cookies: cookiesDocument,
  "aviso-legal": legalNoticeDocument,
} as const;

/** The legal document published at /{slug}, filled with the configured company details. */
export function legalDocumentFor(slug: string): LegalDocument | undefined {
  const build = builders[slug as keyof typeof builders];
  return build?.(getConfig().company);
}
