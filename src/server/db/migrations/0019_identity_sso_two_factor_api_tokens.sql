CREATE TABLE "operator_api_token" (
	"token_id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"operator_id" text NOT NULL,
	"name" text NOT NULL,
	"prefix" text NOT NULL,
	"token_hash" text NOT NULL,
	"role" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"last_used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "operator_api_token_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "operator_totp_used" (
	"operator_id" text NOT NULL,
	"code_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "operator_totp_used_operator_id_code_hash_pk" PRIMARY KEY("operator_id","code_hash")
);
--> statement-breakpoint
CREATE TABLE "operator_two_factor" (
	"id" text PRIMARY KEY NOT NULL,
	"secret" text NOT NULL,
	"backup_codes" text NOT NULL,
	"user_id" text NOT NULL,
	"verified" boolean DEFAULT true,
	"failed_verification_count" integer DEFAULT 0,
	"locked_until" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "api_token_id" uuid;--> statement-breakpoint
ALTER TABLE "operator" ADD COLUMN "two_factor_enabled" boolean DEFAULT false;--> statement-breakpoint
ALTER TABLE "operator_api_token" ADD CONSTRAINT "operator_api_token_operator_id_operator_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operator"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "operator_totp_used" ADD CONSTRAINT "operator_totp_used_operator_id_operator_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operator"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "operator_two_factor" ADD CONSTRAINT "operator_two_factor_user_id_operator_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."operator"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "operator_api_token_operator_idx" ON "operator_api_token" USING btree ("operator_id","created_at");--> statement-breakpoint
CREATE INDEX "operator_two_factor_user_idx" ON "operator_two_factor" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "operator_two_factor_secret_idx" ON "operator_two_factor" USING btree ("secret");