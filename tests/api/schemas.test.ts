/**
 * The domain's row schemas say what the tables hold. Every table of src/server/db/schema.ts is
 * either described by a domain schema, declared beside it with `describesRows` (src/domain, found
 * here among every module's exports), or named below with why it has none. A described table's
 * schema has exactly the table's columns (read with Drizzle's getTableColumns) and the derived
 * fields its declaration names, and a column may be null in the schema exactly when the table
 * allows it (or the declaration says why it is looser). A column added to a table without its
 * schema (or the reverse), or a table added without a declaration, fails here.
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import { getTableColumns } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { isTableRows, type TableRows } from "../../src/domain/table-rows";
import { tables as schemaTables } from "../support/schema-model";

/** Whether a zod field accepts null. */
const acceptsNull = (field: z.ZodType) => field.safeParse(null).success;

/** Every `describesRows` declaration exported by a module of src/domain (alone or as a `recordSchemas` bundle's `rows`), with the module's name. */
async function tableRowsDeclarations(): Promise<Array<TableRows & { module: string }>> {
  const dir = path.resolve(import.meta.dirname, "../../src/domain");
  const found: Array<TableRows & { module: string }> = [];
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith(".ts"))
    .sort()) {
    const exports: Record<string, unknown> = await import(path.join(dir, file));
    for (const [name, value] of Object.entries(exports)) {
      const module = `${file.replace(/\.ts$/, "")}.${name}`;
      if (isTableRows(value)) found.push({ ...value, module });
      // A `recordSchemas` bundle declares its rows as its `rows`.
      const rows = typeof value === "object" && value !== null ? (value as { rows?: unknown }).rows : undefined;
      if (isTableRows(rows)) found.push({ ...rows, module: `${module}.rows` });
    }
  }
  return found;
}

/**
 * The tables no domain schema describes row for row, and why: the API shows them reshaped or in
 * part, or not at all.
 */
const withoutRowSchema: Record<string, string> = {
  users_roles: "A user's roles travel as the `roles` array of the user (userListRows), never as rows.",
  teams_skills:
    "An assignment is shown from either side with the other side's names (skillAssignmentSchema, teamSkillSchema), without the id the path names.",
  prompt_versions:
    "A version is shown without the prompt id its path names, with who proposed and approved it (promptVersionSchema).",
  prompt_changes: "A proposed change is shown as its base, proposed and current states (promptChangeSchema).",
  customer_settings:
    "A configuration is shown as its values, with the defaults for a customer without a row (customerConfigSchema).",
  list_preferences:
    "An operator's own choices, shown without the operator and list the request names (listPreferencesSchema).",
  bulk_actions: "Shown with who undid it and whether it can be undone, without the operator's id (bulkProgressSchema).",
  bulk_action_rows:
    "A report row is shown without its bulk id, its order and the values an undo puts back (bulkRowSchema).",
  deleted_records:
    "The snapshot stays on the server: Recently deleted shows what was deleted, when and by whom (deletedRecordSchema).",
  operator_api_token:
    "Only the token's SHA-256 is kept, and it never leaves the server: operatorApiTokenSchema shows the other columns.",
  operator: "better-auth's model (auth.ts), in its own camelCase fields: the API shows operators as operatorSchema.",
  operator_session: "better-auth's sessions: the API shows an operator's sessions as operatorSessionSchema.",
  operator_account: "better-auth's credentials (password hashes, provider tokens): never shown.",
  operator_verification: "better-auth's one-time values: never shown.",
  operator_two_factor: "Authenticator secrets and recovery code hashes: never shown.",
  operator_totp_used: "The replay guard of two-factor codes: never shown.",
  operator_reauthentication: "When a session last confirmed its operator, and its wrong answers since: never shown.",
  auth_throttle: "Sign-in and API token throttling counters: never shown.",
  directory_tokens:
    "Only the token's SHA-256 is kept, and it never leaves the server: directoryTokenSchema shows the other columns.",
  directory_users: "A user's externalId and that the directory manages them: shown in SCIM's User, not as rows.",
  directory_groups: "A team's externalId and that the directory manages it: shown in SCIM's Group, not as rows.",
  directory_requests: "The directory's request log: counted and its refusals shown in directoryStateSchema.",
  imports: "An import's step, file facts and counts: shown as importSchema (with its first rows), not as rows.",
  import_parts: "The file's raw bytes until it is read: never shown.",
  import_rows: "The file's rows with their outcome: importRowSchema shows the columns a screen needs.",
  import_mappings: "The operator's last mapping of each header: shown only as the next import's suggested mapping.",
  customer_counts: "Maintained counters: their counts are derived fields of the customers list's items.",
  team_counts: "Maintained counters: their counts are derived fields of the teams list's items (teamListRows).",
  skill_counts: "Maintained counters: their count is a derived field of the skills list's items.",
  status_counts: "Maintained counters of the lists' cards and the dashboard: never shown as rows.",
};

const declarations = await tableRowsDeclarations();

describe("row schemas and tables", () => {
  it("has a row schema declared for every table of schema.ts, or says why there is none", () => {
    const tables = schemaTables.map((t) => t.name).sort();
    const described = new Set(declarations.map((d) => d.table));
    expect(
      tables.filter((t) => !described.has(t) && !(t in withoutRowSchema)),
      "tables with neither a describesRows declaration in src/domain nor a reason here",
    ).toEqual([]);
    expect(
      tables.filter((t) => described.has(t) && t in withoutRowSchema),
      "described tables also named as without one",
    ).toEqual([]);
    expect(
      [...described, ...Object.keys(withoutRowSchema)].filter((t) => !tables.includes(t)),
      "names that are no table of schema.ts",
    ).toEqual([]);
    for (const [table, reason] of Object.entries(withoutRowSchema)) expect(reason.length, table).toBeGreaterThan(10);
    expect(declarations.length).toBeGreaterThan(0);
  });

  it.each(declarations.map((d) => [`${d.module} (${d.table})`, d] as const))(
    "%s: the schema has the table's columns and its derived fields, null where the table allows it",
    (_name, declaration) => {
      const table = schemaTables.find((t) => t.name === declaration.table);
      expect(table, `table ${declaration.table}`).toBeDefined();
      const columns = getTableColumns(table!.table);
      const shape = declaration.schema.shape as Record<string, z.ZodType>;
      expect(
        declaration.derived.filter((f) => f in columns),
        "derived fields that are columns",
      ).toEqual([]);
      expect(Object.keys(shape).sort()).toEqual([...Object.keys(columns), ...declaration.derived].sort());
      for (const [key, reason] of Object.entries(declaration.nullableOnPurpose)) {
        expect(columns[key]?.notNull, `${key} is looser on purpose (${reason}): a NOT NULL column`).toBe(true);
      }
      for (const [key, column] of Object.entries(columns)) {
        const nullable = !column.notNull || key in declaration.nullableOnPurpose;
        expect(acceptsNull(shape[key]), `${key}: nullable in the table is ${!column.notNull}`).toBe(nullable);
      }
    },
  );
});
