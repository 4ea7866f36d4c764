/**
 * The domain's row schemas say what the tables hold: for each entity, the schema that describes a
 * row of its table (src/domain) has exactly the table's columns (src/server/db/schema.ts, read with
 * Drizzle's getTableColumns) and a column may be null in the schema exactly when the table allows
 * it. A column added to a table without its schema (or the reverse) fails here.
 */
import { getTableColumns } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { customerSchema } from "../../src/domain/customers";
import { platformSchema } from "../../src/domain/platforms";
import { promptSchema } from "../../src/domain/prompts";
import { skillSchema } from "../../src/domain/skills";
import { teamListItemSchema } from "../../src/domain/teams";
import { userListItemSchema } from "../../src/domain/users";
import { customers, pedal_prompts, platforms, skills, teams, users_data } from "../../src/server/db/schema";

/** Whether a zod field accepts null. */
const acceptsNull = (field: z.ZodType) => field.safeParse(null).success;

/**
 * Where a schema is deliberately looser than the console's table: a database the console adopted
 * keeps its own constraints, and SPEC.md §2 shows a prompt's Updated as "Never" when absent.
 */
// An adopted database's rows can hold null where the console writes a value (docs/adopting.md).
const nullableOnPurpose = new Set(["pedal_prompts.updated_at", "platforms.updated_at", "platforms.needs_review"]);

const pairs: Array<[string, z.ZodObject, PgTable]> = [
  ["customers", customerSchema, customers],
  ["skills", skillSchema, skills],
  ["pedal_prompts", promptSchema, pedal_prompts],
  ["platforms", platformSchema, platforms],
];

describe("row schemas and tables", () => {
  it.each(pairs)("%s: the schema has the table's columns, null where the table allows it", (name, schema, table) => {
    const columns = getTableColumns(table);
    expect(Object.keys(schema.shape).sort()).toEqual(Object.keys(columns).sort());
    for (const [key, column] of Object.entries(columns)) {
      const nullable = !column.notNull || nullableOnPurpose.has(`${name}.${key}`);
      expect(acceptsNull(schema.shape[key] as z.ZodType), `${key}: nullable in the table is ${!column.notNull}`).toBe(
        nullable,
      );
    }
  });

  it.each([
    ["teams", teamListItemSchema, teams],
    ["users_data", userListItemSchema, users_data],
  ] as Array<[string, z.ZodObject, PgTable]>)(
    "%s: the list item holds every column of the table, null where the table allows it, and its derived fields",
    (_name, schema, table) => {
      const columns = getTableColumns(table);
      for (const [key, column] of Object.entries(columns)) {
        expect(schema.shape[key], `${key} in the item`).toBeDefined();
        expect(acceptsNull(schema.shape[key] as z.ZodType), `${key}: nullable in the table is ${!column.notNull}`).toBe(
          !column.notNull,
        );
      }
    },
  );
});
