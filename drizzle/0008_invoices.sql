CREATE TABLE "invoice_counters" (
	"series" text NOT NULL,
	"year" integer NOT NULL,
	"last_number" integer NOT NULL,
	CONSTRAINT "invoice_counters_series_year_pk" PRIMARY KEY("series","year")
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"number" text NOT NULL,
	"series" text NOT NULL,
	"year" integer NOT NULL,
	"sequence" integer NOT NULL,
	"kind" text NOT NULL,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL,
	"purchase_id" uuid NOT NULL,
	"corrects_invoice_id" uuid,
	"correction_reason" text,
	"seller_name" text NOT NULL,
	"seller_tax_id" text NOT NULL,
	"seller_address" text NOT NULL,
	"customer_email" text,
	"customer_name" text,
	"customer_tax_id" text,
	"customer_address" text,
	"description" text NOT NULL,
	"base_amount" integer NOT NULL,
	"vat_rate" integer NOT NULL,
	"vat_amount" integer NOT NULL,
	"total_amount" integer NOT NULL,
	"currency" text DEFAULT 'EUR' NOT NULL
);
--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "attachments" jsonb;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "tax_id" text;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "billing_name" text;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "billing_address" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "immediate_start_consent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "delivery_status" text DEFAULT 'pending' NOT NULL;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "delivery_note" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "delivery_updated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "withdrawal_requested_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "refund_reason" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "refund_requested_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "refund_requested_by" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_purchase_id_purchases_id_fk" FOREIGN KEY ("purchase_id") REFERENCES "public"."purchases"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_corrects_invoice_id_invoices_id_fk" FOREIGN KEY ("corrects_invoice_id") REFERENCES "public"."invoices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_number_idx" ON "invoices" USING btree ("number");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_series_sequence_idx" ON "invoices" USING btree ("series","year","sequence");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_one_per_purchase_idx" ON "invoices" USING btree ("purchase_id","series");--> statement-breakpoint
-- An issued invoice never changes (Real Decreto 1619/2012 art. 19: kept as issued). The one change
-- allowed: when its customer deletes the account, a simplified invoice (which needs no customer
-- identification) loses the name and e-mail. A complete invoice keeps its customer data, which
-- the law requires (GDPR art. 17(3)(b)). No invoice is ever deleted.
CREATE FUNCTION "invoices_immutable"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'invoice % cannot be deleted', OLD.number;
  END IF;
  IF OLD.kind = 'simplified'
     AND (NEW.customer_email IS NULL AND NEW.customer_name IS NULL)
     AND (to_jsonb(NEW) - 'customer_email' - 'customer_name')
       = (to_jsonb(OLD) - 'customer_email' - 'customer_name') THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'invoice % cannot be changed', OLD.number;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "invoices_immutable" BEFORE UPDATE OR DELETE ON "invoices"
  FOR EACH ROW EXECUTE FUNCTION "invoices_immutable"();
