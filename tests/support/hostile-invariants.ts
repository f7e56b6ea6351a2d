import { gte, inArray, sql } from "drizzle-orm";
import MailComposer from "nodemailer/lib/mail-composer";
import { services } from "~/features/catalogue/services";
import type { Database } from "~/platform/db/client.server";
import { mailOutbox } from "~/platform/db/schema";

/**
 * What must hold in the database whatever requests came before: no half-written record. Each
 * rule comes from what one action or webhook event writes together (app/platform/db/schema.ts
 * and the features): an enquiry with its company mail and at most its visitor's copy (one
 * statement), a completed purchase with its payment, customer totals, activity entry and
 * receipt (one transaction), a support ticket with its first message and files (one
 * transaction), a user with its profile and password sign-in, mails whose header fields hold
 * one line.
 */
const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;

// Literals, not parameters: the whole check can be prepared once (see databaseProblems).
const catalogue = sql.raw(
  services
    .map((service) => `(${service.id}, ${literal(service.name)}, ${service.priceCents})`)
    .join(", "),
);

const lineBreak = (column: string) =>
  sql.raw(
    `(position(chr(13) in coalesce(${column}, '')) > 0 or position(chr(10) in coalesce(${column}, '')) > 0)`,
  );

const MAIL_COUNT = sql.raw("'#mails'");

const CHECKS = sql`
with
  enquiries as (select email, count(*)::int as n from contact_inquiries group by email),
  inbox as (select reply_to as email, count(*)::int as n from mail_outbox where kind = 'contact-inbox' group by reply_to),
  confirmations as (select recipient as email, count(*)::int as n from mail_outbox where kind = 'contact-confirmation' group by recipient),
  paid as (
    select customer_email as email, count(*)::int as n, coalesce(sum(amount), 0)::int as cents
    from payments where status = 'completed' group by customer_email
  )
select 'enquiry without its company mail, or a company mail without enquiry' as problem, coalesce(e.email, i.email) as detail
  from enquiries e full join inbox i on i.email = e.email
  where coalesce(e.n, 0) <> coalesce(i.n, 0)
union all
-- The visitor's copy may be left out (an address gets a few a day), never sent without enquiry.
select 'visitor confirmation without enquiry', c.email from confirmations c
  left join enquiries e on e.email = c.email where c.n > coalesce(e.n, 0)
union all
select 'purchase with an invalid status, provider or currency', id::text from purchases
  where status not in ('pending', 'completed', 'failed', 'cancelled', 'refunded')
     or provider not in ('stripe', 'simulated') or currency <> 'EUR'
union all
select 'purchase off the catalogue (service, name or price)', id::text from purchases
  where (service_id, service_name, price) not in (values ${catalogue})
union all
select 'completion time and status disagree', id::text from purchases
  where (status in ('completed', 'refunded')) <> (completed_at is not null)
union all
select 'payment without purchase', p.id::text from payments p
  left join purchases u on u.id = p.purchase_id where u.id is null
union all
select 'payment whose purchase is not completed (or refunded with it)', p.id::text from payments p
  join purchases u on u.id = p.purchase_id
  where not (u.status in ('completed', 'withdrawn', 'refunded') and p.status = u.status)
union all
select 'completed purchase without its payment', u.id::text from purchases u
  where u.status in ('completed', 'withdrawn', 'refunded') and not exists (select 1 from payments p where p.purchase_id = u.id)
union all
select 'completed purchase without exactly one activity entry', u.id::text from purchases u
  where u.status in ('completed', 'withdrawn', 'refunded')
    and (select count(*) from user_activity_log a
         where a.activity_type = 'purchase_completed' and a.metadata->>'purchaseId' = u.id::text) <> 1
union all
select 'refunded purchase without exactly one refund entry', u.id::text from purchases u
  where u.status = 'refunded'
    and (select count(*) from user_activity_log a
         where a.activity_type = 'purchase_refunded' and a.metadata->>'purchaseId' = u.id::text) <> 1
union all
select 'customer totals differ from the completed payments', c.email from customers c
  left join paid on paid.email = c.email
  where c.total_orders <> coalesce(paid.n, 0) or c.total_spent <> coalesce(paid.cents, 0)
union all
select 'payment without its customer totals', p.id::text from payments p
  where not exists (select 1 from customers c where c.email = p.customer_email)
union all
select 'profile without user', p.id from profiles p where not exists (select 1 from users u where u.id = p.id)
union all
select 'user without profile', u.id from users u where not exists (select 1 from profiles p where p.id = u.id)
union all
select 'user without a password sign-in', u.id from users u
  where not exists (select 1 from accounts a where a.user_id = u.id and a.provider_id = 'credential' and a.password is not null)
union all
select 'session without user, or expiring before it starts', s.id from sessions s
  where not exists (select 1 from users u where u.id = s.user_id) or s.expires_at <= s.created_at
union all
select 'role without user', r.user_id from user_roles r where not exists (select 1 from users u where u.id = r.user_id)
union all
select 'mail with a line break in a header field', m.id::text from mail_outbox m
  where ${lineBreak("m.recipient")} or ${lineBreak("m.reply_to")} or ${lineBreak("m.subject")}
union all
select 'mail without recipient, subject or a valid status', m.id::text from mail_outbox m
  where btrim(m.recipient) = '' or btrim(m.subject) = '' or m.status not in ('pending', 'sending', 'sent', 'failed')
union all
select 'webhook event stored with more than its ids', w.id from webhook_events w
  where w.payload - array['id', 'type', 'created', 'object'] <> '{}'::jsonb
     or (w.payload->'object') - array['object', 'id', 'payment_intent', 'purchase_id'] <> '{}'::jsonb
union all
select 'support ticket without its first message', t.id::text from support_tickets t
  where not exists (select 1 from ticket_messages m where m.ticket_id = t.id)
union all
select 'support ticket with an invalid status or priority', t.id::text from support_tickets t
  where t.status not in ('open', 'in_progress', 'resolved', 'closed')
     or t.priority not in ('urgent', 'high', 'medium', 'low')
union all
select 'ticket file of another ticket''s message, or of another size', a.id::text from ticket_attachments a
  join ticket_messages m on m.id = a.message_id
  where m.ticket_id <> a.ticket_id or a.size <> octet_length(a.content)
union all
select 'rate-limit bucket without hits', key from rate_limit_buckets where hits < 1
union all
-- Not a problem: how many mails are queued, so their headers are built only when one is new.
select ${MAIL_COUNT}, count(*)::text from mail_outbox
`;

type Row = { problem: string; detail: string | null };

const prepared = new WeakSet<Database>();

/**
 * Every broken rule, as 'rule: row', and how many mails the outbox holds. Planning the
 * twenty-odd checks costs more than running them on a test's tables, and they run after every
 * request: on PGlite (one connection) the statement is prepared once; on PostgreSQL (a pool)
 * it is sent whole.
 */
export async function databaseProblems(
  db: Database,
  { pooled = false } = {},
): Promise<{ problems: string[]; mails: number }> {
  let result: { rows: Row[] };
  if (pooled) result = (await db.execute(CHECKS)) as { rows: Row[] };
  else {
    if (!prepared.has(db)) {
      await db.execute(sql`prepare hostile_input_checks as ${CHECKS}`);
      prepared.add(db);
    }
    result = (await db.execute(sql`execute hostile_input_checks`)) as { rows: Row[] };
  }
  const problems = result.rows.filter((row) => row.problem !== "#mails");
  return {
    problems: problems.map((row) => `${row.problem}: ${JSON.stringify(row.detail)}`),
    mails: Number(result.rows.find((row) => row.problem === "#mails")?.detail ?? 0),
  };
}

const ALLOWED_HEADERS = new Set([
  "content-type",
  "from",
  "to",
  "reply-to",
  "subject",
  "message-id",
  "date",
  "mime-version",
  "content-transfer-encoding",
]);

/** The newest creation time of the mails already checked, per database. */
const highWater = new WeakMap<Database, Date>();

/**
 * Builds each queued mail as the SMTP transport would send it (nodemailer, same fields) and
 * checks its header: only the expected header lines, one recipient. Returns the problems.
 */
export async function mailHeaderProblems(db: Database, checked: Set<string>): Promise<string[]> {
  // Only the mails queued since the last look (the outbox grows to thousands in a run).
  if (checked.size === 0) highWater.delete(db);
  const since = highWater.get(db) ?? new Date(0);
  const rows = await db
    .select({ id: mailOutbox.id, createdAt: mailOutbox.createdAt })
    .from(mailOutbox)
    .where(gte(mailOutbox.createdAt, since));
  for (const row of rows)
    if (row.createdAt > (highWater.get(db) ?? since)) highWater.set(db, row.createdAt);
  const fresh = rows.map((row) => row.id).filter((id) => !checked.has(id));
  const problems: string[] = [];
  for (let start = 0; start < fresh.length; start += 200) {
    const mails = await db
      .select()
      .from(mailOutbox)
      .where(inArray(mailOutbox.id, fresh.slice(start, start + 200)));
    for (const mail of mails) {
      checked.add(mail.id);
      const message = new MailComposer({
        from: "Vértice Digital <hola@verticedigital.es>",
        to: mail.recipient,
        replyTo: mail.replyTo ?? undefined,
        subject: mail.subject,
        html: mail.html,
        text: mail.text,
        messageId: `<${mail.id}@outbox>`,
      }).compile();
      const raw = (await message.build()).toString("utf8");
      const head = raw.slice(0, raw.indexOf("\r\n\r\n"));
      const names = head
        .split("\r\n")
        .filter((line) => !/^[ \t]/.test(line))
        .map((line) => line.slice(0, line.indexOf(":")).toLowerCase());
      const unexpected = names.filter((name) => !ALLOWED_HEADERS.has(name));
      if (unexpected.length > 0)
        problems.push(
          `mail ${mail.id} (${mail.kind}) has header lines ${JSON.stringify(unexpected)}`,
        );
      if (names.filter((name) => name === "to").length !== 1)
        problems.push(`mail ${mail.id} (${mail.kind}) has no single To line`);
      const recipients = message.getEnvelope().to;
      if (recipients.length !== 1)
        problems.push(
          `mail ${mail.id} (${mail.kind}) goes to ${recipients.length} recipients: ${JSON.stringify(mail.recipient)}`,
        );
    }
  }
  return problems;
}
