import { sql, type SQL } from "drizzle-orm";
import { queryRows, type Database } from "../db/client";
import { toJson } from "./list";

/**
 * One page of a small offset-paged list (a modal's rows): takes the page's query without its
 * LIMIT (`rows`: select … order by …, a total order), the count of every row it pages over
 * (`count`: a query answering one row `{ n }`), `limit` and `offset`. Reads the page, then the
 * count; returns `{ items, total }`, the items' dates as ISO strings (`toJson`).
 */
export async function offsetPage<T>(db: Database, query: { rows: SQL; count: SQL }, limit: number, offset: number) {
  const items = await queryRows<T>(db, sql`${query.rows} limit ${limit} offset ${offset}`);
  const [count] = await queryRows<{ n: number }>(db, query.count);
  return { items: toJson(items), total: count.n };
}
