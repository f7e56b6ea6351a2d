import type { VerifactuChainLink, verifactuRecords } from "~/platform/db/schema";

/**
 * A stored billing record written as AEAT's XML (Orden HAC/1177/2024 arts. 10, 11 and 16, annex
 * sections 3 and 4; AEAT's SuministroLR.xsd and SuministroInformacion.xsd): every element in the
 * schema's sequence order, qualified with AEAT's namespaces, text escaped. The record is written
 * from its stored values only, the very strings its huella was computed over.
 */
type VerifactuRecord = typeof verifactuRecords.$inferSelect;

const AEAT_WS =
  "https://www2.agenciatributaria.gob.es/static_files/common/internet/dep/aplicaciones/es/aeat/tike/cont/ws";
export const NAMESPACES = {
  soapenv: "http://schemas.xmlsoap.org/soap/envelope/",
  sum: `${AEAT_WS}/SuministroLR.xsd`,
  sum1: `${AEAT_WS}/SuministroInformacion.xsd`,
  respuesta: `${AEAT_WS}/RespuestaSuministro.xsd`,
} as const;

/** The most records one request may carry (SuministroLR.xsd: RegistroFactura maxOccurs 1000). */
export const MAX_RECORDS_PER_REQUEST = 1000;

/** The taxpayer whose records a request carries (Cabecera/ObligadoEmision). */
export type Obligado = { name: string; taxId: string };

export type RequestOptions = {
  /**
   * RemisionVoluntaria/Incidencia=S: the records go late because of a technical incident
   * (AEAT unreachable), as Orden HAC/1177/2024 art. 16.4 asks to say.
   */
  incident?: boolean;
};

/** Escapes text for an element's content (AEAT's description of the service, §6.9). */
export function escapeXml(value: string): string {
  return value
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

/** One element of SuministroInformacion; absent values write nothing (optional elements). */
function element(name: string, content: string | null | undefined | string[]): string {
  if (content == null) return "";
  const inner = Array.isArray(content) ? content.join("") : escapeXml(content);
  return `<sum1:${name}>${inner}</sum1:${name}>`;
}

const children = (name: string, parts: string[]) =>
  `<sum1:${name}>${parts.join("")}</sum1:${name}>`;

type InvoiceKey = { issuerTaxId: string; invoiceNumber: string; issueDate: string };

/** An invoice as AEAT names it: its issuer's NIF, its number and its issue date. */
const invoiceKey = (invoice: InvoiceKey) => [
  element("IDEmisorFactura", invoice.issuerTaxId),
  element("NumSerieFactura", invoice.invoiceNumber),
  element("FechaExpedicionFactura", invoice.issueDate),
];

/** A person or company as AEAT names them (PersonaFisicaJuridicaES): name, then NIF. */
const nameAndTaxId = (name: string, taxId: string) => [
  element("NombreRazon", name),
  element("NIF", taxId),
];

function chain(previous: VerifactuChainLink | null): string {
  if (!previous) return element("Encadenamiento", [element("PrimerRegistro", "S")]);
  return element("Encadenamiento", [
    children("RegistroAnterior", [...invoiceKey(previous), element("Huella", previous.hash)]),
  ]);
}

function systemBlock(record: VerifactuRecord): string {
  const system = record.system;
  return children("SistemaInformatico", [
    ...nameAndTaxId(system.producerName, system.producerTaxId),
    element("NombreSistemaInformatico", system.name),
    element("IdSistemaInformatico", system.id),
    element("Version", system.version),
    element("NumeroInstalacion", system.installationNumber),
    element("TipoUsoPosibleSoloVerifactu", system.onlyVerifactu),
    element("TipoUsoPosibleMultiOT", system.multipleTaxpayers),
    element("IndicadorMultiplesOT", system.severalTaxpayers),
  ]);
}

/** The closing elements both kinds share, in the schema's order. */
function tail(record: VerifactuRecord): string[] {
  return [
    chain(record.previous),
    systemBlock(record),
    element("FechaHoraHusoGenRegistro", record.generatedAt),
    element("TipoHuella", record.hashType),
    element("Huella", record.hash),
  ];
}

function required(record: VerifactuRecord, field: keyof VerifactuRecord): string {
  const value = record[field];
  if (typeof value !== "string") {
    throw new Error(`El registro ${record.id} (alta) no tiene ${String(field)}`);
  }
  return value;
}

function alta(record: VerifactuRecord): string {
  const corrected = record.correctedInvoices ?? [];
  const substituted = record.substitutedInvoices ?? [];
  const breakdown = record.breakdown ?? [];
  return children("RegistroAlta", [
    element("IDVersion", "1.0"),
    children("IDFactura", invoiceKey(record)),
    element("NombreRazonEmisor", record.issuerName),
    element("Subsanacion", record.correction),
    element("RechazoPrevio", record.previousRejection),
    element("TipoFactura", required(record, "invoiceType")),
    element("TipoRectificativa", record.correctiveType),
    corrected.length
      ? children(
          "FacturasRectificadas",
          corrected.map((invoice) => children("IDFacturaRectificada", invoiceKey(invoice))),
        )
      : "",
    substituted.length
      ? children(
          "FacturasSustituidas",
          substituted.map((invoice) => children("IDFacturaSustituida", invoiceKey(invoice))),
        )
      : "",
    element("FechaOperacion", record.operationDate),
    element("DescripcionOperacion", required(record, "description")),
    element("FacturaSinIdentifDestinatarioArt61d", record.withoutRecipientId),
    record.recipient
      ? children("Destinatarios", [
          children("IDDestinatario", nameAndTaxId(record.recipient.name, record.recipient.taxId)),
        ])
      : "",
    children(
      "Desglose",
      breakdown.map((line) =>
        children("DetalleDesglose", [
          element("Impuesto", line.tax),
          element("ClaveRegimen", line.regime),
          element("CalificacionOperacion", line.qualification),
          element("TipoImpositivo", line.rate),
          element("BaseImponibleOimporteNoSujeto", line.base),
          element("CuotaRepercutida", line.cuota),
        ]),
      ),
    ),
    element("CuotaTotal", required(record, "cuotaTotal")),
    element("ImporteTotal", required(record, "importeTotal")),
    ...tail(record),
  ]);
}

function anulacion(record: VerifactuRecord): string {
  return children("RegistroAnulacion", [
    element("IDVersion", "1.0"),
    children("IDFactura", [
      element("IDEmisorFacturaAnulada", record.issuerTaxId),
      element("NumSerieFacturaAnulada", record.invoiceNumber),
      element("FechaExpedicionFacturaAnulada", record.issueDate),
    ]),
    ...tail(record),
  ]);
}

/** One record as its `sum1:RegistroAlta` or `sum1:RegistroAnulacion` element. */
export function recordElement(record: VerifactuRecord): string {
  return record.kind === "alta" ? alta(record) : anulacion(record);
}

const namespaceDeclarations = (prefixes: (keyof typeof NAMESPACES)[]) =>
  prefixes.map((prefix) => ` xmlns:${prefix}="${NAMESPACES[prefix]}"`).join("");

/** The RegFactuSistemaFacturacion element: the header and up to 1,000 records. */
function request(
  records: VerifactuRecord[],
  obligado: Obligado,
  declare: boolean,
  { incident = false }: RequestOptions = {},
): string {
  if (records.length === 0 || records.length > MAX_RECORDS_PER_REQUEST) {
    throw new Error(`Un envío lleva de 1 a ${MAX_RECORDS_PER_REQUEST} registros`);
  }
  const cabecera = `<sum:Cabecera>${children(
    "ObligadoEmision",
    nameAndTaxId(obligado.name, obligado.taxId),
  )}${incident ? children("RemisionVoluntaria", [element("Incidencia", "S")]) : ""}</sum:Cabecera>`;
  const registros = records
    .map((record) => `<sum:RegistroFactura>${recordElement(record)}</sum:RegistroFactura>`)
    .join("");
  const attributes = declare ? namespaceDeclarations(["sum", "sum1"]) : "";
  return `<sum:RegFactuSistemaFacturacion${attributes}>${cabecera}${registros}</sum:RegFactuSistemaFacturacion>`;
}

/** The SOAP 1.1 request AEAT's VerifactuSOAP service takes (operation RegFactuSistemaFacturacion). */
export function soapEnvelope(
  records: VerifactuRecord[],
  obligado: Obligado,
  options: RequestOptions = {},
): string {
  return (
    `<?xml version="1.0" encoding="UTF-8"?>` +
    `<soapenv:Envelope${namespaceDeclarations(["soapenv", "sum", "sum1"])}>` +
    `<soapenv:Header/><soapenv:Body>${request(records, obligado, false, options)}</soapenv:Body>` +
    `</soapenv:Envelope>`
  );
}

/**
 * A batch of 1 to 1,000 records as a document of AEAT's schema (SuministroLR.xsd's root,
 * RegFactuSistemaFacturacion, with its Cabecera), for exports and inspections: the request's
 * body without the SOAP envelope. Its issuer is the records' own unless told.
 */
export function registrationDocument(records: VerifactuRecord[], obligado?: Obligado): string {
  const owner = obligado ?? {
    name: records[0]?.issuerName ?? "",
    taxId: records[0]?.issuerTaxId ?? "",
  };
  return `<?xml version="1.0" encoding="UTF-8"?>${request(records, owner, true)}`;
}

/** Records as schema documents, one per batch of MAX_RECORDS_PER_REQUEST; none for none. */
export function registrationDocuments(records: VerifactuRecord[]): string[] {
  const documents: string[] = [];
  for (let start = 0; start < records.length; start += MAX_RECORDS_PER_REQUEST)
    documents.push(registrationDocument(records.slice(start, start + MAX_RECORDS_PER_REQUEST)));
  return documents;
}
