/**
 * SIGTERM under load: 20 keep-alive connections sending contact enquiries, and a few idle
 * kept-alive ones that ask again just after the signal. Requests in flight finish, later ones
 * on kept-alive connections get a 503 with `Connection: close`, the process exits with 0
 * within seconds, and the outbox it leaves is sent by the next instance, each mail once.
 */
import http from "node:http";
import { outboxMessageId, SmtpPeer } from "../support/smtp-peer";
import {
  check,
  clientAddress,
  createDatabase,
  enquiry,
  figures,
  log,
  postForm,
  SHARED_POSTGRES_URL,
  sleep,
  startInstance,
  tally,
  waitFor,
  type Instance,
} from "./harness";

const LOAD_CONNECTIONS = 20;
const IDLE_CONNECTIONS = 5;
/** Each mail takes the SMTP peer this long: the outbox has a backlog when the signal comes. */
const SMTP_DELAY_MS = 20;

type Outcome = "sent" | "refused-503" | "refused-at-connect" | "failed";

export async function sigtermSuite(buildRoot: string) {
  const mail = await new SmtpPeer({ delayMs: SMTP_DELAY_MS }).start();
  const db = await createDatabase(SHARED_POSTGRES_URL, "sigterm");
  const options = {
    buildRoot,
    databaseUrl: db.url,
    smtpPort: mail.port,
    stripeApiBase: "http://127.0.0.1:9",
  };
  let restarted: Instance | undefined;
  let first: Instance | undefined;
  try {
    first = await startInstance({ ...options, name: "sigterm-1" });
    await first.ready();
    const instance = first;
    const outcomes: Record<Outcome, number> = {
      sent: 0,
      "refused-503": 0,
      "refused-at-connect": 0,
      failed: 0,
    };
    const problems: string[] = [];
    const sentEmails: string[] = [];
    let sequence = 0;
    let signalledAt = 0;
    let lastAnswerAt = 0;
    let sentAfterSignal = 0;
    // Answers received after the signal that ended their connection (some left before the
    // process took the signal, and keep theirs: their next request gets the 503).
    let closedAfter = 0;

    /** One enquiry; what the client was told. */
    const send = async (agent: http.Agent): Promise<Outcome> => {
      const n = sequence++;
      const form = enquiry(`sigterm${n}`);
      try {
        const answer = await postForm(`${instance.url}/contacto.data`, form, {
          forwardedFor: clientAddress(n, 13),
          agent,
          timeoutMs: 10_000,
        });
        lastAnswerAt = performance.now();
        if (answer.status === 200 && answer.body.includes('"sent"')) {
          sentEmails.push(form.email);
          if (signalledAt) {
            sentAfterSignal++;
            if (answer.headers.connection === "close") closedAfter++;
          }
          return "sent";
        }
        if (
          answer.status === 503 &&
          answer.headers.connection === "close" &&
          answer.headers["retry-after"]
        )
          return "refused-503";
        problems.push(
          `${answer.status} connection=${answer.headers.connection} ${answer.body.slice(0, 80)}`,
        );
        return "failed";
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        // Nothing was sent: the process no longer accepts connections, as it should.
        if (code === "ECONNREFUSED") return "refused-at-connect";
        problems.push(`${code ?? ""} ${(error as Error).message}`);
        return "failed";
      }
    };

    log(`SIGTERM under load: ${LOAD_CONNECTIONS} keep-alive connections sending enquiries`);
    const loadAgent = new http.Agent({ keepAlive: true, maxSockets: LOAD_CONNECTIONS });
    const idleAgent = new http.Agent({ keepAlive: true, maxSockets: IDLE_CONNECTIONS });
    let stop = false;
    const clients = Array.from({ length: LOAD_CONNECTIONS }, async () => {
      while (!stop) {
        const outcome = await send(loadAgent);
        outcomes[outcome]++;
        // A client refused at connect tries again a little later, as a proxy would elsewhere.
        if (outcome === "refused-at-connect") return;
      }
    });
    await waitFor(
      "a backlog in the outbox",
      async () =>
        sentEmails.length > 150 &&
        (await db.count("select count(*) as n from mail_outbox where status = 'pending'")) > 50,
    );
    // The idle connections used once more, well within the server's keep-alive timeout (5 s).
    await Promise.all(Array.from({ length: IDLE_CONNECTIONS }, () => send(idleAgent)));
    await sleep(300);
    signalledAt = performance.now();
    log("SIGTERM");
    instance.child.kill("SIGTERM");
    // Just after the signal, each idle kept-alive connection asks once more.
    await sleep(200);
    const idle = await Promise.all(Array.from({ length: IDLE_CONNECTIONS }, () => send(idleAgent)));
    for (const outcome of idle) outcomes[outcome]++;
    const exit = await Promise.race([
      instance.exited,
      sleep(15_000).then(() => ({ code: null, signal: null, at: Number.NaN })),
    ]);
    stop = true;
    await Promise.all(clients);
    loadAgent.destroy();
    idleAgent.destroy();

    log("exited");
    const exitMs = Math.round(exit.at - signalledAt);
    const drainMs = Math.round(lastAnswerAt - signalledAt);
    figures[
      "SIGTERM: enquiries answered as sent (received after the signal, of them with Connection: close)"
    ] = `${sentEmails.length} (${sentAfterSignal}, ${closedAfter})`;
    figures["SIGTERM: 503 + Connection: close on kept-alive connections"] = outcomes["refused-503"];
    figures["SIGTERM: refused at connect (listener closed)"] = outcomes["refused-at-connect"];
    figures["SIGTERM: failed requests"] = outcomes.failed;
    figures["SIGTERM: exit code, exit after signal, last answer after signal"] =
      `${exit.code} (signal ${exit.signal}), ${exitMs} ms, ${drainMs} ms`;
    tally.failed += outcomes.failed;
    check(
      outcomes.failed === 0,
      `requests failed during the shutdown: ${problems.slice(0, 5).join(" | ")}`,
    );
    check(exit.code === 0, `the process exited with ${exit.code} (signal ${exit.signal})`);
    check(exitMs < 5000, `the process took ${exitMs} ms to exit`);
    check(
      idle.every((o) => o === "refused-503"),
      `idle kept-alive connections were told: ${idle.join(", ")}`,
    );

    // Every enquiry a client was told about is stored, and no other.
    const stored = await db.count("select count(*) as n from contact_inquiries");
    const missing = await db.count(
      "select count(*) as n from unnest($1::text[]) as e(email) where not exists (select 1 from contact_inquiries c where c.email = e.email)",
      [sentEmails],
    );
    check(
      missing === 0 && stored === sentEmails.length,
      `${stored} stored, ${sentEmails.length} told, ${missing} missing`,
    );
    figures["SIGTERM: enquiries stored of those told"] = `${stored} of ${sentEmails.length}`;

    // The worker stopped between mails: nothing left claimed, nothing sent but not marked.
    const claimed = await db.count(
      "select count(*) as n from mail_outbox where status = 'sending'",
    );
    const markedSent = await db.count(
      "select count(*) as n from mail_outbox where status = 'sent'",
    );
    const left = await db.count("select count(*) as n from mail_outbox where status = 'pending'");
    check(claimed === 0, `${claimed} mails left claimed by the stopped worker`);
    check(
      mail.received.length === markedSent,
      `${mail.received.length} mails arrived, ${markedSent} marked sent`,
    );
    check(left > 0, "no mail was left to send: the run shows nothing about the restart");

    log("a restarted instance sends what was left, once");
    restarted = await startInstance({ ...options, name: "sigterm-2" });
    await restarted.ready();
    await waitFor(
      "the outbox to be delivered",
      async () =>
        (await db.count("select count(*) as n from mail_outbox where status <> 'sent'")) === 0,
      { timeoutMs: 60_000, everyMs: 100 },
    );
    await sleep(200);
    const outbox = (await db.pool.query<{ id: string }>("select id from mail_outbox")).rows;
    const counts = mail.counts();
    const once = outbox.filter((row) => counts.get(outboxMessageId(row.id)) === 1).length;
    check(
      once === outbox.length && mail.received.length === outbox.length,
      `${outbox.length} mails, ${once} arrived once, ${mail.received.length} arrived in all`,
    );
    figures["SIGTERM: mails sent once (of them left at the signal and sent after the restart)"] =
      `${once} of ${outbox.length} (${left})`;
  } finally {
    await first?.stop();
    await restarted?.stop();
    await db.drop();
    await mail.stop();
  }
}
