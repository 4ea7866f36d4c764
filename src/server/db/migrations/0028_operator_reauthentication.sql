CREATE TABLE "operator_reauthentication" (
	"session_id" text PRIMARY KEY NOT NULL,
	"operator_id" text NOT NULL,
	"confirmed_at" timestamp with time zone,
	"failures" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "operator_reauthentication" ADD CONSTRAINT "operator_reauthentication_session_id_operator_session_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."operator_session"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "operator_reauthentication" ADD CONSTRAINT "operator_reauthentication_operator_id_operator_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operator"("id") ON DELETE cascade ON UPDATE no action;