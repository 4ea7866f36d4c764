import { sql, type SQL } from "drizzle-orm";
import { z } from "@hono/zod-openapi";
import { msg } from "../../domain/messages";
import { searchTextSchema } from "../../domain/text";
import { queryRows, type Database } from "../db/client";
import { HttpError } from "./errors";
import { searchMatch } from "./lists";

/** The query of every options endpoint: `q` narrows by name, `active=true` keeps active records, `after` pages on. */
export const optionsQuerySchema = z.object({
  q: searchTextSchema.optional(),
  active: z.enum(["true", "false"]).optional(),
  limit: z.coerce.number().int().min(1).max(50).default(20),
  after: z.string().max(1200).optional(),
});

/** An options endpoint's query, validated. */
export type OptionsQuery = z.output<typeof optionsQuerySchema>;

/** How a table offers itself to pickers: its option columns, its name and id (uuid) expressions, and what "active" means. */
export type OptionsSource = { columns: SQL; from: SQL; name: SQL; id: SQL; active: SQL };

const cursorSchema = z.tuple([z.string().max(1000), z.guid()]);

/**
 * A picker's page of options by name (`lower(name), id`, walked on the table's name index), with
 * a keyset cursor for the next page: `{ items, more, next }`. `q` matches the name (prefix below 3
 * characters, else contains), `active` keeps active records only.
 * @throws HttpError 422 (field `after`) for a cursor this endpoint did not make.
 */
export async function pickerOptions<T extends Record<string, unknown>>(
  db: Database,
  source: OptionsSource,
  query: { q?: string; active?: "true" | "false"; limit: number; after?: string },
): Promise<{ items: T[]; more: boolean; next: string | null }> {
  const match = query.q ? searchMatch(query.q) : undefined;
  const after = query.after === undefined ? undefined : readCursor(query.after);
  const rows = await queryRows<T & { __name: string; __id: string }>(
    db,
    sql`
    select ${source.columns}, lower(${source.name}) as __name, ${source.id}::text as __id from ${source.from}
    where ${query.active === "true" ? source.active : sql`true`}
      and ${match ? sql`${source.name} ilike ${match.pattern}` : sql`true`}
      and ${after ? sql`(lower(${source.name}), ${source.id}) > (${after[0]}, ${after[1]}::uuid)` : sql`true`}
    order by lower(${source.name}), ${source.id}
    limit ${query.limit + 1}`,
  );
  const more = rows.length > query.limit;
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    // The rest of `T & { __name, __id }` without those two keys is T, which TypeScript cannot see for a generic T.
    items: page.map(({ __name: _n, __id: _i, ...item }) => item as unknown as T),
    more,
    next: more && last ? Buffer.from(JSON.stringify([last.__name, last.__id])).toString("base64url") : null,
  };
}

function readCursor(text: string): [string, string] {
  try {
    return cursorSchema.parse(JSON.parse(Buffer.from(text, "base64url").toString("utf8")));
  } catch {
    throw new HttpError(422, "validation_failed", msg.api.badCursor, { after: msg.api.badCursor });
  }
}
