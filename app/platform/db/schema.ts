import { sql } from "drizzle-orm";
import { index, integer, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

/** Timestamps are timestamptz everywhere; the database clock is the one source of "now". */
const createdAt = () =>
  timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow();

/** Spec section 3: contact_inquiries (name, email, service code, message). */
export const contactInquiries = pgTable(
  "contact_inquiries",
  {
    id: uuid("id")
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    name: text("name").notNull(),
    email: text("email").notNull(),
    service: text("service").notNull(),
    message: text("message").notNull(),
    createdAt: createdAt(),
  },
  (table) => [index("contact_inquiries_created_at_idx").on(table.createdAt)],
);

/**
 * Transactional outbox: every mail is written here in the transaction of the change that causes
 * it, and delivered by the mail worker with retries.
 */
export const mailOutbox = pgTable(
  "mail_outbox",
  {
    id: uuid("id")
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    /** What the mail is about (contact-inbox, contact-confirmation, …), for logs and the admin. */
    kind: text("kind").notNull(),
    recipient: text("recipient").notNull(),
    replyTo: text("reply_to"),
    subject: text("subject").notNull(),
    html: text("html").notNull(),
    text: text("text").notNull(),
    /** pending → sending → sent, or back to pending with a later attempt; failed after 24 h. */
    status: text("status", { enum: ["pending", "sending", "sent", "failed"] })
      .notNull()
      .default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true, mode: "date" })
      .notNull()
      .defaultNow(),
    /** A claim expires, so a mail claimed by an instance that died is picked up again. */
    lockedUntil: timestamp("locked_until", { withTimezone: true, mode: "date" }),
    lastError: text("last_error"),
    /** smtp, or dev-mailbox when no SMTP server is configured. */
    deliveredVia: text("delivered_via"),
    sentAt: timestamp("sent_at", { withTimezone: true, mode: "date" }),
    createdAt: createdAt(),
  },
  (table) => [
    index("mail_outbox_due_idx").on(table.status, table.nextAttemptAt),
    index("mail_outbox_delivered_via_idx").on(table.deliveredVia, table.createdAt),
  ],
);

/** Fixed-window counters shared by every instance (contact form, auth abuse limits). */
export const rateLimitBuckets = pgTable("rate_limit_buckets", {
  key: text("key").primaryKey(),
  windowStartedAt: timestamp("window_started_at", { withTimezone: true, mode: "date" }).notNull(),
  hits: integer("hits").notNull(),
});
