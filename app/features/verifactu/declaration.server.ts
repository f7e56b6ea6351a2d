// Bundled into the server build: the running server has no docs/ folder (the image copies
// build/ only), and the text never needs to travel in a client chunk.
import template from "../../../docs/verifactu-declaracion-responsable.md?raw";
import { getConfig, type AppConfig } from "~/platform/config.server";
import { declarationGaps, type DeclarationGap } from "./declaration-gaps";
import { SYSTEM_ID, SYSTEM_NAME, SYSTEM_VERSION } from "./system";

export type { DeclarationGap };

export type Declaration = { text: string; gaps: DeclarationGap[] };

/** YYYY-MM-DD as the declaración writes dates: dd-mm-aaaa. */
const spanishDate = (isoDate: string) => isoDate.split("-").reverse().join("-");

/**
 * The declaración responsable of this version of the system (Orden HAC/1177/2024 art. 15), its
 * `{{fields}}` filled from the configuration: the producer (the company itself), the system's
 * identification, and the day and place it was subscribed, which stay marked as missing until
 * they are configured.
 */
export function declaration(config: AppConfig = getConfig()): Declaration {
  const { company, siteUrl, verifactu } = config;
  const { signedOn, place } = verifactu.declaration;
  const gaps = declarationGaps(config);
  const fields: Record<string, string> = {
    systemName: SYSTEM_NAME,
    systemId: SYSTEM_ID,
    systemVersion: SYSTEM_VERSION,
    producerName: company.legalName,
    producerTaxId: company.taxId,
    producerAddress: company.address,
    signedOn: signedOn
      ? spanishDate(signedOn)
      : "[pendiente: la fecha en que se suscribe, VERIFACTU_DECLARATION_DATE]",
    place: place ?? "[pendiente: el lugar en que se suscribe, VERIFACTU_DECLARATION_PLACE]",
    contactEmail: company.contactEmail,
    siteUrl,
  };
  // The note for maintainers (the leading quote) is not part of what the company signs.
  const signed = template.replace(/^> .*\n(?:>.*\n)*\n?/m, "");
  const text = signed.replace(/\{\{(\w+)\}\}/g, (marker, name: string) => {
    const value = fields[name];
    if (value === undefined) throw new Error(`declaración responsable: campo ${marker} sin valor`);
    return value;
  });
  return { text, gaps };
}
