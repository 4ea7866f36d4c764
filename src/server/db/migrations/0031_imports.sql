CREATE TABLE "import_mappings" (
	"operator_id" text NOT NULL,
	"header" text NOT NULL,
	"field" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "import_mappings_pkey" PRIMARY KEY("operator_id","header")
);
--> statement-breakpoint
CREATE TABLE "import_parts" (
	"import_id" uuid NOT NULL,
	"index" integer NOT NULL,
	"data" text NOT NULL,
	CONSTRAINT "import_parts_pkey" PRIMARY KEY("import_id","index")
);
--> statement-breakpoint
CREATE TABLE "import_rows" (
	"import_row_id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"import_id" uuid NOT NULL,
	"seq" integer NOT NULL,
	"cells" jsonb NOT NULL,
	"email" text,
	"first_name" text,
	"last_name" text,
	"job_title" text,
	"status" text,
	"roles" text[],
	"teams" text[],
	"customer_name" text,
	"resolved_customer_id" uuid,
	"problem" text,
	"outcome" text,
	"reason" text,
	"applied_user_id" uuid
);
--> statement-breakpoint
CREATE TABLE "imports" (
	"import_id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" uuid,
	"file_name" text NOT NULL,
	"status" text DEFAULT 'uploading' NOT NULL,
	"bytes" integer DEFAULT 0 NOT NULL,
	"parts" integer DEFAULT 0 NOT NULL,
	"row_count" integer DEFAULT 0 NOT NULL,
	"encoding" text,
	"delimiter" text,
	"columns" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"mapping" jsonb,
	"create_teams" boolean DEFAULT false NOT NULL,
	"counts" jsonb,
	"bulk_id" uuid,
	"created_teams" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"operator_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "imports_status_check" CHECK (status in ('uploading', 'mapping', 'previewed', 'applied'))
);
--> statement-breakpoint
ALTER TABLE "import_parts" ADD CONSTRAINT "import_parts_import_id_imports_import_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."imports"("import_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "import_rows" ADD CONSTRAINT "import_rows_import_id_imports_import_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."imports"("import_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "imports" ADD CONSTRAINT "imports_customer_id_customers_customer_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("customer_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "import_rows_seq_idx" ON "import_rows" USING btree ("import_id","seq");--> statement-breakpoint
CREATE INDEX "import_rows_email_idx" ON "import_rows" USING btree ("import_id","email","seq");--> statement-breakpoint
CREATE INDEX "import_rows_outcome_idx" ON "import_rows" USING btree ("import_id","outcome","seq");--> statement-breakpoint
CREATE INDEX "imports_created_at_idx" ON "imports" USING btree ("created_at");