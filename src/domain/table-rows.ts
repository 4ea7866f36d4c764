import type { z } from "zod";

/**
 * That a domain schema describes the rows of a database table (src/server/db/schema.ts), declared
 * beside the schema: `table` the table's SQL name; `derived` the fields the schema adds to the
 * table's columns (a joined name, a count); `nullableOnPurpose` the columns the table never leaves
 * null but the schema accepts null, each with why. tests/api/schemas.test.ts finds every
 * declaration exported from src/domain and holds each schema to its table: exactly its columns
 * and the derived fields, a column nullable in the schema exactly when the table allows null.
 */
export type TableRows = {
  readonly kind: "table-rows";
  table: string;
  schema: z.ZodObject;
  derived: readonly string[];
  nullableOnPurpose: Readonly<Record<string, string>>;
};

/**
 * Declares that `schema` describes a row of `table` (see `TableRows`); no derived fields and no
 * looser column unless `options` names them.
 */
export function describesRows(
  table: string,
  schema: z.ZodObject,
  options: { derived?: readonly string[]; nullableOnPurpose?: Readonly<Record<string, string>> } = {},
): TableRows {
  return {
    kind: "table-rows",
    table,
    schema,
    derived: options.derived ?? [],
    nullableOnPurpose: options.nullableOnPurpose ?? {},
  };
}

/** Whether an exported value is a `describesRows` declaration. */
export const isTableRows = (value: unknown): value is TableRows =>
  typeof value === "object" && value !== null && (value as { kind?: unknown }).kind === "table-rows";
