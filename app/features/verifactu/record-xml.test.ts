import { describe, expect, it } from "vitest";
import type { verifactuRecords } from "~/platform/db/schema";
import {
  MAX_RECORDS_PER_REQUEST,
  NAMESPACES,
  recordElement,
  registrationDocuments,
  soapEnvelope,
} from "./record-xml";
import { childNamed, childrenNamed, parseXml, textOf, type XmlElement } from "./xml-tree.server";
import { verifactuSystem } from "./system";

type VerifactuRecord = typeof verifactuRecords.$inferSelect;

const SYSTEM = verifactuSystem({
  name: "Servicios & Digitales <SL>",
  taxId: "B12345674",
  installationNumber: "1",
});

function alta(overrides: Partial<VerifactuRecord> = {}): VerifactuRecord {
  return {
    id: 1,
    kind: "alta",
    invoiceId: "00000000-0000-4000-8000-000000000001",
    issuerTaxId: "B12345674",
    issuerName: "Servicios & Digitales <SL>",
    invoiceNumber: "F2026-000001",
    issueDate: "01-03-2026",
    invoiceType: "F1",
    correctiveType: null,
    correctedInvoices: null,
    withoutRecipientId: null,
    substitutedInvoices: null,
    operationDate: null,
    description: 'Plan "Pro" & soporte',
    recipient: { name: "Cliente SA", taxId: "A58818501" },
    breakdown: [
      {
        tax: "01",
        regime: "01",
        qualification: "S1",
        rate: "21.00",
        base: "100.00",
        cuota: "21.00",
      },
    ],
    cuotaTotal: "21.00",
    importeTotal: "121.00",
    correction: null,
    previousRejection: null,
    previousRecordId: null,
    previous: null,
    system: SYSTEM,
    generatedAt: "2026-03-01T10:00:00+01:00",
    hashType: "01",
    hash: "A".repeat(64),
    createdAt: new Date("2026-03-01T09:00:00Z"),
    ...overrides,
  };
}

const sum1 = NAMESPACES.sum1;
const names = (element: XmlElement | undefined) => element?.children.map((child) => child.name);
const parseElement = (record: VerifactuRecord) =>
  parseXml(`<root xmlns:sum1="${sum1}">${recordElement(record)}</root>`).children[0]!;

describe("a registro de alta in AEAT's XML", () => {
  it("writes the schema's elements in the schema's order, PrimerRegistro on the first", () => {
    const element = parseElement(alta());
    expect(element.namespace).toBe(sum1);
    expect(element.name).toBe("RegistroAlta");
    expect(names(element)).toEqual([
      "IDVersion",
      "IDFactura",
      "NombreRazonEmisor",
      "TipoFactura",
      "DescripcionOperacion",
      "Destinatarios",
      "Desglose",
      "CuotaTotal",
      "ImporteTotal",
      "Encadenamiento",
      "SistemaInformatico",
      "FechaHoraHusoGenRegistro",
      "TipoHuella",
      "Huella",
    ]);
    expect(textOf(element, sum1, "IDVersion")).toBe("1.0");
    expect(names(childNamed(element, sum1, "IDFactura"))).toEqual([
      "IDEmisorFactura",
      "NumSerieFactura",
      "FechaExpedicionFactura",
    ]);
    expect(textOf(childNamed(element, sum1, "Encadenamiento"), sum1, "PrimerRegistro")).toBe("S");
    expect(names(childNamed(element, sum1, "SistemaInformatico"))).toEqual([
      "NombreRazon",
      "NIF",
      "NombreSistemaInformatico",
      "IdSistemaInformatico",
      "Version",
      "NumeroInstalacion",
      "TipoUsoPosibleSoloVerifactu",
      "TipoUsoPosibleMultiOT",
      "IndicadorMultiplesOT",
    ]);
    const detail = childNamed(childNamed(element, sum1, "Desglose"), sum1, "DetalleDesglose");
    expect(names(detail)).toEqual([
      "Impuesto",
      "ClaveRegimen",
      "CalificacionOperacion",
      "TipoImpositivo",
      "BaseImponibleOimporteNoSujeto",
      "CuotaRepercutida",
    ]);
  });

  it("escapes text, so names with & and < stay the same values", () => {
    const xml = recordElement(alta());
    expect(xml).toContain("Servicios &amp; Digitales &lt;SL&gt;");
    const element = parseElement(alta());
    expect(textOf(element, sum1, "NombreRazonEmisor")).toBe("Servicios & Digitales <SL>");
    expect(textOf(element, sum1, "DescripcionOperacion")).toBe('Plan "Pro" & soporte');
  });

  it("chains to the record before, and marks a subsanación of a refused record", () => {
    const element = parseElement(
      alta({
        previousRecordId: 7,
        previous: {
          issuerTaxId: "B12345674",
          invoiceNumber: "F2026-000000",
          issueDate: "28-02-2026",
          hash: "B".repeat(64),
        },
        correction: "S",
        previousRejection: "X",
        invoiceType: "R1",
        correctiveType: "I",
        correctedInvoices: [
          { issuerTaxId: "B12345674", invoiceNumber: "F2026-000000", issueDate: "28-02-2026" },
        ],
        recipient: null,
      }),
    );
    expect(names(element)?.slice(0, 9)).toEqual([
      "IDVersion",
      "IDFactura",
      "NombreRazonEmisor",
      "Subsanacion",
      "RechazoPrevio",
      "TipoFactura",
      "TipoRectificativa",
      "FacturasRectificadas",
      "DescripcionOperacion",
    ]);
    const previous = childNamed(
      childNamed(element, sum1, "Encadenamiento"),
      sum1,
      "RegistroAnterior",
    );
    expect(names(previous)).toEqual([
      "IDEmisorFactura",
      "NumSerieFactura",
      "FechaExpedicionFactura",
      "Huella",
    ]);
    expect(textOf(previous, sum1, "Huella")).toBe("B".repeat(64));
  });
});

describe("a registro de anulación in AEAT's XML", () => {
  it("names the cancelled invoice with the Anulada elements and carries no amounts", () => {
    const element = parseElement(
      alta({ kind: "anulacion", invoiceType: null, cuotaTotal: null, importeTotal: null }),
    );
    expect(element.name).toBe("RegistroAnulacion");
    expect(names(element)).toEqual([
      "IDVersion",
      "IDFactura",
      "Encadenamiento",
      "SistemaInformatico",
      "FechaHoraHusoGenRegistro",
      "TipoHuella",
      "Huella",
    ]);
    expect(names(childNamed(element, sum1, "IDFactura"))).toEqual([
      "IDEmisorFacturaAnulada",
      "NumSerieFacturaAnulada",
      "FechaExpedicionFacturaAnulada",
    ]);
  });
});

describe("the request to AEAT", () => {
  it("is a SOAP 1.1 envelope with the header and one RegistroFactura per record", () => {
    const envelope = parseXml(
      soapEnvelope([alta(), alta({ id: 2, hash: "C".repeat(64) })], {
        name: "Servicios SL",
        taxId: "B12345674",
      }),
    );
    expect([envelope.namespace, envelope.name]).toEqual([NAMESPACES.soapenv, "Envelope"]);
    const body = childNamed(envelope, NAMESPACES.soapenv, "Body");
    const request = childNamed(body, NAMESPACES.sum, "RegFactuSistemaFacturacion");
    expect(names(request)).toEqual(["Cabecera", "RegistroFactura", "RegistroFactura"]);
    const obligado = childNamed(
      childNamed(request, NAMESPACES.sum, "Cabecera"),
      sum1,
      "ObligadoEmision",
    );
    expect(names(obligado)).toEqual(["NombreRazon", "NIF"]);
    expect(textOf(obligado, sum1, "NIF")).toBe("B12345674");
    const registros = childrenNamed(request, NAMESPACES.sum, "RegistroFactura");
    expect(registros.map((registro) => textOf(registro.children[0], sum1, "Huella"))).toEqual([
      "A".repeat(64),
      "C".repeat(64),
    ]);
  });

  it("declares an incident in the header when the records go late (art. 16.4)", () => {
    const envelope = parseXml(
      soapEnvelope([alta()], { name: "Servicios SL", taxId: "B12345674" }, { incident: true }),
    );
    const request = childNamed(
      childNamed(envelope, NAMESPACES.soapenv, "Body"),
      NAMESPACES.sum,
      "RegFactuSistemaFacturacion",
    );
    const cabecera = childNamed(request, NAMESPACES.sum, "Cabecera");
    expect(names(cabecera)).toEqual(["ObligadoEmision", "RemisionVoluntaria"]);
    expect(textOf(childNamed(cabecera, sum1, "RemisionVoluntaria"), sum1, "Incidencia")).toBe("S");
  });

  it("refuses an empty request and one of more than 1,000 records", () => {
    const obligado = { name: "Servicios SL", taxId: "B12345674" };
    expect(() => soapEnvelope([], obligado)).toThrow();
    const many = Array.from({ length: MAX_RECORDS_PER_REQUEST + 1 }, (_, id) => alta({ id }));
    expect(() => soapEnvelope(many, obligado)).toThrow();
    expect(() => soapEnvelope(many.slice(1), obligado)).not.toThrow();
  });

  it("exports any number of records as schema documents of up to 1,000 records each", () => {
    const many = Array.from({ length: 1001 }, (_, id) => alta({ id }));
    const documents = registrationDocuments(many).map(parseXml);
    // Each document's root is the schema's own element, in AEAT's namespace.
    for (const document of documents)
      expect([document.namespace, document.name]).toEqual([
        NAMESPACES.sum,
        "RegFactuSistemaFacturacion",
      ]);
    expect(documents.map((document) => document.children.length)).toEqual([1001, 2]);
    expect(registrationDocuments([])).toEqual([]);
  });
});
