import { sql } from "drizzle-orm";
import { index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

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
