/**
 * Two production instances on one fresh PostgreSQL database behind nginx: what the database
 * shares between them (schema, sessions, rate limits, the outbox, webhook de-duplication) shown
 * with real HTTP, plus two faults on the same cluster: a webhook storm and the SMTP server down.
 */
import { publicPaths } from "~/features/seo/public-paths";
import journal from "../../drizzle/meta/_journal.json";
import { outboxMessageId, type SmtpPeer } from "../support/smtp-peer";
import {
  check,
  clientAddress,
  completionEvent,
  CookieJar,
  deliverEvent,
  enquiry,
  figures,
  log,
  postForm,
  refundEvent,
  request,
  signedEvent,
  startInstance,
  startPeers,
  startNginx,
  waitFor,
  type Answer,
  type Instance,
  type TestDatabase,
} from "./harness";

const PASSWORD = "Clúster-de-prueba-2024";

type Context = {
  db: TestDatabase;
  a: Instance;
  b: Instance;
  nginx: string;
  mail: SmtpPeer;
  /** The instance name for an address nginx reports in X-Upstream. */
  instanceOf(answer: Answer): string;
};

export async function clusterSuite(buildRoot: string) {
  const peers = await startPeers("cluster");
  const { mail, db, stripeApiBase } = peers;
  const instances: Instance[] = [];
  let nginx: Awaited<ReturnType<typeof startNginx>> | undefined;
  try {
    log("two instances started at once on an empty database");
    const options = { buildRoot, databaseUrl: db.url, smtpPort: mail.port, stripeApiBase };
    const [a, b] = await Promise.all([
      startInstance({ ...options, name: "a" }),
      startInstance({ ...options, name: "b" }),
    ]);
    instances.push(a!, b!);
    const ready = await Promise.all([a!.ready(), b!.ready()]);
    figures["cluster: instances ready after (ms)"] = ready.join(" / ");
    await migratedOnce(db, a!, b!);

    nginx = await startNginx([a!.url, b!.url]);
    const names = new Map([
      [`127.0.0.1:${a!.port}`, "a"],
      [`127.0.0.1:${b!.port}`, "b"],
    ]);
    const context: Context = {
      db,
      a: a!,
      b: b!,
      nginx: nginx.url,
      mail,
      instanceOf: (answer) => names.get(answer.upstream) ?? answer.upstream,
    };
    const customer = await sessionAcrossInstances(context);
    await rateLimitsAcrossInstances(context);
    await outboxSentOnce(context);
    await webhooksAppliedOnce(context, customer);
    await pageCacheKeepsSessionsApart(context, customer);
    await smtpDown(context);
    const counts = mail.counts();
    figures["mails sent once (cluster)"] = [...counts.values()].filter((n) => n === 1).length;
    figures["mails sent more than once (cluster)"] = mail.duplicates().length;
    check(mail.duplicates().length === 0, `mails delivered twice: ${mail.duplicates().join(", ")}`);
  } finally {
    await nginx?.stop();
    await Promise.all(instances.map((instance) => instance.stop()));
    await peers.stop();
  }
}

/** Drizzle's journal of applied migrations holds each migration once, and all of them. */
async function migratedOnce(db: TestDatabase, a: Instance, b: Instance) {
  // Both were started before either could have finished migrating: each one ran migrate().
  check(Math.abs(a.startedAt - b.startedAt) < 200, "the two instances were not started together");
  const rows = await db.count("select count(*) as n from drizzle.__drizzle_migrations");
  const distinct = await db.count(
    "select count(distinct hash) as n from drizzle.__drizzle_migrations",
  );
  check(
    rows === journal.entries.length && distinct === rows,
    `migrations table holds ${rows} rows (${distinct} distinct) for ${journal.entries.length} migrations`,
  );
  figures["cluster: migrations applied (each once)"] = `${rows} of ${journal.entries.length}`;
}

type Customer = { email: string; jar: CookieJar; userId: string };

/**
 * Sign-up and verification through nginx, sign-in on instance a, the session used on b and
 * through nginx on both, and a sign-out on b that ends it on a.
 */
async function sessionAcrossInstances(context: Context): Promise<Customer> {
  const { a, b, nginx, mail, db } = context;
  log("a session made on one instance works on the other");
  const email = `cliente.${Date.now()}@example.com`;
  const jar = new CookieJar();
  const signUp = await postForm(
    `${nginx}/registro`,
    { email, password: PASSWORD, confirmPassword: PASSWORD },
    { forwardedFor: "192.0.2.10" },
  );
  check(signUp.status === 302, `sign-up answered ${signUp.status}`);
  jar.take(signUp);
  await waitFor("the verification mail", () => mail.hasMail(email, "Confirma tu email"));
  const [row] = (
    await db.pool.query<{ html: string }>(
      "select html from mail_outbox where recipient = $1 and subject like 'Confirma tu email%'",
      [email],
    )
  ).rows;
  const link = /href="([^"]*\/api\/auth\/verify-email[^"]*)"/.exec(row?.html ?? "")?.[1];
  check(link, "the verification mail has no link");
  const verifyUrl = new URL(link.replaceAll("&amp;", "&"));
  const verified = await request(`${nginx}${verifyUrl.pathname}${verifyUrl.search}`, {
    headers: { cookie: jar.header },
  });
  check(verified.status === 302, `the verification link answered ${verified.status}`);

  const signedIn = await postForm(
    `${a.url}/login-cliente`,
    { email, password: PASSWORD },
    { forwardedFor: "192.0.2.10" },
  );
  check(signedIn.status === 302, `sign-in on a answered ${signedIn.status}`);
  jar.take(signedIn);
  check(jar.has(/session_token$/), "sign-in set no session cookie");

  const onB = await request(`${b.url}/mi-cuenta`, { headers: { cookie: jar.header } });
  check(
    onB.status === 200 && onB.body.includes(email),
    `instance b did not know the session made on a (${onB.status})`,
  );
  const answeredBy = new Set<string>();
  for (let i = 0; i < 6; i++) {
    const page = await request(`${nginx}/mi-cuenta`, { headers: { cookie: jar.header } });
    check(page.status === 200 && page.body.includes(email), `/mi-cuenta answered ${page.status}`);
    answeredBy.add(context.instanceOf(page));
  }
  check(
    answeredBy.size === 2,
    `nginx sent the account pages to ${[...answeredBy].join(", ")} only`,
  );

  // A second session, signed out on b: a no longer accepts it.
  const second = new CookieJar().take(
    await postForm(
      `${a.url}/login-cliente`,
      { email, password: PASSWORD },
      { forwardedFor: "192.0.2.10" },
    ),
  );
  const signedOut = await postForm(`${b.url}/cerrar-sesion`, {}, { cookie: second.header });
  check(signedOut.status === 302, `sign-out on b answered ${signedOut.status}`);
  const afterSignOut = await request(`${a.url}/mi-cuenta`, { headers: { cookie: second.header } });
  check(
    afterSignOut.status === 302 &&
      String(afterSignOut.headers.location).startsWith("/login-cliente"),
    `a still accepted a session signed out on b (${afterSignOut.status})`,
  );
  const userId = (
    await db.pool.query<{ id: string }>("select id from users where email = $1", [email])
  ).rows[0]!.id;
  figures["cluster: session made on a, used on b and through nginx on"] = [...answeredBy]
    .sort()
    .join(" + ");
  return { email, jar, userId };
}

/**
 * The contact form's limit per client address (5 in 10 minutes) and the sign-in limit per
 * account (10 a minute), reached with requests alternating between the instances.
 */
async function rateLimitsAcrossInstances(context: Context) {
  const { nginx } = context;
  log("rate limits count across both instances");
  const contact: Answer[] = [];
  for (let i = 0; i < 10; i++)
    contact.push(
      await postForm(`${nginx}/contacto.data`, enquiry(`limite${i}`), {
        forwardedFor: "198.51.100.7",
      }),
    );
  const passed = contact.filter((answer) => answer.status === 200);
  const refused = contact.filter((answer) => answer.status === 429);
  check(
    passed.length === 5 && refused.length === 5,
    `contact limit: ${passed.length} passed and ${refused.length} refused of 10 (expected 5 and 5)`,
  );
  check(
    new Set(passed.map(context.instanceOf)).size === 2 &&
      new Set(refused.map(context.instanceOf)).size === 2,
    "the contact attempts did not alternate between the instances",
  );

  // One client guessing one account's password (decision 036): throttled after 10 failures,
  // counted across both instances; the account's owner, from another client, is not.
  const signIn: Answer[] = [];
  const nobody = `nadie.${Date.now()}@example.com`;
  const attempt = (forwardedFor: string) =>
    postForm(
      `${nginx}/login-cliente`,
      { email: nobody, password: "contraseña-equivocada" },
      { forwardedFor },
    );
  for (let i = 0; i < 12; i++) signIn.push(await attempt("203.0.113.9"));
  const statuses = signIn.map((answer) => answer.status);
  check(
    statuses.slice(0, 10).every((s) => s === 401) && statuses.slice(10).every((s) => s === 429),
    `sign-in limit per account and client: statuses ${statuses.join(" ")} (expected 10 × 401, then 429)`,
  );
  check(new Set(signIn.map(context.instanceOf)).size === 2, "the sign-ins did not alternate");
  const owner = await attempt("198.51.100.20");
  check(owner.status === 401, `another client was refused (${owner.status}), not just told wrong`);
  figures["cluster: contact limit (5) across a+b"] =
    `${passed.length} passed, ${refused.length} refused`;
  figures["cluster: sign-in limit (10/account and client) across a+b"] =
    `10 refused as wrong, then ${statuses.length - 10} × 429`;
}

/** Enquiries through nginx: both workers deliver the outbox, and each mail arrives once. */
async function outboxSentOnce(context: Context) {
  const { nginx, db, mail } = context;
  log("each outbox mail is sent once by two workers");
  const answers = await inBatches(40, 8, (i) =>
    postForm(`${nginx}/contacto.data`, enquiry(`buzon${i}`), {
      forwardedFor: clientAddress(i, 11),
    }),
  );
  check(
    answers.every((answer) => answer.status === 200),
    "an enquiry was refused",
  );
  await drained(context);
  const outbox = (await db.pool.query<{ id: string }>("select id from mail_outbox")).rows;
  const counts = mail.counts();
  const once = outbox.filter((row) => counts.get(outboxMessageId(row.id)) === 1).length;
  check(
    once === outbox.length && mail.received.length === outbox.length,
    `${outbox.length} mails in the outbox, ${once} received once, ${mail.received.length} received in all`,
  );
  figures["cluster: outbox mails sent once (of all queued so far)"] = `${once} of ${outbox.length}`;
}

/** Waits until the outbox has nothing left to send and the peer holds every sent mail. */
async function drained({ db, mail }: Context, timeoutMs = 30_000) {
  await waitFor(
    "the outbox to be delivered",
    async () =>
      (await db.count("select count(*) as n from mail_outbox where status <> 'sent'")) === 0 &&
      mail.received.length === (await db.count("select count(*) as n from mail_outbox")),
    { timeoutMs, everyMs: 100 },
  );
}

async function inBatches<T>(total: number, concurrency: number, run: (i: number) => Promise<T>) {
  const results: T[] = [];
  for (let start = 0; start < total; start += concurrency) {
    const batch = Array.from({ length: Math.min(concurrency, total - start) }, (_, k) =>
      run(start + k),
    );
    results.push(...(await Promise.all(batch)));
  }
  return results;
}

type Purchase = { id: string; checkout_session_id: string; price: number };

/** Checkouts through nginx (the Stripe stand-in opens the sessions); the new purchases. */
async function checkouts(context: Context, customer: Customer, serviceIds: number[]) {
  const before = (await context.db.pool.query<{ id: string }>("select id from purchases")).rows.map(
    (row) => row.id,
  );
  for (const serviceId of serviceIds) {
    const answer = await postForm(
      `${context.nginx}/checkout`,
      {
        serviceId: String(serviceId),
        immediateStart: "yes",
        // Above 400 € the invoice is a complete one: the buyer's billing data (decision 032).
        billingName: "Cliente del Clúster S.L.",
        billingTaxId: "B12345674",
        billingAddress: "Calle Mayor 1, 28013 Madrid",
      },
      { cookie: customer.jar.header },
    );
    check(
      answer.status === 200 && answer.body.includes("checkout.stripe.com"),
      `checkout answered ${answer.status}`,
    );
  }
  const rows = await context.db.pool.query<Purchase>(
    "select id, checkout_session_id, price from purchases where user_id = $1 and not (id = any($2)) order by created_at",
    [customer.userId, before],
  );
  return rows.rows;
}

/**
 * Each event sent to both instances at the same moment, then a storm: the same events 50 times
 * each, concurrently, through nginx (completions, then refunds). Each is applied once.
 */
async function webhooksAppliedOnce(context: Context, customer: Customer) {
  const { a, b, nginx, db } = context;
  log("webhook events delivered to both instances at once");
  const pair = await checkouts(context, customer, [1, 2, 3]);
  for (const [i, purchase] of pair.entries()) {
    const delivery = signedEvent(
      completionEvent(`evt_cluster_pair_${i}_${Date.now()}`, purchase, customer.email),
    );
    const answers = await Promise.all([
      deliverEvent(a.url, delivery),
      deliverEvent(b.url, delivery),
    ]);
    check(
      answers.every((answer) => answer.status === 200),
      `a pair of deliveries answered ${answers.map((x) => x.status).join(" and ")}`,
    );
  }
  await appliedOnce(context, pair, "completed", customer.email);

  log("webhook storm: each event 50 times, concurrently, through nginx");
  const storm = await checkouts(context, customer, [4, 5, 6, 1, 2, 3]);
  const stamp = Date.now();
  const completions = storm.map((p, i) =>
    signedEvent(completionEvent(`evt_storm_paid_${i}_${stamp}`, p, customer.email)),
  );
  const refunds = storm.map((p, i) =>
    signedEvent(refundEvent(`evt_storm_refund_${i}_${stamp}`, p)),
  );
  let deliveries = 0;
  const byInstance = new Map<string, number>();
  for (const wave of [completions, refunds]) {
    const answers = await Promise.all(
      wave.flatMap((delivery) => Array.from({ length: 50 }, () => deliverEvent(nginx, delivery))),
    );
    deliveries += answers.length;
    for (const answer of answers)
      byInstance.set(
        context.instanceOf(answer),
        (byInstance.get(context.instanceOf(answer)) ?? 0) + 1,
      );
    const statuses = new Set(answers.map((answer) => answer.status));
    check(
      statuses.size === 1 && statuses.has(200),
      `storm deliveries answered ${[...statuses].join(", ")}`,
    );
    if (wave === completions) await appliedOnce(context, storm, "completed", customer.email);
  }
  await appliedOnce(context, storm, "refunded", customer.email);
  const events = await db.count("select count(*) as n from webhook_events");
  check(events === pair.length + storm.length * 2, `${events} webhook events recorded`);
  // The customer's totals: the three paid purchases count; the six refunded ones do not.
  const totals = await db.pool.query<{ total_orders: number; total_spent: number }>(
    "select total_orders, total_spent from customers where email = $1",
    [customer.email],
  );
  const expectedSpent = pair.reduce((sum, p) => sum + p.price, 0);
  check(
    totals.rows[0]?.total_orders === pair.length && totals.rows[0]?.total_spent === expectedSpent,
    `customer totals ${JSON.stringify(totals.rows[0])}, expected ${pair.length} orders and ${expectedSpent}`,
  );
  figures["events applied once (pairs to a+b at once)"] =
    `${pair.length} of ${pair.length} (${pair.length * 2} deliveries)`;
  figures["events applied once (storm, 50× each)"] =
    `${storm.length * 2} of ${storm.length * 2} (${deliveries} deliveries: ${[...byInstance]
      .map(([name, n]) => `${n} to ${name}`)
      .join(", ")})`;
}

/** Each purchase in `status`, with one payment, one activity entry per step, one mail per step. */
async function appliedOnce(context: Context, purchases: Purchase[], status: string, email: string) {
  const { db } = context;
  for (const purchase of purchases) {
    const [row] = (
      await db.pool.query<{
        status: string;
        payments: string;
        completed: string;
        refunded: string;
        receipts: string;
        refunds: string;
      }>(
        `select p.status,
          (select count(*) from payments where purchase_id = p.id) as payments,
          (select count(*) from user_activity_log where metadata->>'purchaseId' = p.id::text and activity_type = 'purchase_completed') as completed,
          (select count(*) from user_activity_log where metadata->>'purchaseId' = p.id::text and activity_type = 'purchase_refunded') as refunded,
          (select count(*) from mail_outbox where kind = 'payment-receipt' and recipient = $2 and text like '%' || p.id::text || '%') as receipts,
          (select count(*) from mail_outbox where kind = 'payment-refund' and recipient = $2 and text like '%' || p.id::text || '%') as refunds
         from purchases p where p.id = $1`,
        [purchase.id, email],
      )
    ).rows;
    const refunded = status === "refunded" ? 1 : 0;
    check(
      row?.status === status &&
        Number(row.payments) === 1 &&
        Number(row.completed) === 1 &&
        Number(row.refunded) === refunded &&
        Number(row.receipts) === 1 &&
        Number(row.refunds) === refunded,
      `purchase ${purchase.id}: ${JSON.stringify(row)}, expected ${status} applied once`,
    );
  }
}

/**
 * Public pages asked for by a signed-in customer and by anonymous visitors through nginx (its
 * shared cache and each instance's page cache), interleaved and then all at once: no anonymous
 * answer carries the customer's address or the signed-in header.
 */
async function pageCacheKeepsSessionsApart(context: Context, customer: Customer) {
  const { nginx } = context;
  log("the page caches never serve a signed-in page to another visitor");
  const paths = publicPaths();
  const signedIn = { cookie: customer.jar.header };
  const marks = [customer.email, "Cerrar Sesión"];
  let anonymous = 0;
  let fromNginx = 0;
  let fromInstance = 0;
  const inspect = (answer: Answer, personal: boolean, path: string) => {
    check(answer.status === 200, `${path} answered ${answer.status}`);
    if (personal) {
      check(answer.headers["x-cache"] !== "HIT", `a signed-in ${path} came from nginx's cache`);
      check(
        answer.body.includes(customer.email),
        `the signed-in ${path} does not show the customer`,
      );
      check(
        String(answer.headers["cache-control"]).includes("no-store"),
        `the signed-in ${path} is not private, no-store (${answer.headers["cache-control"]})`,
      );
      return;
    }
    anonymous++;
    if (answer.headers["x-cache"] === "HIT") fromNginx++;
    else if (answer.headers["x-page-cache"] === "hit") fromInstance++;
    for (const mark of marks)
      check(
        !answer.body.includes(mark),
        `an anonymous ${path} carried "${mark}" (${context.instanceOf(answer)})`,
      );
  };
  for (let round = 0; round < 3; round++) {
    for (const path of paths) {
      inspect(await request(`${nginx}${path}`, { headers: signedIn }), true, path);
      inspect(await request(`${nginx}${path}`), false, path);
    }
  }
  const mixed = await Promise.all(
    Array.from({ length: 200 }, (_, i) => {
      const path = paths[i % paths.length]!;
      const personal = i % 3 === 0;
      return request(`${nginx}${path}`, personal ? { headers: signedIn } : {}).then((answer) =>
        inspect(answer, personal, path),
      );
    }),
  );
  figures["cluster: anonymous public pages checked (from nginx's cache, an instance's cache)"] =
    `${anonymous} (${fromNginx}, ${fromInstance}), none signed-in; ${mixed.length} mixed at once`;
}

/**
 * The SMTP server down while 200 enquiries arrive: all stored and answered, their 400 mails
 * wait; once it is back, each arrives once.
 */
async function smtpDown(context: Context) {
  const { nginx, db, mail } = context;
  log("SMTP server down during 200 enquiries");
  await drained(context);
  const idsBefore = (await db.pool.query<{ id: string }>("select id from mail_outbox")).rows.map(
    (row) => row.id,
  );
  const outboxBefore = idsBefore.length;
  const enquiriesBefore = await db.count("select count(*) as n from contact_inquiries");
  const receivedBefore = mail.received.length;
  await mail.stop();
  const answers = await inBatches(200, 10, (i) =>
    postForm(`${nginx}/contacto.data`, enquiry(`smtp${i}`), { forwardedFor: clientAddress(i, 12) }),
  );
  const ok = answers.filter(
    (answer) => answer.status === 200 && answer.body.includes('"sent"'),
  ).length;
  check(ok === 200, `${ok} of 200 enquiries answered as sent while SMTP was down`);
  const stored = (await db.count("select count(*) as n from contact_inquiries")) - enquiriesBefore;
  check(stored === 200, `${stored} of 200 enquiries stored`);
  const queued = (await db.count("select count(*) as n from mail_outbox")) - outboxBefore;
  check(queued === 400, `${queued} mails queued for 200 enquiries (expected 400)`);
  await waitFor(
    "a failed delivery attempt of every new mail",
    async () =>
      (await db.count(
        "select count(*) as n from mail_outbox where status = 'pending' and attempts >= 1 and last_error is not null",
      )) === 400,
    { timeoutMs: 30_000, everyMs: 200 },
  );
  check(mail.received.length === receivedBefore, "a mail arrived while the SMTP server was down");
  const back = performance.now();
  await mail.start();
  await drained(context, 90_000);
  const seconds = Math.round((performance.now() - back) / 100) / 10;
  const newIds = (
    await db.pool.query<{ id: string }>("select id from mail_outbox where not (id = any($1))", [
      idsBefore,
    ])
  ).rows;
  const counts = mail.counts();
  const once = newIds.filter((row) => counts.get(outboxMessageId(row.id)) === 1).length;
  check(once === 400, `${once} of 400 mails arrived once after the SMTP server came back`);
  figures["SMTP down: enquiries stored / mails delivered once after recovery"] =
    `${stored} of 200 / ${once} of 400 (all within ${seconds} s of its return; first retry is due 30 s after a failure)`;
}
