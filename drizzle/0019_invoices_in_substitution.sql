DROP INDEX "invoices_one_per_purchase_idx";--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "substitutes_invoice_id" uuid;--> statement-breakpoint
ALTER TABLE "verifactu_records" ADD COLUMN "substituted_invoices" jsonb;--> statement-breakpoint
ALTER TABLE "verifactu_records" ADD COLUMN "operation_date" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_substitutes_invoice_id_invoices_id_fk" FOREIGN KEY ("substitutes_invoice_id") REFERENCES "public"."invoices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_one_substitute_idx" ON "invoices" USING btree ("substitutes_invoice_id");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_one_per_purchase_idx" ON "invoices" USING btree ("purchase_id","series") WHERE substitutes_invoice_id IS NULL;