CREATE INDEX "pedal_prompts_title_lower_idx" ON "pedal_prompts" USING btree (lower("prompt_title"),"prompt_id");--> statement-breakpoint
CREATE INDEX "platforms_name_lower_idx" ON "platforms" USING btree (lower("platform_name"),"platform_id");--> statement-breakpoint
CREATE INDEX "skills_name_lower_idx" ON "skills" USING btree (lower("skill_name"),"skill_id");