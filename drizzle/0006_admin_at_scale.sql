-- Trigram indexes make the admin's "contains" searches use an index (pg_trgm is a trusted extension:
-- the database owner may create it; PGlite loads it from its contrib build).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE TABLE "payment_day_totals" (
	"day" date NOT NULL,
	"status" text NOT NULL,
	"payments" bigint NOT NULL,
	"amount" bigint NOT NULL,
	CONSTRAINT "payment_day_totals_day_status_pk" PRIMARY KEY("day","status")
);
--> statement-breakpoint
DROP INDEX "contact_inquiries_created_at_idx";--> statement-breakpoint
DROP INDEX "payments_created_idx";--> statement-breakpoint
DROP INDEX "support_tickets_status_idx";--> statement-breakpoint
DROP INDEX "support_tickets_created_idx";--> statement-breakpoint
ALTER TABLE "contact_inquiries" ADD COLUMN "handled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "contact_inquiries" ADD COLUMN "handled_by" text;--> statement-breakpoint
CREATE INDEX "contact_inquiries_pending_idx" ON "contact_inquiries" USING btree ("created_at","id") WHERE "contact_inquiries"."handled_at" is null;--> statement-breakpoint
CREATE INDEX "contact_inquiries_handled_idx" ON "contact_inquiries" USING btree ("created_at","id") WHERE "contact_inquiries"."handled_at" is not null;--> statement-breakpoint
CREATE INDEX "contact_inquiries_search_idx" ON "contact_inquiries" USING gin ((coalesce("name", '') || ' ' || coalesce("email", '') || ' ' || coalesce("service", '') || ' ' || coalesce("message", '')) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "customers_created_idx" ON "customers" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "customers_search_idx" ON "customers" USING gin ((coalesce("email", '') || ' ' || coalesce("name", '')) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "payments_status_created_idx" ON "payments" USING btree ("status","created_at","id");--> statement-breakpoint
CREATE INDEX "payments_search_idx" ON "payments" USING gin ((coalesce("customer_email", '') || ' ' || coalesce("service_name", '')) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "profiles_full_name_search_idx" ON "profiles" USING gin (coalesce("full_name", '') gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "support_tickets_search_idx" ON "support_tickets" USING gin ((coalesce("ticket_number", '') || ' ' || coalesce("subject", '')) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_created_idx" ON "users" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "users_email_search_idx" ON "users" USING gin ("email" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "contact_inquiries_created_at_idx" ON "contact_inquiries" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "payments_created_idx" ON "payments" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "support_tickets_status_idx" ON "support_tickets" USING btree ("status","created_at","ticket_number");--> statement-breakpoint
CREATE INDEX "support_tickets_created_idx" ON "support_tickets" USING btree ("created_at","ticket_number");--> statement-breakpoint
-- Rebuilds the per-day totals from the payments (after a bulk load with the trigger disabled).
CREATE FUNCTION refresh_payment_day_totals() RETURNS void LANGUAGE sql AS $$
  DELETE FROM payment_day_totals;
  INSERT INTO payment_day_totals (day, status, payments, amount)
  SELECT (created_at AT TIME ZONE 'Europe/Madrid')::date, status, count(*), sum(amount)
  FROM payments GROUP BY 1, 2;
$$;--> statement-breakpoint
-- Keeps payment_day_totals in step with every insert, status change and delete of a payment,
-- in the same transaction.
CREATE FUNCTION payment_day_totals_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE payment_day_totals
       SET payments = payments - 1, amount = amount - OLD.amount
     WHERE day = (OLD.created_at AT TIME ZONE 'Europe/Madrid')::date AND status = OLD.status;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO payment_day_totals AS totals (day, status, payments, amount)
    VALUES ((NEW.created_at AT TIME ZONE 'Europe/Madrid')::date, NEW.status, 1, NEW.amount)
    ON CONFLICT (day, status) DO UPDATE
      SET payments = totals.payments + 1, amount = totals.amount + EXCLUDED.amount;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER payments_day_totals
  AFTER INSERT OR DELETE OR UPDATE OF status, amount, created_at ON payments
  FOR EACH ROW EXECUTE FUNCTION payment_day_totals_apply();--> statement-breakpoint
SELECT refresh_payment_day_totals();
