/**
 * npm run test:restore (decision 047): backups restored for real, on PostgreSQL with pgBackRest
 * and on the embedded PGlite database.
 *
 * PostgreSQL: a private cluster archiving its WAL to a pgBackRest repository; the production
 * build loaded over HTTP (enquiries, tickets with a file, payments through the Stripe stand-in's
 * signed webhooks, which issue invoices and their VERI*FACTU records) while a full base backup
 * runs, writes going on after it; a restore to a moment after the backup into a new cluster;
 * the build started on it and checked over HTTP, as staff (signed in anew with the second factor
 * enrolled before the backup) and as the customers: every write told 2xx before the target is
 * there, none sent after it, the invoice numbers without gaps, the VERI*FACTU chain intact
 * ('Comprobar cadena'), every file byte-identical.
 *
 * Embedded: the same load on a PGlite instance, `npm run db:backup` asked of the running
 * server, `npm run db:restore` into a new DATA_DIR, the same checks; then bad input: a truncated
 * and an altered file refused before anything is written, a restore into the live directory
 * refused, and a backup that fills its disk (a 1-backup tmpfs) leaving the previous one whole.
 */
import { execFileSync, spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import {
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statfsSync,
  statSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { services } from "../../app/features/catalogue/services";
import { unzipped } from "../support/aeat-schema";
import { SmtpPeer } from "../support/smtp-peer";
import { StripeStandIn } from "../support/stripe-stand-in";
import {
  check,
  clientAddress,
  completionEvent,
  CookieJar,
  createDatabase,
  deliverEvent,
  enquiry,
  figures,
  log,
  postForm,
  request,
  signedEvent,
  SITE_URL,
  sleep,
  startInstance,
  waitFor,
  type Instance,
} from "./harness";
import { startPrivatePostgres, type PrivatePostgres } from "./private-postgres";
import { enrolledStaff, staffSignInWithCode, type EnrolledStaff } from "./staff-session";

const PASSWORD = "Restauracion-2026!";
/** Files of 20-120 kB each: enough bytes to tell a damaged copy, few enough to stay quick. */
const fileBytes = () => 20_000 + Math.floor(Math.random() * 100_000);

type Customer = { email: string; jar: CookieJar; tickets: number; checkouts: number };
/** Under the site's limits per customer: 10 new tickets an hour, 10 checkouts in 10 minutes. */
const TICKETS_EACH = 8;
const CHECKOUTS_EACH = 9;
const CUSTOMERS = 5;

/** A write the site answered: when it was sent and when the 2xx came back (Date.now()). */
type Told = {
  kind: "enquiry" | "ticket" | "payment";
  key: string;
  sentAt: number;
  answeredAt: number;
  customer?: Customer;
  attachment?: { path: string; sha256: string; bytes: number };
};

// ---------------------------------------------------------------------------------------------
// Customers and staff

async function signUp(url: string, mail: SmtpPeer, n: number): Promise<Customer> {
  const email = `copia${n}.${Date.now()}@example.com`;
  const address = clientAddress(n, 21);
  const answer = await postForm(
    `${url}/registro`,
    { email, password: PASSWORD, confirmPassword: PASSWORD },
    { forwardedFor: address },
  );
  check(answer.status === 302, `sign-up answered ${answer.status}`);
  const verification = await waitFor("the verification mail", () =>
    mail.received.find(
      (m) => m.subject?.startsWith("Confirma tu email") && JSON.stringify(m.to).includes(email),
    ),
  );
  const link = /href="([^"]*\/api\/auth\/verify-email[^"]*)"/.exec(String(verification.html))?.[1];
  check(link, "the verification mail has no link");
  const target = new URL(link.replaceAll("&amp;", "&"));
  const verified = await request(`${url}${target.pathname}${target.search}`);
  check(verified.status === 302, `the verification link answered ${verified.status}`);
  const jar = new CookieJar().take(
    await postForm(
      `${url}/login-cliente`,
      { email, password: PASSWORD },
      { forwardedFor: address },
    ),
  );
  check(jar.has(/session_token$/), "the customer's sign-in set no session");
  return { email, jar, tickets: 0, checkouts: 0 };
}

// ---------------------------------------------------------------------------------------------
// The load

function multipart(fields: Record<string, string>, file: { name: string; content: Buffer }) {
  const boundary = `----restore${randomBytes(8).toString("hex")}`;
  const parts = Object.entries(fields).map(
    ([name, value]) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  const body = Buffer.concat([
    Buffer.from(parts.join("")),
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="attachments"; filename="${file.name}"\r\nContent-Type: text/plain\r\n\r\n`,
    ),
    file.content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

/**
 * Three writers, each one request at a time: enquiries, tickets with a file, and payments
 * (checkout, then the signed completion webhook that issues the invoice and its record).
 */
function startLoad(url: string, stripe: StripeStandIn, customers: Customer[]) {
  const told: Told[] = [];
  const problems: string[] = [];
  let stopped = false;
  let n = 0;

  const enquiries = async () => {
    while (!stopped) {
      const i = n++;
      const form = enquiry(`copia${i}-${Date.now()}`);
      const sentAt = Date.now();
      const answer = await postForm(`${url}/contacto.data`, form, {
        forwardedFor: clientAddress(i, 22),
      });
      if (answer.status === 200 && answer.body.includes('"sent"'))
        told.push({ kind: "enquiry", key: form.email, sentAt, answeredAt: Date.now() });
      else problems.push(`enquiry: ${answer.status} ${answer.body.slice(0, 80)}`);
    }
  };

  const tickets = async () => {
    while (!stopped) {
      const customer = customers.find((c) => c.tickets < TICKETS_EACH);
      if (!customer) return;
      customer.tickets++;
      const subject = `Copia ${n++} ${randomBytes(4).toString("hex")}`;
      const content = Buffer.from(randomBytes(fileBytes() / 2).toString("hex"));
      const { body, contentType } = multipart(
        {
          subject,
          category: "consulta_tecnica",
          priority: "medium",
          message: "Un ticket de la prueba de restauración, con su archivo.",
        },
        { name: "registro.txt", content },
      );
      const sentAt = Date.now();
      const answer = await request(`${url}/mi-cuenta/tickets/nuevo`, {
        method: "POST",
        body,
        headers: {
          "content-type": contentType,
          cookie: customer.jar.header,
          origin: SITE_URL,
        },
      });
      const answeredAt = Date.now();
      const location = String(answer.headers.location ?? "");
      if (answer.status !== 302 || !/^\/mi-cuenta\/tickets\/[0-9a-f-]{36}$/.test(location)) {
        problems.push(`ticket: ${answer.status} ${location} ${answer.body.slice(0, 80)}`);
        continue;
      }
      const page = await request(`${url}${location}`, { headers: { cookie: customer.jar.header } });
      const attachmentId = /\/soporte\/adjuntos\/([0-9a-f-]{36})/.exec(page.body)?.[1];
      if (!attachmentId) {
        problems.push(`ticket ${location}: no file on its page (${page.status})`);
        continue;
      }
      told.push({
        kind: "ticket",
        key: subject,
        sentAt,
        answeredAt,
        customer,
        attachment: {
          path: `/soporte/adjuntos/${attachmentId}`,
          sha256: createHash("sha256").update(content).digest("hex"),
          bytes: content.length,
        },
      });
    }
  };

  const payments = async () => {
    while (!stopped) {
      const customer = customers.find((c) => c.checkouts < CHECKOUTS_EACH);
      if (!customer) return;
      customer.checkouts++;
      const service = services[n++ % 3]!;
      const checkout = await postForm(
        `${url}/checkout`,
        { serviceId: String(service.id), immediateStart: "yes" },
        { cookie: customer.jar.header },
      );
      const sessionId = /checkout\.stripe\.com\/c\/pay\/(cs_test_standin\d+)/.exec(
        checkout.body,
      )?.[1];
      const opened = [...stripe.requests].reverse().find((r) => r.path === "/v1/checkout/sessions");
      if (checkout.status !== 200 || !sessionId || !opened) {
        problems.push(`checkout: ${checkout.status} ${checkout.body.slice(0, 80)}`);
        continue;
      }
      const payer = `pago${n}.${Date.now()}@example.com`;
      const purchase = {
        id: opened.form.get("metadata[purchase_id]") ?? "",
        checkout_session_id: sessionId,
        price: service.priceCents,
      };
      const sentAt = Date.now();
      const delivered = await deliverEvent(
        url,
        signedEvent(completionEvent(`evt_restore_${n}_${Date.now()}`, purchase, payer)),
      );
      if (delivered.status === 200)
        told.push({ kind: "payment", key: payer, sentAt, answeredAt: Date.now() });
      else problems.push(`webhook: ${delivered.status} ${delivered.body.slice(0, 80)}`);
    }
  };

  const writers = [enquiries(), tickets(), payments()];
  return {
    told,
    problems,
    count: (kind: Told["kind"]) => told.filter((t) => t.kind === kind).length,
    async stop() {
      stopped = true;
      await Promise.all(writers);
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The checks, over HTTP

/** The administrator of the loaded site, enrolled before the load; signed in again on each copy. */
const STAFF_EMAIL = "personal@restauracion.example.es";
const STAFF_PASSWORD = `Personal-${Date.now()}-clave`;
const STAFF_ENV = { ADMIN_EMAIL: STAFF_EMAIL, ADMIN_PASSWORD: STAFF_PASSWORD };

/** A staff CSV (semicolons, a header line) as rows keyed by its header's names. */
function csvRows(body: string): Record<string, string>[] {
  const [header, ...lines] = body
    .replace(/^\uFEFF/, "")
    .split("\r\n")
    .filter(Boolean);
  const names = header!.split(";");
  return lines.map((line) => {
    const cells = line.split(";");
    return Object.fromEntries(names.map((name, i) => [name, cells[i] ?? ""]));
  });
}

/**
 * What a restored site must hold: every write told 2xx before `target` (answeredAt < target),
 * no write sent after `absentAfter` (the target; for the embedded copy, the end of its backup);
 * the writes in between may be there or not. All over HTTP. As each customer: Mi Cuenta shows
 * their tickets, and every file downloads byte for byte. As the administrator, signed in anew
 * on the copy with the password and a code of the factor enrolled before the backup (the
 * account, its factor and its role restored with the rest): the Consultas, Tickets and Pagos
 * CSVs hold the writes, every payment shows its invoice, the libro registro numbers each series
 * without gaps, the VERI*FACTU export holds one record per invoice and 'Comprobar cadena' finds
 * the chain intact over all of them.
 */
async function checkRestoredSite(
  label: string,
  url: string,
  told: Told[],
  target: number,
  absentAfter: number,
  staff: EnrolledStaff,
) {
  // Strictly before: the clocks here count whole milliseconds and PostgreSQL's microseconds, so
  // a write answered in the target's own millisecond may have committed just after the target
  // (a restore run failed so: one enquiry "told before" and rightly not restored). It is neither
  // checked present nor absent, like the writes between the target and `absentAfter`.
  const before = told.filter((t) => t.answeredAt < target);
  const after = told.filter((t) => t.sentAt > absentAfter);

  // Over HTTP: each customer's session (restored with the database), tickets and files.
  let files = 0;
  let bytes = 0;
  const pages = new Map<Customer, string>();
  for (const t of [...before, ...after].filter((w) => w.kind === "ticket")) {
    let page = pages.get(t.customer!);
    if (page === undefined) {
      const answer = await request(`${url}/mi-cuenta?tab=soporte`, {
        headers: { cookie: t.customer!.jar.header },
      });
      check(answer.status === 200, `${label}: Mi Cuenta answered ${answer.status} to a customer`);
      page = answer.body;
      pages.set(t.customer!, page);
    }
    const shown = page.includes(t.key);
    check(
      before.includes(t) ? shown : !shown,
      `${label}: ticket "${t.key}" ${shown ? "shown" : "not shown"} in Mi Cuenta`,
    );
    if (!before.includes(t)) continue;
    const answer = await request(`${url}${t.attachment!.path}`, {
      headers: { cookie: t.customer!.jar.header },
    });
    const sha256 = createHash("sha256").update(answer.body).digest("hex");
    check(
      answer.status === 200 && sha256 === t.attachment!.sha256,
      `${label}: ${t.attachment!.path} answered ${answer.status} with other bytes`,
    );
    files++;
    bytes += t.attachment!.bytes;
  }

  // As staff: a new sign-in with the restored factor, then the staff's own pages and files.
  const jar = await staffSignInWithCode(url, STAFF_EMAIL, STAFF_PASSWORD, staff);
  const staffDownload = async (path: string) => {
    const answer = await request(`${url}${path}`, { headers: { cookie: jar.header } });
    check(answer.status === 200, `${label}: ${path} answered ${answer.status} to the staff`);
    return answer;
  };
  const staffGet = async (path: string) => (await staffDownload(path)).body;
  const exported = async (tab: string) =>
    csvRows(await staffGet(`/admin/exportar?tab=${tab}&estado=all`));
  const present = (kind: Told["kind"], keys: Set<string>) => {
    const missing = before.filter((t) => t.kind === kind && !keys.has(t.key));
    const extra = after.filter((t) => t.kind === kind && keys.has(t.key));
    check(
      missing.length === 0,
      `${label}: ${kind}s told 2xx before the target but missing: ${missing
        .map((t) => t.key)
        .slice(0, 5)
        .join(", ")} (${missing.length})`,
    );
    check(
      extra.length === 0,
      `${label}: ${kind}s sent after the target but present: ${extra
        .map((t) => t.key)
        .slice(0, 5)
        .join(", ")} (${extra.length})`,
    );
  };
  present("enquiry", new Set((await exported("consultas")).map((row) => row.Email!)));
  present("ticket", new Set((await exported("tickets")).map((row) => row.Asunto!)));
  const paid = await exported("pagos");
  present("payment", new Set(paid.map((row) => row.Email!)));
  const uninvoiced = paid.filter((row) => !row.Factura);
  check(
    uninvoiced.length === 0,
    `${label}: payments without an invoice: ${uninvoiced.map((row) => row.Email).join(", ")}`,
  );

  const period = `desde=2000-01-01&hasta=${new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10)}`;
  // AEAT's layout: two header rows, the invoice's series and number in columns K and L.
  const book = (await staffGet(`/admin/libro-facturas?${period}`))
    .split("\r\n")
    .slice(2)
    .filter(Boolean)
    .map((line) => line.split(";"));
  const numbers = new Map<string, number[]>();
  for (const cells of book) {
    const [series, sequence] = [cells[10]!, cells[11]!];
    numbers.set(series, [...(numbers.get(series) ?? []), Number(sequence)]);
  }
  for (const [series, sequences] of numbers) {
    sequences.sort((a, b) => a - b);
    check(
      sequences.every((sequence, i) => sequence === i + 1),
      `${label}: invoices ${series}: ${sequences.length} numbers up to ${sequences.at(-1)}`,
    );
  }
  check(
    book.length === paid.length,
    `${label}: ${book.length} invoices in the book for ${paid.length} payments`,
  );
  // The export is a ZIP of AEAT's schema documents, up to 1,000 records each.
  const documents = await unzipped(
    (await staffDownload(`/admin/verifactu/exportar?${period}`)).bytes,
  );
  const records = [...documents.values()].reduce(
    (sum, xml) => sum + (xml.toString().match(/<sum:RegistroFactura>/g) ?? []).length,
    0,
  );
  check(
    records === book.length,
    `${label}: ${records} VERI*FACTU records for ${book.length} invoices`,
  );
  const chain = await postForm(
    `${url}/admin/verifactu`,
    { intent: "check-chain" },
    { cookie: jar.header },
  );
  const intact =
    /data-chain-result="intact"[^>]*>(?:<[^>]+>)*Cadena íntegra: ([\d.]+) registros? comprobados?/.exec(
      chain.body,
    );
  check(
    chain.status === 200 && intact && Number(intact[1]!.replaceAll(".", "")) === records,
    `${label}: 'Comprobar cadena' answered ${chain.status}: ${
      /data-chain-result="[^"]*"[^>]*>(.{0,160})/.exec(chain.body)?.[1] ?? chain.body.slice(0, 160)
    }`,
  );

  const kinds = (list: Told[]) =>
    (["enquiry", "ticket", "payment"] as const)
      .map(
        (kind) =>
          `${list.filter((t) => t.kind === kind).length} ${kind === "enquiry" ? "enquiries" : `${kind}s`}`,
      )
      .join(", ");
  figures[`${label}: writes told before the target (checked present as staff)`] = kinds(before);
  figures[`${label}: writes sent after the target (checked absent as staff)`] = kinds(after);
  figures[`${label}: invoices gap-free, VERI*FACTU records, chain ('Comprobar cadena')`] =
    `${book.length}, ${records}, intact`;
  figures[`${label}: files byte-identical over HTTP`] = `${files} (${(bytes / 1e6).toFixed(2)} MB)`;
}

async function peers() {
  const mail = await new SmtpPeer().start();
  const stripe = new StripeStandIn();
  const stripeApiBase = await stripe.start();
  return { mail, stripe, stripeApiBase };
}

const seconds = (since: number) => Math.round((performance.now() - since) / 100) / 10;

async function loadUntil(load: ReturnType<typeof startLoad>, minimum: number) {
  await waitFor(
    `${minimum} writes of each kind`,
    () => (["enquiry", "ticket", "payment"] as const).every((k) => load.count(k) >= minimum),
    { timeoutMs: 60_000, everyMs: 50 },
  );
}

// ---------------------------------------------------------------------------------------------
// PostgreSQL + pgBackRest

/** The postgres user's ids when run as root (the clusters run as postgres), else undefined. */
function postgresOwner(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) =>
    Number(execFileSync("id", [flag, "postgres"], { encoding: "utf8" }).trim());
  return { uid: id("-u"), gid: id("-g") };
}

/**
 * pgBackRest's repository and configuration in a folder of this run (owned by postgres): made
 * before the cluster, whose archive_command names the configuration, and completed once the
 * cluster's port and folders are known.
 */
function pgbackrestRepository() {
  const root = mkdtempSync(path.join(tmpdir(), "restore-pgbackrest-"));
  const owner = postgresOwner();
  if (owner) chownSync(root, owner.uid, owner.gid);
  const config = path.join(root, "pgbackrest.conf");
  const base = `/usr/bin/pgbackrest --config=${config} --stanza=site`;
  return {
    root,
    archiveCommand: `${base} archive-push %p`,
    configure(source: PrivatePostgres) {
      writeFileSync(
        config,
        [
          "[global]",
          `repo1-path=${root}/repo`,
          `lock-path=${root}/lock`,
          `log-path=${root}/log`,
          `spool-path=${root}/spool`,
          "log-level-console=warn",
          "log-level-file=off",
          "compress-type=lz4",
          "start-fast=y",
          "repo1-retention-full=2",
          "",
          "[site]",
          `pg1-path=${source.data}`,
          `pg1-port=${source.port}`,
          `pg1-socket-path=${source.root}`,
          "",
        ].join("\n"),
      );
      if (owner) chownSync(config, owner.uid, owner.gid);
    },
    run: (runAsOwner: PrivatePostgres["runAsOwner"], args: string[]) =>
      runAsOwner("/usr/bin/pgbackrest", [`--config=${config}`, "--stanza=site", ...args]),
  };
}

export async function postgresRestoreSuite(buildRoot: string) {
  const { mail, stripe, stripeApiBase } = await peers();
  const repository = pgbackrestRepository();
  const source = await startPrivatePostgres({
    settings: {
      wal_level: "replica",
      archive_mode: "on",
      archive_command: repository.archiveCommand,
      max_wal_senders: "3",
    },
  });
  const instances: Instance[] = [];
  let restored: PrivatePostgres | undefined;
  try {
    repository.configure(source);
    await repository.run(source.runAsOwner, ["stanza-create"]);
    const db = await createDatabase(source.url, "restore");
    const site = await startInstance({
      name: "restore-pg",
      buildRoot,
      databaseUrl: db.url,
      smtpPort: mail.port,
      stripeApiBase,
      env: STAFF_ENV,
    });
    instances.push(site);
    await site.ready();
    const staff = await enrolledStaff(site.url, STAFF_EMAIL, STAFF_PASSWORD);
    const customers = [];
    for (let i = 0; i < CUSTOMERS; i++) customers.push(await signUp(site.url, mail, i));

    log("PostgreSQL: load, a full base backup under it, more writes after");
    const load = startLoad(site.url, stripe, customers);
    await loadUntil(load, 2);
    const backupStarted = performance.now();
    await repository.run(source.runAsOwner, ["backup", "--type=full"]);
    const backupSeconds = seconds(backupStarted);
    const atBackupEnd = load.told.length;
    await waitFor("writes after the backup", () => load.told.length >= atBackupEnd + 15, {
      timeoutMs: 60_000,
    });
    const target = Date.now();
    await waitFor(
      "writes after the target",
      () => load.told.length >= atBackupEnd + 30 && Date.now() > target + 500,
      {
        timeoutMs: 60_000,
      },
    );
    await load.stop();
    check(load.problems.length === 0, `writes failed: ${load.problems.slice(0, 5).join(" | ")}`);
    // The WAL holding the last writes goes to the archive (check switches and waits for it).
    await repository.run(source.runAsOwner, ["check"]);
    await site.stop();
    await db.pool.end();
    await source.stop("fast");
    const info = await repository.run(source.runAsOwner, ["info", "--output=json"]);
    const [stanza] = JSON.parse(info) as {
      backup: { label: string; info: { size: number; repository: { size: number } } }[];
    }[];
    const backupSet = stanza!.backup.at(-1)!;
    const backupInfo = backupSet.info;

    log("PostgreSQL: point-in-time restore into a new cluster");
    const restoreStarted = performance.now();
    const targetText = new Date(target).toISOString().replace("T", " ").replace("Z", "+00");
    restored = await startPrivatePostgres({
      fill: async (data, runAsOwner) => {
        await runAsOwner("/usr/bin/mkdir", ["-m", "700", data]);
        await repository.run(runAsOwner, [
          "restore",
          `--pg1-path=${data}`,
          // The backup named, not chosen by pgBackRest from its stop time and the target.
          `--set=${backupSet.label}`,
          "--type=time",
          `--target=${targetText}`,
          "--target-action=promote",
        ]);
      },
      // The restored cluster must not push its WAL into the source's archive.
      settings: { archive_mode: "off" },
    });
    await waitFor(
      "the restored cluster to leave recovery",
      async () => {
        const client = new pg.Client({ connectionString: restored!.url });
        await client.connect();
        try {
          const result = await client.query<{ r: boolean }>("select pg_is_in_recovery() as r");
          return result.rows[0]?.r === false;
        } finally {
          await client.end();
        }
      },
      { timeoutMs: 60_000, everyMs: 200 },
    );
    const restoreSeconds = seconds(restoreStarted);
    const restoredUrl = `${restored.url.replace(/\/postgres$/, "")}/${db.name}`;
    const again = await startInstance({
      name: "restore-pg-restored",
      buildRoot,
      databaseUrl: restoredUrl,
      smtpPort: mail.port,
      stripeApiBase,
    });
    instances.push(again);
    await again.ready();
    await checkRestoredSite("PostgreSQL", again.url, load.told, target, target, staff);
    figures["PostgreSQL: base backup (database, stored), seconds"] =
      `${(backupInfo.size / 1e6).toFixed(1)} MB, ${(backupInfo.repository.size / 1e6).toFixed(1)} MB, ${backupSeconds} s`;
    figures["PostgreSQL: point-in-time restore and recovery, seconds"] = restoreSeconds;
  } finally {
    for (const instance of instances) await instance.stop();
    await restored?.destroy();
    await source.destroy();
    rmSync(repository.root, { recursive: true, force: true });
    await mail.stop();
    await stripe.stop();
  }
}

// ---------------------------------------------------------------------------------------------
// Embedded PGlite

function npmScript(buildRoot: string, script: string, args: string[], dataDir: string) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(
      process.execPath,
      [
        path.join(process.cwd(), "node_modules/tsx/dist/cli.mjs"),
        path.join(process.cwd(), "scripts", script),
        ...args,
      ],
      {
        cwd: buildRoot,
        env: {
          PATH: process.env.PATH ?? "",
          DATA_DIR: dataDir,
          NODE_ENV: "production",
          BACKUP_DIR: "off",
        },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("exit", (code) => resolve({ code, output }));
  });
}

const listing = (folder: string) =>
  existsSync(folder) ? readdirSync(folder, { recursive: true }).sort().join(",") : "(none)";

export async function embeddedRestoreSuite(buildRoot: string) {
  const { mail, stripe, stripeApiBase } = await peers();
  const backups = path.join(buildRoot, "backups");
  const liveData = path.join(buildRoot, "data-restore-embedded");
  const freshData = path.join(buildRoot, "data-restore-embedded-restored");
  const tiny = path.join(buildRoot, "tiny-disk");
  const instances: Instance[] = [];
  let mounted = false;
  try {
    const site = await startInstance({
      name: "restore-embedded",
      buildRoot,
      databaseUrl: "",
      smtpPort: mail.port,
      stripeApiBase,
      env: { BACKUP_DIR: "off", ...STAFF_ENV },
    });
    instances.push(site);
    await site.ready();
    const staff = await enrolledStaff(site.url, STAFF_EMAIL, STAFF_PASSWORD);
    const customers = [];
    for (let i = 10; i < 10 + CUSTOMERS; i++) customers.push(await signUp(site.url, mail, i));

    log("embedded: load, `npm run db:backup` asked of the running server, more writes after");
    const load = startLoad(site.url, stripe, customers);
    await loadUntil(load, 2);
    const target = Date.now();
    const backupStarted = performance.now();
    const backup = await npmScript(buildRoot, "db-backup.ts", [backups], liveData);
    const backupSeconds = seconds(backupStarted);
    const backupEnded = Date.now();
    check(
      backup.code === 0 && backup.output.includes("servidor en marcha"),
      `db:backup: ${backup.output}`,
    );
    const atBackupEnd = load.told.length;
    await waitFor("writes after the backup", () => load.told.length >= atBackupEnd + 10, {
      timeoutMs: 60_000,
    });
    await load.stop();
    check(load.problems.length === 0, `writes failed: ${load.problems.slice(0, 5).join(" | ")}`);
    const [file] = readdirSync(backups).filter((name) => name.endsWith(".tar.gz"));
    check(file, `no backup file in ${backups}: ${listing(backups)}`);
    const backupFile = path.join(backups, file);

    log("embedded: bad input is refused before anything is written");
    const truncated = path.join(buildRoot, "truncated.tar.gz");
    writeFileSync(truncated, readFileSync(backupFile));
    truncateSync(truncated, Math.floor(statSync(backupFile).size / 2));
    const altered = path.join(buildRoot, "altered.tar.gz");
    const bytes = readFileSync(backupFile);
    bytes[Math.floor(bytes.length / 3)]! ^= 0x5a;
    writeFileSync(altered, bytes);
    // Each refused before anything is written; independent, so asked at once.
    const [truncatedRefused, alteredRefused, intoLive] = await Promise.all([
      npmScript(buildRoot, "db-restore.ts", [truncated], freshData),
      npmScript(buildRoot, "db-restore.ts", [altered], freshData),
      npmScript(buildRoot, "db-restore.ts", [backupFile], liveData),
    ]);
    for (const [name, refused, reason] of [
      ["truncated", truncatedRefused, /truncado/],
      ["altered", alteredRefused, /dañado|no coincide/],
    ] as const)
      check(
        refused.code === 3 && reason.test(refused.output) && !existsSync(freshData),
        `the ${name} file: exit ${refused.code}, ${refused.output.trim()}, DATA_DIR: ${listing(freshData)}`,
      );
    check(
      intoLive.code === 3 && /servidor en marcha/.test(intoLive.output),
      `a restore into the live DATA_DIR: exit ${intoLive.code}, ${intoLive.output.trim()}`,
    );

    // Disk full: a tmpfs with one backup and a filler that leaves room for half another; the
    // next backup fails and the first stays whole.
    mkdirSync(tiny, { recursive: true });
    const size = Math.ceil((statSync(backupFile).size * 4) / 4096) * 4096;
    const mount = await new Promise<number | null>((resolve) =>
      spawn("mount", ["-t", "tmpfs", "-o", `size=${size}`, "tmpfs", tiny], {
        stdio: "ignore",
      }).once("exit", resolve),
    );
    mounted = mount === 0;
    if (mounted) {
      const first = await npmScript(buildRoot, "db-backup.ts", [tiny], liveData);
      check(first.code === 0, `the first backup on the small disk: ${first.output}`);
      const [kept] = readdirSync(tiny);
      const keptBytes = statSync(path.join(tiny, kept!)).size;
      const free = () => {
        const stats = statfsSync(tiny);
        return stats.bavail * stats.bsize;
      };
      writeFileSync(path.join(tiny, "filler"), Buffer.alloc(Math.max(0, free() - keptBytes / 2)));
      await sleep(1100); // the next backup's name (to the second) must differ
      const full = await npmScript(buildRoot, "db-backup.ts", [tiny], liveData);
      check(
        full.code === 1 && /ENOSPC|no space/i.test(full.output),
        `a backup on a full disk: exit ${full.code}, ${full.output.trim()}`,
      );
      const left = readdirSync(tiny);
      check(
        left.length === 2 && left.includes(kept!) && left.includes("filler"),
        `after the failed backup the small disk holds: ${left.join(", ")}`,
      );
      const whole = await npmScript(
        buildRoot,
        "db-restore.ts",
        [path.join(tiny, kept!)],
        path.join(buildRoot, "data-from-tiny"),
      );
      check(whole.code === 0, `the backup left on the full disk does not restore: ${whole.output}`);
      figures["embedded: disk full during a backup"] =
        "refused (ENOSPC), the previous backup restores";
    } else {
      figures["embedded: disk full during a backup"] = "not run (no tmpfs mount: needs root)";
    }
    await site.stop();

    log("embedded: `npm run db:restore` into a new DATA_DIR, the site started on it");
    const restoreStarted = performance.now();
    const restore = await npmScript(buildRoot, "db-restore.ts", [backupFile], freshData);
    const restoreSeconds = seconds(restoreStarted);
    check(restore.code === 0, `db:restore: ${restore.output}`);
    const again = await startInstance({
      name: "restore-embedded-restored",
      buildRoot,
      databaseUrl: "",
      smtpPort: mail.port,
      stripeApiBase,
      env: { BACKUP_DIR: "off" },
    });
    instances.push(again);
    await again.ready();
    // The copy is of a moment inside the backup: everything told before it started is there,
    // nothing sent after it ended.
    await checkRestoredSite("embedded", again.url, load.told, target, backupEnded, staff);
    figures["embedded: backup (file, seconds)"] =
      `${(statSync(backupFile).size / 1e6).toFixed(1)} MB, ${backupSeconds} s`;
    figures["embedded: restore (seconds)"] = restoreSeconds;
  } finally {
    for (const instance of instances) await instance.stop();
    if (mounted) await new Promise((resolve) => spawn("umount", [tiny]).once("exit", resolve));
    await mail.stop();
    await stripe.stop();
  }
}
