/**
 * The URL of AEAT's cotejo service that an invoice's QR code carries (Orden HAC/1177/2024 art.
 * 21.2 and AEAT's "Detalle de las especificaciones técnicas del código «QR» de la factura", v0.4.7
 * §§4–6): the host of the environment the records go to, then the invoice's issuer NIF, series and
 * number, issue date (dd-mm-aaaa) and total, each URL-encoded as UTF-8.
 */
export type VerifactuEnvironment = "pruebas" | "produccion";

const VALIDAR_QR: Record<VerifactuEnvironment, string> = {
  pruebas: "https://prewww2.aeat.es/wlpl/TIKE-CONT/ValidarQR",
  produccion: "https://www2.agenciatributaria.gob.es/wlpl/TIKE-CONT/ValidarQR",
};

/** The values of the invoice's registro de alta, so that the QR says what AEAT received. */
export type CotejoFacts = {
  issuerTaxId: string;
  invoiceNumber: string;
  /** dd-mm-aaaa, as FechaExpedicionFactura. */
  issueDate: string;
  /** As ImporteTotal: a point and the decimals, e.g. "241.40". */
  importeTotal: string;
};

/**
 * Percent-encoding of RFC 3986: encodeURIComponent, plus the five characters it leaves alone
 * that a form encoder escapes, so a space is %20 (never '+', which a reader could take literally).
 */
function encodeValue(value: string): string {
  return encodeURIComponent(value).replace(
    /[!'()*]/g,
    (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

export function cotejoUrl(facts: CotejoFacts, environment: VerifactuEnvironment): string {
  const parameters: [string, string][] = [
    ["nif", facts.issuerTaxId],
    ["numserie", facts.invoiceNumber],
    ["fecha", facts.issueDate],
    ["importe", facts.importeTotal],
  ];
  const query = parameters.map(([name, value]) => `${name}=${encodeValue(value.trim())}`);
  return `${VALIDAR_QR[environment]}?${query.join("&")}`;
}
