ALTER TABLE "prompt_changes" DROP CONSTRAINT "prompt_changes_status_check";--> statement-breakpoint
ALTER TABLE "prompt_changes" ADD COLUMN "revision" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "prompt_changes" ADD COLUMN "superseded_by" uuid;--> statement-breakpoint
ALTER TABLE "prompt_changes" ADD CONSTRAINT "prompt_changes_status_check" CHECK (status in ('pending', 'approved', 'rejected', 'withdrawn', 'superseded'));