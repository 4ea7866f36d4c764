CREATE TABLE "customer_counts" (
	"customer_id" uuid PRIMARY KEY NOT NULL,
	"user_count" integer DEFAULT 0 NOT NULL,
	"team_count" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "status_counts" (
	"entity" text NOT NULL,
	"status" text NOT NULL,
	"n" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "status_counts_pkey" PRIMARY KEY("entity","status")
);
--> statement-breakpoint
CREATE TABLE "team_counts" (
	"team_id" uuid PRIMARY KEY NOT NULL,
	"user_count" integer DEFAULT 0 NOT NULL,
	"skills_count" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
DROP INDEX "customers_name_idx";--> statement-breakpoint
DROP INDEX "teams_name_idx";--> statement-breakpoint
DROP INDEX "audit_log_entity_idx";--> statement-breakpoint
DROP INDEX "audit_log_created_at_idx";--> statement-breakpoint
DROP INDEX "audit_log_operator_idx";--> statement-breakpoint
DROP INDEX "audit_log_action_idx";--> statement-breakpoint
DROP INDEX "customers_created_at_idx";--> statement-breakpoint
DROP INDEX "customers_status_idx";--> statement-breakpoint
DROP INDEX "teams_created_at_idx";--> statement-breakpoint
DROP INDEX "users_data_created_at_idx";--> statement-breakpoint
DROP INDEX "users_data_last_login_idx";--> statement-breakpoint
DROP INDEX "users_data_status_idx";--> statement-breakpoint
ALTER TABLE "customer_counts" ADD CONSTRAINT "customer_counts_customer_id_customers_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("customer_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_counts" ADD CONSTRAINT "team_counts_team_id_teams_team_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("team_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "customer_counts_user_count_idx" ON "customer_counts" USING btree ("user_count","customer_id");--> statement-breakpoint
CREATE INDEX "customer_counts_team_count_idx" ON "customer_counts" USING btree ("team_count","customer_id");--> statement-breakpoint
CREATE INDEX "team_counts_user_count_idx" ON "team_counts" USING btree ("user_count","team_id");--> statement-breakpoint
CREATE INDEX "team_counts_skills_count_idx" ON "team_counts" USING btree ("skills_count","team_id");--> statement-breakpoint
CREATE INDEX "customers_updated_at_idx" ON "customers" USING btree ("updated_at","customer_id");--> statement-breakpoint
CREATE INDEX "customers_name_lower_idx" ON "customers" USING btree (lower("customer_name"),"customer_id");--> statement-breakpoint
CREATE INDEX "teams_name_lower_idx" ON "teams" USING btree (lower("team_name"),"team_id");--> statement-breakpoint
CREATE INDEX "teams_status_idx" ON "teams" USING btree ("status","team_id");--> statement-breakpoint
CREATE INDEX "users_data_name_sort_idx" ON "users_data" USING btree (lower(coalesce(nullif(btrim(coalesce("first_name", '') || ' ' || coalesce("last_name", '')), ''), "email")),"user_id");--> statement-breakpoint
CREATE INDEX "users_data_email_sort_idx" ON "users_data" USING btree (lower("email"),"user_id");--> statement-breakpoint
CREATE INDEX "users_data_job_title_sort_idx" ON "users_data" USING btree (lower(coalesce("job_title", '')),"user_id");--> statement-breakpoint
CREATE INDEX "users_data_last_login_at_idx" ON "users_data" USING btree ("last_login");--> statement-breakpoint
CREATE INDEX "audit_log_entity_idx" ON "audit_log" USING btree ("entity","entity_id","created_at","audit_id");--> statement-breakpoint
CREATE INDEX "audit_log_created_at_idx" ON "audit_log" USING btree ("created_at","audit_id");--> statement-breakpoint
CREATE INDEX "audit_log_operator_idx" ON "audit_log" USING btree ("operator_id","created_at","audit_id");--> statement-breakpoint
CREATE INDEX "audit_log_action_idx" ON "audit_log" USING btree ("action","created_at","audit_id");--> statement-breakpoint
CREATE INDEX "customers_created_at_idx" ON "customers" USING btree ("created_at","customer_id");--> statement-breakpoint
CREATE INDEX "customers_status_idx" ON "customers" USING btree ("status","customer_id");--> statement-breakpoint
CREATE INDEX "teams_created_at_idx" ON "teams" USING btree ("created_at","team_id");--> statement-breakpoint
CREATE INDEX "users_data_created_at_idx" ON "users_data" USING btree ("created_at","user_id");--> statement-breakpoint
CREATE INDEX "users_data_last_login_idx" ON "users_data" USING btree (coalesce("last_login", '-infinity'::timestamptz),"user_id");--> statement-breakpoint
CREATE INDEX "users_data_status_idx" ON "users_data" USING btree ("status","user_id");