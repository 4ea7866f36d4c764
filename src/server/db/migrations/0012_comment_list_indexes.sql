DROP INDEX "skill_comments_customer_idx";--> statement-breakpoint
DROP INDEX "skill_comments_user_idx";--> statement-breakpoint
DROP INDEX "skill_comments_created_at_idx";--> statement-breakpoint
DROP INDEX "skill_comments_status_idx";--> statement-breakpoint
CREATE INDEX "skill_comments_skill_sort_idx" ON "skill_comments" USING btree ("skill_id","comment_id");--> statement-breakpoint
CREATE INDEX "skill_comments_customer_created_idx" ON "skill_comments" USING btree ("customer_id","created_at","comment_id");--> statement-breakpoint
CREATE INDEX "skill_comments_status_created_idx" ON "skill_comments" USING btree ("status","created_at","comment_id");--> statement-breakpoint
CREATE INDEX "skill_comments_customer_idx" ON "skill_comments" USING btree ("customer_id","comment_id");--> statement-breakpoint
CREATE INDEX "skill_comments_user_idx" ON "skill_comments" USING btree ("user_id","comment_id");--> statement-breakpoint
CREATE INDEX "skill_comments_created_at_idx" ON "skill_comments" USING btree ("created_at","comment_id");--> statement-breakpoint
CREATE INDEX "skill_comments_status_idx" ON "skill_comments" USING btree ("status","comment_id");