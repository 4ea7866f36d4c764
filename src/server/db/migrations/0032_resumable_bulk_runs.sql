ALTER TABLE "bulk_actions" ADD COLUMN "selected_ids" uuid[];--> statement-breakpoint
ALTER TABLE "bulk_actions" ADD COLUMN "lease_owner" text;--> statement-breakpoint
ALTER TABLE "bulk_actions" ADD COLUMN "lease_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "bulk_actions" ADD COLUMN "run_context" jsonb;