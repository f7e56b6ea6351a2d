import { randomBytes } from "node:crypto";
import fc from "fast-check";
import routeConfig from "~/routes";
import {
  encodeBody,
  extraHeaders,
  hostileBody,
  hostileQuery,
  pathParameter,
  wellFormed,
  type BodyPlan,
  type KnownValues,
} from "./hostile-input";
import { hostileRoutes } from "./hostile-routes";

/**
 * The front-door pass of the hostile-input harness (tests/cluster/hostile-suite.ts): the same
 * random and hostile bodies as tests/integration/hostile-input.test.ts, sent over HTTP through
 * the shipped nginx to the built server, with what only a real request can carry: the route's
 * path in every spelling (`.data`, `//host`, percent-encoded), Host, Forwarded and
 * X-Forwarded-Host headers right and wrong, a wrong Origin, and bodies up to and past each limit.
 */

/** server.ts: every body but a ticket message's; a ticket message with its files. */
export const BODY_LIMIT = 64 * 1024;
export const TICKET_BODY_LIMIT = 16 * 1024 * 1024;
/** app/features/support: the largest file a ticket message takes. */
const LARGEST_FILE = 6 * 1024 * 1024;

export type Identity = "customerA" | "customerB" | "staff" | "anonymous";

/** The real ids of the seeded database, by the name of the path parameter that takes them. */
export type SeededIds = Record<string, string[]>;

export type FrontDoorRoute = {
  name: string;
  /** The path pattern of app/routes.ts, with `:param`s. */
  pattern: string;
  method: "GET" | "POST";
  /** Who sends most of its requests (the others are sent as everybody else). */
  role: "anonymous" | "customer" | "admin";
  fields: readonly string[];
  /** Valid forms sent now and then, so the happy path runs with the real ids. */
  validForms?: readonly Record<string, string>[];
};

type RouteEntry = { file: string; path?: string; index?: boolean; children?: RouteEntry[] };
const routeEntries = (routeConfig as RouteEntry[]).flatMap(function flatten(
  entry: RouteEntry,
): RouteEntry[] {
  return [entry, ...(entry.children ?? []).flatMap(flatten)];
});

function patternOf(module: string): string {
  const entry = routeEntries.find((candidate) => candidate.file === module);
  if (!entry) throw new Error(`${module} is not in app/routes.ts`);
  return `/${entry.index ? "" : (entry.path ?? "")}`;
}

// prettier-ignore
const VALID_FORMS: Record<string, readonly Record<string, string>[]> = {
  "mi-cuenta/compras/:purchaseId/desistir": [{ confirm: "yes" }],
  "admin/pagos/:paymentId": [
    { intent: "refund", reason: "El cliente no quedó satisfecho", confirm: "yes" },
    { intent: "delivery", deliveryStatus: "in_progress", note: "Empezamos hoy" },
    { intent: "delivery", deliveryStatus: "delivered", note: "Entregado" },
  ],
  "mi-cuenta/tickets/:ticketId": [{ intent: "reply", message: "Gracias, adjunto lo que falta." }],
  "admin/tickets/:ticketId": [{ intent: "reply", message: "Lo revisamos hoy mismo." }],
  "mi-cuenta/tickets/nuevo": [{ subject: "Duda con la factura", category: "facturacion", priority: "medium", message: "No encuentro la factura de mi compra." }],
  checkout: [{ serviceId: "2", immediateStart: "yes" }],
};

/** Pages whose loaders read the seeded ids (the actions' pages), beside hostile-routes.ts. */
// prettier-ignore
const PAGES: FrontDoorRoute[] = [
  { name: "/ (GET)", pattern: "/", method: "GET", role: "anonymous", fields: [] },
  { name: "precios (GET)", pattern: "/precios", method: "GET", role: "anonymous", fields: [] },
  { name: "mi-cuenta (GET)", pattern: "/mi-cuenta", method: "GET", role: "customer", fields: ["tab"] },
  { name: "mi-cuenta/tickets/:ticketId (GET)", pattern: "/mi-cuenta/tickets/:ticketId", method: "GET", role: "customer", fields: [] },
  { name: "mi-cuenta/compras/:purchaseId/desistir (GET)", pattern: "/mi-cuenta/compras/:purchaseId/desistir", method: "GET", role: "customer", fields: [] },
  { name: "admin/pagos/:paymentId (GET)", pattern: "/admin/pagos/:paymentId", method: "GET", role: "admin", fields: [] },
  { name: "admin/tickets/:ticketId (GET)", pattern: "/admin/tickets/:ticketId", method: "GET", role: "admin", fields: [] },
];

/** Every route of hostile-routes.ts, and the pages above, as the front door reaches them. */
export function frontDoorRoutes(): FrontDoorRoute[] {
  return [
    ...hostileRoutes.map((route): FrontDoorRoute => ({
      name: route.name,
      pattern: patternOf(route.module),
      method: route.kind === "action" ? "POST" : "GET",
      role: route.role,
      fields: route.fields ?? [],
      validForms: route.kind === "action" ? VALID_FORMS[route.name] : undefined,
    })),
    ...PAGES,
  ];
}

const isTicketMessage = (pattern: string) => /^\/(mi-cuenta|admin)\/tickets\//.test(pattern);

/** How the path is spelt on the request line. */
const pathSpelling = fc.constantFrom(
  ...[
    ...Array<string>(10).fill("plain"),
    ...Array<string>(3).fill(".data"),
    "//host",
    "//host.data",
    "encoded",
    "dot-segment",
    "trailing-slash",
    "backslash",
  ],
);

/** Host, Forwarded, X-Forwarded-* as clients (and the proxies before ours) send them. */
const hostHeaders = fc.oneof(
  { weight: 12, arbitrary: fc.constant<Record<string, string>>({}) },
  {
    weight: 4,
    arbitrary: fc
      .constantFrom(
        "a b",
        "evil.example",
        "cluster.example.es:99999",
        "[::1",
        "",
        "é.example",
        "x/y",
      )
      .map((value) => ({ host: value })),
  },
  {
    weight: 4,
    arbitrary: fc
      .constantFrom(
        "a b",
        "evil.example",
        "evil.example, cluster.example.es",
        "",
        "[::1",
        "cluster.example.es:notaport",
        "%00",
        "a\tb",
      )
      .map((value) => ({ "x-forwarded-host": value })),
  },
  {
    weight: 3,
    arbitrary: fc
      .constantFrom(
        'for="[::1',
        "host=evil.example;proto=http",
        "for=1.2.3.4;host=a b",
        ";;;=",
        "by=unknown, for=_hidden",
        "proto=javascript",
      )
      .map((value) => ({ forwarded: value })),
  },
  {
    weight: 2,
    arbitrary: fc
      .constantFrom("http", "https, http", "javascript", "", "HTTPS")
      .map((value) => ({ "x-forwarded-proto": value })),
  },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom("1.2.3.4", "::1", "a b, 1.2.3.4", "", "999.1.1.1")
      .map((value) => ({ "x-forwarded-for": value })),
  },
);

const origin = fc.oneof(
  { weight: 8, arbitrary: fc.constant<string | undefined>("site") },
  {
    weight: 2,
    arbitrary: fc.constantFrom<string | undefined>(
      undefined,
      "null",
      "https://evil.example",
      "http://cluster.example.es",
      "https://cluster.example.es.evil.example",
      "https://CLUSTER.example.es",
    ),
  },
);

/**
 * Where the body's size lands against the route's limit: for ticket messages (16 MB) less
 * often, so a run stays within CI's time.
 */
const bodySize = (ticket: boolean) =>
  fc.oneof(
    { weight: ticket ? 60 : 14, arbitrary: fc.constant("as generated") },
    {
      weight: 1,
      arbitrary: fc.constantFrom("at the limit", "just under", "just over", "far over", "chunked"),
    },
  );

/** For ticket messages: 0-4 files, most small, some up to and past the largest allowed. */
const ticketFiles = fc.array(
  fc.oneof(
    { weight: 12, arbitrary: fc.integer({ min: 0, max: 60_000 }) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(1024 * 1024, 3 * 1024 * 1024, LARGEST_FILE, LARGEST_FILE + 1),
    },
  ),
  { maxLength: 4 },
);

const identity = fc.constantFrom<Identity>("customerA", "customerB", "staff", "anonymous");

export type Plan = {
  spelling: string;
  hosts: Record<string, string>;
  origin: string | undefined;
  size: string;
  files: number[];
  identity: Identity;
  ownRole: boolean;
  params: Record<string, string | undefined>;
  valid: number | undefined;
  query: string;
  body: BodyPlan;
  headers: Record<string, string>;
};

/** The random part of one request to `route`; what it turns into is `wire` below. */
export function planFor(route: FrontDoorRoute, known: KnownValues): fc.Arbitrary<Plan> {
  const params = [...route.pattern.matchAll(/:(\w+)/g)].map((match) => match[1]!);
  return fc.record({
    spelling: pathSpelling,
    hosts: hostHeaders,
    origin,
    size:
      route.method === "POST"
        ? bodySize(isTicketMessage(route.pattern))
        : fc.constant("as generated"),
    files:
      route.method === "POST" && isTicketMessage(route.pattern) ? ticketFiles : fc.constant([]),
    identity,
    ownRole: fc.boolean(),
    params: fc.record(
      Object.fromEntries(
        params.map((name) => [name, fc.option(pathParameter, { freq: 2, nil: undefined })]),
      ),
    ) as fc.Arbitrary<Record<string, string | undefined>>,
    valid: route.validForms
      ? fc.option(fc.nat(route.validForms.length - 1), { freq: 3, nil: undefined })
      : fc.constant(undefined),
    query: route.method === "GET" ? hostileQuery(route.fields, known) : fc.constant(""),
    body:
      route.method === "POST"
        ? hostileBody(route.fields, known)
        : fc.constant({ encoding: "none" as const, contentType: "" }),
    headers: extraHeaders,
  }) as fc.Arbitrary<Plan>;
}

/** Incompressible bytes for the files, made once. */
const NOISE = randomBytes(LARGEST_FILE + 1);
const PNG_HEAD = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export type Wire = {
  path: string;
  method: string;
  headers: Record<string, string>;
  body?: Buffer;
  chunked: boolean;
  /** Whom it was sent as, and the limit it was measured against (for the report). */
  identity: Identity;
  bodyLimit: number;
};

/** Header values as a client can send them (Node refuses control characters). */
const headerSafe = (value: string) => wellFormed(value).replace(/[^\t\x20-\x7e\x80-\xff]/g, "");

function pathOf(route: FrontDoorRoute, plan: Plan, ids: SeededIds, run: number): string {
  const filled = route.pattern.replace(/:(\w+)/g, (_match, name: string) => {
    const own = ids[name] ?? [];
    const value = plan.params[name] ?? own[run % Math.max(own.length, 1)] ?? "sin-id";
    return encodeURIComponent(wellFormed(value));
  });
  switch (plan.spelling) {
    case ".data":
      return filled === "/" ? "/_root.data" : `${filled}.data`;
    case "//host":
      return `//evil.example${filled}`;
    case "//host.data":
      return `//evil.example${filled === "/" ? "/_root" : filled}.data`;
    case "encoded":
      return filled.replace(/[a-z]/g, (letter, at: number) =>
        at % 3 === 0 ? `%${letter.charCodeAt(0).toString(16)}` : letter,
      );
    case "dot-segment":
      return `/x/..${filled.replace(/\//g, "/./")}`;
    case "trailing-slash":
      return `${filled}/`;
    case "backslash":
      return `/\\evil.example${filled}`;
    default:
      return filled;
  }
}

function multipart(fields: [string, string][], files: number[]) {
  const boundary = `----frontdoor${randomBytes(8).toString("hex")}`;
  const parts: Buffer[] = [];
  for (const [name, value] of fields)
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name.replace(/["\r\n]/g, "")}"\r\n\r\n${wellFormed(value)}\r\n`,
      ),
    );
  files.forEach((size, index) => {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="attachments"; filename="captura-${index}.png"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      Buffer.concat([PNG_HEAD, NOISE.subarray(0, Math.max(0, size - PNG_HEAD.length))]),
      Buffer.from("\r\n"),
    );
  });
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Pads (or cuts) a body to `target` bytes, keeping it a form of its kind where it can. */
function resized(body: Buffer, contentType: string | undefined, target: number): Buffer {
  if (body.length >= target) return body.subarray(0, target);
  const filler = contentType?.startsWith("application/x-www-form-urlencoded") ? "&pad=" : "";
  const head = Buffer.from(filler);
  return Buffer.concat([
    body,
    head,
    Buffer.alloc(Math.max(0, target - body.length - head.length), 0x61),
  ]);
}

/** The bytes and headers of one planned request. */
export async function wire(
  route: FrontDoorRoute,
  plan: Plan,
  ids: SeededIds,
  run: number,
  siteUrl: string,
): Promise<Wire> {
  const who: Identity = plan.ownRole
    ? route.role === "admin"
      ? "staff"
      : route.role === "anonymous"
        ? "anonymous"
        : run % 2 === 0
          ? "customerA"
          : "customerB"
    : plan.identity;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries({ ...plan.headers, ...plan.hosts }))
    headers[name] = headerSafe(value);
  if (plan.origin === "site") headers.origin = siteUrl;
  else if (plan.origin !== undefined) headers.origin = plan.origin;
  const bodyLimit = isTicketMessage(route.pattern) ? TICKET_BODY_LIMIT : BODY_LIMIT;
  let path = pathOf(route, plan, ids, run);
  if (route.method === "GET") {
    if (plan.query) path += `${path.includes("?") ? "&" : "?"}${plan.query}`;
    return { path, method: "GET", headers, chunked: false, identity: who, bodyLimit };
  }
  const validForm = plan.valid !== undefined ? route.validForms?.[plan.valid] : undefined;
  let body: Buffer | undefined;
  let contentType: string | undefined;
  if (plan.files.length > 0 || (validForm && isTicketMessage(route.pattern))) {
    const fields =
      validForm !== undefined
        ? Object.entries(validForm)
        : plan.body.encoding === "urlencoded" || plan.body.encoding === "multipart"
          ? plan.body.pairs
          : [];
    ({ body, contentType } = multipart(fields, plan.files));
  } else if (validForm) {
    body = Buffer.from(new URLSearchParams(validForm).toString());
    contentType = "application/x-www-form-urlencoded";
  } else {
    const encoded = await encodeBody(plan.body);
    body = encoded.bytes ? Buffer.from(encoded.bytes) : undefined;
    contentType = encoded.contentType;
  }
  const limit = bodyLimit;
  const current = body ?? Buffer.alloc(0);
  if (plan.size === "at the limit") body = resized(current, contentType, limit);
  else if (plan.size === "just under") body = resized(current, contentType, limit - 1);
  else if (plan.size === "just over") body = resized(current, contentType, limit + 1);
  // Past nginx's own limit (17 MB) for ticket messages; twice the app's for the others.
  else if (plan.size === "far over")
    body = resized(
      current,
      contentType,
      limit === BODY_LIMIT ? limit * 2 + 7 : 17 * 1024 * 1024 + 1,
    );
  if (contentType) headers["content-type"] = headerSafe(contentType);
  return {
    path,
    method: "POST",
    headers,
    body,
    chunked: plan.size === "chunked",
    identity: who,
    bodyLimit,
  };
}
