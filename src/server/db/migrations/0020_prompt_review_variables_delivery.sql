CREATE TABLE "prompt_changes" (
	"change_id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"prompt_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"base_title" text NOT NULL,
	"base_value" text,
	"base_status" text NOT NULL,
	"base_skill_id" uuid NOT NULL,
	"prompt_title" text,
	"prompt_value" text,
	"prompt_status" text,
	"skill_id" uuid,
	"restored_from" integer,
	"platform_id" uuid,
	"proposed_by" text NOT NULL,
	"proposed_by_email" text,
	"proposed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_by" text,
	"decided_by_email" text,
	"decided_at" timestamp with time zone,
	"decision_comment" text,
	"applied_version" integer,
	CONSTRAINT "prompt_changes_kind_check" CHECK (kind in ('update', 'delete', 'assign', 'unassign')),
	CONSTRAINT "prompt_changes_status_check" CHECK (status in ('pending', 'approved', 'rejected', 'withdrawn'))
);
--> statement-breakpoint
ALTER TABLE "operator_api_token" ADD COLUMN "platform_id" uuid;--> statement-breakpoint
ALTER TABLE "platforms" ADD COLUMN "needs_review" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "platforms" ADD COLUMN "provided_variables" text[];--> statement-breakpoint
ALTER TABLE "prompt_versions" ADD COLUMN "change_id" uuid;--> statement-breakpoint
ALTER TABLE "prompt_changes" ADD CONSTRAINT "prompt_changes_prompt_id_pedal_prompts_prompt_id_fk" FOREIGN KEY ("prompt_id") REFERENCES "public"."pedal_prompts"("prompt_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prompt_changes" ADD CONSTRAINT "prompt_changes_platform_id_platforms_platform_id_fk" FOREIGN KEY ("platform_id") REFERENCES "public"."platforms"("platform_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "prompt_changes_pending_idx" ON "prompt_changes" USING btree ("proposed_at","change_id") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "prompt_changes_prompt_idx" ON "prompt_changes" USING btree ("prompt_id","proposed_at");--> statement-breakpoint
CREATE INDEX "prompt_changes_author_idx" ON "prompt_changes" USING btree ("proposed_by","proposed_at") WHERE status = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX "prompt_changes_one_pending_idx" ON "prompt_changes" USING btree ("prompt_id","proposed_by","kind",coalesce("platform_id", '00000000-0000-0000-0000-000000000000'::uuid)) WHERE status = 'pending';--> statement-breakpoint
ALTER TABLE "operator_api_token" ADD CONSTRAINT "operator_api_token_platform_id_platforms_platform_id_fk" FOREIGN KEY ("platform_id") REFERENCES "public"."platforms"("platform_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "platforms_needs_review_idx" ON "platforms" USING btree ("needs_review","platform_id");