CREATE TABLE "customers" (
	"customer_id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_name" text NOT NULL,
	"valid_domains" text,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "customers_status_check" CHECK (status in ('active', 'inactive', 'trial'))
);
--> statement-breakpoint
CREATE TABLE "operator" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"email_verified" boolean DEFAULT false NOT NULL,
	"image" text,
	"role" text DEFAULT 'viewer' NOT NULL,
	"banned" boolean DEFAULT false,
	"ban_reason" text,
	"ban_expires" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "operator_email_unique" UNIQUE("email")
);
--> statement-breakpoint
CREATE TABLE "operator_account" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"provider_id" text NOT NULL,
	"user_id" text NOT NULL,
	"access_token" text,
	"refresh_token" text,
	"id_token" text,
	"access_token_expires_at" timestamp with time zone,
	"refresh_token_expires_at" timestamp with time zone,
	"scope" text,
	"password" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "operator_session" (
	"id" text PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"token" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ip_address" text,
	"user_agent" text,
	"user_id" text NOT NULL,
	"impersonated_by" text,
	CONSTRAINT "operator_session_token_unique" UNIQUE("token")
);
--> statement-breakpoint
CREATE TABLE "operator_verification" (
	"id" text PRIMARY KEY NOT NULL,
	"identifier" text NOT NULL,
	"value" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pedal_prompts" (
	"prompt_id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"prompt_title" text NOT NULL,
	"prompt_value" text,
	"skill_id" uuid NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pedal_prompts_status_check" CHECK (status in ('active', 'inactive', 'draft'))
);
--> statement-breakpoint
CREATE TABLE "platform_prompts" (
	"platform_id" uuid NOT NULL,
	"prompt_id" uuid NOT NULL,
	"assigned_at" timestamp with time zone DEFAULT now() NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	CONSTRAINT "platform_prompts_pkey" PRIMARY KEY("platform_id","prompt_id")
);
--> statement-breakpoint
CREATE TABLE "platforms" (
	"platform_id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"platform_name" text NOT NULL,
	"platform_description" text,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "platforms_status_check" CHECK (status in ('active', 'inactive', 'draft'))
);
--> statement-breakpoint
CREATE TABLE "skill_comments" (
	"comment_id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" uuid NOT NULL,
	"skill_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"comment_value" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "skill_comments_status_check" CHECK (status in ('pending', 'active', 'inactive', 'rejected'))
);
--> statement-breakpoint
CREATE TABLE "skills" (
	"skill_id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"skill_name" text NOT NULL,
	"skill_description" text,
	"type" text DEFAULT 'manual' NOT NULL,
	"is_global" boolean DEFAULT false NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "skills_type_check" CHECK (type in ('manual', 'agent', 'detected')),
	CONSTRAINT "skills_status_check" CHECK (status in ('active', 'inactive'))
);
--> statement-breakpoint
CREATE TABLE "teams" (
	"team_id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" uuid NOT NULL,
	"team_name" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "teams_status_check" CHECK (status in ('active', 'inactive', 'pending'))
);
--> statement-breakpoint
CREATE TABLE "teams_skills" (
	"team_id" uuid NOT NULL,
	"skill_id" uuid NOT NULL,
	"customer_id" uuid NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"assigned_at" timestamp with time zone DEFAULT now() NOT NULL,
	"score" real,
	"last_used" timestamp with time zone,
	CONSTRAINT "teams_skills_pkey" PRIMARY KEY("team_id","skill_id"),
	CONSTRAINT "teams_skills_status_check" CHECK (status in ('active', 'inactive')),
	CONSTRAINT "teams_skills_score_check" CHECK (score is null or (score >= 0 and score <= 100))
);
--> statement-breakpoint
CREATE TABLE "teams_users" (
	"team_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"customer_id" uuid NOT NULL,
	CONSTRAINT "teams_users_pkey" PRIMARY KEY("team_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "users_data" (
	"user_id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" uuid NOT NULL,
	"email" text NOT NULL,
	"first_name" text,
	"last_name" text,
	"job_title" text,
	"status" text DEFAULT 'active' NOT NULL,
	"last_login" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_data_status_check" CHECK (status in ('active', 'inactive', 'pending'))
);
--> statement-breakpoint
CREATE TABLE "users_roles" (
	"user_id" uuid NOT NULL,
	"role" text NOT NULL,
	CONSTRAINT "users_roles_pkey" PRIMARY KEY("user_id","role"),
	CONSTRAINT "users_roles_role_check" CHECK (role in ('admin', 'manager', 'member'))
);
--> statement-breakpoint
ALTER TABLE "operator_account" ADD CONSTRAINT "operator_account_user_id_operator_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."operator"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "operator_session" ADD CONSTRAINT "operator_session_user_id_operator_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."operator"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pedal_prompts" ADD CONSTRAINT "pedal_prompts_skill_id_skills_skill_id_fk" FOREIGN KEY ("skill_id") REFERENCES "public"."skills"("skill_id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "platform_prompts" ADD CONSTRAINT "platform_prompts_platform_id_platforms_platform_id_fk" FOREIGN KEY ("platform_id") REFERENCES "public"."platforms"("platform_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "platform_prompts" ADD CONSTRAINT "platform_prompts_prompt_id_pedal_prompts_prompt_id_fk" FOREIGN KEY ("prompt_id") REFERENCES "public"."pedal_prompts"("prompt_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "skill_comments" ADD CONSTRAINT "skill_comments_customer_id_customers_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("customer_id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "skill_comments" ADD CONSTRAINT "skill_comments_skill_id_skills_skill_id_fk" FOREIGN KEY ("skill_id") REFERENCES "public"."skills"("skill_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "skill_comments" ADD CONSTRAINT "skill_comments_user_id_users_data_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users_data"("user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "teams" ADD CONSTRAINT "teams_customer_id_customers_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("customer_id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "teams_skills" ADD CONSTRAINT "teams_skills_team_id_teams_team_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("team_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "teams_skills" ADD CONSTRAINT "teams_skills_skill_id_skills_skill_id_fk" FOREIGN KEY ("skill_id") REFERENCES "public"."skills"("skill_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "teams_skills" ADD CONSTRAINT "teams_skills_customer_id_customers_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("customer_id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "teams_users" ADD CONSTRAINT "teams_users_team_id_teams_team_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("team_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "teams_users" ADD CONSTRAINT "teams_users_user_id_users_data_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users_data"("user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "teams_users" ADD CONSTRAINT "teams_users_customer_id_customers_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("customer_id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users_data" ADD CONSTRAINT "users_data_customer_id_customers_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("customer_id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users_roles" ADD CONSTRAINT "users_roles_user_id_users_data_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users_data"("user_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "customers_created_at_idx" ON "customers" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "customers_name_idx" ON "customers" USING btree ("customer_name");--> statement-breakpoint
CREATE INDEX "customers_status_idx" ON "customers" USING btree ("status");--> statement-breakpoint
CREATE INDEX "operator_account_user_idx" ON "operator_account" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "operator_session_user_idx" ON "operator_session" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "operator_verification_identifier_idx" ON "operator_verification" USING btree ("identifier");--> statement-breakpoint
CREATE INDEX "pedal_prompts_skill_idx" ON "pedal_prompts" USING btree ("skill_id","created_at");--> statement-breakpoint
CREATE INDEX "pedal_prompts_created_at_idx" ON "pedal_prompts" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "pedal_prompts_status_idx" ON "pedal_prompts" USING btree ("status");--> statement-breakpoint
CREATE INDEX "platform_prompts_prompt_idx" ON "platform_prompts" USING btree ("prompt_id");--> statement-breakpoint
CREATE INDEX "platforms_created_at_idx" ON "platforms" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "platforms_name_idx" ON "platforms" USING btree ("platform_name");--> statement-breakpoint
CREATE INDEX "skill_comments_skill_idx" ON "skill_comments" USING btree ("skill_id","created_at");--> statement-breakpoint
CREATE INDEX "skill_comments_customer_idx" ON "skill_comments" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "skill_comments_user_idx" ON "skill_comments" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "skill_comments_created_at_idx" ON "skill_comments" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "skill_comments_status_idx" ON "skill_comments" USING btree ("status");--> statement-breakpoint
CREATE INDEX "skills_created_at_idx" ON "skills" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "skills_name_idx" ON "skills" USING btree ("skill_name");--> statement-breakpoint
CREATE INDEX "skills_status_idx" ON "skills" USING btree ("status","skill_name");--> statement-breakpoint
CREATE INDEX "teams_customer_idx" ON "teams" USING btree ("customer_id","team_name");--> statement-breakpoint
CREATE INDEX "teams_created_at_idx" ON "teams" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "teams_name_idx" ON "teams" USING btree ("team_name");--> statement-breakpoint
CREATE INDEX "teams_skills_skill_idx" ON "teams_skills" USING btree ("skill_id","status");--> statement-breakpoint
CREATE INDEX "teams_skills_team_status_idx" ON "teams_skills" USING btree ("team_id","status");--> statement-breakpoint
CREATE INDEX "teams_users_user_idx" ON "teams_users" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_data_email_key" ON "users_data" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "users_data_customer_idx" ON "users_data" USING btree ("customer_id","created_at");--> statement-breakpoint
CREATE INDEX "users_data_created_at_idx" ON "users_data" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "users_data_last_login_idx" ON "users_data" USING btree ("last_login");--> statement-breakpoint
CREATE INDEX "users_data_status_idx" ON "users_data" USING btree ("status");