CREATE TABLE "skill_counts" (
	"skill_id" uuid PRIMARY KEY NOT NULL,
	"team_count" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
DROP INDEX "skills_name_idx";--> statement-breakpoint
DROP INDEX "pedal_prompts_skill_idx";--> statement-breakpoint
DROP INDEX "skill_comments_skill_idx";--> statement-breakpoint
DROP INDEX "skills_created_at_idx";--> statement-breakpoint
ALTER TABLE "skill_counts" ADD CONSTRAINT "skill_counts_skill_id_skills_skill_id_fk" FOREIGN KEY ("skill_id") REFERENCES "public"."skills"("skill_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "skill_counts_team_count_idx" ON "skill_counts" USING btree ("team_count","skill_id");--> statement-breakpoint
CREATE INDEX "skills_name_lower_idx" ON "skills" USING btree (lower("skill_name"),"skill_id");--> statement-breakpoint
CREATE INDEX "skills_status_sort_idx" ON "skills" USING btree ("status","skill_id");--> statement-breakpoint
CREATE INDEX "skills_type_idx" ON "skills" USING btree ("type","skill_id");--> statement-breakpoint
CREATE INDEX "skills_global_idx" ON "skills" USING btree ("is_global","skill_id");--> statement-breakpoint
CREATE INDEX "teams_skills_skill_assigned_idx" ON "teams_skills" USING btree ("skill_id","assigned_at","team_id");--> statement-breakpoint
CREATE INDEX "pedal_prompts_skill_idx" ON "pedal_prompts" USING btree ("skill_id","created_at","prompt_id");--> statement-breakpoint
CREATE INDEX "skill_comments_skill_idx" ON "skill_comments" USING btree ("skill_id","created_at","comment_id");--> statement-breakpoint
CREATE INDEX "skills_created_at_idx" ON "skills" USING btree ("created_at","skill_id");