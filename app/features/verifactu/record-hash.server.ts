import { createHash } from "node:crypto";

/**
 * The huella of a billing record (Orden HAC/1177/2024 art. 13 and AEAT's "Especificaciones
 * técnicas para generación de la huella o hash de los registros de facturación"): SHA-256 over
 * `name=value` pairs joined by `&`, in the listed order, values trimmed, UTF-8, written as
 * upper-case hexadecimal. The previous record's hash chains every record of the issuer.
 */

/** The fields of a registro de alta that its hash covers. */
export type AltaHashFields = {
  issuerTaxId: string;
  invoiceNumber: string;
  issueDate: string;
  invoiceType: string;
  cuotaTotal: string;
  importeTotal: string;
  previousHash: string;
  generatedAt: string;
};

/** The fields of a registro de anulación that its hash covers. */
export type AnulacionHashFields = {
  issuerTaxId: string;
  invoiceNumber: string;
  issueDate: string;
  previousHash: string;
  generatedAt: string;
};

const pairs = (entries: [string, string][]) =>
  entries.map(([name, value]) => `${name}=${value.trim()}`).join("&");

export function altaHashInput(fields: AltaHashFields): string {
  return pairs([
    ["IDEmisorFactura", fields.issuerTaxId],
    ["NumSerieFactura", fields.invoiceNumber],
    ["FechaExpedicionFactura", fields.issueDate],
    ["TipoFactura", fields.invoiceType],
    ["CuotaTotal", fields.cuotaTotal],
    ["ImporteTotal", fields.importeTotal],
    ["Huella", fields.previousHash],
    ["FechaHoraHusoGenRegistro", fields.generatedAt],
  ]);
}

export function anulacionHashInput(fields: AnulacionHashFields): string {
  return pairs([
    ["IDEmisorFacturaAnulada", fields.issuerTaxId],
    ["NumSerieFacturaAnulada", fields.invoiceNumber],
    ["FechaExpedicionFacturaAnulada", fields.issueDate],
    ["Huella", fields.previousHash],
    ["FechaHoraHusoGenRegistro", fields.generatedAt],
  ]);
}

export function sha256Hex(input: string): string {
  return createHash("sha256").update(input, "utf8").digest("hex").toUpperCase();
}

export const altaHash = (fields: AltaHashFields) => sha256Hex(altaHashInput(fields));
export const anulacionHash = (fields: AnulacionHashFields) => sha256Hex(anulacionHashInput(fields));
