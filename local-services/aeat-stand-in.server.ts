import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { isValidSpanishTaxId } from "~/platform/validation/spanish-tax-id";
import { altaHash, anulacionHash } from "~/features/verifactu/record-hash.server";
import { escapeXml, MAX_RECORDS_PER_REQUEST, NAMESPACES } from "~/features/verifactu/record-xml";
import {
  childNamed,
  childrenNamed,
  parseXml,
  textOf,
  type XmlElement,
} from "~/features/verifactu/xml-tree.server";

/**
 * A local stand-in for AEAT's VerifactuSOAP service, for development and tests only (like the
 * Stripe simulator): it checks each request the way AEAT's schema and validations do (element
 * names, order, cardinality and formats; SuministroLR.xsd, SuministroInformacion.xsd; the
 * validation document's codes), keeps the records it registered, and answers as
 * RespuestaSuministro.xsd does, with the prefixes AEAT uses (`env`, `tikR`, `tik`). Knobs make it
 * fail the ways AEAT can.
 */

const SF = NAMESPACES.sum1;
const LR = NAMESPACES.sum;
const SOAP = NAMESPACES.soapenv;

// ---------------------------------------------------------------- the schema, as rules

type Rule = {
  name?: string;
  /** SuministroInformacion unless said. */
  namespace?: string;
  min?: number;
  max?: number;
  simple?: (value: string) => boolean;
  sequence?: Rule[];
  choice?: Rule[];
};

const text =
  (max: number, min = 0) =>
  (value: string) =>
    value.length >= min && value.length <= max;
const pattern = (regex: RegExp) => (value: string) => regex.test(value);
const oneOf =
  (...values: string[]) =>
  (value: string) =>
    values.includes(value);
const isRealDate = (value: string) => {
  const [day, month, year] = value.split("-").map(Number);
  const date = new Date(Date.UTC(year!, month! - 1, day!));
  return date.getUTCDate() === day && date.getUTCMonth() === month! - 1;
};

const NIF = text(9, 9);
const FECHA = (value: string) => /^\d{2}-\d{2}-\d{4}$/.test(value) && isRealDate(value);
const IMPORTE = pattern(/^(\+|-)?\d{1,12}(\.\d{0,2})?$/);
const TIPO = pattern(/^\d{1,3}(\.\d{0,2})?$/);
const SN = oneOf("S", "N");
const DATE_TIME = pattern(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/);
const HASH = pattern(/^[0-9A-F]{64}$/);

const leaf = (name: string, simple: Rule["simple"], min = 1, max = 1): Rule => ({
  name,
  simple,
  min,
  max,
});
const group = (name: string, sequence: Rule[], min = 1, max = 1): Rule => ({
  name,
  sequence,
  min,
  max,
});
const choice = (...options: Rule[]): Rule => ({ choice: options, min: 1, max: 1 });

const ID_OTRO = group("IDOtro", [
  leaf("CodigoPais", text(2, 2), 0),
  leaf("IDType", oneOf("02", "03", "04", "05", "06", "07")),
  leaf("ID", text(20)),
]);
const persona = (name: string, min = 1, max = 1) =>
  group(name, [leaf("NombreRazon", text(120)), choice(leaf("NIF", NIF), ID_OTRO)], min, max);
const personaES = (name: string, min = 1) =>
  group(name, [leaf("NombreRazon", text(120)), leaf("NIF", NIF)], min);
const idFactura = (name: string) =>
  group(
    name,
    [
      leaf("IDEmisorFactura", NIF),
      leaf("NumSerieFactura", text(60, 1)),
      leaf("FechaExpedicionFactura", FECHA),
    ],
    1,
    1000,
  );

const ENCADENAMIENTO = group("Encadenamiento", [
  choice(
    leaf("PrimerRegistro", oneOf("S")),
    group("RegistroAnterior", [
      leaf("IDEmisorFactura", NIF),
      leaf("NumSerieFactura", text(60, 1)),
      leaf("FechaExpedicionFactura", FECHA),
      leaf("Huella", HASH),
    ]),
  ),
]);

const SISTEMA = group("SistemaInformatico", [
  leaf("NombreRazon", text(120)),
  choice(leaf("NIF", NIF), ID_OTRO),
  leaf("NombreSistemaInformatico", text(30)),
  leaf("IdSistemaInformatico", text(2)),
  leaf("Version", text(50)),
  leaf("NumeroInstalacion", text(100)),
  leaf("TipoUsoPosibleSoloVerifactu", SN),
  leaf("TipoUsoPosibleMultiOT", SN),
  leaf("IndicadorMultiplesOT", SN),
]);

const DETALLE = group(
  "DetalleDesglose",
  [
    leaf("Impuesto", oneOf("01", "02", "03", "05"), 0),
    leaf(
      "ClaveRegimen",
      oneOf(
        ...["01", "02", "03", "04", "05", "06", "07", "08", "09", "10", "11"],
        ...["14", "15", "17", "18", "19", "20", "21"],
      ),
      0,
    ),
    choice(
      leaf("CalificacionOperacion", oneOf("S1", "S2", "N1", "N2")),
      leaf("OperacionExenta", oneOf("E1", "E2", "E3", "E4", "E5", "E6", "E7", "E8")),
    ),
    leaf("TipoImpositivo", TIPO, 0),
    leaf("BaseImponibleOimporteNoSujeto", IMPORTE),
    leaf("BaseImponibleACoste", IMPORTE, 0),
    leaf("CuotaRepercutida", IMPORTE, 0),
    leaf("TipoRecargoEquivalencia", TIPO, 0),
    leaf("CuotaRecargoEquivalencia", IMPORTE, 0),
  ],
  1,
  12,
);

const TAIL = [ENCADENAMIENTO, SISTEMA, leaf("FechaHoraHusoGenRegistro", DATE_TIME)];

const REGISTRO_ALTA = group("RegistroAlta", [
  leaf("IDVersion", oneOf("1.0")),
  { ...idFactura("IDFactura"), max: 1 },
  leaf("RefExterna", text(60), 0),
  leaf("NombreRazonEmisor", text(120)),
  leaf("Subsanacion", SN, 0),
  leaf("RechazoPrevio", oneOf("N", "S", "X"), 0),
  leaf("TipoFactura", oneOf("F1", "F2", "R1", "R2", "R3", "R4", "R5", "F3")),
  leaf("TipoRectificativa", oneOf("S", "I"), 0),
  group("FacturasRectificadas", [idFactura("IDFacturaRectificada")], 0),
  group("FacturasSustituidas", [idFactura("IDFacturaSustituida")], 0),
  group(
    "ImporteRectificacion",
    [
      leaf("BaseRectificada", IMPORTE),
      leaf("CuotaRectificada", IMPORTE),
      leaf("CuotaRecargoRectificado", IMPORTE, 0),
    ],
    0,
  ),
  leaf("FechaOperacion", FECHA, 0),
  leaf("DescripcionOperacion", text(500)),
  leaf("FacturaSimplificadaArt7273", SN, 0),
  leaf("FacturaSinIdentifDestinatarioArt61d", SN, 0),
  leaf("Macrodato", SN, 0),
  leaf("EmitidaPorTerceroODestinatario", oneOf("D", "T"), 0),
  persona("Tercero", 0),
  group("Destinatarios", [persona("IDDestinatario", 1, 1000)], 0),
  leaf("Cupon", SN, 0),
  group("Desglose", [DETALLE]),
  leaf("CuotaTotal", IMPORTE),
  leaf("ImporteTotal", IMPORTE),
  ...TAIL,
  leaf("NumRegistroAcuerdoFacturacion", text(15), 0),
  leaf("IdAcuerdoSistemaInformatico", text(16), 0),
  leaf("TipoHuella", oneOf("01")),
  leaf("Huella", HASH),
]);

const REGISTRO_ANULACION = group("RegistroAnulacion", [
  leaf("IDVersion", oneOf("1.0")),
  group("IDFactura", [
    leaf("IDEmisorFacturaAnulada", NIF),
    leaf("NumSerieFacturaAnulada", text(60, 1)),
    leaf("FechaExpedicionFacturaAnulada", FECHA),
  ]),
  leaf("RefExterna", text(60), 0),
  leaf("SinRegistroPrevio", SN, 0),
  leaf("RechazoPrevio", SN, 0),
  leaf("GeneradoPor", oneOf("E", "D", "T"), 0),
  persona("Generador", 0),
  ...TAIL,
  leaf("TipoHuella", oneOf("01")),
  leaf("Huella", HASH),
]);

const REQUEST: Rule = {
  name: "RegFactuSistemaFacturacion",
  namespace: LR,
  sequence: [
    {
      name: "Cabecera",
      namespace: LR,
      sequence: [
        personaES("ObligadoEmision"),
        personaES("Representante", 0),
        group(
          "RemisionVoluntaria",
          [leaf("FechaFinVeriFactu", FECHA, 0), leaf("Incidencia", SN, 0)],
          0,
        ),
        group(
          "RemisionRequerimiento",
          [leaf("RefRequerimiento", text(18)), leaf("FinRequerimiento", SN, 0)],
          0,
        ),
      ],
    },
    {
      name: "RegistroFactura",
      namespace: LR,
      min: 1,
      // The limit has its own code (4113), checked before the schema.
      max: Number.POSITIVE_INFINITY,
      sequence: [choice(REGISTRO_ALTA, REGISTRO_ANULACION)],
    },
  ],
};

const ruleLabel = (rule: Rule) => rule.name ?? rule.choice!.map((option) => option.name).join("|");

function matches(rule: Rule, element: XmlElement) {
  return rule.choice
    ? rule.choice.some((option) => option.name === element.name)
    : rule.name === element.name;
}

/** The first way the element breaks its rule, or undefined when it keeps it. */
function schemaError(element: XmlElement, rule: Rule, path: string): string | undefined {
  if (element.namespace !== (rule.namespace ?? SF))
    return `${path}: espacio de nombres incorrecto (${element.namespace || "ninguno"})`;
  if (rule.simple) {
    if (element.children.length > 0) return `${path}: no admite elementos`;
    if (!rule.simple(element.text)) return `${path}: valor no válido «${element.text}»`;
    return undefined;
  }
  if (element.text) return `${path}: no admite texto`;
  return sequenceError(element.children, rule.sequence ?? [], path);
}

function sequenceError(children: XmlElement[], rules: Rule[], path: string): string | undefined {
  let next = 0;
  for (const rule of rules) {
    let count = 0;
    const max = rule.max ?? 1;
    while (next < children.length && count < max && matches(rule, children[next]!)) {
      const child = children[next]!;
      const target = rule.choice?.find((option) => option.name === child.name) ?? rule;
      const error = schemaError(child, target, `${path}/${child.name}`);
      if (error) return error;
      next++;
      count++;
    }
    if (count < (rule.min ?? 1)) return `${path}: falta ${ruleLabel(rule)}`;
  }
  if (next < children.length) return `${path}: elemento no esperado ${children[next]!.name}`;
  return undefined;
}

// ---------------------------------------------------------------- the stand-in

type Key = string;
const keyOf = (issuer: string, number: string, date: string): Key => `${issuer}|${number}|${date}`;

type Held = {
  state: "Correcta" | "AceptadaConErrores" | "Anulada";
  requestId: string;
  errorCode?: string;
  errorText?: string;
};

/** One record as the stand-in received it, with what it answered. */
export type ReceivedRecord = {
  kind: "alta" | "anulacion";
  issuerTaxId: string;
  invoiceNumber: string;
  issueDate: string;
  hash: string;
  correction?: string;
  previousRejection?: string;
  state: "Correcto" | "AceptadoConErrores" | "Incorrecto";
  errorCode?: string;
  errorText?: string;
  requestNumber: number;
};

export type StandInKnobs = {
  /** unreachable: the connection is dropped; unavailable: 503 Service Unavailable. */
  down: false | "unreachable" | "unavailable";
  /** Invoice numbers AEAT refuses (Incorrecto) with this code and text. */
  reject: Map<string, { code: string; text: string }>;
  /** TiempoEsperaEnvio it answers. */
  waitSeconds: number;
  /** The next answer is cut short (after registering the records, as if the line broke). */
  malformedOnce: boolean;
  /** How long it takes to answer, to let two senders overlap. */
  answerDelayMs: number;
};

export type AeatStandIn = {
  url: string;
  knobs: StandInKnobs;
  /** Every record of every request it processed, in order. */
  received: ReceivedRecord[];
  /** Requests that reached it, whatever came of them. */
  requests: number;
  /** The number of records of each request it answered. */
  batchSizes: number[];
  /** Whether each request it answered declared an incident (RemisionVoluntaria/Incidencia=S). */
  incidents: boolean[];
  close(): Promise<void>;
};

type Line = Omit<ReceivedRecord, "requestNumber" | "hash"> & {
  hash: string;
  duplicate?: Held;
};

class Fault extends Error {
  constructor(
    readonly faultCode: "Client" | "Server",
    readonly code: string,
    text: string,
  ) {
    super(text);
  }
}

const RESPONSE_NS = `xmlns:tikR="${NAMESPACES.respuesta}" xmlns:tik="${SF}"`;

function envelope(body: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?><env:Envelope xmlns:env="${SOAP}"><env:Header/><env:Body Id="Body">${body}</env:Body></env:Envelope>`;
}

function faultXml(fault: Fault): string {
  return envelope(
    `<env:Fault><faultcode>env:${fault.faultCode}</faultcode><faultstring>${escapeXml(`Codigo[${fault.code}].${fault.message}`)}</faultstring><detail><callstack>WSExcepcion</callstack></detail></env:Fault>`,
  );
}

const t = (prefix: string, name: string, value: string | undefined) =>
  value === undefined ? "" : `<${prefix}:${name}>${escapeXml(value)}</${prefix}:${name}>`;

function lineXml(line: Line): string {
  const duplicate = line.duplicate
    ? `<tikR:RegistroDuplicado>${t("tik", "IdPeticionRegistroDuplicado", line.duplicate.requestId)}${t("tik", "EstadoRegistroDuplicado", line.duplicate.state)}${t("tik", "CodigoErrorRegistro", line.duplicate.errorCode)}${t("tik", "DescripcionErrorRegistro", line.duplicate.errorText)}</tikR:RegistroDuplicado>`
    : "";
  return (
    `<tikR:RespuestaLinea><tikR:IDFactura>${t("tik", "IDEmisorFactura", line.issuerTaxId)}${t("tik", "NumSerieFactura", line.invoiceNumber)}${t("tik", "FechaExpedicionFactura", line.issueDate)}</tikR:IDFactura>` +
    `<tikR:Operacion>${t("tik", "TipoOperacion", line.kind === "alta" ? "Alta" : "Anulacion")}${t("tik", "Subsanacion", line.correction)}${t("tik", "RechazoPrevio", line.previousRejection)}</tikR:Operacion>` +
    `${t("tikR", "EstadoRegistro", line.state)}${t("tikR", "CodigoErrorRegistro", line.errorCode)}${t("tikR", "DescripcionErrorRegistro", line.errorText)}${duplicate}</tikR:RespuestaLinea>`
  );
}

const aeatNow = () => new Date().toISOString().replace(/\.\d{3}Z$/, "+00:00");
const newCsv = () =>
  `A-${[...randomBytes(14)].map((byte) => "ABCDEFGHJKLMNPQRSTUVWXYZ0123456789"[byte % 34]).join("")}`;

export async function startAeatStandIn({
  port = 0,
  waitSeconds = 60,
}: { port?: number; waitSeconds?: number } = {}): Promise<AeatStandIn> {
  const held = new Map<Key, Held>();
  let requestNumber = 0;
  const standIn: Omit<AeatStandIn, "url" | "close"> = {
    knobs: { down: false, reject: new Map(), waitSeconds, malformedOnce: false, answerDelayMs: 0 },
    received: [],
    requests: 0,
    batchSizes: [],
    incidents: [],
  };

  function judgeRecord(registro: XmlElement, obligadoNif: string): Line {
    const alta = registro.name === "RegistroAlta";
    const id = childNamed(registro, SF, "IDFactura");
    const suffix = alta ? "" : "Anulada";
    const issuerTaxId = textOf(id, SF, `IDEmisorFactura${suffix}`)!;
    const invoiceNumber = textOf(id, SF, `NumSerieFactura${suffix}`)!;
    const issueDate = textOf(id, SF, `FechaExpedicionFactura${suffix}`)!;
    const hash = textOf(registro, SF, "Huella")!;
    const correction = textOf(registro, SF, "Subsanacion");
    const previousRejection = textOf(registro, SF, "RechazoPrevio");
    const base = {
      kind: alta ? ("alta" as const) : ("anulacion" as const),
      issuerTaxId,
      invoiceNumber,
      issueDate,
      hash,
      correction,
      previousRejection,
    };
    const refuse = (errorCode: string, errorText: string, duplicate?: Held): Line => ({
      ...base,
      state: "Incorrecto",
      errorCode,
      errorText,
      duplicate,
    });

    if (!isValidSpanishTaxId(issuerTaxId))
      return refuse("1123", "El formato del NIF es incorrecto.");
    if (issuerTaxId !== obligadoNif)
      return refuse(
        "1108",
        "El NIF del IDEmisorFactura debe ser el mismo que el NIF del ObligadoEmision.",
      );
    const recipients = childrenNamed(
      childNamed(registro, SF, "Destinatarios"),
      SF,
      "IDDestinatario",
    );
    for (const recipient of recipients) {
      const nif = textOf(recipient, SF, "NIF");
      if (nif !== undefined && !isValidSpanishTaxId(nif))
        return refuse("1123", "El formato del NIF es incorrecto.");
    }
    // AEAT's validations 1116, 1185, 1189 and 1190 (Validaciones VERI*FACTU, §9-10).
    if (alta) {
      const type = textOf(registro, SF, "TipoFactura") ?? "";
      if (childNamed(registro, SF, "FacturasSustituidas") && type !== "F3")
        return refuse(
          "1116",
          "Debe informarse el campo FacturasSustituidas sólo si la factura es de tipo F3.",
        );
      const withoutRecipient = textOf(registro, SF, "FacturaSinIdentifDestinatarioArt61d");
      const unnamed = type === "F2" || type === "R5";
      if (withoutRecipient === "S" && !unnamed)
        return refuse(
          "1185",
          "El valor del campo FacturaSinIdentifDestinatarioArt61d es incorrecto. Solo se podrá rellenar con S si TipoFactura es de tipo F2 o R5.",
        );
      if (!unnamed && recipients.length === 0)
        return refuse(
          "1189",
          "Si TipoFactura es F1 o F3 o R1 o R2 o R3 o R4 el bloque Destinatarios tiene que estar cumplimentado.",
        );
      if (unnamed && recipients.length > 0)
        return refuse(
          "1190",
          "Si TipoFactura es F2 o R5 el bloque Destinatarios no puede estar cumplimentado.",
        );
    }
    const rejected = standIn.knobs.reject.get(invoiceNumber);
    if (rejected) return refuse(rejected.code, rejected.text);
    if (previousRejection === "X" && correction !== "S")
      return refuse(
        "1153",
        "Valor del campo RechazoPrevio no válido, solo podrá incluirse el campo RechazoPrevio con valor X si se ha informado el campo Subsanacion y tiene el valor S.",
      );

    const key = keyOf(issuerTaxId, invoiceNumber, issueDate);
    const existing = held.get(key);
    if (alta) {
      const amendsHeld = correction === "S" && previousRejection !== "X";
      if (existing && !amendsHeld)
        return refuse("3000", "Registro de facturación duplicado.", existing);
      if (!existing && amendsHeld) return refuse("3002", "No existe el registro de facturación.");
    } else {
      if (!existing) return refuse("3002", "No existe el registro de facturación.");
      if (existing.state === "Anulada")
        return refuse("3001", "El registro de facturación ya ha sido dado de baja.");
    }

    const previousHash =
      textOf(
        childNamed(childNamed(registro, SF, "Encadenamiento"), SF, "RegistroAnterior"),
        SF,
        "Huella",
      ) ?? "";
    const generatedAt = textOf(registro, SF, "FechaHoraHusoGenRegistro")!;
    const expected = alta
      ? altaHash({
          issuerTaxId,
          invoiceNumber,
          issueDate,
          invoiceType: textOf(registro, SF, "TipoFactura")!,
          cuotaTotal: textOf(registro, SF, "CuotaTotal")!,
          importeTotal: textOf(registro, SF, "ImporteTotal")!,
          previousHash,
          generatedAt,
        })
      : anulacionHash({ issuerTaxId, invoiceNumber, issueDate, previousHash, generatedAt });
    const wrongHash = expected !== hash;
    const line: Line = wrongHash
      ? {
          ...base,
          state: "AceptadoConErrores",
          errorCode: "2000",
          errorText: "El cálculo de la huella suministrada es incorrecta.",
        }
      : { ...base, state: "Correcto" };
    held.set(key, {
      state: !alta ? "Anulada" : wrongHash ? "AceptadaConErrores" : "Correcta",
      requestId: String(requestNumber).padStart(12, "0"),
      errorCode: line.errorCode,
      errorText: line.errorText,
    });
    return line;
  }

  function answer(body: string): { status: number; xml: string } {
    let document: XmlElement;
    try {
      document = parseXml(body);
    } catch {
      throw new Fault("Client", "4103", "Se ha producido un error inesperado al parsear el XML.");
    }
    if (document.namespace !== SOAP || document.name !== "Envelope")
      throw new Fault("Client", "4102", "El XML no cumple el esquema. Se esperaba un sobre SOAP.");
    const request = childNamed(
      childNamed(document, SOAP, "Body"),
      LR,
      "RegFactuSistemaFacturacion",
    );
    if (!request)
      throw new Fault(
        "Client",
        "4102",
        "El XML no cumple el esquema. Falta RegFactuSistemaFacturacion.",
      );
    const registros = childrenNamed(request, LR, "RegistroFactura");
    if (registros.length > MAX_RECORDS_PER_REQUEST)
      throw new Fault(
        "Client",
        "4113",
        "El XML no cumple con el esquema: se ha superado el límite máximo permitido de facturas a registrar.",
      );
    const error = schemaError(request, REQUEST, "RegFactuSistemaFacturacion");
    if (error) throw new Fault("Client", "4102", `El XML no cumple el esquema. ${error}`);
    const obligado = childNamed(childNamed(request, LR, "Cabecera"), SF, "ObligadoEmision");
    const obligadoNif = textOf(obligado, SF, "NIF")!;
    if (!isValidSpanishTaxId(obligadoNif))
      throw new Fault("Client", "4109", "El formato del NIF es incorrecto.");

    requestNumber++;
    const lines = registros.map((registro) => judgeRecord(registro.children[0]!, obligadoNif));
    for (const line of lines) {
      const { duplicate: _duplicate, ...received } = line;
      standIn.received.push({ ...received, requestNumber });
    }
    standIn.batchSizes.push(lines.length);
    const voluntary = childNamed(childNamed(request, LR, "Cabecera"), SF, "RemisionVoluntaria");
    standIn.incidents.push(textOf(voluntary, SF, "Incidencia") === "S");
    const refused = lines.filter((line) => line.state === "Incorrecto").length;
    const outcome =
      refused === lines.length
        ? "Incorrecto"
        : refused === 0 && lines.every((line) => line.state === "Correcto")
          ? "Correcto"
          : "ParcialmenteCorrecto";
    const registered = refused < lines.length;
    const presentation = registered
      ? `${t("tikR", "CSV", newCsv())}<tikR:DatosPresentacion>${t("tik", "NIFPresentador", obligadoNif)}${t("tik", "TimestampPresentacion", aeatNow())}</tikR:DatosPresentacion>`
      : "";
    const xml = envelope(
      `<tikR:RespuestaRegFactuSistemaFacturacion ${RESPONSE_NS}>${presentation}` +
        `<tikR:Cabecera><tik:ObligadoEmision>${t("tik", "NombreRazon", textOf(obligado, SF, "NombreRazon"))}${t("tik", "NIF", obligadoNif)}</tik:ObligadoEmision></tikR:Cabecera>` +
        `${t("tikR", "TiempoEsperaEnvio", String(standIn.knobs.waitSeconds))}${t("tikR", "EstadoEnvio", outcome)}` +
        `${lines.map(lineXml).join("")}</tikR:RespuestaRegFactuSistemaFacturacion>`,
    );
    return { status: 200, xml };
  }

  const server = http.createServer((req, res) => {
    standIn.requests++;
    if (standIn.knobs.down === "unreachable") {
      req.socket.destroy();
      return;
    }
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      if (standIn.knobs.down === "unavailable") {
        res
          .writeHead(503, { "Content-Type": "text/html" })
          .end("<html>Servicio no disponible</html>");
        return;
      }
      let status: number;
      let xml: string;
      try {
        if (req.method !== "POST" || !/^text\/xml/i.test(req.headers["content-type"] ?? ""))
          throw new Fault(
            "Client",
            "4102",
            "El XML no cumple el esquema. Se espera POST text/xml.",
          );
        ({ status, xml } = answer(Buffer.concat(chunks).toString("utf8")));
      } catch (error) {
        const fault =
          error instanceof Fault
            ? error
            : new Fault("Server", "9999", "Error interno del servicio.");
        status = 500;
        xml = faultXml(fault);
      }
      if (standIn.knobs.malformedOnce) {
        standIn.knobs.malformedOnce = false;
        xml = xml.slice(0, Math.floor(xml.length / 2));
      }
      setTimeout(
        () => res.writeHead(status, { "Content-Type": "text/xml; charset=UTF-8" }).end(xml),
        standIn.knobs.answerDelayMs,
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const { port: actualPort } = server.address() as AddressInfo;
  return Object.assign(standIn, {
    url: `http://127.0.0.1:${actualPort}/wlpl/TIKE-CONT/ws/SistemaFacturacion/VerifactuSOAP`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
