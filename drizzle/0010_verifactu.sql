CREATE TABLE "verifactu_chain_heads" (
	"issuer_tax_id" text PRIMARY KEY NOT NULL,
	"last_record_id" bigint
);
--> statement-breakpoint
CREATE TABLE "verifactu_deliveries" (
	"record_id" bigint PRIMARY KEY NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_error" text,
	"error_code" text,
	"error_text" text,
	"submission_id" bigint,
	"corrected_by_record_id" bigint,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "verifactu_records" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "verifactu_records_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"kind" text NOT NULL,
	"invoice_id" uuid NOT NULL,
	"issuer_tax_id" text NOT NULL,
	"issuer_name" text NOT NULL,
	"invoice_number" text NOT NULL,
	"issue_date" text NOT NULL,
	"invoice_type" text,
	"corrective_type" text,
	"corrected_invoices" jsonb,
	"description" text,
	"recipient" jsonb,
	"breakdown" jsonb,
	"cuota_total" text,
	"importe_total" text,
	"correction" text,
	"previous_rejection" text,
	"previous_record_id" bigint,
	"previous" jsonb,
	"system" jsonb NOT NULL,
	"generated_at" text NOT NULL,
	"hash_type" text DEFAULT '01' NOT NULL,
	"hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "verifactu_sender" (
	"id" integer PRIMARY KEY NOT NULL,
	"lease_owner" text,
	"lease_until" timestamp with time zone,
	"next_send_at" timestamp with time zone,
	"wait_seconds" integer DEFAULT 60 NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "verifactu_submissions" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "verifactu_submissions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	"endpoint" text NOT NULL,
	"record_count" integer NOT NULL,
	"first_record_id" bigint,
	"last_record_id" bigint,
	"http_status" integer,
	"outcome" text,
	"csv" text,
	"wait_seconds" integer,
	"error" text,
	"response_body" text
);
--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "invoice_type" text;--> statement-breakpoint
-- The type of the invoices issued before this migration follows from what they are: the one
-- change ever made to an issued invoice, by the migration, with the immutability trigger off.
ALTER TABLE "invoices" DISABLE TRIGGER "invoices_immutable";--> statement-breakpoint
UPDATE "invoices" SET "invoice_type" = CASE "kind" WHEN 'complete' THEN 'F1' WHEN 'simplified' THEN 'F2'
  ELSE (SELECT CASE corrected."kind" WHEN 'complete' THEN 'R1' ELSE 'R5' END
        FROM "invoices" corrected WHERE corrected."id" = "invoices"."corrects_invoice_id") END;--> statement-breakpoint
ALTER TABLE "invoices" ENABLE TRIGGER "invoices_immutable";--> statement-breakpoint
ALTER TABLE "invoices" ALTER COLUMN "invoice_type" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "payment_method" text DEFAULT 'Tarjeta' NOT NULL;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "billing_name" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "billing_tax_id" text;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "billing_address" text;--> statement-breakpoint
ALTER TABLE "verifactu_chain_heads" ADD CONSTRAINT "verifactu_chain_heads_last_record_id_verifactu_records_id_fk" FOREIGN KEY ("last_record_id") REFERENCES "public"."verifactu_records"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "verifactu_deliveries" ADD CONSTRAINT "verifactu_deliveries_record_id_verifactu_records_id_fk" FOREIGN KEY ("record_id") REFERENCES "public"."verifactu_records"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "verifactu_records" ADD CONSTRAINT "verifactu_records_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "verifactu_records" ADD CONSTRAINT "verifactu_records_previous_record_id_verifactu_records_id_fk" FOREIGN KEY ("previous_record_id") REFERENCES "public"."verifactu_records"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "verifactu_deliveries_due_idx" ON "verifactu_deliveries" USING btree ("next_attempt_at","record_id") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "verifactu_deliveries_status_idx" ON "verifactu_deliveries" USING btree ("status","record_id");--> statement-breakpoint
CREATE UNIQUE INDEX "verifactu_records_hash_idx" ON "verifactu_records" USING btree ("hash");--> statement-breakpoint
CREATE UNIQUE INDEX "verifactu_records_previous_idx" ON "verifactu_records" USING btree ("previous_record_id");--> statement-breakpoint
CREATE UNIQUE INDEX "verifactu_records_first_idx" ON "verifactu_records" USING btree ("issuer_tax_id") WHERE previous_record_id IS NULL;--> statement-breakpoint
CREATE INDEX "verifactu_records_invoice_idx" ON "verifactu_records" USING btree ("invoice_id");--> statement-breakpoint
CREATE INDEX "verifactu_records_kind_idx" ON "verifactu_records" USING btree ("kind","id");--> statement-breakpoint
CREATE INDEX "verifactu_records_created_idx" ON "verifactu_records" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "verifactu_submissions_sent_idx" ON "verifactu_submissions" USING btree ("sent_at");--> statement-breakpoint
-- A billing record is never changed or deleted (RD 1007/2023 art. 8.2, Orden HAC/1177/2024
-- art. 6: integrity and inalterability); an invoice issued in error gets a new 'anulacion' record.
CREATE FUNCTION "verifactu_records_immutable"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'billing record % cannot be %', OLD.id,
    CASE TG_OP WHEN 'DELETE' THEN 'deleted' ELSE 'changed' END;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "verifactu_records_immutable" BEFORE UPDATE OR DELETE ON "verifactu_records"
  FOR EACH ROW EXECUTE FUNCTION "verifactu_records_immutable"();--> statement-breakpoint
INSERT INTO "verifactu_sender" ("id") VALUES (1);
