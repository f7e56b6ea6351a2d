import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { isIP } from "node:net";
import path from "node:path";
import { z } from "zod";
import { DEFAULT_DATA_DIR, resolveDataDir } from "./data-dir";
import { isValidSpanishTaxId, normaliseTaxId } from "./validation/spanish-tax-id";

/**
 * The example NIF of the local defaults: its control digit is right (0), so only this check
 * keeps it off real invoices and out of the records sent to AEAT in the company's name.
 */
export const PLACEHOLDER_TAX_ID = "B00000000";

/**
 * The configuration contract (see README): every variable has a safe local default, and
 * production (NODE_ENV=production) refuses to start on a default that would be unsafe there.
 */

const optionalText = z
  .string()
  .trim()
  .transform((value) => (value === "" ? undefined : value))
  .optional();

const port = z.coerce.number().int().min(1).max(65535);

/** Express's named address ranges for `trust proxy`. */
const PROXY_RANGES = new Set(["loopback", "linklocal", "uniquelocal"]);

/** An address, or a subnet with a prefix length: `10.0.0.5`, `10.0.0.0/8`, `fd00::/8`. */
function isAddressOrSubnet(entry: string): boolean {
  const [address = "", prefix, ...rest] = entry.split("/");
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  return (
    prefix === undefined ||
    (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128))
  );
}

/**
 * TRUST_PROXY as Express's `trust proxy` setting: unset (trust no proxy header), a hop count, or
 * a comma-separated list of named ranges, addresses and subnets. `true` (every hop) is accepted
 * only locally: see productionProblems.
 */
const trustProxy = optionalText.transform((value, context): boolean | number | string[] => {
  if (value === undefined || value === "false") return false;
  if (value === "true") return true;
  if (/^\d+$/.test(value)) return Number(value);
  const entries = value.split(",").map((entry) => entry.trim());
  if (entries.every((entry) => PROXY_RANGES.has(entry) || isAddressOrSubnet(entry))) return entries;
  context.addIssue({
    code: "custom",
    message:
      "debe ser un número de saltos, o loopback, linklocal, uniquelocal, direcciones o subredes separadas por comas",
  });
  return z.NEVER;
});

/**
 * The private networks, as Express names them (loopback, linklocal, uniquelocal): the only
 * places a production proxy may be trusted by address. [version, network, prefix length].
 */
const PRIVATE_NETWORKS: [4 | 6, string, number][] = [
  [4, "127.0.0.0", 8],
  [4, "10.0.0.0", 8],
  [4, "172.16.0.0", 12],
  [4, "192.168.0.0", 16],
  [4, "169.254.0.0", 16],
  [6, "::1", 128],
  [6, "fc00::", 7],
  [6, "fe80::", 10],
];

/** An address as a number: 32 bits for IPv4, 128 for IPv6 (the URL parser expands `::`). */
function addressBits(address: string, version: 4 | 6): bigint {
  if (version === 4)
    return address.split(".").reduce((bits, part) => (bits << 8n) | BigInt(part), 0n);
  const groups = new URL(`http://[${address.split("%")[0]}]`).hostname.slice(1, -1).split("::");
  const [left, right] = groups.map((half) => (half ? half.split(":") : []));
  const all = right
    ? [...left!, ...Array(8 - left!.length - right.length).fill("0"), ...right]
    : left!;
  return all.reduce((bits, group) => (bits << 16n) | BigInt(`0x${group}`), 0n);
}

/**
 * Whether a TRUST_PROXY address or subnet lies wholly inside one private network, so that no
 * client on the internet is believed when it sends X-Forwarded-For. An IPv4-mapped IPv6 range
 * (`::ffff:10.0.0.0/104`) is judged as the IPv4 range it maps.
 */
function insidePrivateNetworks(entry: string): boolean {
  const [address = "", prefixText] = entry.split("/");
  let version = isIP(address) as 4 | 6;
  let bits = addressBits(address, version);
  let prefix = prefixText === undefined ? (version === 4 ? 32 : 128) : Number(prefixText);
  if (version === 6 && bits >> 32n === 0xffffn && prefix >= 96) {
    [version, bits, prefix] = [4, bits & 0xffffffffn, prefix - 96];
  }
  const width = version === 4 ? 32 : 128;
  return PRIVATE_NETWORKS.some(([networkVersion, network, networkPrefix]) => {
    if (networkVersion !== version || prefix < networkPrefix) return false;
    const shift = BigInt(width - networkPrefix);
    return bits >> shift === addressBits(network, networkVersion) >> shift;
  });
}

/**
 * Whether production must refuse a TRUST_PROXY value: `true` (every hop), or an address or range
 * not wholly inside the private networks (`0.0.0.0/1,128.0.0.0/1` is every hop in two halves).
 * Named ranges and a hop count stay fine; behind a public proxy (a CDN), count its hops.
 */
const trustsBeyondPrivateNetworks = (value: boolean | number | string[]) =>
  value === true ||
  (Array.isArray(value) &&
    value.some((entry) => !PROXY_RANGES.has(entry) && !insidePrivateNetworks(entry)));

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: port.default(3000),
  HOST: z.string().trim().min(1).default("0.0.0.0"),
  SITE_URL: optionalText.pipe(z.url({ protocol: /^https?$/ }).optional()),
  DATABASE_URL: optionalText.pipe(z.url({ protocol: /^postgres(ql)?$/ }).optional()),
  DATA_DIR: z.string().trim().min(1).default(DEFAULT_DATA_DIR),
  /** The embedded database's daily backups (decision 047): a folder, or `off`. */
  BACKUP_DIR: optionalText,
  BACKUP_KEEP: z.coerce.number().int().min(1).max(1000).default(14),
  AUTH_SECRET: optionalText.pipe(
    z.string().min(32, "debe tener al menos 32 caracteres").optional(),
  ),
  SMTP_URL: optionalText.pipe(z.url({ protocol: /^smtps?$/ }).optional()),
  MAIL_FROM: optionalText.pipe(z.email().optional()),
  CONTACT_INBOX: optionalText.pipe(z.email().optional()),
  STRIPE_SECRET_KEY: optionalText.pipe(z.string().startsWith("sk_").optional()),
  STRIPE_WEBHOOK_SECRET: optionalText.pipe(z.string().startsWith("whsec_").optional()),
  STRIPE_API_BASE: optionalText.pipe(z.url().optional()),
  STRIPE_ALLOW_TEST_KEYS: optionalText.pipe(z.enum(["0", "1"]).optional()),
  ADMIN_EMAIL: optionalText.pipe(z.email().max(255).optional()),
  ADMIN_PASSWORD: optionalText.pipe(z.string().min(8).max(100).optional()),
  HUMAN_CHECK: z.enum(["altcha", "off"]).default("altcha"),
  /** Production refuses HUMAN_CHECK=off unless this says, deliberately, `1`. */
  HUMAN_CHECK_OFF_IN_PRODUCTION: optionalText.pipe(z.enum(["0", "1"]).optional()),
  TRUST_PROXY: trustProxy,
  CONTACT_RATE_LIMIT: z.coerce.number().int().min(1).default(5),
  CONTACT_CONFIRMATIONS_PER_ADDRESS: z.coerce.number().int().min(0).default(3),
  CONTACT_CONFIRMATIONS_PER_HOUR: z.coerce.number().int().min(1).default(200),
  AUTH_ADDRESS_RATE_LIMIT: z.coerce.number().int().min(1).default(30),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** Prometheus metrics (decision 049): their own listener, off unless a port is given… */
  METRICS_PORT: z.preprocess(
    (value) => (typeof value === "string" && value.trim() === "" ? undefined : value),
    port.optional(),
  ),
  METRICS_HOST: z.string().trim().min(1).default("127.0.0.1"),
  /** …and/or a bearer token, which also opens GET /metrics on the site's port. */
  METRICS_TOKEN: optionalText.pipe(
    z
      .string()
      .min(32, "debe tener al menos 32 caracteres")
      .regex(/^[\x21-\x7E]+$/, "solo caracteres imprimibles sin espacios")
      .optional(),
  ),
  /** Errors reported to Sentry (or a compatible service) with @sentry/node; unset: none. */
  SENTRY_DSN: optionalText.pipe(z.url({ protocol: /^https?$/ }).optional()),
  BRAND_NAME: z.string().trim().min(1).default("Vértice Digital"),
  COMPANY_LEGAL_NAME: z.string().trim().min(1).default("Vértice Digital Servicios S.L."),
  COMPANY_TAX_ID: z.string().trim().min(1).default(PLACEHOLDER_TAX_ID),
  COMPANY_ADDRESS: z.string().trim().min(1).default("Calle Mayor 1, 28013 Madrid, España"),
  COMPANY_REGISTRY: z
    .string()
    .trim()
    .min(1)
    .default("Registro Mercantil de Madrid, tomo 00000, folio 0, hoja M-000000"),
  CONTACT_EMAIL: z.email().default("hola@verticedigital.es"),
  /** VERI*FACTU submission (issue #23): `off` only where invoices are issued by other means. */
  VERIFACTU: z.enum(["on", "off"]).default("on"),
  /** AEAT's environment: `pruebas` (preproducción) or `produccion`; also the QR's host. */
  VERIFACTU_ENVIRONMENT: z.enum(["pruebas", "produccion"]).optional(),
  /** The client certificate (PKCS#12) AEAT identifies the company by, and its password. */
  VERIFACTU_CERT_FILE: optionalText,
  VERIFACTU_CERT_PASSWORD: optionalText,
  /** Overrides the SOAP endpoint (AEAT's seal-certificate host, or the local stand-in). */
  VERIFACTU_ENDPOINT: optionalText.pipe(z.url({ protocol: /^https?$/ }).optional()),
  /**
   * The day (YYYY-MM-DD) and place the company subscribed the declaración responsable of this
   * version (Orden HAC/1177/2024 art. 15.1.l): shown in it, and asked by `npm run verifactu:check`.
   */
  VERIFACTU_DECLARATION_DATE: optionalText.pipe(z.iso.date().optional()),
  VERIFACTU_DECLARATION_PLACE: optionalText.pipe(z.string().max(120).optional()),
  /** NumeroInstalacion of the SistemaInformatico block: one per installation of the site. */
  VERIFACTU_INSTALLATION: z
    .string()
    .trim()
    .regex(/^[\x20-\x7E]{1,100}$/, "de 1 a 100 caracteres imprimibles")
    .default("1"),
});

export type Env = z.infer<typeof envSchema>;

export type AppConfig = ReturnType<typeof buildConfig>;

export class ConfigError extends Error {}

/** STRIPE_PRICE_<SERVICE> variables: the catalogue names which one each service uses. */
function stripePriceIds(source: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(
    Object.entries(source).filter(
      (entry): entry is [string, string] =>
        entry[0].startsWith("STRIPE_PRICE_") && Boolean(entry[1]?.trim()),
    ),
  );
}

/**
 * Without SITE_URL (never in production) the site is where it listens: HOST and PORT, with
 * "localhost" for every interface. Forms post to this address only (the origin check), so a
 * site started with HOST=127.0.0.1 must call itself http://127.0.0.1, not localhost.
 */
function localSiteUrl(host: string, port: number): string {
  if (host === "0.0.0.0" || host === "::") return `http://localhost:${port}`;
  return `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
}

function buildConfig(env: Env, source: NodeJS.ProcessEnv) {
  const isProduction = env.NODE_ENV === "production";
  const dataDir = resolveDataDir(env.DATA_DIR);
  const siteUrl = (env.SITE_URL ?? localSiteUrl(env.HOST, env.PORT)).replace(/\/+$/, "");
  return {
    isProduction,
    nodeEnv: env.NODE_ENV,
    port: env.PORT,
    host: env.HOST,
    siteUrl,
    databaseUrl: env.DATABASE_URL,
    dataDir,
    backup: backupSettings(env, dataDir),
    authSecret: env.AUTH_SECRET ?? (isProduction ? "" : localSecret(dataDir, "auth-secret")),
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM ?? `${env.BRAND_NAME} <${env.CONTACT_EMAIL}>`,
    contactInbox: env.CONTACT_INBOX ?? env.CONTACT_EMAIL,
    stripe: {
      secretKey: env.STRIPE_SECRET_KEY,
      // Locally the simulated checkout signs its events with a generated secret.
      webhookSecret:
        env.STRIPE_WEBHOOK_SECRET ??
        (isProduction ? "" : `whsec_${localSecret(dataDir, "webhook-secret")}`),
      apiBase: env.STRIPE_API_BASE,
      priceIds: stripePriceIds(source),
    },
    admin: { email: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD },
    humanCheck: env.HUMAN_CHECK,
    /** What the server logs as warnings when it starts: safeguards switched off on purpose. */
    startWarnings:
      isProduction && env.HUMAN_CHECK === "off"
        ? [
            "HUMAN_CHECK=off en producción (HUMAN_CHECK_OFF_IN_PRODUCTION=1): los formularios de contacto y registro no piden la prueba de trabajo",
          ]
        : [],
    trustProxy: env.TRUST_PROXY,
    logLevel: env.LOG_LEVEL,
    /** Off when neither a port nor a token is given: nothing answers /metrics. */
    metrics: {
      port: env.METRICS_PORT,
      host: env.METRICS_HOST,
      token: env.METRICS_TOKEN,
      enabled: env.METRICS_PORT !== undefined || env.METRICS_TOKEN !== undefined,
    },
    sentryDsn: env.SENTRY_DSN,
    /** Enquiries allowed per client address in 10 minutes. */
    contactRateLimit: env.CONTACT_RATE_LIMIT,
    /** Enquiry confirmations mailed to one visitor address in 24 hours (more are not sent). */
    contactConfirmationsPerAddress: env.CONTACT_CONFIRMATIONS_PER_ADDRESS,
    /** Enquiry confirmations the whole site sends in an hour (more wait in the outbox). */
    contactConfirmationsPerHour: env.CONTACT_CONFIRMATIONS_PER_HOUR,
    /** Sign-in, sign-up, reset and resend attempts per client address in 10 minutes, each. */
    authAddressRateLimit: env.AUTH_ADDRESS_RATE_LIMIT,
    verifactu: {
      enabled: env.VERIFACTU === "on",
      environment: env.VERIFACTU_ENVIRONMENT ?? (isProduction ? "produccion" : "pruebas"),
      certificateFile: env.VERIFACTU_CERT_FILE,
      certificatePassword: env.VERIFACTU_CERT_PASSWORD,
      endpoint: env.VERIFACTU_ENDPOINT,
      installationNumber: env.VERIFACTU_INSTALLATION,
      declaration: {
        signedOn: env.VERIFACTU_DECLARATION_DATE,
        place: env.VERIFACTU_DECLARATION_PLACE,
      },
    },
    company: {
      brandName: env.BRAND_NAME,
      legalName: env.COMPANY_LEGAL_NAME,
      taxId: normaliseTaxId(env.COMPANY_TAX_ID),
      address: env.COMPANY_ADDRESS,
      registry: env.COMPANY_REGISTRY,
      contactEmail: env.CONTACT_EMAIL,
      siteUrl,
    },
  };
}

/** 127.0.0.1 and the rest of 127/8, ::1 and localhost: reachable from this machine only. */
function isLoopback(host: string): boolean {
  return host === "localhost" || host === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

type BackupEnv = Pick<Env, "BACKUP_DIR" | "BACKUP_KEEP">;

function backupSettings(env: BackupEnv, dataDir: string) {
  return {
    /** Where the embedded database's daily backups go; undefined: none (BACKUP_DIR=off). */
    dir:
      env.BACKUP_DIR === "off"
        ? undefined
        : path.resolve(env.BACKUP_DIR ?? path.join(dataDir, "backups")),
    /** How many of them are kept, newest first. */
    keep: env.BACKUP_KEEP,
  };
}

/**
 * What `npm run db:backup` and `db:restore` need (DATA_DIR, DATABASE_URL, BACKUP_*), parsed
 * alone: they run beside a production server without its secrets, and must not generate local
 * ones into the DATA_DIR they copy or restore into (as getConfig does outside production).
 */
export function parseBackupConfig(source: NodeJS.ProcessEnv) {
  const result = envSchema
    .pick({ DATA_DIR: true, DATABASE_URL: true, BACKUP_DIR: true, BACKUP_KEEP: true })
    .safeParse(source);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    throw new ConfigError(`Configuración inválida: ${lines.join("; ")}`);
  }
  const dataDir = resolveDataDir(result.data.DATA_DIR);
  return {
    dataDir,
    databaseUrl: result.data.DATABASE_URL,
    backup: backupSettings(result.data, dataDir),
  };
}

/** What production says of COMPANY_TAX_ID: the placeholder, or a code whose check fails. */
export function companyTaxIdProblem(value: string): string | undefined {
  const taxId = normaliseTaxId(value);
  if (taxId === PLACEHOLDER_TAX_ID)
    return "COMPANY_TAX_ID: obligatorio en producción (B00000000 es el valor de ejemplo): el NIF de la empresa va en cada factura y en cada registro de facturación enviado a la AEAT";
  if (!isValidSpanishTaxId(taxId))
    return "COMPANY_TAX_ID: no es un NIF válido (su forma o su carácter de control no cuadran); revísalo antes de emitir facturas con él";
  return undefined;
}

/** Rules that only hold in production, where a local default would be unsafe. */
function productionProblems(env: Env): string[] {
  if (env.NODE_ENV !== "production") return [];
  const problems: string[] = [];
  if (!env.AUTH_SECRET) problems.push("AUTH_SECRET: obligatorio en producción");
  if (!env.SITE_URL) problems.push("SITE_URL: obligatorio en producción");
  else if (!env.SITE_URL.startsWith("https://"))
    problems.push("SITE_URL: debe usar https:// en producción");
  if (!env.SMTP_URL)
    problems.push("SMTP_URL: obligatorio en producción (sin él no saldría ningún correo)");
  if (!env.STRIPE_SECRET_KEY)
    problems.push(
      "STRIPE_SECRET_KEY: obligatorio en producción (sin él los pagos serían simulados)",
    );
  if (env.STRIPE_SECRET_KEY && !env.STRIPE_WEBHOOK_SECRET)
    problems.push("STRIPE_WEBHOOK_SECRET: obligatorio cuando STRIPE_SECRET_KEY está definido");
  if (env.STRIPE_SECRET_KEY?.startsWith("sk_test_") && env.STRIPE_ALLOW_TEST_KEYS !== "1")
    problems.push(
      "STRIPE_SECRET_KEY: es una clave de pruebas (sk_test_), que no cobra nada; para usarla en producción define STRIPE_ALLOW_TEST_KEYS=1",
    );
  if (trustsBeyondPrivateNetworks(env.TRUST_PROXY))
    problems.push(
      "TRUST_PROXY: en producción solo puede confiar en direcciones de redes privadas (loopback, 10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16, 169.254.0.0/16, fc00::/7, fe80::/10), o un cliente de internet podría falsificar X-Forwarded-For; indica la dirección privada del proxy o el número de saltos",
    );
  if (env.HUMAN_CHECK === "off" && env.HUMAN_CHECK_OFF_IN_PRODUCTION !== "1")
    problems.push(
      "HUMAN_CHECK: off quita en producción la prueba de trabajo de la que dependen los límites de correo del formulario de contacto y del registro; para apagarla de todos modos define HUMAN_CHECK_OFF_IN_PRODUCTION=1",
    );
  if (env.VERIFACTU === "on" && !env.VERIFACTU_CERT_FILE)
    problems.push(
      "VERIFACTU_CERT_FILE: obligatorio en producción (el certificado con el que se envían los registros de facturación a la AEAT); si las facturas se emiten con otro sistema, define VERIFACTU=off",
    );
  if (env.VERIFACTU_CERT_FILE && !env.VERIFACTU_CERT_PASSWORD)
    problems.push("VERIFACTU_CERT_PASSWORD: obligatorio cuando VERIFACTU_CERT_FILE está definido");
  const taxIdProblem = companyTaxIdProblem(env.COMPANY_TAX_ID);
  if (taxIdProblem) problems.push(taxIdProblem);
  if (env.ADMIN_EMAIL && !env.ADMIN_PASSWORD)
    problems.push("ADMIN_PASSWORD: obligatorio cuando ADMIN_EMAIL está definido");
  if (env.METRICS_PORT !== undefined && !env.METRICS_TOKEN && !isLoopback(env.METRICS_HOST))
    problems.push(
      "METRICS_TOKEN: obligatorio en producción cuando METRICS_HOST no es una dirección local (las métricas no pueden quedar abiertas a cualquiera que alcance el puerto); o escucha en 127.0.0.1",
    );
  return problems;
}

/** Parses the environment; throws a ConfigError whose message names every bad variable. */
export function parseConfig(source: NodeJS.ProcessEnv): AppConfig {
  const result = envSchema.safeParse(source);
  if (!result.success) {
    // Values are not echoed: some of these variables are secrets.
    const lines = result.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    throw new ConfigError(`Configuración inválida: ${lines.join("; ")}`);
  }
  const problems = productionProblems(result.data);
  if (result.data.METRICS_PORT === result.data.PORT)
    problems.push("METRICS_PORT: debe ser distinto de PORT (las métricas no se sirven al público)");
  if (problems.length > 0) throw new ConfigError(`Configuración inválida: ${problems.join("; ")}`);
  return buildConfig(result.data, source);
}

/** A secret generated once per data directory, so local sessions survive restarts. */
function localSecret(dataDir: string, name: string): string {
  const file = path.join(dataDir, name);
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const secret = randomBytes(32).toString("hex");
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

let cached: AppConfig | undefined;

/** The process configuration, parsed on first use. */
export function getConfig(): AppConfig {
  cached ??= parseConfig(process.env);
  return cached;
}

/** Test hook: forget the parsed configuration after changing process.env. */
export function resetConfigForTests() {
  cached = undefined;
}
