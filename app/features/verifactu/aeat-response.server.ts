import { NAMESPACES } from "./record-xml";
import {
  childNamed,
  childrenNamed,
  parseXml,
  textOf,
  XmlSyntaxError,
  type XmlElement,
} from "./xml-tree.server";

/**
 * AEAT's answer to a RegFactuSistemaFacturacion request (RespuestaSuministro.xsd; AEAT's
 * description of the service §5.1, §6.2.6 and §6.4.4), read by namespace, never by prefix. Never
 * throws: whatever comes back is an answer, a SOAP Fault, or a typed malformed answer.
 */

export type RecordState = "Correcto" | "AceptadoConErrores" | "Incorrecto";
export type DuplicateState = "Correcta" | "AceptadaConErrores" | "Anulada";
export type SubmissionOutcome = "Correcto" | "ParcialmenteCorrecto" | "Incorrecto";

/** One RespuestaLinea: what AEAT made of one record. */
export type AeatLine = {
  issuerTaxId: string;
  invoiceNumber: string;
  issueDate: string;
  operation: "Alta" | "Anulacion";
  correction?: string;
  previousRejection?: string;
  state: RecordState;
  errorCode?: string;
  errorText?: string;
  /** Only on a record refused as a duplicate (code 3000): the state of the one AEAT holds. */
  duplicate?: { requestId?: string; state: DuplicateState; errorCode?: string; errorText?: string };
};

export type AeatAnswer =
  | {
      kind: "answer";
      csv?: string;
      /** TiempoEsperaEnvio: seconds before the next request (Orden HAC/1177/2024 art. 16.2). */
      waitSeconds: number;
      outcome: SubmissionOutcome;
      lines: AeatLine[];
    }
  | {
      kind: "fault";
      /** Client: the message is wrong, fix it before sending again; Server: send again. */
      faultCode: string;
      /** The NNNN of `Codigo[NNNN].text`, when AEAT gives one. */
      code?: string;
      text: string;
    }
  | { kind: "malformed"; error: string };

const SOAP = NAMESPACES.soapenv;
const R = NAMESPACES.respuesta;
const SF = NAMESPACES.sum1;

const RECORD_STATES: readonly string[] = ["Correcto", "AceptadoConErrores", "Incorrecto"];
const DUPLICATE_STATES: readonly string[] = ["Correcta", "AceptadaConErrores", "Anulada"];
const OUTCOMES: readonly string[] = ["Correcto", "ParcialmenteCorrecto", "Incorrecto"];

class MalformedAnswer extends Error {}

function required(parent: XmlElement | undefined, namespace: string, name: string): string {
  const value = textOf(parent, namespace, name);
  if (value === undefined) throw new MalformedAnswer(`Falta ${name} en la respuesta`);
  return value;
}

function oneOf<T extends string>(value: string, allowed: readonly string[], name: string): T {
  if (!allowed.includes(value)) throw new MalformedAnswer(`${name} desconocido: ${value}`);
  return value as T;
}

/** faultstring `Codigo[4104].El NIF del titular…` → code 4104 and the text after it. */
export function splitFaultString(faultString: string): { code?: string; text: string } {
  const match = /^\s*Codigo\[(\d+)\]\.?\s*([\s\S]*)$/.exec(faultString);
  return match ? { code: match[1], text: match[2]!.trim() } : { text: faultString.trim() };
}

function readFault(fault: XmlElement): AeatAnswer {
  // faultcode and faultstring are unqualified in SOAP 1.1.
  const faultCode = (textOf(fault, "", "faultcode") ?? "").replace(/^.*:/, "");
  return { kind: "fault", faultCode, ...splitFaultString(textOf(fault, "", "faultstring") ?? "") };
}

function readDuplicate(element: XmlElement | undefined): AeatLine["duplicate"] {
  if (!element) return undefined;
  return {
    requestId: textOf(element, SF, "IdPeticionRegistroDuplicado"),
    state: oneOf<DuplicateState>(
      required(element, SF, "EstadoRegistroDuplicado"),
      DUPLICATE_STATES,
      "EstadoRegistroDuplicado",
    ),
    errorCode: textOf(element, SF, "CodigoErrorRegistro"),
    errorText: textOf(element, SF, "DescripcionErrorRegistro"),
  };
}

function readLine(line: XmlElement): AeatLine {
  const id = childNamed(line, R, "IDFactura");
  const operation = childNamed(line, R, "Operacion");
  return {
    issuerTaxId: required(id, SF, "IDEmisorFactura"),
    invoiceNumber: required(id, SF, "NumSerieFactura"),
    issueDate: required(id, SF, "FechaExpedicionFactura"),
    operation: oneOf(
      required(operation, SF, "TipoOperacion"),
      ["Alta", "Anulacion"],
      "TipoOperacion",
    ),
    correction: textOf(operation, SF, "Subsanacion"),
    previousRejection: textOf(operation, SF, "RechazoPrevio"),
    state: oneOf<RecordState>(required(line, R, "EstadoRegistro"), RECORD_STATES, "EstadoRegistro"),
    errorCode: textOf(line, R, "CodigoErrorRegistro"),
    errorText: textOf(line, R, "DescripcionErrorRegistro"),
    duplicate: readDuplicate(childNamed(line, R, "RegistroDuplicado")),
  };
}

function readAnswer(answer: XmlElement): AeatAnswer {
  const wait = required(answer, R, "TiempoEsperaEnvio");
  if (!/^\d{1,4}$/.test(wait)) throw new MalformedAnswer(`TiempoEsperaEnvio no válido: ${wait}`);
  return {
    kind: "answer",
    csv: textOf(answer, R, "CSV") || undefined,
    waitSeconds: Number(wait),
    outcome: oneOf<SubmissionOutcome>(required(answer, R, "EstadoEnvio"), OUTCOMES, "EstadoEnvio"),
    lines: childrenNamed(answer, R, "RespuestaLinea").map(readLine),
  };
}

/** Reads AEAT's answer body, whatever its HTTP status (a SOAP Fault comes with a 500). */
export function parseAeatResponse(body: string): AeatAnswer {
  try {
    const envelope = parseXml(body);
    if (envelope.namespace !== SOAP || envelope.name !== "Envelope")
      throw new MalformedAnswer(`Se esperaba un sobre SOAP, llegó ${envelope.name}`);
    const content = childNamed(envelope, SOAP, "Body")?.children[0];
    if (!content) throw new MalformedAnswer("Sobre SOAP sin contenido");
    if (content.namespace === SOAP && content.name === "Fault") return readFault(content);
    if (content.namespace === R && content.name === "RespuestaRegFactuSistemaFacturacion")
      return readAnswer(content);
    throw new MalformedAnswer(`Respuesta inesperada: ${content.name}`);
  } catch (error) {
    if (error instanceof MalformedAnswer || error instanceof XmlSyntaxError)
      return { kind: "malformed", error: error.message };
    return { kind: "malformed", error: `Respuesta ilegible: ${String(error)}` };
  }
}
