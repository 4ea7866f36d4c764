-- The console's own tables for bulk actions (bulk_actions, bulk_action_rows) and for Undo and
-- restore (deleted_records), and the index that finds which other customer claims a domain:
-- customer_domains(valid_domains) is the list of a customer's domains (split on commas, semicolons
-- and white space, lower case, empties dropped), indexed with GIN so `&&` answers at any size.
CREATE OR REPLACE FUNCTION customer_domains(domains text) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT array_remove(regexp_split_to_array(lower(btrim(coalesce(domains, ''))), '[\s,;]+'), '')
$$;
--> statement-breakpoint
CREATE TABLE "bulk_action_rows" (
	"bulk_id" uuid NOT NULL,
	"row_id" text NOT NULL,
	"seq" integer NOT NULL,
	"outcome" text NOT NULL,
	"reason" text,
	"label" text,
	"before" jsonb,
	CONSTRAINT "bulk_action_rows_pkey" PRIMARY KEY("bulk_id","row_id"),
	CONSTRAINT "bulk_action_rows_outcome_check" CHECK (outcome in ('changed', 'skipped', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "bulk_actions" (
	"bulk_id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"entity" text NOT NULL,
	"action" text NOT NULL,
	"params" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"selection" jsonb NOT NULL,
	"status" text DEFAULT 'running' NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"processed" integer DEFAULT 0 NOT NULL,
	"changed" integer DEFAULT 0 NOT NULL,
	"skipped" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"cancel_requested" boolean DEFAULT false NOT NULL,
	"undo_of" uuid,
	"operator_id" text,
	"operator_email" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "bulk_actions_status_check" CHECK (status in ('running', 'done', 'cancelled', 'failed', 'interrupted'))
);
--> statement-breakpoint
CREATE TABLE "deleted_records" (
	"deletion_id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"entity" text NOT NULL,
	"entity_id" text NOT NULL,
	"label" text NOT NULL,
	"snapshot" jsonb NOT NULL,
	"bulk_id" uuid,
	"deleted_by_id" text,
	"deleted_by_email" text,
	"deleted_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
	"restored_at" timestamp with time zone,
	"restored_by_email" text
);
--> statement-breakpoint
ALTER TABLE "bulk_action_rows" ADD CONSTRAINT "bulk_action_rows_bulk_id_bulk_actions_bulk_id_fk" FOREIGN KEY ("bulk_id") REFERENCES "public"."bulk_actions"("bulk_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bulk_action_rows_seq_idx" ON "bulk_action_rows" USING btree ("bulk_id","seq");--> statement-breakpoint
CREATE INDEX "bulk_action_rows_outcome_idx" ON "bulk_action_rows" USING btree ("bulk_id","outcome","seq");--> statement-breakpoint
CREATE INDEX "bulk_actions_created_at_idx" ON "bulk_actions" USING btree ("created_at","bulk_id");--> statement-breakpoint
CREATE INDEX "bulk_actions_status_idx" ON "bulk_actions" USING btree ("status");--> statement-breakpoint
CREATE INDEX "deleted_records_open_idx" ON "deleted_records" USING btree ("deleted_at","deletion_id") WHERE restored_at is null;--> statement-breakpoint
CREATE INDEX "deleted_records_entity_idx" ON "deleted_records" USING btree ("entity","entity_id","deleted_at");--> statement-breakpoint
CREATE INDEX "deleted_records_bulk_idx" ON "deleted_records" USING btree ("bulk_id");--> statement-breakpoint
CREATE INDEX "customers_domains_idx" ON "customers" USING gin (customer_domains("valid_domains"));
