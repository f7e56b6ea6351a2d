CREATE TABLE "staff_audit_log" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "staff_audit_log_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_id" text,
	"actor_email" text,
	"actor_role" text,
	"action" text NOT NULL,
	"target_id" text,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"client_address" text,
	"user_agent" text
);
--> statement-breakpoint
CREATE INDEX "staff_audit_log_at_idx" ON "staff_audit_log" USING btree ("at","id");--> statement-breakpoint
CREATE INDEX "staff_audit_log_action_idx" ON "staff_audit_log" USING btree ("action","at","id");--> statement-breakpoint
CREATE INDEX "staff_audit_log_actor_search_idx" ON "staff_audit_log" USING gin (coalesce("actor_email", '') gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "user_roles_user_idx" ON "user_roles" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "user_roles" ADD CONSTRAINT "user_roles_role_check" CHECK ("user_roles"."role" in ('support', 'finance', 'admin'));--> statement-breakpoint
-- The staff audit log (decision 043). The database's clock stamps every row, so no row can be
-- written with another time (a backdated row could otherwise be deleted at once as "old").
CREATE FUNCTION "staff_audit_log_stamp"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW."at" := now();
  RETURN NEW;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "staff_audit_log_stamp" BEFORE INSERT ON "staff_audit_log"
  FOR EACH ROW EXECUTE FUNCTION "staff_audit_log_stamp"();--> statement-breakpoint
-- A row is never changed; it is deleted only past the two years it is kept (the retention job).
CREATE FUNCTION "staff_audit_log_immutable"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND OLD."at" < now() - interval '2 years' THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'staff audit log row % cannot be %', OLD."id",
    CASE TG_OP WHEN 'DELETE' THEN 'deleted before it is two years old' ELSE 'changed' END;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "staff_audit_log_immutable" BEFORE UPDATE OR DELETE ON "staff_audit_log"
  FOR EACH ROW EXECUTE FUNCTION "staff_audit_log_immutable"();--> statement-breakpoint
CREATE FUNCTION "staff_audit_log_no_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the staff audit log cannot be truncated';
END;
$$;--> statement-breakpoint
CREATE TRIGGER "staff_audit_log_no_truncate" BEFORE TRUNCATE ON "staff_audit_log"
  FOR EACH STATEMENT EXECUTE FUNCTION "staff_audit_log_no_truncate"();
