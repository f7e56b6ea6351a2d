import { createHmac, randomBytes, randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { eq, like } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recoverySchema } from "~/features/accounts/account-schemas";
import { pendingVerificationCookie } from "~/features/identity/journey-cookies.server";
import { startCheckout } from "~/features/payments/checkout.server";
import { handleWebhook } from "~/features/payments/webhook.server";
import { getConfig, resetConfigForTests } from "~/platform/config.server";
import { getDb } from "~/platform/db/database.server";
import { getLogger } from "~/platform/logger.server";
import {
  mailOutbox,
  purchases,
  rateLimitBuckets,
  sessions,
  supportTickets,
  ticketAttachments,
  users,
} from "~/platform/db/schema";
import routeConfig from "~/routes";
import { formPost, signedInAdmin, signedInCustomer } from "./customer-session";
import {
  alnumToken,
  clientAddress,
  encodeBody,
  extraHeaders,
  headerText,
  hostileBody,
  hostileQuery,
  hostileText,
  pathParameter,
  secretCore,
  sentValues,
  wellFormed,
  type KnownValues,
} from "./hostile-input";
import { databaseProblems, mailHeaderProblems } from "./hostile-invariants";
import { capturedLines, captureConsole, SecretRegistry } from "./hostile-logs";
import { hostileRoutes, type FixtureId, type HostileRoute } from "./hostile-routes";
import { stripeSignature } from "./stripe-events";
import { setupTestDatabase } from "./test-database";

/**
 * Issue 12, 'hostile input': every action and API route of hostile-routes.ts gets RUNS random
 * and hostile requests (fast-check). None may answer a 5xx or throw, the database never holds a
 * half-written record, no mail header carries a line break, and no log line carries a password,
 * token or card number the test sent or was given. HOSTILE_SEED=<n> replays a run.
 *
 * Two test files run it, half of the routes each on its own database, so that two cores share
 * the floods (decision 059): tests/integration/hostile-input.test.ts (with the harness's own
 * checks, the inputs the flood found and the Stripe webhook) and hostile-input-second-half.test.ts.
 * Each must mock the logger first (`vi.mock` works in a test file only): see either.
 */

/** HOSTILE_RUNS only to try a change quickly: the issue asks for at least 1,000. */
const RUNS = Number(process.env.HOSTILE_RUNS ?? 1_000);
const SEED = process.env.HOSTILE_SEED ? Number(process.env.HOSTILE_SEED) : undefined;
/** HOSTILE_COLLECT=1: list every 5xx (printed at the end) instead of stopping at the first. */
const COLLECT = process.env.HOSTILE_COLLECT === "1";
const collected: string[] = [];
/** Generous: the whole file takes a few minutes on two cores, most of it in a few routes. */
const ROUTE_TIMEOUT_MS = 240_000;

// The floods would stop at the abuse limits: raised for this file before the configuration is
// read (a 429 is still an accepted answer, and the per-account limits stay as they are).
const savedEnv = { ...process.env };
Object.assign(process.env, {
  CONTACT_RATE_LIMIT: "1000000",
  CONTACT_CONFIRMATIONS_PER_ADDRESS: "1000000",
  AUTH_ADDRESS_RATE_LIMIT: "1000000",
  HOST: "127.0.0.1",
});

const database = setupTestDatabase();
const secrets = new SecretRegistry();
const counts: Record<string, number> = {};
const statuses: Record<string, Record<string, number>> = {};
const mailsChecked = new Set<string>();
const webhookThrows: unknown[] = [];
/** Time spent checking the database after the runs, in milliseconds. */
const checkTime = { rules: 0, mails: 0 };
let restoreConsole: () => void = () => undefined;
let webhookServer: Server | undefined;

/** Customer accounts the harness made (each route of a signed-in role has its own). */
const CUSTOMER_PASSWORD = "contraseña-de-prueba";
const KNOWN_CUSTOMER = "conocida@example.com";
const ADMIN_EMAIL = "hostil-admin@example.com";
const ADMIN_PASSWORD = `Adm-${randomBytes(12).toString("hex")}`;
const known: KnownValues = {
  emails: [ADMIN_EMAIL, KNOWN_CUSTOMER, "nadie-aqui@example.com"],
  passwords: [CUSTOMER_PASSWORD, ADMIN_PASSWORD],
};

type RoleFixture = {
  email: string;
  userId: string;
  cookie: string;
  token: string;
  /** The role's own ids, for the URL parameters that hostile-routes.ts names. */
  ids: Record<FixtureId, string[]>;
};

let customersMade = 0;
let customersReplaced = 0;
let sessionsReplaced = 0;
let admin: RoleFixture | undefined;

function sessionTokenOf(cookie: string): string {
  const value = decodeURIComponent(cookie.slice(cookie.indexOf("=") + 1));
  return value.slice(0, value.lastIndexOf("."));
}

/** The cookie Better Auth would set for a session token (signed with the auth secret). */
function sessionCookie(token: string): string {
  const signature = createHmac("sha256", getConfig().authSecret).update(token).digest("base64");
  return `vd.session_token=${encodeURIComponent(`${token}.${signature}`)}`;
}

/** A 1×1 PNG, a file the support forms accept. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);

/** Opens a support ticket with a file through the real action, as the customer of `cookie`. */
async function openTicket(cookie: string) {
  const form = new FormData();
  form.append("subject", "No encuentro mi factura");
  form.append("category", "facturacion");
  form.append("priority", "medium");
  form.append("message", "Hola, no encuentro la factura de mi última compra.");
  form.append("attachments", new File([PNG], "captura.png", { type: "image/png" }));
  const url = `${getConfig().siteUrl}/mi-cuenta/tickets/nuevo`;
  const headers = { Cookie: cookie, Origin: getConfig().siteUrl };
  const module = (await import(
    /* @vite-ignore */ moduleFile("routes/mi-cuenta-ticket-nuevo.tsx")
  )) as { action: (args: unknown) => unknown };
  const answer = await answerOf(() =>
    module.action({
      request: new Request(url, { method: "POST", headers, body: form }),
      params: {},
      context: { clientAddress: "192.0.2.203", cspNonce: "", requestId: "fixture" },
    }),
  );
  if (answer.status !== 302) throw new Error(`the fixture ticket: ${describeAnswer(answer)}`);
}

/** The ids a customer owns: checkout sessions, tickets, ticket files. */
async function idsOf(userId: string): Promise<Record<FixtureId, string[]>> {
  const [checkouts, tickets, files] = await Promise.all([
    database.db
      .select({ id: purchases.checkoutSessionId })
      .from(purchases)
      .where(eq(purchases.userId, userId)),
    database.db
      .select({ id: supportTickets.id })
      .from(supportTickets)
      .where(eq(supportTickets.userId, userId)),
    database.db
      .select({ id: ticketAttachments.id })
      .from(ticketAttachments)
      .innerJoin(supportTickets, eq(supportTickets.id, ticketAttachments.ticketId))
      .where(eq(supportTickets.userId, userId)),
  ]);
  const ids = (rows: { id: string | null }[]) => rows.map((row) => row.id!).filter(Boolean);
  return { checkoutSessionId: ids(checkouts), ticketId: ids(tickets), attachmentId: ids(files) };
}

/** A checkout's consent and the billing data asked above 400 € (checkout-billing.test.ts). */
const CHECKOUT_FIELDS = {
  immediateStart: "yes",
  billingName: "Cliente Hostil",
  billingTaxId: "12345678Z",
  billingAddress: "Calle Mayor 1, 28013 Madrid",
};

/** A verified customer, signed in through the real actions, with two checkouts and a ticket. */
async function newCustomer(): Promise<RoleFixture> {
  customersMade += 1;
  // Never an address the floods use: sign-ups there may have taken it, failures locked it.
  const email = `hostil-${randomBytes(6).toString("hex")}@example.com`;
  const { cookie, userId } = await signedInCustomer(email, { clientAddress: "192.0.2.200" });
  for (const serviceId of ["1", "4"])
    await startCheckout(formPost("/checkout", { serviceId, ...CHECKOUT_FIELDS }, cookie));
  await openTicket(cookie);
  const token = sessionTokenOf(cookie);
  secrets.add("session token", token);
  return { email, userId, cookie, token, ids: await idsOf(userId) };
}

/** After a request: a session that was ended (sign-out, deletion) is replaced for the next one. */
async function keepSignedIn(fixture: RoleFixture) {
  const [session] = await database.db
    .select({ id: sessions.id })
    .from(sessions)
    .where(eq(sessions.token, fixture.token));
  if (session) return;
  const [user] = await database.db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.id, fixture.userId));
  if (!user) {
    customersReplaced += 1;
    Object.assign(fixture, await newCustomer());
    return;
  }
  sessionsReplaced += 1;
  const token = randomBytes(24).toString("base64url").replace(/[-_]/g, "x");
  const now = new Date();
  await database.db.insert(sessions).values({
    id: randomUUID(),
    token,
    userId: fixture.userId,
    expiresAt: new Date(now.getTime() + 7 * 24 * 60 * 60_000),
    createdAt: now,
    updatedAt: now,
  });
  fixture.token = token;
  fixture.cookie = sessionCookie(token);
  secrets.add("session token", token);
}

type Answer = { status: number; headers: Headers; body: unknown; error?: unknown };

function isDataWithInit(value: unknown): value is { data: unknown; init: ResponseInit | null } {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as { type?: unknown }).type === "DataWithResponseInit"
  );
}

/** What React Router would send: a Response (returned or thrown), data() with its init, or 200. */
async function answerOf(call: () => unknown): Promise<Answer> {
  let value: unknown;
  try {
    value = await call();
  } catch (thrown) {
    if (!(thrown instanceof Response))
      return { status: 500, headers: new Headers(), body: undefined, error: thrown };
    value = thrown;
  }
  try {
    if (value instanceof Response) {
      // Streamed bodies (exports) fail while they are read: read them whole.
      const body = await value.text();
      return { status: value.status, headers: value.headers, body };
    }
    if (isDataWithInit(value))
      return {
        status: value.init?.status ?? 200,
        headers: new Headers(value.init?.headers),
        body: value.data,
      };
    return { status: 200, headers: new Headers(), body: value };
  } catch (error) {
    return { status: 500, headers: new Headers(), body: undefined, error };
  }
}

/** The route's URL path from app/routes.ts, by module file. */
type RouteEntry = { file: string; path?: string; index?: boolean; children?: RouteEntry[] };
const routeEntries = (routeConfig as RouteEntry[]).flatMap(function flatten(
  entry: RouteEntry,
): RouteEntry[] {
  return [entry, ...(entry.children ?? []).flatMap(flatten)];
});

function urlPathOf(route: HostileRoute, params: Record<string, string>): string {
  const entry = routeEntries.find((candidate) => candidate.file === route.module);
  if (!entry) throw new Error(`${route.module} is not in app/routes.ts`);
  const pattern = entry.index ? "" : (entry.path ?? "");
  return `/${pattern.replace(/:(\w+)/g, (_match, name: string) =>
    encodeURIComponent(wellFormed(params[name] ?? "")),
  )}`;
}

/** The names of the parameters in the route's path (`:sessionId`). */
function routeParameters(route: HostileRoute): string[] {
  const entry = routeEntries.find((candidate) => candidate.file === route.module);
  return [...(entry?.path ?? "").matchAll(/:(\w+)/g)].map((match) => match[1]!);
}

const moduleFile = (module: string) => path.resolve("app", module);

type CookiePlan =
  | { kind: "own" }
  | { kind: "none" }
  | { kind: "forged session"; value: string; before: boolean }
  | { kind: "pending e-mail"; email: string }
  | { kind: "raw"; value: string };

function cookiePlan(role: HostileRoute["role"], route: HostileRoute): fc.Arbitrary<CookiePlan> {
  const forged = fc
    .tuple(fc.oneof(hostileText, alnumToken(32)), fc.boolean())
    .map(([value, before]): CookiePlan => ({ kind: "forged session", value, before }));
  if (role !== "anonymous")
    return fc.oneof(
      { weight: 9, arbitrary: fc.constant<CookiePlan>({ kind: "own" }) },
      { weight: 1, arbitrary: forged },
    );
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant<CookiePlan>({ kind: "none" }) },
    { weight: 1, arbitrary: forged },
    {
      weight: route.name === "verificar-email" ? 6 : 1,
      // The server signs this cookie only for an address its sign-up or sign-in accepted.
      arbitrary: fc
        .oneof(fc.constantFrom(...known.emails), fc.emailAddress(), hostileText)
        .filter((email) => recoverySchema.safeParse({ email }).success)
        .map((email): CookiePlan => ({ kind: "pending e-mail", email })),
    },
    { weight: 1, arbitrary: headerText.map((value): CookiePlan => ({ kind: "raw", value })) },
  );
}

async function cookieHeader(plan: CookiePlan, fixture: RoleFixture | undefined) {
  switch (plan.kind) {
    case "own":
      return fixture?.cookie;
    case "none":
      return undefined;
    case "forged session": {
      const forged = `vd.session_token=${encodeURIComponent(wellFormed(plan.value))}`;
      if (!fixture) return forged;
      return plan.before ? `${forged}; ${fixture.cookie}` : `${fixture.cookie}; ${forged}`;
    }
    case "pending e-mail":
      return (await pendingVerificationCookie().serialize(wellFormed(plan.email))).split(";")[0];
    case "raw":
      return plan.value;
  }
}

/** Passwords and card numbers a request carries, so the log check can look for them. */
function registerSent(pairs: [string, string][]) {
  for (const [name, value] of pairs) {
    if (/pass/i.test(name)) secrets.addPassword(value);
    secrets.addCardNumbers(value);
  }
}

/** Session tokens the answer hands out (a sign-in that worked). */
function registerAnswerTokens(answer: Answer) {
  for (const cookie of answer.headers.getSetCookie()) {
    const match = /session_token=([^;]+)/.exec(cookie);
    if (match?.[1]) secrets.add("session token", sessionTokenOf(`x=${match[1]}`));
  }
}

/** A redirect stays on this site. */
function offSiteRedirect(answer: Answer): string | undefined {
  const location = answer.headers.get("Location");
  if (location === null) return undefined;
  const siteUrl = getConfig().siteUrl;
  const sameSite =
    (location.startsWith("/") && !location.startsWith("//") && !location.startsWith("/\\")) ||
    location.startsWith(`${siteUrl}/`);
  return sameSite ? undefined : location;
}

function describeAnswer(answer: Answer): string {
  const error = answer.error instanceof Error ? (answer.error.stack ?? answer.error.message) : "";
  return `${answer.status} ${JSON.stringify(answer.body)?.slice(0, 300)} ${error}`.slice(0, 2_000);
}

function tally(name: string, status: number) {
  counts[name] = (counts[name] ?? 0) + 1;
  const byStatus = (statuses[name] ??= {});
  byStatus[status] = (byStatus[status] ?? 0) + 1;
}

/** The rules over the whole database, and the headers of every mail queued so far. */
async function assertNoHalfWrittenRecord(after: string) {
  const started = performance.now();
  const { problems: rules, mails } = await databaseProblems(database.db, {
    pooled: database.url !== undefined,
  });
  const checkedRules = performance.now();
  // Headers are built for new mails only, and only when the outbox changed.
  const headers =
    mails !== mailsChecked.size ? await mailHeaderProblems(database.db, mailsChecked) : [];
  checkTime.rules += checkedRules - started;
  checkTime.mails += performance.now() - checkedRules;
  const problems = [...rules, ...headers];
  if (problems.length > 0) throw new Error(`after ${after}:\n${problems.join("\n")}`);
}

/** Long values shortened, so a failure's counterexample stays readable. */
function shortened(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => {
    if (typeof item === "string" && item.length > 120)
      return `${item.slice(0, 100)}…(${item.length} characters)`;
    if (item instanceof Uint8Array) return `<${item.length} bytes>`;
    return item;
  });
}

/** fc.assert with a short report: the seed to replay, the error and the shrunk counterexample. */
async function assertProperty<T>(property: fc.IAsyncProperty<T>, numRuns = RUNS) {
  // No shrinking: the database keeps what every run wrote, so a smaller input replayed later
  // says little; the input that failed first is the one to read.
  const details = await fc.check(property, { numRuns, seed: SEED, endOnFailure: true });
  if (!details.failed) return;
  const error = details.errorInstance;
  const reason = error instanceof Error ? (error.stack ?? error.message) : String(error);
  throw new Error(
    `Property failed after ${details.numRuns} runs (HOSTILE_SEED=${details.seed}):\n` +
      `${reason.slice(0, 3_000)}\nInput: ${shortened(details.counterexample).slice(0, 3_000)}`,
  );
}

function applyEnv(env: Record<string, string> | undefined): () => void {
  if (!env) return () => undefined;
  const before = Object.fromEntries(Object.keys(env).map((key) => [key, process.env[key]]));
  Object.assign(process.env, env);
  resetConfigForTests();
  return () => {
    for (const [key, value] of Object.entries(before)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    resetConfigForTests();
  };
}

/** Mirrors server.ts's webhook route, for the simulated checkout's own deliveries. */
async function startWebhookServer(): Promise<number> {
  webhookServer = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      void (async () => {
        try {
          const answer = await handleWebhook(
            getDb(),
            Buffer.concat(chunks),
            req.headers["stripe-signature"] as string | undefined,
          );
          res.writeHead(answer.status, { "Content-Type": "text/plain" }).end(answer.body);
        } catch (error) {
          webhookThrows.push(error);
          res.writeHead(503, { "Content-Type": "text/plain" }).end("Inténtalo más tarde");
        }
      })();
    });
  });
  webhookServer.listen(0, "127.0.0.1");
  await new Promise((resolve) => webhookServer!.once("listening", resolve));
  return (webhookServer.address() as AddressInfo).port;
}

beforeAll(async () => {
  process.env.PORT = String(await startWebhookServer());
  resetConfigForTests();
  restoreConsole = captureConsole();
  const { cookie, userId } = await signedInAdmin(ADMIN_EMAIL, {
    password: ADMIN_PASSWORD,
    clientAddress: "192.0.2.201",
  });
  admin = {
    email: ADMIN_EMAIL,
    userId,
    cookie,
    token: sessionTokenOf(cookie),
    ids: { checkoutSessionId: [], ticketId: [], attachmentId: [] },
  };
  secrets.add("session token", admin.token);
  const customer = await signedInCustomer(KNOWN_CUSTOMER, { clientAddress: "192.0.2.202" });
  secrets.add("session token", sessionTokenOf(customer.cookie));
  // The staff work on the customers' tickets and files: the known customer's are the admin's.
  await startCheckout(
    formPost("/checkout", { serviceId: "2", immediateStart: "yes" }, customer.cookie),
  );
  await openTicket(customer.cookie);
  admin.ids = await idsOf(customer.userId);
  secrets.addLiteral("password", ADMIN_PASSWORD);
  secrets.addLiteral("password", CUSTOMER_PASSWORD);
}, 60_000);

afterAll(async () => {
  restoreConsole();
  await new Promise((resolve) => webhookServer?.close(resolve));
  process.env = savedEnv;
  resetConfigForTests();
  const total = Object.values(counts).reduce((sum, count) => sum + count, 0);
  const rows = Object.entries(counts).map(
    ([name, count]) =>
      `  ${name.padEnd(32)} ${String(count).padStart(6)}  ${JSON.stringify(statuses[name])}`,
  );
  if (collected.length > 0) process.stdout.write(`\n5xx answers:\n${collected.join("\n")}\n`);
  process.stdout.write(
    `\nHostile input: ${total} requests and events\n${rows.join("\n")}\n` +
      `  checks after each run: rules ${(checkTime.rules / 1000).toFixed(1)} s, mail headers ${(checkTime.mails / 1000).toFixed(1)} s\n` +
      `  customers made ${customersMade} (replaced after deletion ${customersReplaced}), sessions replaced ${sessionsReplaced}\n` +
      `  secrets looked for in ${capturedLines.length} log lines: ${secrets.size} ` +
      `(passwords ${secrets.count("password")}, session tokens ${secrets.count("session token")}, ` +
      `mailed-link tokens ${secrets.count("mailed-link token")}, card numbers ${secrets.count("card number")})\n`,
  );
});

/** Half of the routes of hostile-routes.ts, alternately, so both halves take about as long. */
function routesOf(half: "first" | "second"): readonly HostileRoute[] {
  return hostileRoutes.filter((_route, index) => index % 2 === (half === "first" ? 0 : 1));
}

/** The suite for one test file: its half of the routes, and the rest with the first half. */
export function hostileInputSuite(half: "first" | "second") {
  if (half === "first")
    describe("the hostile-input harness", () => {
      it("lists every action and every resource route of app/routes.ts", async () => {
        const missing: string[] = [];
        const files = [...new Set(routeEntries.map((entry) => entry.file))];
        for (const file of files) {
          const module = (await import(/* @vite-ignore */ moduleFile(file))) as Record<
            string,
            unknown
          >;
          const listed = (kind: HostileRoute["kind"]) =>
            hostileRoutes.some((route) => route.module === file && route.kind === kind);
          if (typeof module.action === "function" && !listed("action"))
            missing.push(`${file} (action)`);
          if (
            typeof module.loader === "function" &&
            module.default === undefined &&
            !listed("loader")
          )
            missing.push(`${file} (loader of a resource route)`);
        }
        const stale = hostileRoutes
          .filter((route) => !files.includes(route.module))
          .map((route) => `${route.name}: ${route.module} is not in app/routes.ts`);
        expect(missing, "routes missing from tests/support/hostile-routes.ts").toEqual([]);
        expect(stale).toEqual([]);
      });
    });

  /** One request to a route module, as the flood sends them but with chosen fields. */
  async function requestRoute(
    module: string,
    kind: HostileRoute["kind"],
    {
      fields = {},
      cookie,
      params = {},
      query = "",
    }: {
      fields?: Record<string, string>;
      cookie?: string;
      params?: Record<string, string>;
      query?: string;
    },
  ) {
    const route = hostileRoutes.find((entry) => entry.module === module && entry.kind === kind)!;
    const handler = (
      (await import(/* @vite-ignore */ moduleFile(module))) as Record<string, unknown>
    )[kind] as (args: unknown) => unknown;
    const headers = new Headers({ Origin: getConfig().siteUrl });
    if (cookie) headers.set("Cookie", cookie);
    const url = `${getConfig().siteUrl}${urlPathOf(route, params)}${query ? `?${query}` : ""}`;
    const request =
      kind === "action"
        ? new Request(url, { method: "POST", headers, body: new URLSearchParams(fields) })
        : new Request(url, { headers });
    const context = {
      clientAddress: "198.51.100.7",
      cspNonce: "bm9uY2U=",
      requestId: "regression",
    };
    return answerOf(() => handler({ request, params, context }));
  }

  if (half === "first")
    describe("inputs the flood found (each answered a 5xx, or logged a secret, before its fix)", () => {
      const refusedByBetterAuth = "u4l.dee.}@dfib.ji."; // our first pattern let it through
      const withNul = "a\u0000b@example.com";

      it("sign-in and recovery answer 400 for an address Better Auth would refuse, or with a NUL byte", async () => {
        for (const email of [refusedByBetterAuth, withNul]) {
          for (const module of ["routes/login-cliente.tsx", "routes/admin-login.tsx"]) {
            const answer = await requestRoute(module, "action", {
              fields: { email, password: "Clave-cualquiera-31" },
            });
            expect([module, answer.status, answer.body]).toEqual([
              module,
              400,
              { errors: [{ code: "emailInvalid", field: "email" }] },
            ]);
          }
          const recovery = await requestRoute("routes/recuperar-password.tsx", "action", {
            fields: { email },
          });
          expect(recovery).toMatchObject({
            status: 400,
            body: { errors: [{ code: "emailInvalid" }] },
          });
          const signUp = await requestRoute("routes/registro.tsx", "action", {
            fields: {
              email,
              password: "Clave-cualquiera-31",
              confirmPassword: "Clave-cualquiera-31",
            },
          });
          expect(signUp).toMatchObject({
            status: 400,
            body: { errors: [{ code: "emailInvalid" }] },
          });
        }
      });

      it("the contact form stores an enquiry whose fields hold NUL bytes, without them", async () => {
        const answer = await requestRoute("routes/contacto.tsx", "action", {
          fields: {
            name: "Ana\u0000 Pérez",
            email: "ana\u0000@example.com",
            service: "ia",
            message: "Hola\u0000, quiero saber más.",
          },
        });
        expect(answer).toMatchObject({ status: 200, body: { notice: "sent" } });
      });

      it("a profile whose fields hold NUL bytes is saved without them", async () => {
        const customer = await newCustomer();
        const answer = await requestRoute("routes/perfil.tsx", "action", {
          cookie: customer.cookie,
          fields: { intent: "save", fullName: "Ana\u0000", bio: "\u0000", phone: "", company: "" },
        });
        expect(answer.status).toBe(302);
        expect(answer.headers.get("Location")).toBe("/perfil");
      });

      it("a reset token with a NUL byte is an invalid link, not a 503", async () => {
        const password = "Nueva-clave-8812";
        const answer = await requestRoute("routes/actualizar-password.tsx", "action", {
          fields: { token: "a\u0000b", password, confirmPassword: password },
        });
        expect(answer).toMatchObject({
          status: 400,
          body: { errors: [{ code: "resetLinkInvalid" }] },
        });
      });

      it("a simulated checkout id with a NUL byte is not found", async () => {
        const customer = await newCustomer();
        const answer = await requestRoute("routes/pago-simulado.tsx", "action", {
          cookie: customer.cookie,
          params: { sessionId: "cs_sim_\u0000" },
          fields: { outcome: "pay" },
        });
        expect(answer.status).toBe(404);
      });

      it("a ticket reply or a new ticket whose text holds NUL bytes is saved without them", async () => {
        const reply = await requestRoute("routes/admin-ticket.tsx", "action", {
          cookie: admin!.cookie,
          params: { ticketId: admin!.ids.ticketId[0]! },
          fields: { intent: "reply", message: "Hola\u0000, ya está resuelto." },
        });
        expect(reply.status).toBe(302);
        const customer = await newCustomer();
        const opened = await requestRoute("routes/mi-cuenta-ticket-nuevo.tsx", "action", {
          cookie: customer.cookie,
          fields: {
            subject: "Factura\u0000 perdida",
            category: "facturacion",
            message: "No encuentro\u0000 la factura.",
          },
        });
        expect(opened.status).toBe(302);
      });

      it("an admin search with a NUL byte lists and exports as usual", async () => {
        for (const module of ["routes/admin.tsx", "routes/admin-exportar.ts"]) {
          const answer = await requestRoute(module, "loader", {
            cookie: admin!.cookie,
            query: "tab=pagos&q=%00",
          });
          expect([module, answer.status]).toEqual([module, 200]);
        }
      });

      it("the error of a failed query is logged without the values it carried", async () => {
        const card = "4111111111111111";
        const linesBefore = capturedLines.length;
        const failed = await database.db
          .select()
          .from(users)
          .where(eq(users.email, `${card}\u0000Secreto-Muy-Largo-123`))
          .catch((error: unknown) => error);
        expect(failed).toBeInstanceOf(Error);
        getLogger().error({ err: failed }, "a query failed");
        const logged = capturedLines.slice(linesBefore).join("\n");
        expect(logged).toContain("Failed query: select");
        expect(logged).not.toContain(card);
        expect(logged).not.toContain("Secreto-Muy-Largo-123");
      });
    });

  describe.each(routesOf(half).map((route) => [route.name, route] as const))(
    "%s",
    (_name, route) => {
      it(
        `answers ${RUNS} hostile requests without a 5xx, a half-written record or a leaked secret`,
        async () => {
          const restoreEnv = applyEnv(route.env);
          try {
            const module = (await import(/* @vite-ignore */ moduleFile(route.module))) as Record<
              string,
              ((args: unknown) => unknown) | undefined
            >;
            const handler = module[route.kind];
            expect(handler, `${route.module} exports no ${route.kind}`).toBeTypeOf("function");
            const fixture =
              route.role === "customer"
                ? await newCustomer()
                : route.role === "admin"
                  ? admin
                  : undefined;
            const fields = route.fields ?? [];
            // Every parameter of the route's path: hostile text, or (for those the entry names) half
            // the time one of the role's own ids.
            const paramNames = routeParameters(route);
            const input = fc.record({
              body: route.kind === "action" ? hostileBody(fields, known) : fc.constant(undefined),
              query: route.kind === "loader" ? hostileQuery(fields, known) : fc.constant(""),
              cookie: cookiePlan(route.role, route),
              address: clientAddress,
              headers: extraHeaders,
              params: fc.tuple(
                ...paramNames.map((name) =>
                  (route.params?.[name]
                    ? fc.option(pathParameter, { freq: 2, nil: undefined })
                    : pathParameter
                  ).map((value) => [name, value] as const),
                ),
              ),
            });
            const linesBefore = capturedLines.length;
            let run = 0;
            await assertProperty(
              fc.asyncProperty(input, async ({ body, query, cookie, address, headers, params }) => {
                run += 1;
                const paramValues = Object.fromEntries(
                  params.map(([name, value]) => {
                    const own =
                      fixture && route.params?.[name] ? fixture.ids[route.params[name]] : [];
                    return [name, value ?? own[run % Math.max(own.length, 1)] ?? "sin-id"];
                  }),
                );
                const requestHeaders = new Headers(headers);
                requestHeaders.set("Origin", getConfig().siteUrl);
                requestHeaders.set("x-client-address", address);
                const cookieValue = await cookieHeader(cookie, fixture);
                if (cookieValue) requestHeaders.set("Cookie", cookieValue);
                const url = `${getConfig().siteUrl}${urlPathOf(route, paramValues)}`;
                let request: Request;
                if (body) {
                  registerSent(sentValues(body));
                  const { bytes, contentType } = await encodeBody(body);
                  if (contentType) requestHeaders.set("Content-Type", contentType);
                  request = new Request(url, {
                    method: "POST",
                    headers: requestHeaders,
                    body: bytes,
                  });
                } else {
                  registerSent([...new URLSearchParams(query)]);
                  request = new Request(query ? `${url}?${query}` : url, {
                    headers: requestHeaders,
                  });
                }
                const answer = await answerOf(() =>
                  handler!({
                    request,
                    params: paramValues,
                    context: {
                      clientAddress: address,
                      cspNonce: "bm9uY2U=",
                      requestId: `hostile-${run}`,
                    },
                  }),
                );
                tally(route.name, answer.status);
                registerAnswerTokens(answer);
                if (answer.status >= 500) {
                  const failure = `${route.name} answered ${describeAnswer(answer)}`;
                  if (!COLLECT) throw new Error(failure);
                  collected.push(
                    `${failure}\n  input: ${shortened({ body, query, cookie, params })}`,
                  );
                }
                const elsewhere = offSiteRedirect(answer);
                if (elsewhere)
                  throw new Error(`${route.name} redirected off the site: ${elsewhere}`);
                if (fixture) await keepSignedIn(fixture);
                // The per-customer limits (checkouts, exports, deletion attempts) cannot be raised
                // through the environment: lifted now and then, so the deep paths keep running.
                if (fixture && run % 20 === 0)
                  await database.db
                    .delete(rateLimitBuckets)
                    .where(like(rateLimitBuckets.key, `%:user:${fixture.userId}`));
                // The known accounts' failures slow each guess at them down (up to 2 s, decision
                // 036): forgotten now and then, or the sign-in routes would spend minutes waiting.
                if (run % 5 === 0)
                  await database.db
                    .delete(rateLimitBuckets)
                    .where(like(rateLimitBuckets.key, "sign-in-failures:account:%"));
                await assertNoHalfWrittenRecord(`${route.name} run ${run}`);
              }),
            );
            expect(counts[route.name]).toBeGreaterThanOrEqual(RUNS);
            expect(secrets.findIn(capturedLines.slice(linesBefore))).toEqual([]);
          } finally {
            restoreEnv();
          }
        },
        ROUTE_TIMEOUT_MS,
      );
    },
  );

  if (half === "first")
    describe("the Stripe webhook (POST /api/stripe/webhook)", () => {
      const eventTypes = fc.constantFrom(
        "checkout.session.completed",
        "checkout.session.async_payment_succeeded",
        "checkout.session.async_payment_failed",
        "checkout.session.expired",
        "payment_intent.payment_failed",
        "charge.refunded",
        "customer.created",
        "invoice.paid",
      );

      it(
        `refuses ${RUNS} random bodies with random or forged signatures with 400, never throwing`,
        async () => {
          const body = fc.oneof(
            fc.uint8Array({ maxLength: 3_000 }).map((bytes) => Buffer.from(bytes)),
            hostileText,
            fc.jsonValue().map((value) => JSON.stringify(value) ?? ""),
            fc
              .record({
                id: hostileText,
                type: eventTypes,
                data: fc.record({ object: fc.object() }),
              })
              .map((event) => JSON.stringify(event)),
          );
          const signature = fc.oneof(
            fc.constant(undefined),
            headerText,
            fc.constantFrom(
              "",
              "t=",
              "t=1,v1=",
              "v1=abc",
              "t=abc,v1=def,v0=ghi",
              "t=99999999999,v1=00",
            ),
            fc.constant("forged"),
            fc.constant("stale"),
            fc.constant("other body"),
          );
          await assertProperty(
            fc.asyncProperty(body, signature, async (rawBody, kind) => {
              const text = typeof rawBody === "string" ? rawBody : rawBody.toString("utf8");
              const secret = getConfig().stripe.webhookSecret;
              const header =
                kind === "forged"
                  ? stripeSignature(text, "whsec_someone_else")
                  : kind === "stale"
                    ? stripeSignature(text, secret, Math.floor(Date.now() / 1000) - 3_600)
                    : kind === "other body"
                      ? stripeSignature(`${text} `, secret)
                      : kind;
              let answer: { status: number; body: string };
              try {
                answer = await handleWebhook(database.db, rawBody, header);
              } catch (error) {
                tally("webhook (forged)", 500);
                throw error;
              }
              tally("webhook (forged)", answer.status);
              if (answer.status !== 400)
                throw new Error(`a ${kind ?? "missing"} signature was answered ${answer.status}`);
            }),
          );
          await assertNoHalfWrittenRecord("the forged webhook deliveries");
        },
        ROUTE_TIMEOUT_MS,
      );

      it(
        `applies ${RUNS} signed events with hostile contents without throwing or a half-written record`,
        async () => {
          const buyer = await newCustomer();
          for (const serviceId of ["2", "3", "5", "6"])
            await startCheckout(
              formPost("/checkout", { serviceId, ...CHECKOUT_FIELDS }, buyer.cookie),
            );
          const own = await database.db
            .select()
            .from(purchases)
            .where(eq(purchases.userId, buyer.userId));
          const sessionIds = own.map((purchase) => purchase.checkoutSessionId!);
          const purchaseIds = own.map((purchase) => purchase.id);
          const paymentIntents = ["pi_hostil_1", "pi_hostil_2", "pi_hostil_3"];
          // Stripe sends typed JSON: the values are hostile, their types are Stripe's.
          const printable = hostileText.map((text) =>
            wellFormed(text.replaceAll("\u0000", "")).slice(0, 500),
          );
          const objectKind = fc.constantFrom(
            "checkout.session",
            "charge",
            "payment_intent",
            "refund",
          );
          const object = fc.record(
            {
              object: objectKind,
              id: fc.oneof(fc.constantFrom(...sessionIds, ...paymentIntents), printable),
              metadata: fc.oneof(
                fc.constant(null),
                fc.record(
                  { purchase_id: fc.oneof(fc.constantFrom(...purchaseIds), fc.uuid(), printable) },
                  { requiredKeys: [] },
                ),
              ),
              payment_intent: fc.oneof(
                fc.constant(null),
                fc.constantFrom(...paymentIntents),
                fc.constantFrom(...paymentIntents).map((id) => ({ id, object: "payment_intent" })),
              ),
              payment_status: fc.constantFrom("paid", "unpaid", "no_payment_required"),
              amount_total: fc.oneof(fc.constant(null), fc.integer({ min: 0, max: 10_000_000 })),
              amount: fc.integer({ min: 0, max: 10_000_000 }),
              amount_refunded: fc.integer({ min: 0, max: 10_000_000 }),
              refunded: fc.boolean(),
              currency: fc.oneof(fc.constantFrom("eur", "usd"), printable),
              customer_email: fc.oneof(fc.constant(null), fc.emailAddress()),
              customer_details: fc.record({
                email: fc.oneof(
                  fc.emailAddress(),
                  fc.emailAddress().map((email) => email.toUpperCase()),
                ),
                name: fc.oneof(fc.constant(null), printable),
              }),
            },
            // Checkout always collects the payer's address: a session carries customer_details.
            { requiredKeys: ["object", "id", "customer_details"] },
          );
          const event = fc.record({
            id: fc.oneof(
              // Lower case: an id is logged, and a run with upper case may be a password the
              // same seed sent elsewhere (the log check found 'evt_Ec7toLocaleString' so).
              secretCore.map((core) => `evt_${core.toLowerCase()}`),
              fc.constantFrom("evt_repetido_1", "evt_repetido_2"),
              printable.filter((text) => text.length > 0),
            ),
            object: fc.constant("event"),
            type: eventTypes,
            created: fc.integer({ min: 0, max: 2_000_000_000 }),
            livemode: fc.boolean(),
            data: fc.record({ object }),
          });
          await assertProperty(
            fc.asyncProperty(event, async (generated) => {
              const payload = JSON.stringify(generated);
              let answer: { status: number; body: string };
              try {
                answer = await handleWebhook(
                  database.db,
                  payload,
                  stripeSignature(payload, getConfig().stripe.webhookSecret),
                );
              } catch (error) {
                tally("webhook (signed)", 500);
                throw error;
              }
              tally("webhook (signed)", answer.status);
              // 503 is the documented 'deliver it again later': a refund that overtook its payment.
              const retryLater = answer.status === 503 && generated.type === "charge.refunded";
              if (answer.status !== 200 && !retryLater)
                throw new Error(
                  `a signed ${generated.type} was answered ${answer.status} ${answer.body}`,
                );
              await assertNoHalfWrittenRecord(`the signed event ${payload.slice(0, 500)}`);
            }),
          );
        },
        ROUTE_TIMEOUT_MS,
      );

      it("answered the simulated checkout's own deliveries without throwing", () => {
        expect(webhookThrows).toEqual([]);
      });
    });

  describe("the logs of the whole run", () => {
    it("carry no password, session token, mailed-link token or card number", async () => {
      const mails = await database.db.select().from(mailOutbox);
      for (const mail of mails) {
        for (const [, token] of mail.text.matchAll(/reset-password\/([\w-]+)/g))
          secrets.add("mailed-link token", token!);
        for (const [, token] of mail.text.matchAll(/[?&]token=([\w.-]+)/g))
          secrets.add("mailed-link token", token!);
      }
      expect(capturedLines.length).toBeGreaterThan(0);
      expect(secrets.findIn(capturedLines)).toEqual([]);
    });
  });
}
