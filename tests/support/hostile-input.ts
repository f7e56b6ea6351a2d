import fc from "fast-check";
import { serviceCodes } from "~/features/catalogue/services";

/**
 * Random and hostile request input for the property test of every action and API route
 * (tests/integration/hostile-input.test.ts): bodies in every encoding a client can send or
 * botch, with field values that are sometimes valid (so the deep paths run too) and often
 * hostile (injection payloads, control characters, NUL bytes, CR/LF, lone surrogates, overlong
 * UTF-8, huge values, card numbers).
 */

/** The server refuses larger bodies before any action runs (server.ts). */
export const MAX_BODY_BYTES = 64 * 1024;

/** Payloads that broke something somewhere once. */
const PAYLOADS = [
  "",
  " ",
  "\t",
  "'",
  '"',
  "' OR '1'='1",
  "'; DROP TABLE users; --",
  "1; select pg_sleep(5)",
  "%' or 1=1 --",
  "\\",
  "\\'",
  "_%",
  "<script>alert(1)</script>",
  '"><img src=x onerror=alert(1)>',
  "javascript:alert(1)",
  "{{7*7}}",
  "${7*7}",
  "<%= 7*7 %>",
  "a@example.com\r\nBcc: victima@example.net",
  "Hola\r\nSubject: premio",
  "\r\n\r\n<html>",
  "\n",
  "\r",
  "\u0000",
  "a\u0000b",
  "%00",
  "%0d%0a",
  "\u2028\u2029",
  "\u0085",
  "\u202e\u0645\u0631\u062d\u0628\u0627",
  "\ufeff",
  "\ufffd",
  "\uffff",
  "\ud800",
  "a\udc00b",
  "\ud83d\ude42",
  "Z\u0337\u0322a\u0338l\u0335g\u0336o",
  "ñandú Ñoño çà",
  "İıŞş",
  "../../../../etc/passwd",
  "..%2f..%2fetc%2fpasswd",
  "__proto__",
  "constructor",
  "prototype",
  "[object Object]",
  "null",
  "undefined",
  "NaN",
  "-1",
  "0",
  "1e309",
  "9007199254740993",
  "0x10",
  "true",
  "[]",
  "{}",
  '{"__proto__":{"admin":true}}',
  "%s%s%s%n",
  "\u001b[31mrojo\u001b[0m",
  "ELIMINAR",
];

const ALNUM = [..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"];
const BASE64URL = [...ALNUM, "-", "_"];

/** Completes `digits` with its Luhn check digit. */
function withLuhnDigit(digits: string): string {
  let sum = 0;
  for (let index = 0; index < digits.length; index++) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 0) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return `${digits}${(10 - (sum % 10)) % 10}`;
}

export function passesLuhn(digits: string): boolean {
  return withLuhnDigit(digits.slice(0, -1)) === digits;
}

/** A card-like number: 13 to 19 digits that pass Luhn, with a real brand's prefix. */
export const cardNumber: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom("4", "51", "55", "2221", "34", "37", "6011", "35", "62"),
    fc.integer({ min: 13, max: 19 }),
  )
  .chain(([prefix, length]) =>
    fc
      .array(fc.integer({ min: 0, max: 9 }), {
        minLength: length - prefix.length - 1,
        maxLength: length - prefix.length - 1,
      })
      .map((digits) => withLuhnDigit(`${prefix}${digits.join("")}`)),
  );

/** The same card number as people type it, sometimes with spaces or dashes. */
const typedCardNumber = fc
  .tuple(cardNumber, fc.constantFrom("", " ", "-"))
  .map(([number, separator]) => number.replace(/(\d{4})(?=\d)/g, `$1${separator}`));

const payload = fc.constantFrom(...PAYLOADS);

/** A long value made of one repeated unit (cheap to generate, up to about 20,000 characters). */
const hugeText = fc
  .tuple(
    fc.constantFrom(
      "A",
      "ñ",
      "\ud83d\ude42",
      "\r\n",
      "\u0000",
      "<script>",
      "%",
      "&=",
      "a@b.es,",
      "1",
    ),
    fc.integer({ min: 100, max: 20_000 }),
  )
  .map(([unit, length]) => unit.repeat(Math.ceil(length / unit.length)));

/** Any text a client can put in a field: random, unicode, control characters, payloads, huge. */
export const hostileText: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: payload },
  { weight: 2, arbitrary: fc.string({ maxLength: 30 }) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 30 }) },
  { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 20 }) },
  { weight: 1, arbitrary: fc.string({ unit: "binary-ascii", maxLength: 30 }) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.string({ maxLength: 10 }), payload, fc.string({ maxLength: 10 }))
      .map((parts) => parts.join("")),
  },
  { weight: 1, arbitrary: hugeText },
  { weight: 1, arbitrary: typedCardNumber },
);

/** Ordinary words, so that length rules pass now and then. */
const prose = fc.lorem({ maxCount: 12 });

/** Ways to spoil a valid address that a lax pattern may still accept. */
const EMAIL_TWISTS: ((email: string) => string)[] = [
  (email) => `${email}\r\nBcc: victima@example.net`,
  (email) => `${email}\nX-Injected: 1`,
  (email) => email.replace("@", "\u0000@"),
  (email) => `a\u0000${email}`,
  (email) => email.toUpperCase(),
  (email) => `  ${email}  `,
  (email) => `${email},victima@example.net`,
  (email) => `${email},y`,
  (email) => `"Nombre" <${email}>`,
  (email) => `${email}>`,
  (email) => `ñ${email}`,
  (email) => email.replace("@", "@ñ"),
  (email) => `${email}\u2028`,
  (email) => `${email}\u0085`,
  (email) => `${email}.`,
  (email) => `${"a".repeat(250)}${email}`,
  (email) => email.replace("@", "@@"),
  (email) => `${email}'--`,
  (email) => `${email}%0d%0aBcc:x@example.net`,
];

const twistedEmail = fc
  .tuple(fc.emailAddress(), fc.integer({ min: 0, max: EMAIL_TWISTS.length - 1 }))
  .map(([email, twist]) => EMAIL_TWISTS[twist]!(email));

/** What the harness knows: addresses of real accounts and passwords that open them. */
export type KnownValues = { emails: readonly string[]; passwords: readonly string[] };

function emailValue(known: KnownValues) {
  return fc.oneof(
    { weight: 2, arbitrary: fc.constantFrom(...known.emails) },
    { weight: 1, arbitrary: fc.emailAddress() },
    { weight: 3, arbitrary: twistedEmail },
    { weight: 4, arbitrary: hostileText },
  );
}

/**
 * A password the logs must never show: a random core of 16-24 letters and digits (what the
 * log check looks for), with hostile text around it now and then.
 */
export const secretCore = fc
  .tuple(
    fc.constantFrom(..."ABCDEFGHJKLMNPQRSTUVWXYZ"),
    fc.constantFrom(..."abcdefghijkmnopqrstuvwxyz"),
    fc.constantFrom(..."23456789"),
    fc.string({ unit: fc.constantFrom(...ALNUM), minLength: 13, maxLength: 21 }),
  )
  .map((parts) => parts.join(""));

const markedPassword = fc
  .tuple(
    fc.oneof({ weight: 3, arbitrary: fc.constant("") }, { weight: 1, arbitrary: payload }),
    secretCore,
    fc.oneof({ weight: 3, arbitrary: fc.constant("") }, { weight: 1, arbitrary: payload }),
  )
  .map((parts) => parts.join("-"));

function passwordValue(known: KnownValues) {
  return fc.oneof(
    { weight: 6, arbitrary: markedPassword },
    { weight: 3, arbitrary: hostileText },
    { weight: 2, arbitrary: fc.constantFrom(...known.passwords) },
  );
}

const oneOf = (values: readonly string[], weight = 1) =>
  fc.oneof(
    { weight, arbitrary: fc.constantFrom(...values) },
    { weight: 1, arbitrary: hostileText },
  );

const base64Json = fc
  .jsonValue({ maxDepth: 3 })
  .map((value) => Buffer.from(JSON.stringify(value) ?? "null").toString("base64"));

/** Values for a field, by its name: what the route expects, and worse. */
export function fieldValue(name: string, known: KnownValues): fc.Arbitrary<string> {
  switch (name) {
    case "email":
      return emailValue(known);
    case "password":
    case "confirmPassword":
      return passwordValue(known);
    case "service":
      return oneOf(serviceCodes, 2);
    case "serviceId":
      return oneOf(["1", "2", "3", "4", "5", "6", "0", "7", "-1", "1.5", "1e0", " 4", "4abc"], 2);
    case "outcome":
      return oneOf(["pay", "decline", "refund", "cancel"], 2);
    case "intent":
      return oneOf(["save", "verify", "password", "message", "resolve", "reply", "update"], 2);
    case "confirmation":
      // Rarely the real word: each deletion costs the harness a new customer.
      return fc.oneof(
        { weight: 4, arbitrary: fc.constant("ELIMINAR") },
        { weight: 4, arbitrary: fc.constantFrom("eliminar", "ELIMINAR ", " ELIMINAR", "ELİMİNAR") },
        { weight: 40, arbitrary: hostileText },
      );
    case "website":
      return fc.oneof(
        { weight: 3, arbitrary: fc.constant("") },
        { weight: 1, arbitrary: hostileText },
      );
    case "phone":
      return fc.oneof(fc.stringMatching(/^[+\d\s().-]{0,30}$/), hostileText);
    case "category":
      return oneOf(
        ["consulta_tecnica", "facturacion", "incidencia_servicio", "solicitud_cambio", "otro"],
        2,
      );
    case "priority":
      return oneOf(["urgent", "high", "medium", "low"], 2);
    case "status":
      return oneOf(["open", "in_progress", "resolved", "closed"], 2);
    case "purchaseId":
      return fc.oneof(fc.constant(""), fc.uuid(), hostileText);
    case "tab":
      return oneOf(["dashboard", "consultas", "pagos", "usuarios", "clientes"], 3);
    case "estado":
      return oneOf(["all", "completed", "pending", "failed", "refunded"], 2);
    case "token":
      return fc.oneof(
        fc.string({ unit: fc.constantFrom(...BASE64URL), minLength: 10, maxLength: 40 }),
        hostileText,
      );
    case "altcha":
      return fc.oneof(base64Json, hostileText);
    case "name":
    case "fullName":
    case "company":
    case "bio":
    case "message":
    case "subject":
    case "q":
      return fc.oneof({ weight: 2, arbitrary: prose }, { weight: 3, arbitrary: hostileText });
    default:
      return hostileText;
  }
}

export type Pair = [string, string];

/**
 * The fields of one request: the route's own ones (each usually present, values from their
 * pools), random extra keys, and repeats of a key with another value.
 */
export function fieldPairs(fields: readonly string[], known: KnownValues): fc.Arbitrary<Pair[]> {
  const names = fields.length > 0 ? fields : ["x"];
  const own = fc.tuple(
    ...names.map((name) =>
      fc.option(
        fieldValue(name, known).map((value): Pair => [name, value]),
        { freq: 8, nil: undefined },
      ),
    ),
  );
  const key = fc.oneof(
    fc.constantFrom(
      ...names,
      "__proto__",
      "constructor",
      "email[]",
      "password[0]",
      "",
      " email",
      "EMAIL",
      "_action",
    ),
    hostileText,
  );
  const extra = fc.array(fc.tuple(key, hostileText), { maxLength: 3 });
  const repeated = fc.array(
    fc
      .constantFrom(...names)
      .chain((name) => fieldValue(name, known).map((value): Pair => [name, value])),
    { maxLength: 2 },
  );
  return fc
    .tuple(own, extra, repeated, fc.boolean(), fc.boolean())
    .map(([ownPairs, extraPairs, repeatedPairs, confirmSame, repeatedFirst]) => {
      // Generated values are not mutated (fast-check replays them while shrinking).
      const given = ownPairs.filter((pair): pair is Pair => pair !== undefined);
      // Sign-up and new-password forms only go deep when both passwords match.
      const password = given.find(([name]) => name === "password");
      const present = given.map(([name, value]): Pair =>
        name === "confirmPassword" && password && confirmSame ? [name, password[1]] : [name, value],
      );
      return repeatedFirst
        ? [...repeatedPairs, ...present, ...extraPairs]
        : [...present, ...extraPairs, ...repeatedPairs];
    });
}

/** Content types, right and wrong. */
const contentType = fc.constantFrom(
  "application/x-www-form-urlencoded",
  "application/x-www-form-urlencoded; charset=ISO-8859-1",
  "multipart/form-data",
  "multipart/form-data; boundary=----x",
  "multipart/form-data; boundary=",
  "application/json",
  "text/plain",
  "application/octet-stream",
  "",
  "x/y; ;;; charset=\u00ff",
);

/** Pieces of a hand-written form body: broken escapes, overlong and invalid UTF-8, NUL. */
const formPiece = fc.oneof(
  fc.constantFrom(
    "%C0%AF",
    "%C0%80",
    "%E0%80%AF",
    "%F0%80%80%AF",
    "%ED%A0%80",
    "%F4%90%80%80",
    "%FF%FE",
    "%",
    "%z",
    "%zz",
    "%0",
    "%00",
    "%0D%0A",
    "%E2%80%A8",
    "+",
    "&",
    "=",
    "==",
    "email=",
    "password=",
    "name=",
    "message=",
    "serviceId=",
    "intent=",
    "&email=a%40b.es",
    "%25",
  ),
  fc.string({ unit: fc.constantFrom(...ALNUM, "@", ".", "-"), maxLength: 12 }),
);

const rawBytes = fc.oneof(
  fc.uint8Array({ maxLength: 2_000 }),
  // Overlong and invalid UTF-8 sequences between ordinary form text.
  fc
    .array(
      fc.oneof(
        fc.constantFrom(
          [0xc0, 0xaf],
          [0xc1, 0xbf],
          [0xe0, 0x80, 0xaf],
          [0xf0, 0x80, 0x80, 0xaf],
          [0xf8, 0x88, 0x80, 0x80, 0x80],
          [0xed, 0xa0, 0x80],
          [0xff, 0xfe],
          [0x00],
          [0x0d, 0x0a],
        ),
        fc
          .constantFrom("email=", "&password=", "&name=", "&message=", "a@b.es", "=", "&")
          .map((text) => [...Buffer.from(text)]),
      ),
      { maxLength: 30 },
    )
    .map((chunks) => Uint8Array.from(chunks.flat())),
);

/** A multipart body written by hand, often broken. */
const handMultipart = fc
  .tuple(
    fc.constantFrom("----x", "", "a\u0000b", "x".repeat(80)),
    fc.array(fc.tuple(hostileText, hostileText), { maxLength: 3 }),
    fc.boolean(),
    fc.constantFrom("\r\n", "\n", ""),
  )
  .map(([boundary, parts, closed, newline]) => ({
    contentType: `multipart/form-data; boundary=${boundary.replaceAll("\u0000", "")}`,
    body:
      parts
        .map(
          ([name, value]) =>
            `--${boundary}${newline}Content-Disposition: form-data; name="${name}"${newline}${newline}${value}${newline}`,
        )
        .join("") + (closed ? `--${boundary}--${newline}` : ""),
  }));

/** The first bytes of the files people attach: PNG, JPEG, PDF, plain text. */
const FILE_HEADS = [
  [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  [0xff, 0xd8, 0xff, 0xe0],
  [...Buffer.from("%PDF-1.4\n")],
  [...Buffer.from("Hola, adjunto el detalle.\n")],
];

export type BodyPlan =
  | { encoding: "urlencoded"; pairs: Pair[]; contentType: string }
  | {
      encoding: "multipart";
      pairs: Pair[];
      file?: { name: string; type: string; bytes: Uint8Array };
    }
  | { encoding: "json"; pairs: Pair[]; extra: unknown; contentType: string }
  | { encoding: "bytes"; bytes: Uint8Array; contentType: string }
  | { encoding: "text"; text: string; contentType: string }
  | { encoding: "none"; contentType: string };

/** One action's request body: the form in every encoding, or something that is no form at all. */
export function hostileBody(fields: readonly string[], known: KnownValues): fc.Arbitrary<BodyPlan> {
  const pairs = fieldPairs(fields, known);
  return fc.oneof(
    {
      weight: 10,
      arbitrary: fc
        .tuple(
          pairs,
          fc.constantFrom(
            "application/x-www-form-urlencoded",
            "application/x-www-form-urlencoded;charset=UTF-8",
          ),
        )
        .map(([p, type]): BodyPlan => ({ encoding: "urlencoded", pairs: p, contentType: type })),
    },
    {
      weight: 4,
      arbitrary: fc
        .tuple(
          pairs,
          fc.option(
            fc.record({
              name: hostileText,
              type: fc.constantFrom(
                "text/plain",
                "image/png",
                "application/x-msdownload",
                "",
                "a\u00ff",
              ),
              bytes: fc.oneof(
                fc.uint8Array({ maxLength: 300 }),
                // Files the support forms accept by their content, with anything after.
                fc
                  .tuple(fc.constantFrom(...FILE_HEADS), fc.uint8Array({ maxLength: 200 }))
                  .map(([head, tail]) => Uint8Array.from([...head, ...tail])),
              ),
            }),
            { freq: 4, nil: undefined },
          ),
        )
        .map(([p, file]): BodyPlan => ({ encoding: "multipart", pairs: p, file })),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          pairs,
          fc.jsonValue({ maxDepth: 2 }),
          fc.constantFrom("application/json", "application/x-www-form-urlencoded"),
        )
        .map(([p, extra, type]): BodyPlan => ({
          encoding: "json",
          pairs: p,
          extra,
          contentType: type,
        })),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.array(formPiece, { maxLength: 40 }), contentType)
        .map(([pieces, type]): BodyPlan => ({
          encoding: "text",
          text: pieces.join(""),
          contentType: type,
        })),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(rawBytes, contentType)
        .map(([bytes, type]): BodyPlan => ({ encoding: "bytes", bytes, contentType: type })),
    },
    {
      weight: 1,
      arbitrary: handMultipart.map(({ contentType: type, body }): BodyPlan => ({
        encoding: "text",
        text: body,
        contentType: type,
      })),
    },
    {
      weight: 1,
      arbitrary: contentType.map((type): BodyPlan => ({ encoding: "none", contentType: type })),
    },
  );
}

/** The text values a body carries (for the log check: passwords and card numbers sent). */
export function sentValues(plan: BodyPlan): Pair[] {
  switch (plan.encoding) {
    case "urlencoded":
    case "multipart":
    case "json":
      return plan.pairs;
    case "text":
      return [["", plan.text]];
    default:
      return [];
  }
}

const encoder = new TextEncoder();

/** The text with each lone surrogate replaced, as UTF-8 encoders do (String#toWellFormed). */
export function wellFormed(text: string): string {
  return text.replace(
    /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
    "\ufffd",
  );
}

/** The bytes on the wire and their content type; cut at the server's body limit. */
export async function encodeBody(
  plan: BodyPlan,
): Promise<{ bytes: Uint8Array<ArrayBuffer> | undefined; contentType: string | undefined }> {
  let bytes: Uint8Array<ArrayBuffer> | undefined;
  let type: string | undefined;
  switch (plan.encoding) {
    case "urlencoded":
      bytes = encoder.encode(new URLSearchParams(plan.pairs).toString());
      type = plan.contentType;
      break;
    case "multipart": {
      const form = new FormData();
      plan.pairs.forEach(([name, value], index) => {
        if (index === 0 && plan.file) {
          const { name: fileName, type: fileType, bytes: fileBytes } = plan.file;
          form.append(name, new File([Buffer.from(fileBytes)], fileName, { type: fileType }));
        }
        form.append(name, value);
      });
      const encoded = new Response(form);
      bytes = new Uint8Array(await encoded.arrayBuffer());
      type = encoded.headers.get("Content-Type") ?? undefined;
      break;
    }
    case "json": {
      const object = Object.fromEntries(plan.pairs);
      bytes = encoder.encode(JSON.stringify({ ...object, extra: plan.extra }));
      type = plan.contentType;
      break;
    }
    case "bytes":
      bytes = new Uint8Array(plan.bytes);
      type = plan.contentType;
      break;
    case "text":
      bytes = encoder.encode(plan.text);
      type = plan.contentType;
      break;
    case "none":
      type = plan.contentType;
      break;
  }
  if (bytes && bytes.length > MAX_BODY_BYTES) bytes = bytes.slice(0, MAX_BODY_BYTES);
  return { bytes, contentType: type || undefined };
}

/** A loader's query string: the route's parameters and others, encoded or hand-written. */
export function hostileQuery(fields: readonly string[], known: KnownValues): fc.Arbitrary<string> {
  return fc
    .oneof(
      {
        weight: 4,
        arbitrary: fieldPairs(fields, known).map((pairs) => new URLSearchParams(pairs).toString()),
      },
      {
        weight: 1,
        arbitrary: fc.array(formPiece, { maxLength: 30 }).map((pieces) => pieces.join("")),
      },
      { weight: 1, arbitrary: fc.constant("") },
    )
    .map((query) => query.slice(0, 8_000));
}

/** Header text as Node's HTTP parser lets it through: bytes 0x01-0xFF but CR and LF. */
export const headerText = fc.string({
  unit: fc
    .integer({ min: 1, max: 0xff })
    .filter((code) => code !== 0x0a && code !== 0x0d)
    .map((code) => String.fromCharCode(code)),
  maxLength: 60,
});

/** Client addresses as Express reports them: IPv4, IPv6, IPv4-mapped, or unknown. */
export const clientAddress = fc.oneof(
  { weight: 4, arbitrary: fc.ipV4() },
  { weight: 2, arbitrary: fc.ipV6() },
  { weight: 1, arbitrary: fc.ipV4().map((address) => `::ffff:${address}`) },
  { weight: 1, arbitrary: fc.constantFrom("unknown", "") },
);

/** What the browser adds: fetch metadata, a user agent and a language, any of them odd. */
export const extraHeaders = fc.record(
  {
    "Sec-Fetch-Site": fc.constantFrom("same-origin", "same-site", "cross-site", "none"),
    "User-Agent": headerText,
    "Accept-Language": fc.oneof(fc.constantFrom("es-ES,es;q=0.9", "*", ""), headerText),
  },
  { requiredKeys: [] },
);

/** Text of a URL parameter, hostile (encoded into the path by the caller). */
export const pathParameter = fc.oneof(
  hostileText.map((text) => text.slice(0, 2_000)),
  fc.uuid(),
  fc.constantFrom("cs_sim_", "cs_test_x", "%", "..", ".", "1", "-1"),
);

export const alnumToken = (length: number) =>
  fc.string({ unit: fc.constantFrom(...ALNUM), minLength: length, maxLength: length });
