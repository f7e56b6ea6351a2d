/**
 * What must never reach a log line: the tokens of mailed links (password reset, e-mail
 * verification), passwords, session cookies and other credentials. Logs are read by more people
 * and kept longer than the database rows those tokens unlock.
 */

export const REDACTED = "[Redacted]";

/** Path segments followed by a secret: /api/auth/reset-password/<token>. */
const SEGMENTS_BEFORE_SECRET = new Set(["reset-password", "verify-email", "magic-link", "token"]);

/** Query (or fragment) parameters whose value is a secret. */
const SECRET_PARAMETER =
  /token|passw(?:or)?d|secret|signature|^(?:sig|code|state|otp)$|^(?:api[_-]?)?key$/i;

/** Parameters whose value is itself a URL, which may carry a secret of its own. */
const URL_PARAMETER = /url$|redirect|^(?:return_?to|next)$/i;

/** A signed token (JWT, as Better Auth's verification links use) wherever it appears. */
const JWT = /eyJ[\w-]+\.[\w-]+\.[\w-]*/g;

/** Nested URLs are followed this deep; anything deeper is not a link we mail. */
const MAX_DEPTH = 3;

/**
 * The URL (absolute, or a path with its query and fragment) with every secret replaced by
 * [Redacted]; everything else is kept as it was, so the line still says which page was asked for.
 */
export function redactUrl(url: string, depth = 0): string {
  const hashAt = url.indexOf("#");
  const beforeHash = hashAt === -1 ? url : url.slice(0, hashAt);
  const queryAt = beforeHash.indexOf("?");
  const path = queryAt === -1 ? beforeHash : beforeHash.slice(0, queryAt);
  let result = redactPath(path);
  if (queryAt !== -1) result += `?${redactParameters(beforeHash.slice(queryAt + 1), depth)}`;
  if (hashAt !== -1) {
    const fragment = url.slice(hashAt + 1);
    result += `#${fragment.includes("=") ? redactParameters(fragment, depth) : fragment}`;
  }
  return result.replace(JWT, REDACTED);
}

function redactPath(path: string): string {
  const segments = path.split("/");
  return segments
    .map((segment, index) =>
      index > 0 &&
      segment !== "" &&
      SEGMENTS_BEFORE_SECRET.has(decode(segments[index - 1]!).toLowerCase())
        ? REDACTED
        : segment,
    )
    .join("/");
}

function redactParameters(parameters: string, depth: number): string {
  return parameters
    .split("&")
    .map((pair) => {
      const equalsAt = pair.indexOf("=");
      if (equalsAt === -1) return pair;
      const rawName = pair.slice(0, equalsAt);
      const rawValue = pair.slice(equalsAt + 1);
      const name = decode(rawName);
      if (SECRET_PARAMETER.test(name)) return rawValue === "" ? pair : `${rawName}=${REDACTED}`;
      if (URL_PARAMETER.test(name) && depth < MAX_DEPTH) {
        const value = decode(rawValue);
        const redacted = redactUrl(value, depth + 1);
        if (redacted !== value) return `${rawName}=${encodeURIComponent(redacted)}`;
      }
      return pair;
    })
    .join("&");
}

function decode(value: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, " "));
  } catch {
    return value;
  }
}

/** Fields censored wherever they appear in a log object (top level or one level down). */
const SECRET_FIELDS = [
  "password",
  "newPassword",
  "currentPassword",
  "confirmPassword",
  "token",
  "accessToken",
  "refreshToken",
  "idToken",
  "secret",
  "authorization",
  "cookie",
];

/** Fields holding a URL or a path: logged, but through redactUrl. */
const URL_FIELDS = ["url", "path", "href", "callbackURL", "redirectTo"];

const URL_FIELD_SET = new Set(URL_FIELDS);

/** pino's `redact` option: the site's loggers use it, so every line goes through it. */
export const LOG_REDACTION = {
  paths: [
    ...[...SECRET_FIELDS, ...URL_FIELDS].flatMap((field) => [field, `*.${field}`]),
    ...["cookie", "authorization", '["set-cookie"]'].flatMap((header) => [
      `headers${header.startsWith("[") ? "" : "."}${header}`,
      `*.headers${header.startsWith("[") ? "" : "."}${header}`,
    ]),
  ],
  censor: (value: unknown, path: string[]): unknown =>
    URL_FIELD_SET.has(path[path.length - 1]!) && typeof value === "string"
      ? redactUrl(value)
      : REDACTED,
};

/** Fields of a database error that hold the values a statement carried. */
const VALUE_FIELDS = new Set(["params", "parameters", "detail"]);

/**
 * An error as it may be logged (the loggers' `err` serializer): Drizzle writes every value of a
 * failed statement (addresses, form fields, tokens) into its message, its stack and `params`,
 * and PostgreSQL the offending key's value into `detail`. The statement, the stack frames and
 * the database's own message stay, through the chain of causes; the values become [Redacted].
 */
export function errorForLog(error: unknown, depth = 0): unknown {
  if (!(error instanceof Error) || depth > 5) return error;
  const own = error as Error & Record<string, unknown>;
  const cause = errorForLog(error.cause, depth + 1);
  const prefix = typeof own.query === "string" ? `Failed query: ${own.query}\nparams: ` : undefined;
  const rewrite = prefix !== undefined && error.message.startsWith(prefix);
  const hasValues = Object.keys(own).some((key) => VALUE_FIELDS.has(key));
  if (!rewrite && !hasValues && cause === error.cause) return error;
  const message = rewrite ? `${prefix}${REDACTED}` : error.message;
  // The stack starts with the message (values and all): only the frames after it are kept.
  const head = `${error.name}: ${error.message}`;
  const frames = error.stack?.startsWith(head) ? error.stack.slice(head.length) : "";
  const safe = Object.create(Object.getPrototypeOf(error) as object) as Error &
    Record<string, unknown>;
  for (const key of Object.keys(own))
    if (key !== "cause") safe[key] = VALUE_FIELDS.has(key) ? REDACTED : own[key];
  Object.defineProperties(safe, {
    message: { value: message, writable: true, configurable: true },
    stack: { value: `${error.name}: ${message}${frames}`, writable: true, configurable: true },
    cause: { value: cause, writable: true, configurable: true },
  });
  return safe;
}

/** 13 to 19 digits, maybe grouped by single spaces or dashes: the shape of a card number. */
const DIGIT_RUN = /\d(?:[ -]?\d){12,18}/g;

function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let index = 0; index < digits.length; index++) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return sum % 10 === 0;
}

/**
 * Card numbers replaced by [Redacted] wherever they stand (PCI DSS: a card number never reaches
 * a log). A run of 13 to 19 digits counts when it passes Luhn; the one in ten other long numbers
 * that pass it too are masked as well, which costs a log reader little.
 */
export function maskCardNumbers(text: string): string {
  return text.replace(DIGIT_RUN, (run) => {
    const digits = run.replace(/[ -]/g, "");
    return passesLuhn(digits) ? REDACTED : run;
  });
}

/** A log line's plain fields with every card number masked, nested too (see maskCardNumbers). */
export function maskCardNumbersIn<Value>(value: Value, depth = 0): Value {
  if (typeof value === "string") return maskCardNumbers(value) as Value;
  if (depth > 5 || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((item) => maskCardNumbersIn(item, depth + 1)) as Value;
  // Errors and other instances are left to their serializers (errorForLog strips query values).
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (prototype !== Object.prototype && prototype !== null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, maskCardNumbersIn(item, depth + 1)]),
  ) as Value;
}
