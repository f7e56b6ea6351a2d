CREATE TABLE "analytics_day_pages" (
	"day" date NOT NULL,
	"path" text NOT NULL,
	"views" integer NOT NULL,
	CONSTRAINT "analytics_day_pages_day_path_pk" PRIMARY KEY("day","path")
);
--> statement-breakpoint
CREATE TABLE "analytics_day_referrers" (
	"day" date NOT NULL,
	"host" text NOT NULL,
	"views" integer NOT NULL,
	CONSTRAINT "analytics_day_referrers_day_host_pk" PRIMARY KEY("day","host")
);
--> statement-breakpoint
CREATE TABLE "analytics_days" (
	"day" date PRIMARY KEY NOT NULL,
	"views" integer NOT NULL,
	"visitors" integer NOT NULL,
	"mobile_views" integer NOT NULL,
	"visits" integer NOT NULL,
	"returning_visits" integer NOT NULL,
	"service_visits" integer NOT NULL,
	"dialog_visits" integer NOT NULL,
	"converted_visits" integer NOT NULL,
	"enquiries" integer NOT NULL,
	"signups" integer NOT NULL,
	"payments" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "analytics_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "analytics_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"day" date NOT NULL,
	"kind" text NOT NULL,
	"path" text NOT NULL,
	"referrer_host" text,
	"device" text NOT NULL,
	"visitor_hash" text NOT NULL,
	"visit_id" text,
	"returning_visitor" boolean
);
--> statement-breakpoint
CREATE INDEX "analytics_events_day_idx" ON "analytics_events" USING btree ("day","kind");