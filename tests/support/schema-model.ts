/**
 * The database as the route-table suites see it, read from src/server/db/schema.ts (the Drizzle
 * tables) instead of a list kept per entity: each table's columns, key and foreign keys; which
 * table an id names by the naming conventions (`customerId`, `customer_id` and `customer_ids` name
 * rows of the table whose primary key is `customer_id`); checksums of every table; and, for audit
 * coverage, which records a changed row is a change of.
 */
import { createHash } from "node:crypto";
import { is, sql, type SQL } from "drizzle-orm";
import { getTableConfig, PgTable } from "drizzle-orm/pg-core";
import * as schema from "../../src/server/db/schema";
import { routeTable } from "../../src/server/http/route";

/** A column of a table, by its SQL name. */
export type ColumnInfo = {
  name: string;
  /** Drizzle's column type: "PgUUID", "PgText", "PgInteger", "PgJsonb"... */
  type: string;
  notNull: boolean;
  /** The default value when it is a plain value (not SQL such as now()). */
  default?: unknown;
  /** The values a text column with `enum` takes. */
  enumValues?: readonly string[];
};

/** A foreign key: `columns` of its table reference `refColumns` of `table`. */
export type ForeignKeyInfo = { columns: string[]; table: string; refColumns: string[] };

/** A table of schema.ts. */
export type TableInfo = {
  name: string;
  /** The Drizzle table, for queries built on it. */
  table: PgTable;
  columns: ColumnInfo[];
  /** The primary key's columns (one for most tables, two for a link such as teams_users). */
  key: string[];
  foreignKeys: ForeignKeyInfo[];
};

function describeTable(table: PgTable): TableInfo {
  const config = getTableConfig(table);
  const composite = config.primaryKeys[0]?.columns.map((c) => c.name);
  return {
    name: config.name,
    table,
    columns: config.columns.map((c) => ({
      name: c.name,
      type: c.columnType,
      notNull: c.notNull,
      // A plain default ("active"), not SQL (now(), gen_random_uuid()) nor an object.
      ...(c.hasDefault && c.default !== null && typeof c.default !== "object" ? { default: c.default } : {}),
      ...(c.enumValues ? { enumValues: c.enumValues } : {}),
    })),
    key: composite ?? config.columns.filter((c) => c.primary).map((c) => c.name),
    foreignKeys: config.foreignKeys.map((fk) => {
      const ref = fk.reference();
      return {
        columns: ref.columns.map((c) => c.name),
        table: getTableConfig(ref.foreignTable).name,
        refColumns: ref.foreignColumns.map((c) => c.name),
      };
    }),
  };
}

/** Every table declared in src/server/db/schema.ts, once each (the file also groups some in objects). */
export const tables: TableInfo[] = [
  ...new Set(Object.values(schema as Record<string, unknown>).filter((v): v is PgTable => is(v, PgTable))),
].map(describeTable);

/** The table of that SQL name. @throws Error when schema.ts declares none. */
export function tableNamed(name: string): TableInfo {
  const found = tables.find((t) => t.name === name);
  if (!found) throw new Error(`no table ${name} in schema.ts`);
  return found;
}

/** The column of that name, or undefined. */
export const columnOf = (table: TableInfo, name: string) => table.columns.find((c) => c.name === name);

/**
 * A table whose one-column key is also a foreign key (customer_counts, customer_settings): it
 * extends another table's row one to one, so an id of that key names the row it extends.
 */
const extendsRow = (t: TableInfo) =>
  t.key.length === 1 && t.foreignKeys.some((fk) => fk.columns.length === 1 && fk.columns[0] === t.key[0]);

/** snake_case of a camelCase name (`customerId` → `customer_id`); a snake_case name stays as it is. */
export const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** The path's literal segments as table names would spell them (`prompt-changes` → `prompt_changes`). */
const segmentsOf = (path: string) =>
  path
    .split("/")
    .filter((s) => s && !s.startsWith("{"))
    .map((s) => s.replace(/-/g, "_"));

/**
 * The key column a bare `ids` field names on `path`: the rows of the first list the path names
 * (`/api/comments/bulk` → comment_id, `/api/bulk/customers/archive` → customer_id), a list being a
 * segment `s` served as `GET /api/s` whose singular `s_id` is the key of a table.
 */
function listKeyOf(path: string): string | undefined {
  const literal = path.split("/").filter((s) => s && !s.startsWith("{"));
  for (const [i, segment] of segmentsOf(path).entries()) {
    if (i === 0 || !routeTable.some((r) => r.method === "GET" && r.path === `/api/${literal[i]}`)) continue;
    const key = `${segment.replace(/s$/, "")}_id`;
    if (tables.some((t) => t.key.length === 1 && t.key[0] === key && !extendsRow(t))) return key;
  }
  return undefined;
}

/**
 * The table and key column that an id named `name` (a path parameter or a body field) names on a
 * route of `path`, by the naming conventions:
 * - `customerId`, `customer_id`, `customer_ids` and a longer name ending so (`default_view_id`)
 *   name the table whose one-column primary key is `customer_id`; a table extending another row
 *   one to one does not count (customer_settings: its id names the customer);
 * - `ids` names rows of the list the path names (`/api/comments/bulk`: comments);
 * - the better-auth tables are keyed `id`: `operatorId` names `operator`, `sessionId` `operator_session`
 *   (the table whose name is, or ends with, the parameter's stem);
 * - a name that no key owns but that is part of a table's key, on a path naming that table
 *   (`list` on /api/list-preferences/{list}), names that table by that column;
 * - where several tables own the key (change_id: prompt_changes, customer_settings_changes), the
 *   one the path names.
 * @returns undefined when the name follows none of these (then it names no row).
 */
export function tableOf(name: string, path: string): { table: TableInfo; column: string } | undefined {
  let column = snake(name).replace(/_ids$/, "_id");
  if (column === "ids") column = listKeyOf(path) ?? column;
  const segments = segmentsOf(path);
  const pick = (found: TableInfo[]) =>
    found.length <= 1 ? found[0] : (found.find((t) => segments.includes(t.name)) ?? undefined);
  const parts = column.split("_");
  for (let i = 0; i < parts.length - 1; i++) {
    const suffix = parts.slice(i).join("_");
    if (!suffix.endsWith("_id")) continue;
    const found = pick(tables.filter((t) => t.key.length === 1 && t.key[0] === suffix && !extendsRow(t)));
    if (found) return { table: found, column: suffix };
  }
  const stem = column.replace(/_id$/, "");
  if (stem !== column) {
    const found = pick(
      tables.filter((t) => t.key.length === 1 && t.key[0] === "id" && (t.name === stem || t.name.endsWith(`_${stem}`))),
    );
    if (found) return { table: found, column: "id" };
  }
  const keyed = tables.find((t) => t.key.includes(column) && segments.includes(t.name));
  return keyed ? { table: keyed, column } : undefined;
}

/** A query runner: the rows of a raw SQL query on the console's database (`TestConsole.rows`). */
export type Rows = <T>(query: SQL) => Promise<T[]>;

/**
 * Columns that change by use, not by a change made to anything (the checksums leave them out):
 * a session's sliding expiry, a token's last use. Rows that count use rather than change records
 * are left out by `useRows`.
 */
const useColumns: Record<string, string[]> = {
  operator_session: ["expires_at", "updated_at"],
  operator_api_token: ["last_used_at"],
  directory_tokens: ["last_used_at"],
};
/**
 * Rows that record use, not change: a CSV export is a read that records who exported what, a
 * personal API token's and a customer's directory's requests are counted per minute
 * (auth_throttle keys `api_token:…` and `directory:…`), and every directory request is logged
 * (directory_requests).
 */
const useAll = sql`false`;
const useRows: Record<string, SQL> = {
  audit_log: sql`action <> 'export'`,
  auth_throttle: sql`key not like 'api_token:%' and key not like 'directory:%'`,
  directory_requests: useAll,
};
/** Tables whose every row records use (see `useRows`): they name no record. */
const useOnly = new Set(Object.entries(useRows).flatMap(([table, where]) => (where === useAll ? [table] : [])));

/** The SQL of a table's rows as the checksums read them (without use columns and use rows). */
function checkedRows(t: TableInfo): SQL {
  const left = useColumns[t.name] ?? [];
  const columns = sql.join(
    t.columns.filter((c) => !left.includes(c.name)).map((c) => sql.identifier(c.name)),
    sql`, `,
  );
  return sql`(select ${columns} from ${sql.identifier(t.name)} where ${useRows[t.name] ?? sql`true`})`;
}

let publicTables: Promise<string[]> | undefined;

/**
 * A checksum of every table of the database's public schema (schema.ts's and any a migration
 * alone made; those `only` keeps): count and md5 of its rows in a fixed order, all in one query,
 * `{ table: "rows:md5" }`. Use is not change: see `useColumns` and `useRows`.
 */
export async function checksums(
  rows: Rows,
  only: (table: string) => boolean = () => true,
): Promise<Record<string, string>> {
  publicTables ??= rows<{ table_name: string }>(
    sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
  ).then((r) => r.map((t) => t.table_name));
  const names = (await publicTables).filter(only);
  if (names.length === 0) return {};
  const parts = names.map((name) => {
    const known = tables.find((t) => t.name === name);
    const source = known ? checkedRows(known) : sql.identifier(name);
    return sql`select ${name}::text as name, count(*)::int as n, md5(coalesce(string_agg(r::text, '|' order by r::text), '')) as sum from ${source} r`;
  });
  const result = await rows<{ name: string; n: number; sum: string }>(sql.join(parts, sql` union all `));
  return Object.fromEntries(result.map((r) => [r.name, `${r.n}:${r.sum}`]));
}

/** The database's oldest transaction still running (or the next one): rows written since carry an xmin at least this. */
const oldestRunning = async (rows: Rows) =>
  BigInt((await rows<{ x: string }>(sql`select pg_snapshot_xmin(pg_current_snapshot())::text as x`))[0].x);

/** Rows of `table` written by a transaction since `mark` (their `xmin`). */
const writtenSince = (mark: bigint) => sql`t.xmin::text::bigint >= ${(mark % 4294967296n).toString()}::bigint`;

/**
 * `checksums`, kept up to date at the cost of what changed: the first call reads and hashes every
 * row of every table of schema.ts; each later one reads, in one query, only the rows written since
 * the call before (their `xmin`, the transaction that wrote them, is at least the oldest
 * transaction then running) with each table's count, and re-reads whole only a table whose count
 * says rows were deleted. A row not written since has not changed, so the checksums are those the
 * whole tables would give (count and md5 of the rows' md5s in order); with no transaction since,
 * not even that query runs. Tables a migration alone made are checksummed whole each time.
 */
export function checksumWatch(rows: Rows): () => Promise<Record<string, string>> {
  const known = new Map<string, Map<string, string>>();
  let mark = 0n;
  let next = "";
  let last: Record<string, string> = {};
  const hashed = (t: TableInfo) => {
    const left = useColumns[t.name] ?? [];
    return sql.join(
      t.columns.filter((c) => !left.includes(c.name)).map((c) => sql`t.${sql.identifier(c.name)}`),
      sql`, `,
    );
  };
  const keyOf = (t: TableInfo) =>
    sql.join(
      t.key.map((k) => sql`t.${sql.identifier(k)}::text`),
      sql` || '/' || `,
    );
  const select = (t: TableInfo, where: SQL) =>
    sql`select ${t.name}::text as tbl, ${keyOf(t)} as key, md5(row(${hashed(t)})::text) as hash
      from ${sql.identifier(t.name)} t where ${useRows[t.name] ?? sql`true`} and ${where}`;
  const keyed = tables.filter((t) => t.key.length > 0);
  type Found = { tbl: string; key: string | null; hash: string };
  return async () => {
    const xid = (await rows<{ x: string }>(sql`select pg_snapshot_xmax(pg_current_snapshot())::text as x`))[0].x;
    if (xid === next) return last;
    const since = await oldestRunning(rows);
    const first = known.size === 0;
    const parts = keyed.flatMap((t) =>
      first
        ? [select(t, sql`true`)]
        : [
            select(t, writtenSince(mark)),
            sql`select ${t.name}::text as tbl, null as key, count(*)::text as hash from ${sql.identifier(t.name)} t where ${useRows[t.name] ?? sql`true`}`,
          ],
    );
    const found = await rows<Found>(sql.join(parts, sql` union all `));
    for (const t of keyed) if (!known.has(t.name)) known.set(t.name, new Map());
    for (const r of found) if (r.key !== null) known.get(r.tbl)!.set(r.key, r.hash);
    // A table whose count differs from what these writes explain lost rows: read it whole again.
    for (const r of found.filter((x) => x.key === null)) {
      if (known.get(r.tbl)!.size === Number(r.hash)) continue;
      const again = await rows<Found>(select(tableNamed(r.tbl), sql`true`));
      known.set(r.tbl, new Map(again.map((a) => [a.key!, a.hash])));
    }
    const sums: Record<string, string> = await checksums(rows, (name) => !known.has(name));
    for (const [name, byKey] of known) {
      const all = [...byKey.values()].sort();
      sums[name] = `${all.length}:${createHash("md5").update(all.join("|")).digest("hex")}`;
    }
    mark = since;
    next = xid;
    last = Object.fromEntries(Object.entries(sums).sort(([a], [b]) => a.localeCompare(b)));
    return last;
  };
}

/* ---------- Records, for audit coverage ---------- */

/**
 * Tables whose rows are no records of the audit log: the log itself; the counters that triggers
 * keep from the rows they count (migration 0007); a bulk action's per-row report and a deletion's
 * snapshot (the action, the delete and the restore are audited against the records they concern).
 */
const notRecorded = new Set([
  "audit_log",
  "customer_counts",
  "team_counts",
  "skill_counts",
  "status_counts",
  "bulk_action_rows",
  "deleted_records",
]);
/** A session is its operator's: ending one is audited against the operator (`end_session`), not the session. */
const partsOfOperator = new Set(["operator_session"]);
/**
 * The audit log's name of a table's records where the name is not the table's (`teams` → team,
 * `skill_comments` → comment, `users_data` by its key `user_id` → user): a customer's configuration
 * is named after its screen (/config), its table after the settings it holds.
 */
const entityAliases: Record<string, string> = { customer_settings: "customer_config" };

let recordTablesKnown: Map<string, string> | undefined;

/** The tables whose rows a route's path names, by the column it names them by (`teamId` → teams.team_id). */
function recordTables(): Map<string, string> {
  if (recordTablesKnown) return recordTablesKnown;
  const named = new Map<string, string>();
  recordTablesKnown = named;
  for (const r of routeTable)
    for (const m of r.path.matchAll(/\{([^}]+)\}/g)) {
      const found = tableOf(m[1], r.path);
      if (found && !notRecorded.has(found.table.name) && !partsOfOperator.has(found.table.name))
        named.set(found.table.name, found.column);
    }
  // A table with a name of its own in the audit log is a record too, by its key.
  for (const name of Object.keys(entityAliases)) named.set(name, tableNamed(name).key[0]);
  return named;
}

/** The audit log's name of the records of `table`, from the names it lists (`auditRecordEntities`). */
function entityOf(table: TableInfo, entities: readonly string[]): string | undefined {
  if (entityAliases[table.name]) return entityAliases[table.name];
  return entities.find(
    (e) =>
      table.name === e ||
      table.name === `${e}s` ||
      table.name.endsWith(`_${e}`) ||
      table.name.endsWith(`_${e}s`) ||
      (table.key.length === 1 && table.key[0] === `${e}_id`),
  );
}

/** How the rows of one table name records: `${entity}:${value of column}` for each part. */
type Naming = {
  table: TableInfo;
  key: SQL;
  hashed: SQL;
  names: Array<{ entity: string | { column: string }; column: string }>;
};

/**
 * How each table's rows name the records they are a change of:
 * - a table a route's path names (teams by `teamId`) names its own record, `team:<team_id>` (a
 *   table with an `entity` column, bulk_actions, names it by that: `customers:<bulk_id>`);
 * - a link, whose key is two foreign keys (teams_users), names both records;
 * - another table is part of the table whose name begins its own (customer_settings_changes of
 *   customer_settings, operator_account of operator), else of the records its foreign keys name
 *   (prompt_versions: the prompt);
 * - an account lock (auth_throttle `account:<email>`) is its operator's, and only the lock counts
 *   (counts of attempts are use); sessions count by their existence (their expiry slides with use).
 * @throws Error when a table's records have no name in `entities` (src/domain/audit.ts).
 */
export function recordNamings(entities: readonly string[]): Naming[] {
  const named = recordTables();
  const namings: Naming[] = [];
  const nameOf = (t: TableInfo) => {
    const e = entityOf(t, entities);
    if (!e) throw new Error(`the records of ${t.name} have no name among the audit log's entities`);
    return e;
  };
  const hashedOf = (t: TableInfo) => {
    const left =
      t.name === "operator_session"
        ? t.columns.map((c) => c.name).filter((c) => c !== "token")
        : (useColumns[t.name] ?? []);
    return sql.join(
      t.columns.filter((c) => !left.includes(c.name)).map((c) => sql`t.${sql.identifier(c.name)}`),
      sql`, `,
    );
  };
  const keyOf = (t: TableInfo) =>
    sql.join(
      (t.key.length ? t.key : t.columns.map((c) => c.name)).map((k) => sql`t.${sql.identifier(k)}::text`),
      sql` || '/' || `,
    );
  for (const t of tables) {
    if (notRecorded.has(t.name) || useOnly.has(t.name)) continue;
    if (t.name === "auth_throttle") continue; // below
    const own = named.get(t.name);
    let names: Naming["names"] = [];
    if (own !== undefined) {
      names = [{ entity: columnOf(t, "entity") ? { column: "entity" } : nameOf(t), column: own }];
    } else {
      const fks = t.foreignKeys.filter(
        (f) => f.columns.length === 1 && named.has(f.table) && !notRecorded.has(f.table),
      );
      const linked = fks.filter((f) => t.key.includes(f.columns[0]));
      const parent = tables
        .filter((p) => p !== t && t.name.startsWith(`${p.name}_`) && named.has(p.name))
        .sort((a, b) => b.name.length - a.name.length)[0];
      if (linked.length >= 2)
        names = linked.map((f) => ({ entity: nameOf(tableNamed(f.table)), column: f.columns[0] }));
      else if (parent) {
        // By its foreign key to the parent, else by a column of the parent key's own name
        // (customer_settings_changes.customer_id); a key named just `id` says nothing.
        const via =
          t.foreignKeys.find((f) => f.table === parent.name)?.columns[0] ??
          (parent.key[0] !== "id" ? t.columns.find((c) => c.name === parent.key[0])?.name : undefined);
        if (via) names = [{ entity: nameOf(parent), column: via }];
      } else names = fks.map((f) => ({ entity: nameOf(tableNamed(f.table)), column: f.columns[0] }));
    }
    if (names.length > 0) namings.push({ table: t, key: keyOf(t), hashed: hashedOf(t), names });
  }
  return namings;
}

/** Each tracked row ("table:key") with the md5 of what counts as its change and the records it names. */
export type RecordSnapshot = Map<string, { table: string; hash: string; records: string[] }>;

/**
 * A reader of the rows of every table whose rows name records (`recordNamings`), each with the md5
 * of what counts as its change and the records it names. The first call reads every row; each
 * later one reads, in one query, only the rows written since the call before (their `xmin`, the
 * transaction that wrote them, is at least the oldest transaction then running) and each table's
 * count, and keeps the other rows as they were: a row not written since has not changed. A table
 * whose count says rows were deleted has its keys read to find which.
 */
export function recordWatch(rows: Rows, entities: readonly string[]): () => Promise<RecordSnapshot> {
  const namings = recordNamings(entities);
  let known: RecordSnapshot | undefined;
  let mark = 0n;
  // Each row's records as one text: "entity:id" parts joined by a space (ids hold none).
  const recordsOf = (n: Naming) =>
    sql`concat_ws(' ', ${sql.join(
      n.names.map(
        (x) =>
          sql`${typeof x.entity === "string" ? sql`${x.entity}::text` : sql`t.${sql.identifier(x.entity.column)}`} || ':' || t.${sql.identifier(x.column)}::text`,
      ),
      sql`, `,
    )})`;
  // An account lock after failed sign-ins is its operator's; only the lock counts.
  const locks = sql`select 'auth_throttle' as tbl, t.key, md5(row(t.key, t.locked_until)::text) as hash,
    (select 'operator:' || o.id from operator o where 'account:' || lower(o.email) = t.key) as records
    from auth_throttle t where t.key like 'account:%'`;
  type Found = { tbl: string; key: string | null; hash: string; records: string | null };
  const entry = (r: Found) => ({
    table: r.tbl,
    hash: r.hash,
    records: r.records ? r.records.split(" ").filter(Boolean) : [],
  });
  return async () => {
    const since = await oldestRunning(rows);
    if (!known) {
      const parts = namings.map(
        (n) => sql`select ${n.table.name}::text as tbl, ${n.key} as key, md5(row(${n.hashed})::text) as hash,
          ${recordsOf(n)} as records from ${sql.identifier(n.table.name)} t`,
      );
      known = new Map(
        (await rows<Found>(sql.join([...parts, locks], sql` union all `))).map((r) => [`${r.tbl}:${r.key}`, entry(r)]),
      );
      mark = since;
      return known;
    }
    const written = writtenSince(mark);
    const parts = namings.flatMap((n) => [
      sql`select ${n.table.name}::text as tbl, ${n.key} as key, md5(row(${n.hashed})::text) as hash,
        ${recordsOf(n)} as records from ${sql.identifier(n.table.name)} t where ${written}`,
      sql`select ${n.table.name}::text as tbl, null as key, count(*)::text as hash, null as records from ${sql.identifier(n.table.name)} t`,
    ]);
    const found = await rows<Found>(sql.join([...parts, locks], sql` union all `));
    const snapshot: RecordSnapshot = new Map(known);
    for (const [key, row] of snapshot) if (row.table === "auth_throttle") snapshot.delete(key);
    for (const r of found) if (r.key !== null) snapshot.set(`${r.tbl}:${r.key}`, entry(r));
    // A table whose count differs from what these writes explain lost rows: read it whole again.
    for (const r of found.filter((x) => x.key === null)) {
      const rowsOf = [...snapshot.values()].filter((x) => x.table === r.tbl).length;
      if (rowsOf === Number(r.hash)) continue;
      const n = namings.find((x) => x.table.name === r.tbl)!;
      for (const [key, row] of snapshot) if (row.table === r.tbl) snapshot.delete(key);
      const again = await rows<Found>(
        sql`select ${n.table.name}::text as tbl, ${n.key} as key, md5(row(${n.hashed})::text) as hash,
          ${recordsOf(n)} as records from ${sql.identifier(n.table.name)} t`,
      );
      for (const a of again) snapshot.set(`${a.tbl}:${a.key}`, entry(a));
    }
    known = snapshot;
    mark = since;
    return snapshot;
  };
}

/**
 * The records changed between two snapshots, sorted: those of every row added, changed or
 * removed; a row removed with a record it names (a team's memberships with the team) is a change
 * of that record only.
 */
export function changedRecords(before: RecordSnapshot, after: RecordSnapshot): string[] {
  const records = new Set<string>();
  const named = recordTables();
  // Records whose own row is gone.
  const deleted = new Set(
    [...before].filter(([key, row]) => !after.has(key) && named.has(row.table)).flatMap(([, row]) => row.records),
  );
  for (const [key, row] of before) {
    const now = after.get(key);
    if (now && now.hash === row.hash) continue;
    const gone = row.records.filter((n) => deleted.has(n));
    (gone.length > 0 ? gone : row.records).forEach((n) => records.add(n));
  }
  for (const [key, row] of after) if (!before.has(key)) row.records.forEach((n) => records.add(n));
  return [...records].sort();
}
