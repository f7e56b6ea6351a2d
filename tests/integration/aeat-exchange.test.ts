import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { verifactuRecords } from "~/platform/db/schema";
import { parseAeatResponse } from "~/features/verifactu/aeat-response.server";
import { startAeatStandIn, type AeatStandIn } from "../../local-services/aeat-stand-in.server";
import { aeatTransport } from "~/features/verifactu/aeat-transport.server";
import { altaHash } from "~/features/verifactu/record-hash.server";
import { NAMESPACES, soapEnvelope } from "~/features/verifactu/record-xml";
import { deliveryState } from "~/features/verifactu/sender.server";
import { verifactuSystem } from "~/features/verifactu/system";

type VerifactuRecord = typeof verifactuRecords.$inferSelect;

const ENV = NAMESPACES.soapenv;
const TIKR = NAMESPACES.respuesta;
const TIK = NAMESPACES.sum1;

/** An answer as AEAT writes it (prefixes env/tikR/tik, Body with an Id). */
const aeatAnswer = `<?xml version="1.0" encoding="UTF-8"?>
<env:Envelope xmlns:env="${ENV}"><env:Header/><env:Body Id="Body">
<tikR:RespuestaRegFactuSistemaFacturacion xmlns:tikR="${TIKR}" xmlns:tik="${TIK}">
  <tikR:CSV>A-86U4KHPACUMVZE</tikR:CSV>
  <tikR:DatosPresentacion><tik:NIFPresentador>B12345674</tik:NIFPresentador><tik:TimestampPresentacion>2025-10-13T12:34:56+02:00</tik:TimestampPresentacion></tikR:DatosPresentacion>
  <tikR:Cabecera><tik:ObligadoEmision><tik:NombreRazon>Servicios SL</tik:NombreRazon><tik:NIF>B12345674</tik:NIF></tik:ObligadoEmision></tikR:Cabecera>
  <tikR:TiempoEsperaEnvio>60</tikR:TiempoEsperaEnvio>
  <tikR:EstadoEnvio>ParcialmenteCorrecto</tikR:EstadoEnvio>
  <tikR:RespuestaLinea>
    <tikR:IDFactura><tik:IDEmisorFactura>B12345674</tik:IDEmisorFactura><tik:NumSerieFactura>F2026-000001</tik:NumSerieFactura><tik:FechaExpedicionFactura>01-03-2026</tik:FechaExpedicionFactura></tikR:IDFactura>
    <tikR:Operacion><tik:TipoOperacion>Alta</tik:TipoOperacion></tikR:Operacion>
    <tikR:EstadoRegistro>Correcto</tikR:EstadoRegistro>
  </tikR:RespuestaLinea>
  <tikR:RespuestaLinea>
    <tikR:IDFactura><tik:IDEmisorFactura>B12345674</tik:IDEmisorFactura><tik:NumSerieFactura>F2026-000002</tik:NumSerieFactura><tik:FechaExpedicionFactura>01-03-2026</tik:FechaExpedicionFactura></tikR:IDFactura>
    <tikR:Operacion><tik:TipoOperacion>Alta</tik:TipoOperacion></tikR:Operacion>
    <tikR:EstadoRegistro>Incorrecto</tikR:EstadoRegistro>
    <tikR:CodigoErrorRegistro>3000</tikR:CodigoErrorRegistro>
    <tikR:DescripcionErrorRegistro>Registro de facturación duplicado.</tikR:DescripcionErrorRegistro>
    <tikR:RegistroDuplicado><tik:IdPeticionRegistroDuplicado>202600000001</tik:IdPeticionRegistroDuplicado><tik:EstadoRegistroDuplicado>AceptadaConErrores</tik:EstadoRegistroDuplicado><tik:CodigoErrorRegistro>2000</tik:CodigoErrorRegistro></tikR:RegistroDuplicado>
  </tikR:RespuestaLinea>
</tikR:RespuestaRegFactuSistemaFacturacion></env:Body></env:Envelope>`;

describe("reading AEAT's answer", () => {
  it("reads the answer by namespace, whatever the prefixes", () => {
    const answer = parseAeatResponse(aeatAnswer);
    expect(answer).toMatchObject({
      kind: "answer",
      csv: "A-86U4KHPACUMVZE",
      waitSeconds: 60,
      outcome: "ParcialmenteCorrecto",
    });
    const renamed = aeatAnswer
      .replaceAll("tikR:", "r:")
      .replaceAll("xmlns:tikR", "xmlns:r")
      .replaceAll("env:", "soap:")
      .replaceAll("xmlns:env", "xmlns:soap");
    expect(parseAeatResponse(renamed)).toEqual(answer);
    if (answer.kind !== "answer") throw new Error(answer.kind);
    expect(answer.lines[1]).toMatchObject({
      invoiceNumber: "F2026-000002",
      operation: "Alta",
      state: "Incorrecto",
      errorCode: "3000",
      duplicate: { requestId: "202600000001", state: "AceptadaConErrores", errorCode: "2000" },
    });
    // The duplicate takes the state of the record AEAT already holds.
    expect(deliveryState(answer.lines[1]!)).toMatchObject({
      status: "accepted_with_errors",
      errorCode: "2000",
    });
    expect(deliveryState(answer.lines[0]!)).toMatchObject({ status: "accepted" });
  });

  it("reads a SOAP Fault's code and text", () => {
    const fault = `<env:Envelope xmlns:env="${ENV}"><env:Body><env:Fault><faultcode>env:Client</faultcode><faultstring>Codigo[4104].El NIF del titular en la cabecera no está identificado. NIF:B12345674</faultstring><detail><callstack>WSExcepcion</callstack></detail></env:Fault></env:Body></env:Envelope>`;
    expect(parseAeatResponse(fault)).toEqual({
      kind: "fault",
      faultCode: "Client",
      code: "4104",
      text: "El NIF del titular en la cabecera no está identificado. NIF:B12345674",
    });
  });

  it("gives a typed failure for anything else, never an exception", () => {
    for (const body of [
      "",
      "<html>Servicio no disponible</html>",
      aeatAnswer.slice(0, 400),
      aeatAnswer.replace("<tikR:TiempoEsperaEnvio>60</tikR:TiempoEsperaEnvio>", ""),
      aeatAnswer.replace(">Correcto</tikR:EstadoRegistro>", ">Quizá</tikR:EstadoRegistro>"),
      aeatAnswer.replace(`xmlns:tik="${TIK}"`, ""),
    ])
      expect(parseAeatResponse(body).kind).toBe("malformed");
  });
});

const SYSTEM = verifactuSystem({
  name: "Servicios SL",
  taxId: "B12345674",
  installationNumber: "1",
});

function record(number: string, overrides: Partial<VerifactuRecord> = {}): VerifactuRecord {
  const fields = {
    issuerTaxId: "B12345674",
    invoiceNumber: number,
    issueDate: "01-03-2026",
    invoiceType: overrides.invoiceType ?? "F2",
    cuotaTotal: "25.86",
    importeTotal: "149.00",
    previousHash: "",
    generatedAt: "2026-03-01T10:00:00+01:00",
  };
  return {
    id: 1,
    kind: "alta",
    invoiceId: "00000000-0000-4000-8000-000000000001",
    issuerTaxId: fields.issuerTaxId,
    issuerName: "Servicios SL",
    invoiceNumber: number,
    issueDate: fields.issueDate,
    invoiceType: fields.invoiceType,
    correctiveType: null,
    correctedInvoices: null,
    withoutRecipientId: null,
    substitutedInvoices: null,
    operationDate: null,
    description: "Asistencia",
    recipient: null,
    breakdown: [
      {
        tax: "01",
        regime: "01",
        qualification: "S1",
        rate: "21.00",
        base: "123.14",
        cuota: "25.86",
      },
    ],
    cuotaTotal: fields.cuotaTotal,
    importeTotal: fields.importeTotal,
    correction: null,
    previousRejection: null,
    previousRecordId: null,
    previous: null,
    system: SYSTEM,
    generatedAt: fields.generatedAt,
    hashType: "01",
    hash: altaHash(fields),
    createdAt: new Date(),
    ...overrides,
  };
}

describe("the AEAT stand-in", () => {
  let standIn: AeatStandIn;
  const obligado = { name: "Servicios SL", taxId: "B12345674" };
  const post = (body: string) => aeatTransport(standIn.url).post(body);

  beforeAll(async () => {
    standIn = await startAeatStandIn();
  });
  afterAll(() => standIn.close());

  it("accepts a well-formed request and answers as AEAT does", async () => {
    const reply = await post(soapEnvelope([record("A-1")], obligado));
    expect(reply.status).toBe(200);
    expect(reply.body).toContain("<tikR:EstadoRegistro>Correcto</tikR:EstadoRegistro>");
    expect(parseAeatResponse(reply.body)).toMatchObject({ kind: "answer", outcome: "Correcto" });
  });

  it("refuses the whole request when the XML breaks AEAT's schema", async () => {
    const good = soapEnvelope([record("A-2")], obligado);
    const outOfOrder = good.replace(
      /(<sum1:TipoFactura>F2<\/sum1:TipoFactura>)(<sum1:DescripcionOperacion>Asistencia<\/sum1:DescripcionOperacion>)/,
      "$2$1",
    );
    const badAmount = good.replace("<sum1:ImporteTotal>149.00<", "<sum1:ImporteTotal>149,00<");
    const badDate = good.replace(
      "<sum1:FechaExpedicionFactura>01-03-2026<",
      "<sum1:FechaExpedicionFactura>2026-03-01<",
    );
    const wrongNamespace = good.replace(/sum1:CuotaTotal/g, "sum:CuotaTotal");
    for (const body of [outOfOrder, badAmount, badDate, wrongNamespace, "<no"]) {
      const answer = parseAeatResponse((await post(body)).body);
      expect(answer).toMatchObject({ kind: "fault", faultCode: "Client" });
    }
    expect(standIn.received.map((line) => line.invoiceNumber)).not.toContain("A-2");
  });

  it("judges each record: foreign issuer, wrong hash, duplicate, refused number", async () => {
    standIn.knobs.reject.set("A-6", {
      code: "1104",
      text: "El valor del campo NumSerieFactura es incorrecto.",
    });
    const body = soapEnvelope(
      [
        record("A-3", { issuerTaxId: "A58818501" }),
        record("A-4", { hash: "F".repeat(64) }),
        record("A-1"),
        record("A-6"),
      ],
      obligado,
    );
    const answer = parseAeatResponse((await post(body)).body);
    if (answer.kind !== "answer") throw new Error(answer.kind);
    expect(answer.outcome).toBe("ParcialmenteCorrecto");
    expect(answer.lines.map((line) => [line.state, line.errorCode])).toEqual([
      ["Incorrecto", "1108"],
      ["AceptadoConErrores", "2000"],
      ["Incorrecto", "3000"],
      ["Incorrecto", "1104"],
    ]);
    expect(answer.lines[2]!.duplicate).toMatchObject({ state: "Correcta" });
  });

  it("takes a consumer's complete invoice without NIF only as an F2 without Destinatarios", async () => {
    const buyer = { name: "Ana Pérez", taxId: "12345678Z" };
    const f1 = (number: string, overrides: Partial<VerifactuRecord>) =>
      record(number, { invoiceType: "F1", ...overrides });
    const body = soapEnvelope(
      [
        record("B-1", { withoutRecipientId: "S" }),
        f1("B-2", { recipient: buyer, withoutRecipientId: "S" }),
        f1("B-3", {}),
        record("B-4", { recipient: buyer }),
      ],
      obligado,
    );
    const answer = parseAeatResponse((await post(body)).body);
    if (answer.kind !== "answer") throw new Error(answer.kind);
    expect(answer.lines.map((line) => [line.state, line.errorCode])).toEqual([
      ["Correcto", undefined],
      ["Incorrecto", "1185"],
      ["Incorrecto", "1189"],
      ["Incorrecto", "1190"],
    ]);
  });

  it("takes FacturasSustituidas only on an F3, which names its buyer", async () => {
    const buyer = { name: "Ruiz Consultores SL", taxId: "B12345674" };
    const replaced = [
      { issuerTaxId: obligado.taxId, invoiceNumber: "A-1", issueDate: "01-12-2026" },
    ];
    const body = soapEnvelope(
      [
        record("C-1", { invoiceType: "F3", recipient: buyer, substitutedInvoices: replaced }),
        record("C-2", { invoiceType: "F1", recipient: buyer, substitutedInvoices: replaced }),
        record("C-3", { invoiceType: "F3", substitutedInvoices: replaced }),
      ],
      obligado,
    );
    const answer = parseAeatResponse((await post(body)).body);
    if (answer.kind !== "answer") throw new Error(answer.kind);
    expect(answer.lines.map((line) => [line.state, line.errorCode])).toEqual([
      ["Correcto", undefined],
      ["Incorrecto", "1116"],
      ["Incorrecto", "1189"],
    ]);
  });

  it("sends in plain HTTP only to this machine, and to AEAT only with a certificate", () => {
    expect(() => aeatTransport("http://aeat.example.com/VerifactuSOAP")).toThrow(/simulador local/);
    expect(() => aeatTransport("https://prewww1.aeat.es/wlpl/TIKE-CONT/ws/x")).toThrow(
      /certificado/,
    );
    expect(aeatTransport("http://127.0.0.1:9/x").endpoint).toBe("http://127.0.0.1:9/x");
  });

  it("fails a request AEAT does not answer, with a reason", async () => {
    standIn.knobs.down = "unreachable";
    await expect(post(soapEnvelope([record("A-7")], obligado))).rejects.toThrow();
    standIn.knobs.down = "unavailable";
    expect((await post(soapEnvelope([record("A-7")], obligado))).status).toBe(503);
    standIn.knobs.down = false;
  });
});
