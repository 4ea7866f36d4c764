/**
 * The database's conventions, read from src/server/db/schema.ts, for the suites that derive their
 * cases from the route table instead of keeping a list per entity: which table a path parameter
 * names (`customerId`: the table whose primary key is `customer_id`), a real row of it, and the row
 * that the most other rows refer to (a parent with children to list).
 */
import { getTableColumns, sql, type SQL } from "drizzle-orm";
import { getTableConfig, type PgTable } from "drizzle-orm/pg-core";
import { snake, tables, type Rows, type TableInfo } from "./schema-model";

export type { Rows };

/**
 * The table whose primary key is the one column `param` names (`customerId` or `customer_id` →
 * customers), with that key's SQL name. Tables that share the key only to extend a row one to one
 * (customer_counts, whose primary key is also a foreign key to customers) do not count: the row is
 * the one they extend.
 * @throws Error when no table, or more than one, owns that primary key: the parameter breaks the
 * convention, and the suite cannot find a row for it.
 */
export function tableKeyedBy(param: string): Pick<TableInfo, "name" | "table"> & { key: string } {
  const column = snake(param);
  const found = tables.filter(({ table }) => {
    const key = Object.values(getTableColumns(table)).find((c) => c.primary && c.name === column);
    const extends_ = getTableConfig(table).foreignKeys.some((fk) => fk.reference().columns.some((c) => c === key));
    return key !== undefined && !extends_;
  });
  if (found.length !== 1)
    throw new Error(
      `path parameter ${param}: ${found.map((t) => t.name).join(", ") || "no table"} of schema.ts own the primary key ${column} (expected one)`,
    );
  return { name: found[0].name, table: found[0].table, key: column };
}

/** SELECTs of the id column of every row that refers to the table's key by foreign key, for a UNION ALL. */
function referrersOf(table: PgTable, key: string): SQL[] {
  return tables.flatMap((other) =>
    getTableConfig(other.table)
      .foreignKeys.map((fk) => fk.reference())
      .filter((ref) => ref.foreignTable === table && ref.foreignColumns.length === 1)
      .filter((ref) => ref.foreignColumns[0].name === key && other.table !== table)
      .map((ref) => sql`select ${sql.identifier(ref.columns[0].name)}::text as id from ${sql.identifier(other.name)}`),
  );
}

/**
 * An id of a real row of the table `param` names, the `offset`-th (0 the first) of its rows by how
 * few rows of other tables refer to it (ties by key): a record whose reads and writes stay cheap.
 * @throws Error when the table has no such row.
 */
export async function rowIdOf(rows: Rows, param: string, offset = 0): Promise<string> {
  const { table, name, key } = tableKeyedBy(param);
  const referrers = referrersOf(table, key);
  const found = await rows<{ id: string }>(
    referrers.length === 0
      ? sql`select ${sql.identifier(key)}::text as id from ${sql.identifier(name)} order by 1 limit 1 offset ${offset}`
      : sql`select t.${sql.identifier(key)}::text as id from ${sql.identifier(name)} t
          left join (${sql.join(referrers, sql` union all `)}) r on r.id = t.${sql.identifier(key)}::text
          group by t.${sql.identifier(key)} order by count(r.id), 1 limit 1 offset ${offset}`,
  );
  if (found.length === 0) throw new Error(`no row ${offset} in ${name} for the path parameter ${param}`);
  return found[0].id;
}

/**
 * The id of the row of the table `param` names that the most rows of other tables refer to by
 * foreign key (ties: the smallest id): a parent with the most to list. Without references, its
 * first row by key.
 * @throws Error when the table is empty.
 */
export async function busiestIdOf(rows: Rows, param: string): Promise<string> {
  const { table, key } = tableKeyedBy(param);
  const referrers = referrersOf(table, key);
  if (referrers.length === 0) return rowIdOf(rows, param);
  const [found] = await rows<{ id: string }>(sql`
    select id from (${sql.join(referrers, sql` union all `)}) r
    where id is not null group by id order by count(*) desc, id limit 1`);
  return found?.id ?? rowIdOf(rows, param);
}

/** `path` with each `{param}` replaced by `ids[param]`, URL-encoded. @throws Error for a parameter without a value. */
export function fillPath(path: string, ids: Record<string, string>): string {
  return path.replace(/\{([^}]+)\}/g, (_, param: string) => {
    if (!(param in ids)) throw new Error(`no value for {${param}} of ${path}`);
    return encodeURIComponent(ids[param]);
  });
}

/** The parameter names of an OpenAPI path (`/api/users/{userId}/teams` → `["userId"]`). */
export const paramsOf = (path: string): string[] => [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
