/**
 * Keyset paging: the keys a sort orders by, the opaque cursor that holds a row's key values, and
 * the SQL that starts a page after (or before) that row on the sort's index.
 */
import { sql, type SQL } from "drizzle-orm";
import { z } from "@hono/zod-openapi";
import { msg } from "../../../domain/messages";
import { HttpError } from "../errors";
import type { KeyType, ListDeclaration, SortKey } from "./declare";

/** The keys a sort orders by: its own, then the tiebreak unless its last key is unique. */
export function sortKeys(
  decl: Pick<ListDeclaration<unknown, unknown, Record<string, unknown>>, "sorts" | "id">,
  sort: string,
): SortKey[] {
  const own = decl.sorts[sort];
  return own[own.length - 1]?.unique ? own : [...own, decl.id];
}

/** A cursor: the sort and order it belongs to, which way it pages, and the key values of its row. */
export type Cursor = { s: string; o: "asc" | "desc"; d: "after" | "before"; k: string[] };

const cursorSchema = z.object({
  s: z.string().max(50),
  o: z.enum(["asc", "desc"]),
  d: z.enum(["after", "before"]),
  k: z.array(z.string().max(1000)).min(1).max(8),
});

const valuePatterns: Record<KeyType, RegExp> = {
  text: /^[^\0]*$/,
  int: /^-?\d{1,10}$/,
  bigint: /^-?\d{1,19}$/,
  boolean: /^(true|false)$/,
  uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
  // PostgreSQL's text output of timestamptz (the cursor holds it as the database wrote it), or ±infinity.
  timestamptz: /^(-?infinity|\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d{1,6})?([+-]\d{2}(:?\d{2})?(:\d{2})?|Z)?)$/,
};

/** The opaque text of a cursor (base64url of its JSON). */
export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor), "utf8").toString("base64url");
}

const invalidCursor = () => new HttpError(422, "validation_failed", msg.api.badCursor, { cursor: msg.api.badCursor });

/**
 * Decodes and checks a cursor against the request's sort and order and the sort's key types.
 * @throws HttpError 422 (field `cursor`) for a malformed cursor or one of another sort or order.
 */
export function decodeCursor(text: string, sort: string, order: "asc" | "desc", keys: SortKey[]): Cursor {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, "base64url").toString("utf8"));
  } catch {
    throw invalidCursor();
  }
  const result = cursorSchema.safeParse(parsed);
  if (!result.success) throw invalidCursor();
  const cursor = result.data;
  if (cursor.s !== sort || cursor.o !== order || cursor.k.length !== keys.length) throw invalidCursor();
  cursor.k.forEach((value, i) => {
    if (!valuePatterns[keys[i].type].test(value)) throw invalidCursor();
    if (
      keys[i].type === "timestamptz" &&
      !/infinity/.test(value) &&
      Number.isNaN(Date.parse(value.replace(" ", "T").replace(/([+-]\d{2})$/, "$1:00")))
    )
      throw invalidCursor();
  });
  return cursor;
}

const cast = (value: string, type: KeyType) => sql`${value}::${sql.raw(type)}`;
const row = (parts: SQL[]) => (parts.length === 1 ? parts[0] : sql`(${sql.join(parts, sql`, `)})`);

/** `(k1, …, kn) op (v1, …, vn)`, plus the same on the leading keys when there are more than two, for an index on them. */
export function keysetCondition(keys: SortKey[], values: string[], op: ">" | "<"): SQL {
  const full = sql`${row(keys.map((k) => k.expr))} ${sql.raw(op)} ${row(keys.map((k, i) => cast(values[i], k.type)))}`;
  if (keys.length <= 2) return full;
  const lead = keys.slice(0, -1);
  const seek = sql`${row(lead.map((k) => k.expr))} ${sql.raw(op)}= ${row(lead.map((k, i) => cast(values[i], k.type)))}`;
  return sql`${seek} and ${full}`;
}

/** `ORDER BY` of the keys, all in `direction`. */
export function orderClause(keys: SortKey[], direction: "asc" | "desc"): SQL {
  return sql.join(
    keys.map((k) => sql`${k.expr} ${sql.raw(direction)}`),
    sql`, `,
  );
}

/** The sort keys' values as text, for a page's rows (`__k0`, `__k1`…): what its cursors hold. */
export function keyColumns(keys: SortKey[]): SQL {
  return sql.join(
    keys.map((k, i) => sql`(${k.expr})::text as ${sql.identifier(`__k${i}`)}`),
    sql`, `,
  );
}

/** A row's sort key values, read from its `keyColumns`. */
export const keyValues = (keys: SortKey[], row: Record<string, unknown>) => keys.map((_, i) => String(row[`__k${i}`]));
