CREATE TABLE "directory_groups" (
	"team_id" uuid PRIMARY KEY NOT NULL,
	"customer_id" uuid NOT NULL,
	"external_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "directory_requests" (
	"request_id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" uuid NOT NULL,
	"directory_token_id" uuid,
	"method" text NOT NULL,
	"path" text NOT NULL,
	"status" integer NOT NULL,
	"outcome" text,
	"error" text,
	"created_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "directory_tokens" (
	"directory_token_id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" uuid NOT NULL,
	"name" text NOT NULL,
	"prefix" text NOT NULL,
	"token_hash" text NOT NULL,
	"created_by_email" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "directory_tokens_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "directory_users" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"customer_id" uuid NOT NULL,
	"external_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "directory_groups" ADD CONSTRAINT "directory_groups_team_id_teams_team_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("team_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "directory_requests" ADD CONSTRAINT "directory_requests_customer_id_customers_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("customer_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "directory_tokens" ADD CONSTRAINT "directory_tokens_customer_id_customers_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("customer_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "directory_users" ADD CONSTRAINT "directory_users_user_id_users_data_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users_data"("user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "directory_groups_external_idx" ON "directory_groups" USING btree ("customer_id","external_id");--> statement-breakpoint
CREATE INDEX "directory_requests_customer_idx" ON "directory_requests" USING btree ("customer_id","created_at");--> statement-breakpoint
CREATE INDEX "directory_tokens_customer_idx" ON "directory_tokens" USING btree ("customer_id","created_at");--> statement-breakpoint
CREATE INDEX "directory_users_external_idx" ON "directory_users" USING btree ("customer_id","external_id");