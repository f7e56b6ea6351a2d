import { sql, type SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { getConfig } from "~/platform/config.server";
import type { Database } from "~/platform/db/client.server";
import { contactInquiries } from "~/platform/db/schema";
import type { HumanProof } from "~/platform/human-check/human-check.server";
import { mailsParameter, queueMailsSql } from "~/platform/mail/outbox.server";
import {
  rateLimitHitSql,
  rateLimitResult,
  type RateLimitRule,
} from "~/platform/security/rate-limit.server";
import { companyNotificationMail, visitorConfirmationMail } from "./contact-mails.server";
import type { ContactInput } from "./contact-schema";

/** A window counted in the enquiry's statement: its row in rate_limit_buckets and its rule. */
export type EnquiryLimit = { key: string; rule: RateLimitRule };

/** What an enquiry is checked against, in this order; each check may be left out. */
export type EnquiryChecks = {
  /** The sender's window: counted on every post that gets this far; past it, 429. */
  address?: EnquiryLimit;
  /** The form's key: a post whose enquiry is stored under it is a retry, answered as stored. */
  submissionKey?: string;
  /** The proof of work as read from the post: a valid one is marked used (its replay limit). */
  proof?: HumanProof;
  /** The visitor's copies: counted for each enquiry stored; past it, the copy is left out. */
  recipient?: EnquiryLimit;
};

export type EnquiryOutcome =
  | { status: "rate-limited"; retryAfterSeconds: number }
  /** Stored before under the same form key (a retry, or a twin racing it): nothing new stored. */
  | { status: "stored-before" }
  | { status: "human-check-failed" }
  | { status: "stored"; id: string; confirmed: boolean };

type OutcomeRow = {
  address_hits: number | null;
  address_ms_left: number | null;
  stored_before: boolean;
  accepted: boolean;
  id: string | null;
  confirmed: boolean;
};

const param = sql.placeholder;

/** A limit's parameters: a null key leaves the limit out. */
function limitParameters(name: string, limit: EnquiryLimit | undefined) {
  return {
    [`${name}Key`]: limit?.key ?? null,
    [`${name}Limit`]: limit?.rule.limit ?? 0,
    [`${name}WindowSeconds`]: (limit?.rule.windowMs ?? 0) / 1000,
  };
}

/** A limit's hit (its `…Key` and `…WindowSeconds` parameters) when its key is set and `when` holds. */
function countedHit(db: Database, name: string, when: SQL) {
  const key = param(`${name}Key`);
  return rateLimitHitSql(
    db,
    { key, windowSeconds: param(`${name}WindowSeconds`) },
    sql`${key}::text is not null and ${when}`,
  );
}

/** True when the limit is left out (a null key), or the hit counted in `cte` is within it. */
function withinLimit(name: string, cte: string) {
  return sql`(${param(`${name}Key`)}::text is null
    or exists (select from ${sql.identifier(cte)} where hits <= ${param(`${name}Limit`)}::int))`;
}

/**
 * The enquiry's one statement. Each check is a CTE that runs only when the ones before it
 * passed: the sender's window is counted (`address_hit`); a post within it whose form key is
 * stored is a retry (`stored_before`); otherwise a valid proof of work is marked used
 * (`proof_hit`); an enquiry accepted by all of them is inserted (a twin racing it on the form
 * key's unique index inserts nothing) with the company's notification, and only then is the
 * visitor's copy counted (`recipient_hit`) and queued while within its limit. Each count is an
 * upsert that locks its row until the commit, so concurrent posts are counted one after the
 * other and never both pass a limit of 1.
 */
function enquiryStatement(db: Database) {
  const { id, name, email, service, message, submissionKey } = contactInquiries;
  const columns = [name, email, service, message, submissionKey].map((column) =>
    sql.identifier(column.name),
  );
  const proofValid = sql`${param("proofValid")}::boolean`;
  return sql`
    with address_hit as (${countedHit(db, "address", sql`true`)}),
    address_passed as (select where ${withinLimit("address", "address_hit")}),
    stored_before as (
      select from ${contactInquiries}
      where ${submissionKey} = ${param("submissionKey")}::text
        and exists (select from address_passed)
    ),
    fresh as (select from address_passed where not exists (select from stored_before)),
    proof_hit as (${countedHit(db, "proof", sql`${proofValid} and exists (select from fresh)`)}),
    accepted as (select from fresh where ${proofValid} and ${withinLimit("proof", "proof_hit")}),
    enquiry as (
      insert into ${contactInquiries} (${sql.join(columns, sql`, `)})
      select ${param("name")}::text, ${param("email")}::text, ${param("service")}::text,
        ${param("message")}::text, ${param("submissionKey")}::text
      where exists (select from accepted)
      on conflict (${sql.identifier(submissionKey.name)}) do nothing
      returning ${sql.identifier(id.name)}
    ),
    recipient_hit as (${countedHit(db, "recipient", sql`exists (select from enquiry)`)}),
    copy_allowed as (select from enquiry where ${withinLimit("recipient", "recipient_hit")}),
    notification as (${queueMailsSql(param("notification"), sql`exists (select from enquiry)`)}),
    visitor_copy as (${queueMailsSql(param("copy"), sql`exists (select from copy_allowed)`)})
    select
      (select hits from address_hit) as address_hits,
      (select ms_left from address_hit) as address_ms_left,
      exists (select from stored_before) as stored_before,
      exists (select from accepted) as accepted,
      (select ${sql.identifier(id.name)} from enquiry) as id,
      exists (select from copy_allowed) as confirmed`;
}

/** Prepared once per database: built once, and parsed once per PostgreSQL connection. */
function prepareEnquiry(db: Database) {
  const query = new PgDialect().sqlToQuery(enquiryStatement(db));
  return db._.session.prepareQuery(query, undefined, "contact_enquiry", false);
}

const preparedEnquiries = new WeakMap<Database, ReturnType<typeof prepareEnquiry>>();

/**
 * Checks an enquiry and stores it with its mails in one statement, so in one transaction: the
 * counts of its limits commit with it or not at all. The company is always notified of a
 * stored enquiry; the visitor's copy is queued while `recipient` allows it.
 */
export async function storeEnquiry(
  db: Database,
  enquiry: ContactInput,
  { address, submissionKey, proof = { valid: true }, recipient }: EnquiryChecks = {},
): Promise<EnquiryOutcome> {
  const { company, contactInbox } = getConfig();
  const context = { brandName: company.brandName, siteUrl: company.siteUrl, contactInbox };
  let prepared = preparedEnquiries.get(db);
  if (!prepared) preparedEnquiries.set(db, (prepared = prepareEnquiry(db)));
  const replay = proof.valid ? proof.replay : undefined;
  // Both drivers (node-postgres and PGlite) answer with `{ rows }`.
  const { rows } = (await prepared.execute({
    ...limitParameters("address", address),
    submissionKey: submissionKey ?? null,
    proofValid: proof.valid,
    ...limitParameters("proof", replay),
    ...enquiry,
    ...limitParameters("recipient", recipient),
    notification: mailsParameter([companyNotificationMail(enquiry, context)]),
    copy: mailsParameter([visitorConfirmationMail(enquiry, context)]),
  })) as { rows: OutcomeRow[] };
  const [row] = rows;
  if (!row) throw new Error("the enquiry statement returned no row");
  if (address) {
    const limit = rateLimitResult(
      { hits: Number(row.address_hits), msLeft: Number(row.address_ms_left) },
      address.rule,
    );
    if (!limit.allowed)
      return { status: "rate-limited", retryAfterSeconds: limit.retryAfterSeconds };
  }
  if (row.stored_before) return { status: "stored-before" };
  if (!row.accepted) return { status: "human-check-failed" };
  if (!row.id) return { status: "stored-before" };
  return { status: "stored", id: row.id, confirmed: row.confirmed };
}
