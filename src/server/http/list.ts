import { sql, type SQL } from "drizzle-orm";
import { z } from "@hono/zod-openapi";

/** Paging query parameters: `limit` (1–200 rows, default 50) and `offset` (rows to skip). */
export const pagingQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).max(10_000_000).default(0),
});

/**
 * Query parameters shared by every list endpoint: `q` (case-insensitive search), `sort` (one of
 * `sortKeys`), `order` (asc|desc), `limit` (1–200 rows, default 50), `offset` (rows to skip).
 */
export function listQuery<const S extends readonly [string, ...string[]]>(sortKeys: S, defaultSort: S[number], defaultOrder: "asc" | "desc" = "desc") {
  return pagingQuery.extend({
    q: z.string().trim().max(200).optional(),
    sort: z.enum(sortKeys).default(defaultSort as never),
    order: z.enum(["asc", "desc"]).default(defaultOrder),
  });
}

/** `%q%` for ILIKE with the LIKE wildcards in `q` escaped, so "50%" finds a literal "50%". */
export function likePattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
}

/** `(a ILIKE p OR b ILIKE p ...)` over `columns`, or TRUE when there is no search. */
export function searchAny(q: string | undefined, columns: SQL[]): SQL {
  if (!q) return sql`true`;
  const pattern = likePattern(q);
  return sql`(${sql.join(columns.map((c) => sql`${c} ilike ${pattern}`), sql` or `)})`;
}

/** `ORDER BY <expr> ASC|DESC NULLS LAST, <tiebreak>`: a stable order for paging. */
export function orderBy(expr: SQL, order: "asc" | "desc", tiebreak: SQL): SQL {
  return sql`order by ${expr} ${sql.raw(order === "asc" ? "asc" : "desc")} nulls last, ${tiebreak}`;
}

/** AND of the given conditions (undefined ones left out). */
export function and(...conditions: Array<SQL | undefined>): SQL {
  const present = conditions.filter((c): c is SQL => c !== undefined);
  return present.length ? sql.join(present, sql` and `) : sql`true`;
}

/** Response shape of a list: one page of `items`, the number of matching rows, and summary counts. */
export function pageSchema<I extends z.ZodType, S extends z.ZodType>(item: I, summary: S) {
  return z.object({ items: z.array(item), total: z.number().int(), summary });
}

type Jsonified<T> = T extends Date ? string : T extends Array<infer U> ? Array<Jsonified<U>> : T extends object ? { [K in keyof T]: Jsonified<T[K]> } : T;

/**
 * Dates become ISO 8601 strings in UTC, as they travel in JSON; everything else, strings included,
 * is kept exactly (timestamps arrive as Dates: see `queryRows`).
 */
export function toJson<T>(value: T): Jsonified<T> {
  if (value instanceof Date) return value.toISOString() as Jsonified<T>;
  if (Array.isArray(value)) return value.map(toJson) as Jsonified<T>;
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toJson(v)])) as Jsonified<T>;
  }
  return value as Jsonified<T>;
}
