/**
 * PostgreSQL restarted while enquiries and payments flow, on a private cluster of this run:
 * the server keeps answering (503 on /readyz, Spanish error pages, never a hang), is back by
 * itself within 5 s of the database's return, and loses nothing a client was told was done.
 */
import http from "node:http";
import { SmtpPeer } from "../support/smtp-peer";
import {
  adminQuery,
  check,
  clientAddress,
  completionEvent,
  CookieJar,
  deliverEvent,
  enquiry,
  figures,
  log,
  postForm,
  request,
  signedEvent,
  sleep,
  startInstance,
  tally,
  waitFor,
  withDatabase,
  type Instance,
} from "./harness";
import { startPrivatePostgres, type PrivatePostgres } from "./private-postgres";
import pg from "pg";

const CONTACT_CLIENTS = 8;
const PAYMENTS = 60;
/** A request that takes longer than this counts as a hang. */
const HANG_MS = 3000;
const RECOVERY_LIMIT_MS = 5000;

type Sample = { at: number; ok: boolean; status: number; ms: number };

export async function postgresRestartSuite(buildRoot: string) {
  const postgres: PrivatePostgres = await startPrivatePostgres();
  const mail = await new SmtpPeer().start();
  let instance: Instance | undefined;
  let pool: pg.Pool | undefined;
  try {
    await adminQuery(postgres.url, "create database site");
    const databaseUrl = withDatabase(postgres.url, "site");
    pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
    pool.on("error", () => undefined);
    instance = await startInstance({
      name: "restart",
      buildRoot,
      databaseUrl,
      smtpPort: mail.port,
      stripeApiBase: "http://127.0.0.1:9",
    });
    await instance.ready();
    const site = instance;
    const { purchases, cookie } = await seedPurchases(site, pool);

    const agent = new http.Agent({ keepAlive: true, maxSockets: CONTACT_CLIENTS });
    const told: string[] = [];
    const samples: Sample[] = [];
    const problems: string[] = [];
    let refused = 0;
    let sequence = 0;
    let stop = false;

    const contactClient = async () => {
      while (!stop) {
        const n = sequence++;
        const form = enquiry(`reinicio${n}`);
        const at = performance.now();
        try {
          const answer = await postForm(`${site.url}/contacto.data`, form, {
            forwardedFor: clientAddress(n, 14),
            agent,
            timeoutMs: HANG_MS,
          });
          const ok = answer.status === 200 && answer.body.includes('"sent"');
          samples.push({ at, ok, status: answer.status, ms: answer.ms });
          if (ok) told.push(form.email);
          else if (answer.status === 503) {
            refused++;
            await sleep(50);
          } else problems.push(`contact answered ${answer.status}`);
        } catch (error) {
          samples.push({ at, ok: false, status: 0, ms: performance.now() - at });
          problems.push(`contact: ${(error as Error).message}`);
          await sleep(50);
        }
      }
    };

    // Stripe's side: each completion delivered until it is acknowledged with a 200.
    const queue = [...purchases];
    let deliveries = 0;
    let deliveriesRefused = 0;
    const paymentClient = async () => {
      for (let purchase = queue.shift(); purchase; purchase = queue.shift()) {
        const delivery = signedEvent(
          completionEvent(`evt_restart_${purchase.id}`, purchase, "pagos@example.com"),
        );
        for (;;) {
          deliveries++;
          try {
            const answer = await deliverEvent(site.url, delivery);
            if (answer.status === 200) break;
            deliveriesRefused++;
            if (answer.status !== 503) problems.push(`webhook answered ${answer.status}`);
          } catch (error) {
            deliveriesRefused++;
            problems.push(`webhook: ${(error as Error).message}`);
          }
          await sleep(100);
        }
        await sleep(250);
      }
    };

    log("PostgreSQL restarted under load (private cluster)");
    const loadStarted = performance.now();
    const clients = [
      ...Array.from({ length: CONTACT_CLIENTS }, contactClient),
      paymentClient(),
      paymentClient(),
    ];
    await sleep(2000);
    const recoveries: string[] = [];
    for (const mode of ["fast", "immediate"] as const) {
      const recovered = await restart(postgres, mode, site, samples, cookie);
      recoveries.push(`${mode}: /readyz ${recovered.readyMs} ms, enquiries ${recovered.sentMs} ms`);
      check(
        recovered.readyMs <= RECOVERY_LIMIT_MS && recovered.sentMs <= RECOVERY_LIMIT_MS,
        `not recovered within ${RECOVERY_LIMIT_MS} ms of the database's return (${mode}): ${JSON.stringify(recovered)}`,
      );
      await sleep(2000);
    }
    stop = true;
    await Promise.all(clients.slice(0, CONTACT_CLIENTS));
    await waitFor("every payment to be acknowledged", () => queue.length === 0, {
      timeoutMs: 60_000,
    });
    await Promise.all(clients);
    agent.destroy();
    const seconds = (performance.now() - loadStarted) / 1000;

    const slowest = Math.round(Math.max(...samples.map((s) => s.ms)));
    const failed = samples.filter((s) => s.status === 0).length;
    tally.failed += failed + problems.length;
    check(
      problems.length === 0,
      `unexpected answers: ${[...new Set(problems)].slice(0, 5).join(" | ")}`,
    );
    check(slowest < HANG_MS, `a request took ${slowest} ms`);

    // Nothing a client was told is lost: each enquiry answered 'sent' is stored.
    const stored = await count(pool, "select count(*) as n from contact_inquiries");
    const missing = await count(
      pool,
      "select count(*) as n from unnest($1::text[]) as e(email) where not exists (select 1 from contact_inquiries c where c.email = e.email)",
      [told],
    );
    check(missing === 0, `${missing} enquiries answered as sent are not stored`);
    // Payments: each completed once, whatever the number of deliveries it took.
    const paid = await count(pool, "select count(*) as n from payments");
    const completed = await count(
      pool,
      "select count(*) as n from purchases where status = 'completed'",
    );
    const receipts = await count(
      pool,
      "select count(*) as n from mail_outbox where kind = 'payment-receipt'",
    );
    const events = await count(pool, "select count(*) as n from webhook_events");
    check(
      paid === PAYMENTS && completed === PAYMENTS && receipts === PAYMENTS && events === PAYMENTS,
      `payments ${paid}, completed ${completed}, receipts ${receipts}, events ${events} (expected ${PAYMENTS} each)`,
    );
    figures["PostgreSQL restart: requests (enquiries) sent, answered sent, refused 503, failed"] =
      `${samples.length}, ${told.length}, ${refused}, ${failed} in ${seconds.toFixed(1)} s (slowest ${slowest} ms)`;
    figures["PostgreSQL restart: enquiries stored of those told"] =
      `${stored} of ${told.length} (${missing} missing, ${stored - told.length} stored though the answer was an error)`;
    figures["PostgreSQL restart: payments applied once"] =
      `${paid} of ${PAYMENTS} (${deliveries} deliveries, ${deliveriesRefused} refused and retried)`;
    figures["PostgreSQL restart: recovered after the database's return"] = recoveries.join("; ");
  } finally {
    await instance?.stop();
    await pool?.end();
    await mail.stop();
    await postgres.destroy();
  }
}

async function count(pool: pg.Pool, sql: string, values: unknown[] = []) {
  const result = await pool.query<{ n: string }>(sql, values);
  return Number(result.rows[0]?.n ?? 0);
}

/**
 * Stops the cluster, checks what visitors get while it is away, starts it again, and measures
 * how long after its return /readyz and the contact form answer again.
 */
async function restart(
  postgres: PrivatePostgres,
  mode: "fast" | "immediate",
  site: Instance,
  samples: Sample[],
  cookie: string,
) {
  await postgres.stop(mode);
  const downAt = performance.now();
  await sleep(300);
  const ready = await request(`${site.url}/readyz`, { timeoutMs: HANG_MS });
  check(ready.status === 503, `/readyz answered ${ready.status} with the database away`);
  // The contact page's form, posted without JavaScript: a Spanish error in the page.
  const page = await postForm(`${site.url}/contacto`, enquiry(`caido${mode}`), {
    forwardedFor: "192.0.2.99",
    timeoutMs: HANG_MS,
  });
  check(
    page.status === 503 && page.body.includes("<html") && /inténtalo|Inténtalo/.test(page.body),
    `the contact page answered ${page.status} with the database away`,
  );
  // A signed-in visitor's page needs the database for the session: the maintenance page, 503
  // with Retry-After (decision 036), neither a 500 nor a redirect to sign in.
  const account = await request(`${site.url}/mi-cuenta`, {
    headers: { cookie },
    timeoutMs: HANG_MS,
  });
  check(
    account.status === 503 &&
      account.headers["retry-after"] !== undefined &&
      account.body.includes("Estamos en mantenimiento"),
    `/mi-cuenta answered ${account.status} with the database away: ${account.body.slice(0, 120)}`,
  );
  const awayMs = performance.now() - downAt;
  if (awayMs < 2000) await sleep(2000 - awayMs);
  await postgres.start();
  const upAt = performance.now();
  await waitFor(
    "/readyz after the restart",
    async () => (await request(`${site.url}/readyz`, { timeoutMs: HANG_MS })).status === 200,
    {
      timeoutMs: 30_000,
      everyMs: 25,
    },
  );
  const readyMs = Math.round(performance.now() - upAt);
  await waitFor(
    "an enquiry stored after the restart",
    () => samples.some((s) => s.ok && s.at >= upAt),
    {
      timeoutMs: 30_000,
      everyMs: 25,
    },
  );
  const firstSent = samples.find((s) => s.ok && s.at >= upAt)!;
  return { readyMs, sentMs: Math.round(firstSent.at + firstSent.ms - upAt) };
}

/**
 * A signed-in customer (signed up over HTTP, verified in the database) with pending Stripe
 * purchases, written as a checkout writes them.
 */
async function seedPurchases(site: Instance, pool: pg.Pool) {
  const email = "pagos@example.com";
  const password = "Reinicio-de-prueba-2024";
  const signUp = await postForm(
    `${site.url}/registro`,
    { email, password, confirmPassword: password },
    { forwardedFor: "192.0.2.20" },
  );
  check(signUp.status === 302, `sign-up answered ${signUp.status}`);
  await pool.query("update users set email_verified = true where email = $1", [email]);
  const signIn = await postForm(
    `${site.url}/login-cliente`,
    { email, password },
    { forwardedFor: "192.0.2.20" },
  );
  check(signIn.status === 302, `sign-in answered ${signIn.status}`);
  const cookie = new CookieJar().take(signIn).header;
  const user = await pool.query<{ id: string }>("select id from users where email = $1", [email]);
  const rows = await pool.query<{ id: string; checkout_session_id: string; price: number }>(
    `insert into purchases (user_id, service_id, service_name, price, provider, checkout_session_id)
     select $1, 1, 'Consultoría puntual', 9900, 'stripe', 'cs_test_restart_' || n from generate_series(1, $2::int) n
     returning id, checkout_session_id, price`,
    [user.rows[0]!.id, PAYMENTS],
  );
  return { purchases: rows.rows, cookie };
}
