import http from "node:http";
import https from "node:https";
import { readFileSync } from "node:fs";
import { createSecureContext, TLSSocket, type PeerCertificate } from "node:tls";
import { companyTaxIdProblem, getConfig, type AppConfig } from "~/platform/config.server";
import { normaliseTaxId } from "~/platform/validation/spanish-tax-id";
import { aeatEndpoint, isLoopbackUrl } from "./aeat-transport.server";
import { declarationGaps } from "./declaration-gaps";

/**
 * `npm run verifactu:check`: what a person going live asks before the first real submission
 * (issue 37). Each line is a fact about this installation, never a guess: the issuer's NIF,
 * whether the certificate opens, until when, whose it is, which AEAT environment and endpoint
 * the records go to and whether it answers, and whether the declaración responsable is signed.
 */
export type CheckOutcome = "ok" | "warning" | "failure";
export type CheckLine = { outcome: CheckOutcome; label: string; detail: string };

const DAY_MS = 24 * 60 * 60_000;
/** A certificate that ends within this many days is said as a warning: renewing takes days. */
const EXPIRY_WARNING_DAYS = 30;
const PROBE_TIMEOUT_MS = 10_000;

type Certificate = { pfx: Buffer; passphrase?: string };

export type CheckOptions = { now?: Date; probeTimeoutMs?: number };

export async function goLiveCheck(
  config: AppConfig = getConfig(),
  { now = new Date(), probeTimeoutMs = PROBE_TIMEOUT_MS }: CheckOptions = {},
): Promise<CheckLine[]> {
  const { verifactu, company } = config;
  if (!verifactu.enabled)
    return [
      failure(
        "VERI*FACTU",
        "VERIFACTU=off: este sitio no envía registros a la AEAT; las facturas deben emitirse con otro sistema",
      ),
    ];
  const lines: CheckLine[] = [issuerLine(company.taxId)];
  const certificate = readCertificate(verifactu.certificateFile, verifactu.certificatePassword);
  lines.push(...certificateLines(certificate, company.taxId, now));
  const endpoint = aeatEndpoint(verifactu);
  lines.push(environmentLine(verifactu.environment, endpoint));
  lines.push(
    await endpointLine(
      endpoint,
      "certificate" in certificate ? certificate.certificate : undefined,
      probeTimeoutMs,
    ),
  );
  lines.push(declarationLine(config));
  return lines;
}

const line = (outcome: CheckOutcome) => (label: string, detail: string) => ({
  outcome,
  label,
  detail,
});
const ok = line("ok");
const warning = line("warning");
const failure = line("failure");

function issuerLine(taxId: string): CheckLine {
  const problem = companyTaxIdProblem(taxId);
  return problem ? failure("NIF del emisor", problem) : ok("NIF del emisor", taxId);
}

type ReadCertificate =
  { certificate: Certificate; details: PeerCertificate } | { problem: string } | { missing: true };

function readCertificate(
  file: string | undefined,
  passphrase: string | undefined,
): ReadCertificate {
  if (!file) return { missing: true };
  let pfx: Buffer;
  try {
    pfx = readFileSync(file);
  } catch (error) {
    return { problem: `no se puede leer ${file} (${(error as NodeJS.ErrnoException).code})` };
  }
  try {
    const secureContext = createSecureContext({ pfx, passphrase });
    // The context's own certificate, read without opening any connection.
    const details = new TLSSocket(null as never, { secureContext }).getCertificate();
    if (!details || !("subject" in details)) return { problem: "el fichero no trae certificado" };
    return { certificate: { pfx, passphrase }, details: details as PeerCertificate };
  } catch (error) {
    return {
      problem: `no se abre (${(error as Error).message}); revisa el fichero y VERIFACTU_CERT_PASSWORD`,
    };
  }
}

/**
 * The NIFs a Spanish qualified certificate names: the entity's (organizationIdentifier,
 * VATES-…, on a representative's or a seal certificate) and the person's (serialNumber,
 * IDCES-… or the bare NIF).
 */
export function certificateTaxIds(subject: Record<string, string | string[] | undefined>) {
  const value = (key: string) => {
    const found = subject[key];
    return Array.isArray(found) ? found[0] : found;
  };
  const strip = (text: string | undefined, prefix: RegExp) =>
    text ? normaliseTaxId(text.replace(prefix, "")) : undefined;
  return {
    entity: strip(value("organizationIdentifier"), /^VATES-/i),
    person: strip(value("serialNumber"), /^IDCES-/i),
    name: value("O") ?? value("CN") ?? "",
  };
}

function certificateLines(read: ReadCertificate, issuerTaxId: string, now: Date): CheckLine[] {
  if ("missing" in read)
    return [
      failure(
        "Certificado",
        "VERIFACTU_CERT_FILE sin definir: sin certificado los registros van al simulador local, no a la AEAT",
      ),
    ];
  if ("problem" in read) return [failure("Certificado", read.problem)];
  const { details } = read;
  const validTo = new Date(details.valid_to);
  const validFrom = new Date(details.valid_from);
  const days = Math.floor((validTo.getTime() - now.getTime()) / DAY_MS);
  const until = validTo.toISOString().slice(0, 10);
  const validity =
    validFrom > now
      ? failure(
          "Validez",
          `aún no es válido: lo será desde ${validFrom.toISOString().slice(0, 10)}`,
        )
      : days < 0
        ? failure("Validez", `caducó el ${until}: la AEAT rechazará la conexión`)
        : days < EXPIRY_WARNING_DAYS
          ? warning("Validez", `caduca el ${until} (en ${days} días): renuévalo ya`)
          : ok("Validez", `hasta el ${until}`);
  const { entity, person, name } = certificateTaxIds(details.subject);
  const holder = [name, entity ?? person].filter(Boolean).join(", NIF ");
  const owner =
    entity === issuerTaxId || person === issuerTaxId
      ? ok("Titular", `${holder}: el del emisor`)
      : warning(
          "Titular",
          `${holder || "sin NIF en el certificado"}, no ${issuerTaxId}: la AEAT solo acepta el envío si es representante o colaborador social del emisor`,
        );
  return [ok("Certificado", "se abre con VERIFACTU_CERT_PASSWORD"), validity, owner];
}

function environmentLine(environment: string, endpoint: string): CheckLine {
  const text = `${environment} (${endpoint})`;
  return environment === "produccion"
    ? ok("Entorno", text)
    : warning("Entorno", `${text}: los registros no tienen efectos tributarios`);
}

/** Whether the endpoint answers at all (any HTTP status): a GET, never a submission. */
function endpointLine(
  endpoint: string,
  certificate: Certificate | undefined,
  timeoutMs: number,
): Promise<CheckLine> {
  const url = new URL(endpoint);
  const secure = url.protocol === "https:";
  if (!secure && !isLoopbackUrl(url))
    return Promise.resolve(
      failure("Servicio de la AEAT", `${endpoint}: solo https fuera de esta máquina`),
    );
  return new Promise((resolve) => {
    const request = (secure ? https : http).get(
      url,
      { ...certificate, timeout: timeoutMs },
      (response) => {
        response.resume();
        resolve(ok("Servicio de la AEAT", `responde (HTTP ${response.statusCode})`));
      },
    );
    request.on("timeout", () =>
      request.destroy(new Error(`sin respuesta en ${timeoutMs / 1000} s`)),
    );
    request.on("error", (error) =>
      resolve(failure("Servicio de la AEAT", `no responde: ${error.message}`)),
    );
  });
}

function declarationLine(config: AppConfig): CheckLine {
  if (declarationGaps(config).length > 0)
    return failure(
      "Declaración responsable",
      "sin suscribir: define VERIFACTU_DECLARATION_DATE y VERIFACTU_DECLARATION_PLACE",
    );
  const { signedOn, place } = config.verifactu.declaration;
  return ok("Declaración responsable", `suscrita el ${signedOn} en ${place}`);
}
