import type { VerifactuSystem } from "~/platform/db/schema";

/**
 * The invoicing system's identification (SistemaInformatico, Orden HAC/1177/2024 art. 12 and
 * its annex): the company develops and runs the site itself, so it is the producer; the site
 * can only be used in VERI*FACTU mode and by one taxpayer. The version changes when the code
 * that makes or sends records does (see the declaración responsable in docs/).
 */
export const SYSTEM_NAME = "Web de servicios digitales";
/** IdSistemaInformatico: two characters, given by the producer. */
export const SYSTEM_ID = "WS";
export const SYSTEM_VERSION = "1.0";

export function verifactuSystem(producer: {
  name: string;
  taxId: string;
  installationNumber: string;
}): VerifactuSystem {
  return {
    producerName: producer.name,
    producerTaxId: producer.taxId,
    name: SYSTEM_NAME,
    id: SYSTEM_ID,
    version: SYSTEM_VERSION,
    installationNumber: producer.installationNumber,
    onlyVerifactu: "S",
    multipleTaxpayers: "N",
    severalTaxpayers: "N",
  };
}
