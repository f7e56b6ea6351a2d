import { readFileSync } from "node:fs";
import http from "node:http";
import https from "node:https";
import { createSecureContext } from "node:tls";

/**
 * The HTTP leg of a submission: one SOAP 1.1 POST (soapAction "", UTF-8) to AEAT's VerifactuSOAP
 * service, authenticated by the company's PKCS#12 client certificate ([SWEB] §4). Plain HTTP is
 * only for the local stand-in on this machine.
 */

/** AEAT's VerifactuSOAP endpoints for a personal or entity certificate (SistemaFacturacion.wsdl). */
export const AEAT_ENDPOINTS = {
  produccion:
    "https://www1.agenciatributaria.gob.es/wlpl/TIKE-CONT/ws/SistemaFacturacion/VerifactuSOAP",
  pruebas: "https://prewww1.aeat.es/wlpl/TIKE-CONT/ws/SistemaFacturacion/VerifactuSOAP",
} as const;

export type AeatEnvironment = keyof typeof AEAT_ENDPOINTS;

/** The endpoint of the configured environment, unless VERIFACTU_ENDPOINT names another one. */
export function aeatEndpoint(config: { environment: AeatEnvironment; endpoint?: string }): string {
  return config.endpoint ?? AEAT_ENDPOINTS[config.environment];
}

export type AeatReply = { status: number; body: string };

export type AeatTransport = {
  endpoint: string;
  /** Resolves with whatever HTTP answer came back; rejects when none did (network, timeout). */
  post(envelope: string): Promise<AeatReply>;
};

/** No answer within this time is a failed request: AEAT is asked again later. */
export const REQUEST_TIMEOUT_MS = 120_000;
const MAX_ANSWER_BYTES = 20 * 1024 * 1024;

export type ClientCertificate = { pfx: Buffer; passphrase?: string };

/**
 * Reads the PKCS#12 file once, at start, and opens it: a missing file or a wrong password is
 * reported right away, not as a failed request every hour.
 */
export function loadCertificate(file: string, passphrase?: string): ClientCertificate {
  const certificate = { pfx: readFileSync(file), passphrase };
  try {
    createSecureContext(certificate);
  } catch (error) {
    throw new Error(
      `VERIFACTU_CERT_FILE: no se puede abrir el certificado (${(error as Error).message}); revisa el fichero y VERIFACTU_CERT_PASSWORD`,
    );
  }
  return certificate;
}

const LOOPBACK = new Set(["127.0.0.1", "[::1]", "localhost"]);

export function isLoopbackUrl(url: URL): boolean {
  return LOOPBACK.has(url.hostname);
}

export function aeatTransport(
  endpoint: string,
  {
    certificate,
    timeoutMs = REQUEST_TIMEOUT_MS,
  }: { certificate?: ClientCertificate; timeoutMs?: number } = {},
): AeatTransport {
  const url = new URL(endpoint);
  if (url.protocol === "http:" && !isLoopbackUrl(url))
    throw new Error(`VERIFACTU: solo se envía por http al simulador local, no a ${url.host}`);
  if (url.protocol === "https:" && !certificate)
    throw new Error("VERIFACTU: la AEAT exige el certificado del obligado (VERIFACTU_CERT_FILE)");
  // A fresh connection per request: requests are a minute apart at least, and a kept-alive
  // socket the server has meanwhile closed would fail the request.
  const agent =
    url.protocol === "https:"
      ? new https.Agent({ ...certificate, keepAlive: false })
      : new http.Agent({ keepAlive: false });
  return { endpoint, post: (envelope) => post(url, agent, envelope, timeoutMs) };
}

function post(url: URL, agent: http.Agent, envelope: string, timeoutMs: number) {
  const body = Buffer.from(envelope, "utf8");
  const request = url.protocol === "https:" ? https.request : http.request;
  return new Promise<AeatReply>((resolve, reject) => {
    const req = request(
      url,
      {
        method: "POST",
        agent,
        headers: {
          "Content-Type": "text/xml; charset=UTF-8",
          "Content-Length": body.length,
          SOAPAction: '""',
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_ANSWER_BYTES) req.destroy(new Error("Respuesta demasiado grande"));
          else chunks.push(chunk);
        });
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }),
        );
        res.on("error", reject);
      },
    );
    const deadline = setTimeout(
      () => req.destroy(new Error(`Sin respuesta de la AEAT en ${timeoutMs / 1000} s`)),
      timeoutMs,
    );
    req.on("error", reject);
    req.on("close", () => clearTimeout(deadline));
    req.end(body);
  });
}
