/** Shape of the static legal pages; the texts live in documents.ts, the rendering in legal-page.tsx. */
export type LegalBlock =
  | { kind: "paragraph"; text: string }
  | { kind: "list"; items: string[] }
  /** A definition table, e.g. the list of cookies: header row + rows of cells. */
  | { kind: "table"; header: string[]; rows: string[][] };

/** `anchor` makes the section linkable (`/terminos#desistimiento`). */
export type LegalSection = { heading: string; anchor?: string; blocks: LegalBlock[] };

export type LegalDocument = {
  /** Route path without slash: terminos, privacidad, cookies, aviso-legal */
  slug: string;
  /** Page heading and <title> prefix, in Spanish */
  title: string;
  /** Meta description, 120-160 characters, Spanish */
  description: string;
  /** ISO date (YYYY-MM-DD) of the last revision */
  updatedOn: string;
  intro: string;
  sections: LegalSection[];
};

/** The company's identity, read from configuration (the legal notice must publish it). */
export type CompanyDetails = {
  brandName: string;
  legalName: string;
  taxId: string;
  address: string;
  registry: string;
  contactEmail: string;
  siteUrl: string;
};

const MONTHS = [
  "enero",
  "febrero",
  "marzo",
  "abril",
  "mayo",
  "junio",
  "julio",
  "agosto",
  "septiembre",
  "octubre",
  "noviembre",
  "diciembre",
];

/**
 * A revision date as Spanish prose: "2026-11-22" → "22 de noviembre de 2026". Written by hand
 * because building a browser's first Intl formatter costs tens of milliseconds at hydration.
 */
export function revisionDateText(isoDate: string): string {
  const [year, month, day] = isoDate.split("-").map(Number);
  return `${day} de ${MONTHS[month! - 1]} de ${year}`;
}
