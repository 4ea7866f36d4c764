CREATE TABLE "prompt_versions" (
	"prompt_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"prompt_title" text NOT NULL,
	"prompt_value" text,
	"restored_from" integer,
	"operator_id" text,
	"operator_email" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "prompt_versions_pkey" PRIMARY KEY("prompt_id","version"),
	CONSTRAINT "prompt_versions_version_check" CHECK (version >= 1)
);
--> statement-breakpoint
DROP INDEX "pedal_prompts_created_at_idx";--> statement-breakpoint
DROP INDEX "pedal_prompts_status_idx";--> statement-breakpoint
DROP INDEX "platform_prompts_prompt_idx";--> statement-breakpoint
DROP INDEX "platforms_created_at_idx";--> statement-breakpoint
DROP INDEX "platforms_name_idx";--> statement-breakpoint
ALTER TABLE "prompt_versions" ADD CONSTRAINT "prompt_versions_prompt_id_pedal_prompts_prompt_id_fk" FOREIGN KEY ("prompt_id") REFERENCES "public"."pedal_prompts"("prompt_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "pedal_prompts_updated_at_idx" ON "pedal_prompts" USING btree ("updated_at","prompt_id");--> statement-breakpoint
CREATE INDEX "pedal_prompts_title_lower_idx" ON "pedal_prompts" USING btree (lower("prompt_title"),"prompt_id");--> statement-breakpoint
CREATE INDEX "platform_prompts_platform_assigned_idx" ON "platform_prompts" USING btree ("platform_id","assigned_at","prompt_id");--> statement-breakpoint
CREATE INDEX "platforms_updated_at_idx" ON "platforms" USING btree ("updated_at","platform_id");--> statement-breakpoint
CREATE INDEX "platforms_status_idx" ON "platforms" USING btree ("status","platform_id");--> statement-breakpoint
CREATE INDEX "pedal_prompts_created_at_idx" ON "pedal_prompts" USING btree ("created_at","prompt_id");--> statement-breakpoint
CREATE INDEX "pedal_prompts_status_idx" ON "pedal_prompts" USING btree ("status","prompt_id");--> statement-breakpoint
CREATE INDEX "platform_prompts_prompt_idx" ON "platform_prompts" USING btree ("prompt_id","assigned_at","platform_id");--> statement-breakpoint
CREATE INDEX "platforms_created_at_idx" ON "platforms" USING btree ("created_at","platform_id");--> statement-breakpoint
CREATE INDEX "platforms_name_idx" ON "platforms" USING btree (lower("platform_name"),"platform_id");