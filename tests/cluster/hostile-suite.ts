/**
 * npm run test:hostile (issue 24): the hostile-input harness through the front door. The random
 * and hostile requests of tests/integration/hostile-input.test.ts, sent over HTTP to the
 * production build behind the shipped nginx (deploy/nginx.conf), so the origin check, the body
 * limits, our Express adapter and both caches are in the path; on a database seeded, through
 * the same door, with real purchases, payments, invoices (with their VERI*FACTU records),
 * refunds, tickets and files of two customers, so every route's happy path runs with real ids.
 * Sent as each customer, as staff and anonymously. No answer may be a 5xx; afterwards the
 * database must hold nothing half-written, invoices gap-free and unchanged, each refund and
 * withdrawal applied once (withdrawals within 14 days and before delivery), and an intact chain.
 *
 * HOSTILE_HTTP_RUNS (default 1,000) requests per route; HOSTILE_SEED replays a run (with
 * HOSTILE_ROUTES, only the routes named).
 */
import http from "node:http";
import { drizzle } from "drizzle-orm/node-postgres";
import fc from "fast-check";
import type { Database } from "~/platform/db/client.server";
import { startCachingProxy } from "../../bench/load";
import {
  frontDoorRoutes,
  planFor,
  wire,
  type FrontDoorRoute,
  type Identity,
  type SeededIds,
  type Wire,
} from "../support/front-door";
import { frontDoorProblems, takeSnapshot } from "../support/front-door-invariants";
import type { KnownValues } from "../support/hostile-input";
import { databaseProblems } from "../support/hostile-invariants";
import {
  check,
  completionEvent,
  type CookieJar,
  deliverEvent,
  figures,
  log,
  postForm,
  refundEvent,
  request,
  signedEvent,
  SITE_URL,
  startInstance,
  startPeers,
  tally,
  type Instance,
  type TestDatabase,
} from "./harness";
import { enrolledStaff, signIn } from "./staff-session";

const RUNS = Number(process.env.HOSTILE_HTTP_RUNS ?? 1_000);
const SEED = Number(process.env.HOSTILE_SEED ?? Date.now() % 1_000_000);
/** Requests in flight at once: modest, the machine also runs nginx, the server and PostgreSQL. */
const CONCURRENCY = Number(process.env.HOSTILE_HTTP_CONCURRENCY ?? 12);
const BATCH = 50;
/** HOSTILE_ROUTES="name,name": only these routes, each with the seed it has in a full run. */
const ONLY = process.env.HOSTILE_ROUTES?.split(",");

const PASSWORD = "Puerta-principal-2024";
const ADMIN_EMAIL = "personal@cluster.example.es";
const ADMIN_PASSWORD = `Personal-${Date.now()}-clave`;
/** A third customer whose address and password the floods know: sign-ins that work. */
const KNOWN_EMAIL = "conocida@example.com";
const KNOWN_PASSWORD = "Conocida-de-prueba-2024";
const known: KnownValues = {
  emails: [KNOWN_EMAIL, "nadie-aqui@example.com"],
  passwords: [KNOWN_PASSWORD],
};

const INSTANCE_ENV = {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  HUMAN_CHECK_OFF_IN_PRODUCTION: "1",
  // Every request reaches the server from nginx's one address (X-Forwarded-For is the client's,
  // and the client is this process): the per-address limits would answer 429 to almost all of
  // them. Raised as in hostile-input.test.ts; the per-account and per-customer limits stay.
  CONTACT_RATE_LIMIT: "1000000",
  CONTACT_CONFIRMATIONS_PER_ADDRESS: "1000000",
  AUTH_ADDRESS_RATE_LIMIT: "1000000",
};

type Account = { email: string; password: string; jar: CookieJar; userId: string };
type Context = {
  db: TestDatabase;
  drizzleDb: Database;
  proxy: string;
  accounts: Record<Exclude<Identity, "anonymous">, Account>;
  ids: SeededIds;
};

export async function hostileSuite(buildRoot: string) {
  const peers = await startPeers("hostile");
  const { mail, db, stripeApiBase } = peers;
  // Two instances, as compose.yaml runs them, one per core, started together: both ensure
  // ADMIN_EMAIL's account at once (which once made one of them exit).
  const instances: Instance[] = [];
  const options = { buildRoot, databaseUrl: db.url, smtpPort: mail.port, stripeApiBase };
  for (const name of ["hostile-a", "hostile-b"])
    instances.push(await startInstance({ ...options, name, env: INSTANCE_ENV }));
  await Promise.all(instances.map((instance) => instance.ready()));
  let proxy: { url: string; stop(): void } | undefined;
  const pool = db.pool;
  try {
    proxy = await startCachingProxy(instances.map((instance) => `127.0.0.1:${instance.port}`));
    const drizzleDb = drizzle(pool) as unknown as Database;
    log("seeding two customers' purchases, invoices, refunds and tickets through nginx");
    const seeded = performance.now();
    const context = await seed(db, drizzleDb, proxy.url);
    figures["hostile: seeding (s)"] = Math.round((performance.now() - seeded) / 100) / 10;
    figures["hostile: seeded ids"] = Object.entries(context.ids)
      .map(([name, values]) => `${values.length} ${name}`)
      .join(", ");
    const before = await takeSnapshot(db);
    check(
      (await frontDoorProblems(db, before)).length === 0,
      "the seeded database already breaks a rule",
    );

    const failures: string[] = [];
    const routes = frontDoorRoutes();
    const flooded = performance.now();
    for (const [index, route] of routes.entries())
      if (!ONLY || ONLY.includes(route.name))
        failures.push(...(await flood(context, route, SEED + index * 7919)));
    failures.push(...(await floodWebhook(context)));
    figures["hostile: requests per route"] = RUNS;
    figures["hostile: routes"] = routes.length + 1;
    figures["hostile: flooding (s)"] = Math.round((performance.now() - flooded) / 100) / 10;

    log("checking the database");
    const half = (await databaseProblems(drizzleDb, { pooled: true })).problems;
    const rules = await frontDoorProblems(db, before);
    figures["hostile: half-written records"] = half.length;
    figures["hostile: invoice, refund, withdrawal and chain problems"] = rules.length;
    for (const line of [...failures.slice(0, 40), ...half.slice(0, 20), ...rules.slice(0, 20)])
      log(`  ${line}`);
    check(
      failures.length === 0 && half.length === 0 && rules.length === 0,
      `${failures.length} failed requests, ${half.length} half-written records, ${rules.length} broken rules (seed ${SEED})`,
    );
  } finally {
    proxy?.stop();
    await Promise.all(instances.map((instance) => instance.stop()));
    await peers.stop();
  }
}

// ---------------------------------------------------------------------------------------------
// The seed, through the front door

async function customer(db: TestDatabase, proxy: string, email: string, password = PASSWORD) {
  const signUp = await postForm(`${proxy}/registro`, {
    email,
    password,
    confirmPassword: password,
  });
  check(signUp.status === 302, `sign-up of ${email} answered ${signUp.status}`);
  // The verification link is not what this run tests (verification-links.test.ts does).
  await db.pool.query("update users set email_verified = true where email = $1", [email]);
  const jar = await signIn(proxy, "/login-cliente", email, password);
  const { rows } = await db.pool.query<{ id: string }>("select id from users where email = $1", [
    email,
  ]);
  return { email, password, jar, userId: rows[0]!.id };
}

async function seed(db: TestDatabase, drizzleDb: Database, proxy: string): Promise<Context> {
  const stamp = Date.now();
  const customerA = await customer(db, proxy, `ana.${stamp}@example.com`);
  const customerB = await customer(db, proxy, `bruno.${stamp}@example.com`);
  await customer(db, proxy, KNOWN_EMAIL, KNOWN_PASSWORD);
  const staff = {
    email: ADMIN_EMAIL,
    password: ADMIN_PASSWORD,
    jar: (await enrolledStaff(proxy, ADMIN_EMAIL, ADMIN_PASSWORD)).jar,
    userId: "",
  };
  const context: Context = {
    db,
    drizzleDb,
    proxy,
    accounts: { customerA, customerB, staff },
    ids: {},
  };
  await keepSignedIn(context);
  for (const buyer of [customerA, customerB]) {
    for (const serviceId of [1, 2, 3, 4, 5]) {
      const answer = await postForm(
        `${proxy}/checkout`,
        {
          serviceId: String(serviceId),
          immediateStart: "yes",
          billingName: "Cliente de Prueba",
          billingTaxId: "12345678Z",
          billingAddress: "Calle Mayor 1, 28013 Madrid",
        },
        { cookie: buyer.jar.header },
      );
      check(answer.status === 200, `checkout of service ${serviceId} answered ${answer.status}`);
    }
    const { rows } = await db.pool.query<{
      id: string;
      checkout_session_id: string;
      price: number;
    }>(
      "select id, checkout_session_id, price from purchases where user_id = $1 order by service_id",
      [buyer.userId],
    );
    // Four paid, one left pending; of the paid, one refunded, one delivered, one past 14 days.
    for (const [i, purchase] of rows.slice(0, 4).entries()) {
      const paid = await deliverEvent(
        proxy,
        signedEvent(completionEvent(`evt_seed_paid_${purchase.id}`, purchase, buyer.email)),
      );
      check(paid.status === 200, `a seeded payment answered ${paid.status}`);
      if (i === 0) {
        const refunded = await deliverEvent(
          proxy,
          signedEvent(refundEvent(`evt_seed_refund_${purchase.id}`, purchase)),
        );
        check(refunded.status === 200, `a seeded refund answered ${refunded.status}`);
      }
    }
    const [, delivered, aged] = rows;
    const payment = await db.pool.query<{ id: string }>(
      "select id from payments where purchase_id = $1",
      [delivered!.id],
    );
    const delivery = await postForm(
      `${proxy}/admin/pagos/${payment.rows[0]!.id}`,
      { intent: "delivery", deliveryStatus: "delivered", note: "Entregado" },
      { cookie: staff.jar.header },
    );
    check(delivery.status === 302, `a seeded delivery answered ${delivery.status}`);
    await db.pool.query(
      "update purchases set completed_at = completed_at - interval '20 days' where id = $1",
      [aged!.id],
    );
    for (const subject of ["No encuentro la factura", "Cambio de fecha"]) {
      const answer = await ticket(proxy, buyer.jar.header, subject);
      check(answer.status === 302, `a seeded ticket answered ${answer.status}`);
    }
  }
  const { rows: tickets } = await db.pool.query<{ id: string }>("select id from support_tickets");
  for (const { id } of tickets) {
    const reply = await postForm(
      `${proxy}/admin/tickets/${id}`,
      { intent: "reply", message: "Lo miramos hoy mismo." },
      { cookie: staff.jar.header },
    );
    check(reply.status === 302, `a seeded staff reply answered ${reply.status}`);
  }
  context.ids = await seededIds(db);
  check(
    context.ids.invoiceId!.length >= 10 && context.ids.attachmentId!.length >= 4,
    `the seed made ${context.ids.invoiceId!.length} invoices and ${context.ids.attachmentId!.length} files`,
  );
  return context;
}

const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);

async function ticket(proxy: string, cookie: string, subject: string) {
  const form = new FormData();
  form.append("subject", subject);
  form.append("category", "facturacion");
  form.append("priority", "medium");
  form.append("message", "Hola, necesito ayuda con mi última compra, gracias.");
  form.append("attachments", new File([PNG], "captura.png", { type: "image/png" }));
  form.append("attachments", new File([PNG], "otra.png", { type: "image/png" }));
  const encoded = new Response(form);
  return request(`${proxy}/mi-cuenta/tickets/nuevo`, {
    method: "POST",
    body: Buffer.from(await encoded.arrayBuffer()),
    headers: {
      "content-type": encoded.headers.get("content-type")!,
      origin: SITE_URL,
      cookie,
    },
  });
}

async function seededIds(db: TestDatabase): Promise<SeededIds> {
  const column = async (sql: string) =>
    (await db.pool.query<{ id: string }>(sql)).rows.map((row) => String(row.id));
  return {
    purchaseId: await column("select id from purchases where user_id is not null"),
    paymentId: await column("select id from payments"),
    invoiceId: await column("select id from invoices"),
    ticketId: await column("select id from support_tickets"),
    attachmentId: await column("select id from ticket_attachments"),
    sessionId: await column("select checkout_session_id as id from purchases"),
  };
}

// ---------------------------------------------------------------------------------------------
// The floods

const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });

type Outcome = { status: number; location?: string; error?: string };

/** One request as built by front-door.ts, to nginx; chunked when the plan says so. */
function send(proxy: string, request: Wire, cookie: string | undefined): Promise<Outcome> {
  const target = new URL(proxy);
  tally.sent++;
  const headers: Record<string, string | number> = {
    host: new URL(SITE_URL).host,
    "x-forwarded-proto": "https",
    ...request.headers,
    ...(cookie && { cookie }),
  };
  if (request.body && !request.chunked) headers["content-length"] = request.body.length;
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: target.hostname,
        port: target.port,
        method: request.method,
        path: request.path,
        headers,
        agent,
      },
      (res) => {
        res.resume();
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, location: res.headers.location }),
        );
        res.on("error", (error) => resolve({ status: res.statusCode ?? 0, error: error.message }));
      },
    );
    req.setTimeout(30_000, () => req.destroy(new Error("no answer within 30 s")));
    req.on("error", (error) => resolve({ status: 0, error: error.message }));
    req.end(request.body);
  });
}

const cookieOf = (context: Context, who: Identity) =>
  who === "anonymous" ? undefined : context.accounts[who].jar.header;

const tokenOf = (jar: CookieJar) => {
  const raw = /session_token=([^;]+)/.exec(jar.header)?.[1];
  return raw ? decodeURIComponent(raw).replace(/\.[^.]*$/, "") : "";
};

/** Each account's session row as its sign-in wrote it. */
const sessionRows = new Map<string, object>();

/**
 * A session a request ended (sign-out) is put back before the next batch, as its sign-in wrote
 * it: signing in again each time would meet the per-account sign-in limit within a minute.
 */
async function keepSignedIn(context: Context) {
  for (const account of Object.values(context.accounts)) {
    const token = tokenOf(account.jar);
    const { rows } = await context.db.pool.query<{ row: object }>(
      "select row_to_json(s) as row from sessions s where token = $1 and expires_at > now()",
      [token],
    );
    if (rows[0]) sessionRows.set(token, rows[0].row);
    else if (sessionRows.has(token))
      await context.db.pool.query(
        "insert into sessions select * from json_populate_record(null::sessions, $1)",
        [JSON.stringify(sessionRows.get(token))],
      );
    else throw new Error(`the session of ${account.email} was lost before it was recorded`);
  }
}

/** A redirect stays on the site. */
function offSite(location: string | undefined) {
  if (location === undefined) return false;
  const local = location.startsWith("/") && !/^\/[/\\]/.test(location);
  return !local && !location.startsWith(`${SITE_URL}/`);
}

async function flood(context: Context, route: FrontDoorRoute, seed: number): Promise<string[]> {
  const started = performance.now();
  const arbitrary = planFor(route, known);
  const statuses = new Map<number, number>();
  const failures: string[] = [];
  let answered = 0;
  for (let start = 0; start < RUNS; start += BATCH) {
    const plans = fc.sample(arbitrary, {
      numRuns: Math.min(BATCH, RUNS - start),
      seed: seed + start,
    });
    let next = 0;
    const worker = async () => {
      while (next < plans.length) {
        const run = start + next;
        const plan = plans[next++]!;
        const request = await wire(route, plan, context.ids, run, SITE_URL);
        const outcome = await send(context.proxy, request, cookieOf(context, request.identity));
        const oversized = (request.body?.length ?? 0) > request.bodyLimit;
        // nginx may close the connection while a body past its limit is still being sent.
        if (outcome.status === 0 && oversized) statuses.set(413, (statuses.get(413) ?? 0) + 1);
        else statuses.set(outcome.status, (statuses.get(outcome.status) ?? 0) + 1);
        answered++;
        const problem =
          outcome.status >= 500
            ? `answered ${outcome.status}`
            : outcome.status === 0 && !oversized
              ? `no answer (${outcome.error})`
              : offSite(outcome.location)
                ? `redirected off the site to ${outcome.location}`
                : undefined;
        if (problem) {
          tally.failed++;
          failures.push(
            `${route.name}: ${problem} to ${request.method} ${request.path.slice(0, 120)} as ${request.identity} (${JSON.stringify(request.headers).slice(0, 200)}, ${request.body?.length ?? 0} bytes)`,
          );
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    await keepSignedIn(context);
  }
  check(answered >= RUNS, `${route.name}: ${answered} of ${RUNS} requests sent`);
  const summary = [...statuses]
    .sort(([a], [b]) => a - b)
    .map(([s, n]) => `${n}×${s}`)
    .join(" ");
  figures[`hostile: ${route.name}`] = `${summary} (${Math.round(performance.now() - started)} ms)`;
  return failures;
}

/**
 * The Stripe webhook through nginx: signed completions and refunds of the seeded purchases,
 * each delivered many times under several event ids (each must apply once), with forged and
 * broken ones between them.
 */
async function floodWebhook(context: Context): Promise<string[]> {
  const started = performance.now();
  const { rows } = await context.db.pool.query<{
    id: string;
    checkout_session_id: string;
    price: number;
    email: string;
    status: string;
  }>(
    "select p.id, p.checkout_session_id, p.price, u.email, p.status from purchases p join users u on u.id = p.user_id",
  );
  const paid = rows.filter((row) => row.status !== "pending");
  const statuses = new Map<number, number>();
  const failures: string[] = [];
  const deliveries = Array.from({ length: RUNS }, (_, i) => i);
  let next = 0;
  const worker = async () => {
    while (next < deliveries.length) {
      const i = deliveries[next++]!;
      const purchase = paid[i % paid.length]!;
      const kind = i % 5;
      let answer;
      if (kind === 4) {
        const forged = signedEvent(refundEvent(`evt_forged_${i}`, purchase));
        answer = await deliverEvent(context.proxy, {
          payload: forged.payload,
          header: forged.header.replace(/v1=[0-9a-f]/, "v1=0"),
        });
      } else {
        const event =
          kind === 0
            ? completionEvent(`evt_again_paid_${i % 7}_${purchase.id}`, purchase, purchase.email)
            : refundEvent(`evt_again_refund_${i % 3}_${purchase.id}`, purchase);
        answer = await deliverEvent(context.proxy, signedEvent(event));
      }
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      if (answer.status >= 500) {
        tally.failed++;
        failures.push(`webhook: answered ${answer.status} ${answer.body.slice(0, 200)}`);
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const summary = [...statuses]
    .sort(([a], [b]) => a - b)
    .map(([s, n]) => `${n}×${s}`)
    .join(" ");
  figures["hostile: api/stripe/webhook"] =
    `${summary} (${Math.round(performance.now() - started)} ms)`;
  return failures;
}
