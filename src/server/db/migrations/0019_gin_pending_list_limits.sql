-- Each trigram index keeps new entries in a pending list that the writer who fills it merges into
-- the index. At the default limit (4 MB) that merge stalls one statement for one to three seconds
-- at a million users: a bulk action's batch that changes a thousand users fills a list every few
-- batches. At 1 MB a merge takes a quarter of that, and a bulk action's progress keeps moving
-- (docs/performance.md, "Bulk actions"). IF EXISTS: the indexes exist only where pg_trgm does.
ALTER INDEX IF EXISTS customers_name_trgm SET (gin_pending_list_limit = 1024);
--> statement-breakpoint
ALTER INDEX IF EXISTS customers_domains_trgm SET (gin_pending_list_limit = 1024);
--> statement-breakpoint
ALTER INDEX IF EXISTS teams_name_trgm SET (gin_pending_list_limit = 1024);
--> statement-breakpoint
ALTER INDEX IF EXISTS users_data_email_trgm SET (gin_pending_list_limit = 1024);
--> statement-breakpoint
ALTER INDEX IF EXISTS users_data_name_trgm SET (gin_pending_list_limit = 1024);
--> statement-breakpoint
ALTER INDEX IF EXISTS users_data_job_title_trgm SET (gin_pending_list_limit = 1024);
--> statement-breakpoint
ALTER INDEX IF EXISTS skills_name_trgm SET (gin_pending_list_limit = 1024);
--> statement-breakpoint
ALTER INDEX IF EXISTS skills_description_trgm SET (gin_pending_list_limit = 1024);
--> statement-breakpoint
ALTER INDEX IF EXISTS pedal_prompts_title_trgm SET (gin_pending_list_limit = 1024);
--> statement-breakpoint
ALTER INDEX IF EXISTS pedal_prompts_value_trgm SET (gin_pending_list_limit = 1024);
--> statement-breakpoint
ALTER INDEX IF EXISTS platforms_name_trgm SET (gin_pending_list_limit = 1024);
--> statement-breakpoint
ALTER INDEX IF EXISTS platforms_description_trgm SET (gin_pending_list_limit = 1024);
--> statement-breakpoint
ALTER INDEX IF EXISTS skill_comments_value_trgm SET (gin_pending_list_limit = 1024);
