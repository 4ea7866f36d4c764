CREATE TABLE "customer_settings" (
	"customer_id" uuid PRIMARY KEY NOT NULL,
	"industry" text NOT NULL,
	"company_size" text NOT NULL,
	"billing_plan" text NOT NULL,
	"features" jsonb NOT NULL,
	"max_users" integer NOT NULL,
	"max_teams" integer NOT NULL,
	"storage_gb" integer NOT NULL,
	"allow_guest_users" boolean NOT NULL,
	"require_mfa" boolean NOT NULL,
	"session_timeout_minutes" integer NOT NULL,
	"version" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" text,
	CONSTRAINT "customer_settings_limits_check" CHECK (max_users > 0 and max_teams > 0 and storage_gb > 0),
	CONSTRAINT "customer_settings_timeout_check" CHECK (session_timeout_minutes between 5 and 1440)
);
--> statement-breakpoint
CREATE TABLE "customer_settings_changes" (
	"change_id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"field" text NOT NULL,
	"old_value" text,
	"new_value" text,
	"changed_by" text,
	"changed_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "customer_settings" ADD CONSTRAINT "customer_settings_customer_id_customers_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("customer_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_settings_changes" ADD CONSTRAINT "customer_settings_changes_customer_id_customers_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("customer_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "customer_settings_changes_customer_idx" ON "customer_settings_changes" USING btree ("customer_id","changed_at","change_id");