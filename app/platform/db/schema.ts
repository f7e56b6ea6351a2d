import { sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  date,
  customType,
  jsonb,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

/** A file of a queued mail, its bytes in base64. */
export type StoredMailAttachment = { filename: string; contentType: string; contentBase64: string };

/** Timestamps are timestamptz everywhere; the database clock is the one source of "now". */
const createdAt = () =>
  timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow();

/**
 * The text an admin search looks in, one expression per table: the trigram index is built on it
 * and the list queries filter on the same expression, so PostgreSQL can use the index for a
 * "contains" search (ILIKE '%…%').
 */
type SearchColumn = AnyPgColumn;
const joinedForSearch = (...columns: SearchColumn[]) =>
  sql.join(
    columns.map((column) => sql`coalesce(${column}, '')`),
    sql.raw(` || ' ' || `),
  );
export const searchText = {
  inquiries: (t: {
    name: SearchColumn;
    email: SearchColumn;
    service: SearchColumn;
    message: SearchColumn;
  }) => sql`(${joinedForSearch(t.name, t.email, t.service, t.message)})`,
  payments: (t: { customerEmail: SearchColumn; serviceName: SearchColumn }) =>
    sql`(${joinedForSearch(t.customerEmail, t.serviceName)})`,
  tickets: (t: { ticketNumber: SearchColumn; subject: SearchColumn }) =>
    sql`(${joinedForSearch(t.ticketNumber, t.subject)})`,
  customers: (t: { email: SearchColumn; name: SearchColumn }) =>
    sql`(${joinedForSearch(t.email, t.name)})`,
};

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
    /** Set when staff mark the enquiry handled (answered or dealt with); null while pending. */
    handledAt: timestamp("handled_at", { withTimezone: true, mode: "date" }),
    handledBy: text("handled_by"),
    /**
     * The form's idempotency key (a random key per form, hashed with the enquiry): a retry of a
     * post whose answer was lost finds its enquiry instead of storing it twice (decision 036).
     */
    submissionKey: text("submission_key"),
  },
  (table) => [
    index("contact_inquiries_created_at_idx").on(table.createdAt, table.id),
    uniqueIndex("contact_inquiries_submission_key_idx").on(table.submissionKey),
    index("contact_inquiries_pending_idx")
      .on(table.createdAt, table.id)
      .where(sql`${table.handledAt} is null`),
    index("contact_inquiries_handled_idx")
      .on(table.createdAt, table.id)
      .where(sql`${table.handledAt} is not null`),
    index("contact_inquiries_search_idx").using(
      "gin",
      sql`${searchText.inquiries(table)} gin_trgm_ops`,
    ),
  ],
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
    /** Files sent with the mail (an invoice's PDF), rendered when the mail was queued. */
    attachments: jsonb("attachments").$type<StoredMailAttachment[]>(),
    createdAt: createdAt(),
  },
  (table) => [
    index("mail_outbox_due_idx").on(table.status, table.nextAttemptAt),
    index("mail_outbox_delivered_via_idx").on(table.deliveredVia, table.createdAt),
  ],
);

/**
 * Counters shared by every instance: fixed windows (contact form, auth abuse limits), and the
 * failed sign-ins' back-off, where `hits` counts consecutive failures and `window_started_at` is
 * the last one (platform/security/rate-limit.server.ts).
 */
export const rateLimitBuckets = pgTable("rate_limit_buckets", {
  key: text("key").primaryKey(),
  windowStartedAt: timestamp("window_started_at", { withTimezone: true, mode: "date" }).notNull(),
  hits: integer("hits").notNull(),
});

/*
 * Better Auth's tables (user, session, account, verification), written by hand from its schema:
 * its generator needs Node 22. JS keys are the library's field names; SQL names are ours.
 */
const timestamps = {
  createdAt: createdAt(),
  updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
};

export const users = pgTable(
  "users",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    emailVerified: boolean("email_verified").notNull().default(false),
    image: text("image"),
    /** Better Auth's two-factor plugin: set once a TOTP factor is confirmed (decision 044). */
    twoFactorEnabled: boolean("two_factor_enabled").notNull().default(false),
    ...timestamps,
  },
  (table) => [
    uniqueIndex("users_email_idx").on(table.email),
    index("users_created_idx").on(table.createdAt, table.id),
    index("users_email_search_idx").using("gin", sql`${table.email} gin_trgm_ops`),
  ],
);

export const sessions = pgTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    token: text("token").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /**
     * When the session was last used, written at most once a minute (decision 045): a staff
     * session idle for 30 minutes ends. Null until its first write (read as `createdAt`).
     */
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true, mode: "date" }),
    ...timestamps,
  },
  (table) => [
    uniqueIndex("sessions_token_idx").on(table.token),
    index("sessions_user_idx").on(table.userId),
  ],
);

export const accounts = pgTable(
  "accounts",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    providerId: text("provider_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    accessToken: text("access_token"),
    refreshToken: text("refresh_token"),
    idToken: text("id_token"),
    accessTokenExpiresAt: timestamp("access_token_expires_at", {
      withTimezone: true,
      mode: "date",
    }),
    refreshTokenExpiresAt: timestamp("refresh_token_expires_at", {
      withTimezone: true,
      mode: "date",
    }),
    scope: text("scope"),
    password: text("password"),
    ...timestamps,
  },
  (table) => [index("accounts_user_idx").on(table.userId)],
);

export const verifications = pgTable(
  "verifications",
  {
    id: text("id").primaryKey(),
    identifier: text("identifier").notNull(),
    value: text("value").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
    ...timestamps,
  },
  (table) => [index("verifications_identifier_idx").on(table.identifier)],
);

/**
 * Better Auth's two-factor plugin (decision 044): the TOTP secret and the recovery codes, both
 * encrypted with the auth secret; `verified` stays false until the first code confirms the
 * enrolment. One row per account.
 */
export const twoFactors = pgTable(
  "two_factor",
  {
    id: text("id").primaryKey(),
    secret: text("secret").notNull(),
    backupCodes: text("backup_codes").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    verified: boolean("verified").notNull().default(true),
    failedVerificationCount: integer("failed_verification_count").notNull().default(0),
    lockedUntil: timestamp("locked_until", { withTimezone: true, mode: "date" }),
  },
  (table) => [uniqueIndex("two_factor_user_idx").on(table.userId)],
);

/**
 * TOTP codes already accepted (decision 044): Better Auth accepts a code in its ±1 step window
 * as often as it is sent, so a code is refused while it is still inside that window of its
 * first use (RFC 6238 §5.2). Rows older than the window are worthless and deleted.
 */
export const totpUsedCodes = pgTable(
  "totp_used_codes",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    code: text("code").notNull(),
    /** The 30-second step (Unix time / 30) at which the code was accepted. */
    step: bigint("step", { mode: "number" }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.code] })],
);

/**
 * Better Auth's passkey plugin (decision 045): one WebAuthn credential of an account, its public
 * key (base64) and signature counter. `lastUsedAt` is ours, set after each sign-in with it.
 */
export const passkeys = pgTable(
  "passkeys",
  {
    id: text("id").primaryKey(),
    name: text("name"),
    publicKey: text("public_key").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    credentialID: text("credential_id").notNull(),
    counter: integer("counter").notNull(),
    deviceType: text("device_type").notNull(),
    backedUp: boolean("backed_up").notNull(),
    transports: text("transports"),
    aaguid: text("aaguid"),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).defaultNow(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true, mode: "date" }),
  },
  (table) => [
    uniqueIndex("passkeys_credential_idx").on(table.credentialID),
    index("passkeys_user_idx").on(table.userId),
  ],
);

/** Spec section 3: one profile per user, created with the user. */
export const profiles = pgTable(
  "profiles",
  {
    id: text("id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    fullName: text("full_name"),
    phone: text("phone"),
    company: text("company"),
    avatarUrl: text("avatar_url"),
    bio: text("bio"),
    /** Billing identity, optional: with both a NIF/NIE and a name, invoices are complete ones. */
    taxId: text("tax_id"),
    billingName: text("billing_name"),
    billingAddress: text("billing_address"),
    email: text("email").notNull(),
    emailConfirmed: boolean("email_confirmed").notNull().default(false),
    ...timestamps,
  },
  (table) => [
    index("profiles_full_name_search_idx").using(
      "gin",
      sql`coalesce(${table.fullName}, '') gin_trgm_ops`,
    ),
  ],
);

/** Spec section 3: who is an administrator. Users can never write this table. */
export const userRoles = pgTable(
  "user_roles",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The staff roles of identity/staff-roles.ts; one per account (decision 043). */
    role: text("role", { enum: ["support", "finance", "admin"] }).notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.role] }),
    uniqueIndex("user_roles_user_idx").on(table.userId),
    check("user_roles_role_check", sql`${table.role} in ('support', 'finance', 'admin')`),
  ],
);

/** Spec section 3: a purchase exists (pending) before the customer leaves for checkout. */
export const purchases = pgTable(
  "purchases",
  {
    id: uuid("id")
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    /** Null once the account is deleted: billing records are kept, pseudonymised. */
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    serviceId: integer("service_id").notNull(),
    serviceName: text("service_name").notNull(),
    /** Catalogue price in cents at the time of purchase. */
    price: integer("price").notNull(),
    currency: text("currency").notNull().default("EUR"),
    /** 'withdrawn': the consumer withdrew from the paid contract (decision 050). */
    status: text("status", {
      enum: ["pending", "completed", "failed", "cancelled", "withdrawn", "refunded"],
    })
      .notNull()
      .default("pending"),
    provider: text("provider", { enum: ["stripe", "simulated"] }).notNull(),
    checkoutSessionId: text("checkout_session_id"),
    paymentIntentId: text("payment_intent_id"),
    completedAt: timestamp("completed_at", { withTimezone: true, mode: "date" }),
    /**
     * When the customer asked, before paying, for the service to begin at once and accepted
     * losing the right of withdrawal once it is fully performed (TRLGDCU art. 103 a).
     */
    immediateStartConsentAt: timestamp("immediate_start_consent_at", {
      withTimezone: true,
      mode: "date",
    }),
    /** Payment and delivery are two things: staff move a paid purchase through these. */
    deliveryStatus: text("delivery_status", { enum: ["pending", "in_progress", "delivered"] })
      .notNull()
      .default("pending"),
    deliveryNote: text("delivery_note"),
    deliveryUpdatedAt: timestamp("delivery_updated_at", { withTimezone: true, mode: "date" }),
    /** The customer used the right of withdrawal ('Desistir del contrato'). */
    withdrawalRequestedAt: timestamp("withdrawal_requested_at", {
      withTimezone: true,
      mode: "date",
    }),
    /** A refund the staff asked the provider for, and why; the provider's event applies it. */
    refundReason: text("refund_reason"),
    refundRequestedAt: timestamp("refund_requested_at", { withTimezone: true, mode: "date" }),
    refundRequestedBy: text("refund_requested_by"),
    /**
     * Billing data the buyer gave at checkout for a complete invoice (RD 1619/2012 art. 6):
     * asked above 400 € or when buying as a business; null for a simplified invoice.
     */
    billingName: text("billing_name"),
    billingTaxId: text("billing_tax_id"),
    billingAddress: text("billing_address"),
    ...timestamps,
  },
  (table) => [
    uniqueIndex("purchases_checkout_session_idx").on(table.checkoutSessionId),
    index("purchases_user_idx").on(table.userId, table.createdAt),
  ],
);

/** Spec section 3: one payment per completed purchase. */
export const payments = pgTable(
  "payments",
  {
    id: uuid("id")
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    purchaseId: uuid("purchase_id")
      .notNull()
      .references(() => purchases.id),
    customerEmail: text("customer_email").notNull(),
    serviceName: text("service_name").notNull(),
    /** Amount charged, in cents. */
    amount: integer("amount").notNull(),
    currency: text("currency").notNull().default("EUR"),
    status: text("status", {
      enum: ["pending", "completed", "failed", "withdrawn", "refunded"],
    }).notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex("payments_purchase_idx").on(table.purchaseId),
    index("payments_created_idx").on(table.createdAt, table.id),
    index("payments_status_created_idx").on(table.status, table.createdAt, table.id),
    index("payments_search_idx").using("gin", sql`${searchText.payments(table)} gin_trgm_ops`),
  ],
);

/**
 * Count and amount of payments per Madrid day and status, kept by a trigger on payments
 * (migration 0006): the dashboard and the payment list's totals read a few thousand rows here
 * instead of a million payments.
 */
export const paymentDayTotals = pgTable(
  "payment_day_totals",
  {
    day: date("day", { mode: "string" }).notNull(),
    status: text("status").notNull(),
    payments: bigint("payments", { mode: "number" }).notNull(),
    amount: bigint("amount", { mode: "number" }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.day, table.status] })],
);

/** Spec section 3: customers with their totals, one row per billing e-mail. */
export const customers = pgTable(
  "customers",
  {
    id: uuid("id")
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    name: text("name"),
    email: text("email").notNull(),
    totalSpent: integer("total_spent").notNull().default(0),
    totalOrders: integer("total_orders").notNull().default(0),
    ...timestamps,
  },
  (table) => [
    uniqueIndex("customers_email_idx").on(table.email),
    index("customers_created_idx").on(table.createdAt, table.id),
    index("customers_search_idx").using("gin", sql`${searchText.customers(table)} gin_trgm_ops`),
  ],
);

/** Every provider event received, by its id: an id seen before is acknowledged and ignored. */
export const webhookEvents = pgTable("webhook_events", {
  id: text("id").primaryKey(),
  type: text("type").notNull(),
  payload: jsonb("payload").notNull(),
  receivedAt: timestamp("received_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
});

/** Spec section 3: what happened to an account, for support and audits. */
export const userActivityLog = pgTable(
  "user_activity_log",
  {
    id: uuid("id")
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    activityType: text("activity_type").notNull(),
    description: text("description").notNull(),
    metadata: jsonb("metadata"),
    createdAt: createdAt(),
  },
  (table) => [index("user_activity_user_idx").on(table.userId, table.createdAt)],
);

/** Spec section 3: support_tickets. Deleting the account deletes its tickets (GDPR). */
export const supportTickets = pgTable(
  "support_tickets",
  {
    id: uuid("id")
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    /** Readable and gapless per year, such as TK-2026-000123 (see ticketCounters). */
    ticketNumber: text("ticket_number").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    subject: text("subject").notNull(),
    category: text("category").notNull(),
    priority: text("priority", { enum: ["urgent", "high", "medium", "low"] })
      .notNull()
      .default("medium"),
    status: text("status", { enum: ["open", "in_progress", "resolved", "closed"] })
      .notNull()
      .default("open"),
    /** One of the customer's purchases the ticket is about. */
    purchaseId: uuid("purchase_id").references(() => purchases.id, { onDelete: "set null" }),
    /** The home page promises an answer within 24 hours. */
    firstResponseDueAt: timestamp("first_response_due_at", {
      withTimezone: true,
      mode: "date",
    }).notNull(),
    firstStaffReplyAt: timestamp("first_staff_reply_at", { withTimezone: true, mode: "date" }),
    closedAt: timestamp("closed_at", { withTimezone: true, mode: "date" }),
    ...timestamps,
  },
  (table) => [
    uniqueIndex("support_tickets_number_idx").on(table.ticketNumber),
    index("support_tickets_user_idx").on(table.userId, table.createdAt),
    index("support_tickets_status_idx").on(table.status, table.createdAt, table.ticketNumber),
    index("support_tickets_created_idx").on(table.createdAt, table.ticketNumber),
    // The staff queue's 'Vencidos primero': active tickets still waiting for a first answer.
    index("support_tickets_awaiting_reply_idx")
      .on(table.firstResponseDueAt, table.createdAt, table.ticketNumber)
      .where(
        sql`${table.firstStaffReplyAt} is null and ${table.status} in ('open', 'in_progress')`,
      ),
    index("support_tickets_search_idx").using(
      "gin",
      sql`${searchText.tickets(table)} gin_trgm_ops`,
    ),
  ],
);

/** The last ticket number given out each year: one row locked per new ticket, so no gaps. */
export const ticketCounters = pgTable("ticket_counters", {
  year: integer("year").primaryKey(),
  lastNumber: integer("last_number").notNull(),
});

/** The conversation of a ticket. */
export const ticketMessages = pgTable(
  "ticket_messages",
  {
    id: uuid("id")
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    ticketId: uuid("ticket_id")
      .notNull()
      .references(() => supportTickets.id, { onDelete: "cascade" }),
    author: text("author", { enum: ["customer", "staff"] }).notNull(),
    /** Who wrote it; null once that staff account is gone. */
    authorId: text("author_id").references(() => users.id, { onDelete: "set null" }),
    body: text("body").notNull(),
    createdAt: createdAt(),
  },
  (table) => [index("ticket_messages_ticket_idx").on(table.ticketId, table.createdAt)],
);

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (value) => Buffer.from(value),
});

/** Files sent with a message, kept in the database so every instance can serve them. */
export const ticketAttachments = pgTable(
  "ticket_attachments",
  {
    id: uuid("id")
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    messageId: uuid("message_id")
      .notNull()
      .references(() => ticketMessages.id, { onDelete: "cascade" }),
    ticketId: uuid("ticket_id")
      .notNull()
      .references(() => supportTickets.id, { onDelete: "cascade" }),
    fileName: text("file_name").notNull(),
    /** Found from the content, never from the name or the declared type. */
    contentType: text("content_type").notNull(),
    size: integer("size").notNull(),
    content: bytea("content").notNull(),
    createdAt: createdAt(),
  },
  (table) => [index("ticket_attachments_message_idx").on(table.messageId)],
);

/**
 * Invoices (Real Decreto 1619/2012): one per completed payment (series F) and one corrective
 * invoice per refund (series R, naming the invoice it corrects). Numbers are gap-free per series
 * and year (invoiceCounters). What the invoice says is copied into it when it is issued, so it
 * never changes afterwards: a trigger (migration 0008) refuses updates and deletes, except
 * removing the customer's name and e-mail from a simplified invoice when the account is deleted.
 */
export const invoices = pgTable(
  "invoices",
  {
    id: uuid("id")
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    /** Series letter and year then the sequence: F2026-000001, R2026-000001. */
    number: text("number").notNull(),
    series: text("series", { enum: ["F", "R"] }).notNull(),
    year: integer("year").notNull(),
    sequence: integer("sequence").notNull(),
    /** simplified (no customer tax id), complete (customer NIF/NIE and name), corrective. */
    kind: text("kind", { enum: ["simplified", "complete", "corrective"] }).notNull(),
    issuedAt: timestamp("issued_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    purchaseId: uuid("purchase_id")
      .notNull()
      .references(() => purchases.id),
    /** The invoice a corrective one corrects. */
    correctsInvoiceId: uuid("corrects_invoice_id").references((): AnyPgColumn => invoices.id),
    /**
     * The simplified invoice a complete one replaces at the buyer's request (an F3, RD 1619/2012
     * art. 15.1 and 15.5); the replaced one stays issued and booked once (decision 070).
     */
    substitutesInvoiceId: uuid("substitutes_invoice_id").references((): AnyPgColumn => invoices.id),
    correctionReason: text("correction_reason"),
    sellerName: text("seller_name").notNull(),
    sellerTaxId: text("seller_tax_id").notNull(),
    sellerAddress: text("seller_address").notNull(),
    customerEmail: text("customer_email"),
    customerName: text("customer_name"),
    customerTaxId: text("customer_tax_id"),
    customerAddress: text("customer_address"),
    description: text("description").notNull(),
    /** In cents; negative on a corrective invoice. base + vat = total. */
    baseAmount: integer("base_amount").notNull(),
    vatRate: integer("vat_rate").notNull(),
    vatAmount: integer("vat_amount").notNull(),
    totalAmount: integer("total_amount").notNull(),
    currency: text("currency").notNull().default("EUR"),
    /**
     * F1 complete, F2 simplified, F3 complete in substitution of a simplified one, R1/R5
     * corrective of a complete/simplified one (Verifactu).
     */
    invoiceType: text("invoice_type", { enum: ["F1", "F2", "F3", "R1", "R5"] }).notNull(),
    paymentMethod: text("payment_method").notNull().default("Tarjeta"),
  },
  (table) => [
    uniqueIndex("invoices_number_idx").on(table.number),
    uniqueIndex("invoices_series_sequence_idx").on(table.series, table.year, table.sequence),
    // One invoice per sale and one corrective invoice per refunded sale, besides the one
    // complete invoice that may replace a simplified one.
    uniqueIndex("invoices_one_per_purchase_idx")
      .on(table.purchaseId, table.series)
      .where(sql`substitutes_invoice_id IS NULL`),
    uniqueIndex("invoices_one_substitute_idx").on(table.substitutesInvoiceId),
  ],
);

/** The last number given out per invoice series and year: locked per invoice, so no gaps. */
export const invoiceCounters = pgTable(
  "invoice_counters",
  {
    series: text("series").notNull(),
    year: integer("year").notNull(),
    lastNumber: integer("last_number").notNull(),
  },
  (table) => [primaryKey({ columns: [table.series, table.year] })],
);

/** What a VERI*FACTU record names of the invoice before it in the chain (Orden HAC/1177/2024). */
export type VerifactuChainLink = {
  issuerTaxId: string;
  invoiceNumber: string;
  issueDate: string;
  hash: string;
};

/** One line of a record's tax breakdown (DetalleDesglose), as sent: decimals as text. */
export type VerifactuBreakdownLine = {
  tax: "01";
  regime: string;
  qualification: string;
  rate: string;
  base: string;
  cuota: string;
};

/** The invoicing system's identification (SistemaInformatico), as sent with every record. */
export type VerifactuSystem = {
  producerName: string;
  producerTaxId: string;
  name: string;
  id: string;
  version: string;
  installationNumber: string;
  onlyVerifactu: "S" | "N";
  multipleTaxpayers: "S" | "N";
  severalTaxpayers: "S" | "N";
};

/**
 * Issue #23: the billing records of the Reglamento Verifactu (RD 1007/2023, Orden HAC/1177/2024),
 * one 'alta' per invoice written in the transaction that numbers it and an 'anulacion' for an
 * invoice issued in error. Every value is stored exactly as it is sent and hashed (dates as
 * dd-mm-aaaa, decimals as text), so the chain can be recomputed from the table alone. One chain
 * per issuer: each record names its predecessor, and the unique index on it forbids a fork. A
 * trigger (migration 0010) refuses updates and deletes.
 */
export const verifactuRecords = pgTable(
  "verifactu_records",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    kind: text("kind", { enum: ["alta", "anulacion"] }).notNull(),
    invoiceId: uuid("invoice_id")
      .notNull()
      .references(() => invoices.id),
    issuerTaxId: text("issuer_tax_id").notNull(),
    issuerName: text("issuer_name").notNull(),
    invoiceNumber: text("invoice_number").notNull(),
    /** dd-mm-aaaa, the invoice's issue date in Spain. */
    issueDate: text("issue_date").notNull(),
    /** F1, F2, F3, R1, R5; null on an 'anulacion'. */
    invoiceType: text("invoice_type"),
    /** 'I' (por diferencias) on a corrective invoice. */
    correctiveType: text("corrective_type"),
    correctedInvoices:
      jsonb("corrected_invoices").$type<
        { issuerTaxId: string; invoiceNumber: string; issueDate: string }[]
      >(),
    /** The simplified invoices an F3 replaces (FacturasSustituidas). */
    substitutedInvoices:
      jsonb("substituted_invoices").$type<
        { issuerTaxId: string; invoiceNumber: string; issueDate: string }[]
      >(),
    /** dd-mm-aaaa, when the operation took place, if not on the issue date (FechaOperacion). */
    operationDate: text("operation_date"),
    description: text("description"),
    recipient: jsonb("recipient").$type<{ name: string; taxId: string }>(),
    /**
     * 'S' on a complete invoice that names a consumer without their NIF (RD 1619/2012 art.
     * 6.1.d; FacturaSinIdentifDestinatarioArt61d, only on an F2 or R5 without Destinatarios).
     */
    withoutRecipientId: text("without_recipient_id"),
    breakdown: jsonb("breakdown").$type<VerifactuBreakdownLine[]>(),
    cuotaTotal: text("cuota_total"),
    importeTotal: text("importe_total"),
    /** 'S' when the record corrects one AEAT refused or accepted with errors (Subsanacion). */
    correction: text("correction"),
    /** 'X' when the record it corrects was refused by AEAT (RechazoPrevio). */
    previousRejection: text("previous_rejection"),
    previousRecordId: bigint("previous_record_id", { mode: "number" }).references(
      (): AnyPgColumn => verifactuRecords.id,
    ),
    previous: jsonb("previous").$type<VerifactuChainLink>(),
    system: jsonb("system").$type<VerifactuSystem>().notNull(),
    /** FechaHoraHusoGenRegistro: aaaa-mm-ddThh:mm:ss+hh:mm, Spain's offset at that instant. */
    generatedAt: text("generated_at").notNull(),
    hashType: text("hash_type").notNull().default("01"),
    hash: text("hash").notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex("verifactu_records_hash_idx").on(table.hash),
    // No fork: a record has at most one successor, and an issuer at most one first record.
    uniqueIndex("verifactu_records_previous_idx").on(table.previousRecordId),
    uniqueIndex("verifactu_records_first_idx")
      .on(table.issuerTaxId)
      .where(sql`previous_record_id IS NULL`),
    index("verifactu_records_invoice_idx").on(table.invoiceId),
    // The staff list filtered by kind (anulaciones are few among a million altas).
    index("verifactu_records_kind_idx").on(table.kind, table.id),
    index("verifactu_records_created_idx").on(table.createdAt),
  ],
);

/** The last record of each issuer's chain: its row is locked while the next record is written. */
export const verifactuChainHeads = pgTable("verifactu_chain_heads", {
  issuerTaxId: text("issuer_tax_id").primaryKey(),
  lastRecordId: bigint("last_record_id", { mode: "number" }).references(() => verifactuRecords.id),
});

/**
 * The outbox of the records (one row each, written with the record) and what AEAT said of it:
 * pending until an answer, then accepted, accepted_with_errors or rejected with AEAT's code and
 * text. Only this table changes; the record itself never does.
 */
export const verifactuDeliveries = pgTable(
  "verifactu_deliveries",
  {
    recordId: bigint("record_id", { mode: "number" })
      .primaryKey()
      .references(() => verifactuRecords.id),
    status: text("status", {
      enum: ["pending", "accepted", "accepted_with_errors", "rejected"],
    })
      .notNull()
      .default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true, mode: "date" })
      .notNull()
      .defaultNow(),
    lastError: text("last_error"),
    errorCode: text("error_code"),
    errorText: text("error_text"),
    submissionId: bigint("submission_id", { mode: "number" }),
    /** The record that corrected this one after AEAT refused it (Subsanacion). */
    correctedByRecordId: bigint("corrected_by_record_id", { mode: "number" }),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (table) => [
    index("verifactu_deliveries_due_idx")
      .on(table.nextAttemptAt, table.recordId)
      .where(sql`status = 'pending'`),
    index("verifactu_deliveries_status_idx").on(table.status, table.recordId),
  ],
);

/** Every request sent to AEAT and its answer, whatever it was (kept as received). */
export const verifactuSubmissions = pgTable(
  "verifactu_submissions",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    sentAt: timestamp("sent_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    endpoint: text("endpoint").notNull(),
    recordCount: integer("record_count").notNull(),
    firstRecordId: bigint("first_record_id", { mode: "number" }),
    lastRecordId: bigint("last_record_id", { mode: "number" }),
    httpStatus: integer("http_status"),
    /** Correcto, ParcialmenteCorrecto, Incorrecto; null when no readable answer came back. */
    outcome: text("outcome"),
    csv: text("csv"),
    waitSeconds: integer("wait_seconds"),
    error: text("error"),
    responseBody: text("response_body"),
  },
  (table) => [index("verifactu_submissions_sent_idx").on(table.sentAt)],
);

/**
 * The one sender of an installation: whichever instance holds the lease sends, so records go
 * in chain order and never twice; `nextSendAt` keeps the wait AEAT asked for (TiempoEsperaEnvio).
 */
export const verifactuSender = pgTable("verifactu_sender", {
  id: integer("id").primaryKey(),
  leaseOwner: text("lease_owner"),
  leaseUntil: timestamp("lease_until", { withTimezone: true, mode: "date" }),
  nextSendAt: timestamp("next_send_at", { withTimezone: true, mode: "date" }),
  waitSeconds: integer("wait_seconds").notNull().default(60),
  failures: integer("failures").notNull().default(0),
});

/**
 * Issue #17: one row per page view or step of a visit, kept 30 days. Never an address or a user
 * agent: `visitorHash` is salted with a secret replaced every day and never stored, so it counts
 * a day's unique visitors and links nothing across days. `visitId` and `returning` only with the
 * visitor's analytics consent (and no Do Not Track / Global Privacy Control).
 */
export const analyticsEvents = pgTable(
  "analytics_events",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    createdAt: createdAt(),
    /** The Madrid calendar day of the event. */
    day: date("day", { mode: "string" }).notNull(),
    kind: text("kind").notNull(),
    path: text("path").notNull(),
    referrerHost: text("referrer_host"),
    device: text("device").notNull(),
    visitorHash: text("visitor_hash").notNull(),
    visitId: text("visit_id"),
    returning: boolean("returning_visitor"),
  },
  (table) => [index("analytics_events_day_idx").on(table.day, table.kind)],
);

/** A closed day's totals, rolled up from `analytics_events`; kept for good. */
export const analyticsDays = pgTable("analytics_days", {
  day: date("day", { mode: "string" }).primaryKey(),
  views: integer("views").notNull(),
  visitors: integer("visitors").notNull(),
  mobileViews: integer("mobile_views").notNull(),
  visits: integer("visits").notNull(),
  returningVisits: integer("returning_visits").notNull(),
  serviceVisits: integer("service_visits").notNull(),
  dialogVisits: integer("dialog_visits").notNull(),
  convertedVisits: integer("converted_visits").notNull(),
  enquiries: integer("enquiries").notNull(),
  signups: integer("signups").notNull(),
  payments: integer("payments").notNull(),
});

/** A closed day's views per page. */
export const analyticsDayPages = pgTable(
  "analytics_day_pages",
  {
    day: date("day", { mode: "string" }).notNull(),
    path: text("path").notNull(),
    views: integer("views").notNull(),
  },
  (table) => [primaryKey({ columns: [table.day, table.path] })],
);

/** A closed day's views per referring site. */
export const analyticsDayReferrers = pgTable(
  "analytics_day_referrers",
  {
    day: date("day", { mode: "string" }).notNull(),
    host: text("host").notNull(),
    views: integer("views").notNull(),
  },
  (table) => [primaryKey({ columns: [table.day, table.host] })],
);

/**
 * Every staff action (decision 043): who (id, address and role at the time; no foreign key, so
 * the row outlives the account), when (the database's clock, stamped by a trigger), what (an
 * action code of features/audit, the target's id, details as JSON) and from where. Rows are
 * never changed; a trigger refuses UPDATE and TRUNCATE, and DELETE of a row younger than two
 * years (the retention).
 */
export const staffAuditLog = pgTable(
  "staff_audit_log",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    at: timestamp("at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    /** Null when no account acted (the operator's bootstrap) or none matched a failed sign-in. */
    actorId: text("actor_id"),
    actorEmail: text("actor_email"),
    actorRole: text("actor_role"),
    action: text("action").notNull(),
    targetId: text("target_id"),
    details: jsonb("details").$type<Record<string, unknown>>().notNull().default({}),
    clientAddress: text("client_address"),
    userAgent: text("user_agent"),
  },
  (table) => [
    index("staff_audit_log_at_idx").on(table.at, table.id),
    index("staff_audit_log_action_idx").on(table.action, table.at, table.id),
    index("staff_audit_log_actor_search_idx").using(
      "gin",
      sql`coalesce(${table.actorEmail}, '') gin_trgm_ops`,
    ),
  ],
);

/**
 * Backups made outside the server (pgBackRest's schedule beside PostgreSQL, decision 057), each
 * recorded when it completed, so /metrics can say how old the newest one is.
 */
export const backupRuns = pgTable(
  "backup_runs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** What made it: `pgbackrest-full`, `pgbackrest-diff`. */
    kind: text("kind").notNull(),
    finishedAt: timestamp("finished_at", { withTimezone: true, mode: "date" })
      .notNull()
      .defaultNow(),
  },
  (table) => [index("backup_runs_finished_at_idx").on(table.finishedAt)],
);
