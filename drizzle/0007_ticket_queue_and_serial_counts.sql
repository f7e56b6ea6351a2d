CREATE INDEX "support_tickets_awaiting_reply_idx" ON "support_tickets" USING btree ("first_response_due_at","created_at","ticket_number") WHERE "support_tickets"."first_staff_reply_at" is null and "support_tickets"."status" in ('open', 'in_progress');--> statement-breakpoint
-- The admin lists count and page these tables with short index scans. On a small server (two
-- cores here) parallel workers made a 200,000-row count 3-6 times slower under load than one
-- process reading the index; the lists are many short queries, not one big report.
ALTER TABLE "support_tickets" SET (parallel_workers = 0);--> statement-breakpoint
ALTER TABLE "contact_inquiries" SET (parallel_workers = 0);--> statement-breakpoint
ALTER TABLE "users" SET (parallel_workers = 0);--> statement-breakpoint
ALTER TABLE "profiles" SET (parallel_workers = 0);--> statement-breakpoint
ALTER TABLE "customers" SET (parallel_workers = 0);--> statement-breakpoint
ALTER TABLE "payments" SET (parallel_workers = 0);
