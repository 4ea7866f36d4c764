/**
 * Declaration pieces several lists share (filters, sort keys, searches), each written once so that
 * every list's WHERE and ORDER BY keep the shape its indexes serve.
 */
import { z } from "@hono/zod-openapi";
import { sql, type SQL } from "drizzle-orm";
import { promptStatuses } from "../../../domain/enums";
import { userNameSortKey } from "../../db/schema";
import type { FilterSpec, SearchMatch, SortKey } from "./declare";
import { anyValue, matchingValues } from "./search";

/** A filter on a stored status (or type): one of `values` (422 otherwise), read as `column = value`. */
export function statusFilter(values: readonly [string, ...string[]], column: SQL): FilterSpec<string> {
  return { schema: z.enum(values).optional(), where: (v) => sql`${column} = ${v}` };
}

/**
 * Two filters bounding `column` by whole days, `YYYY-MM-DD` inclusive either side, in the database
 * session's time zone (the dashboard's trends count days the same way, `date_trunc('day')`), each a
 * range of the column's index. With `instants`, either bound may also be an exact ISO date-time
 * (the start inclusive, the end exclusive). `names` are the query parameters, `label` their description.
 */
export function dayRange<F extends string, T extends string>(
  names: { from: F; to: T },
  column: SQL,
  options: { label: string; instants?: boolean },
): Record<F | T, FilterSpec<string>> {
  const bound = options.instants ? z.iso.date().or(z.iso.datetime({ offset: true })) : z.iso.date();
  const isDay = (v: string) => /^\d{4}-\d{2}-\d{2}$/.test(v);
  const day = (where: (v: string) => SQL, description: string): FilterSpec<string> => ({
    schema: bound.optional(),
    where,
    description,
  });
  const at = (v: string) => (isDay(v) ? sql`${v}::date` : sql`${v}::timestamptz`);
  const end = (v: string) => (isDay(v) ? sql`${v}::date + 1` : sql`${v}::timestamptz`);
  const form = options.instants ? "YYYY-MM-DD or an ISO date-time" : "YYYY-MM-DD";
  return {
    [names.from]: day((v) => sql`${column} >= ${at(v)}`, `${options.label} on or after this day (${form})`),
    [names.to]: day((v) => sql`${column} < ${end(v)}`, `${options.label} on or before this day (${form})`),
  } as Record<F | T, FilterSpec<string>>;
}

/** A filter on the id of a referenced record (customer, skill): a uuid (422 otherwise), read as `column = value`. */
export function idFilter(column: SQL): FilterSpec<string> {
  return { schema: z.guid().optional(), where: (v) => sql`${column} = ${v}` };
}

/**
 * The sort by a count kept in a counter table: the count, then the counter table's own copy of the
 * row's id, so that the keyset seeks in its (count, id) index.
 */
export function counterSort(count: SQL, counterId: SQL): SortKey[] {
  return [
    { expr: count, type: "int" },
    { expr: counterId, type: "uuid", unique: true },
  ];
}

/**
 * The sort by a joined record's name (a customer's, a skill's): walks those records by name (their
 * lowercased-name index), then each one's rows; its id parts records of the same name.
 */
export function joinedNameSort(name: SQL, id: SQL): SortKey[] {
  return [
    { expr: sql`lower(${name})`, type: "text" },
    { expr: id, type: "uuid" },
  ];
}

/** The sort key of a user's name (full name, else e-mail; users_data_name_sort_idx), users aliased u. */
export const userNameKey: SortKey = {
  expr: userNameSortKey({ first_name: sql`u.first_name`, last_name: sql`u.last_name`, email: sql`u.email` }),
  type: "text",
};

/** The search of a record's Prompts panel (a skill's, a platform's; prompts aliased p): title and status. */
export const promptTitleOrStatus = (m: SearchMatch) =>
  sql`p.prompt_title ilike ${m.pattern} or ${anyValue(sql`p.status`, matchingValues(promptStatuses, m))}`;
