/**
 * What a PostgreSQL database holds in its `public` schema, read from the system catalog: tables
 * with their columns, constraints, indexes and triggers; functions, sequences, enum types and
 * extensions. Used by `npm run db:adopt` to compare a database made by another application with
 * the one the console's migrations build, and by the start-up guard.
 */
import { sql, type SQL } from "drizzle-orm";
import { getTableConfig, PgTable, type PgDatabase, type PgQueryResultHKT } from "drizzle-orm/pg-core";
import * as schema from "./schema";

/** Any Drizzle PostgreSQL database (either driver). */
type AnyDatabase = PgDatabase<PgQueryResultHKT, Record<string, unknown>>;

/** Rows of a raw query (both drivers answer `{ rows }`). */
async function queryRows<T>(db: AnyDatabase, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as { rows: T[] }).rows;
}

export type CatalogColumn = {
  name: string;
  /** format_type: `text`, `uuid`, `timestamp with time zone`, `character varying(80)`... */
  type: string;
  notNull: boolean;
  default: string | null;
  /** '' none, 'a' GENERATED ALWAYS AS IDENTITY, 'd' BY DEFAULT. */
  identity: string;
  /** '' none, 's' GENERATED ALWAYS AS (default) STORED. */
  generated: string;
};

export type CatalogConstraint = {
  name: string;
  table: string;
  /** p primary key, u unique, c check, f foreign key. */
  kind: "p" | "u" | "c" | "f";
  /** pg_get_constraintdef, without a trailing NOT VALID. */
  def: string;
  columns: string[];
  refTable: string | null;
  refColumns: string[];
  /** false while added NOT VALID and not validated yet. */
  validated: boolean;
};

export type CatalogIndex = {
  name: string;
  table: string;
  /** pg_get_indexdef: `CREATE [UNIQUE] INDEX name ON public.table USING ...`. */
  def: string;
  unique: boolean;
  valid: boolean;
  /** The primary key or unique constraint this index backs, if any. */
  constraint: string | null;
  /** Key expressions, one per key column (`status`, `lower(email)`). */
  keys: string[];
  predicate: string | null;
};

export type CatalogTrigger = { name: string; table: string; def: string };
export type CatalogFunction = { name: string; args: string; def: string; src: string };
export type CatalogSequence = { name: string; ownedBy: { table: string; column: string } | null };

export type CatalogTable = {
  name: string;
  columns: CatalogColumn[];
  constraints: CatalogConstraint[];
  indexes: CatalogIndex[];
  triggers: CatalogTrigger[];
};

export type Catalog = {
  tables: Map<string, CatalogTable>;
  functions: CatalogFunction[];
  sequences: CatalogSequence[];
  enums: Array<{ name: string; labels: string[] }>;
  extensions: string[];
};

/** Quotes an SQL identifier. */
export const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Objects that belong to an extension (pg_trgm's functions...) are the extension's, not ours. */
const notFromExtension = (oid: string) =>
  `not exists (select 1 from pg_depend d where d.objid = ${oid} and d.deptype = 'e')`;

/** Reads the `public` schema of `db` (about ten catalog queries, whatever the data size). */
export async function readCatalog(db: AnyDatabase): Promise<Catalog> {
  const tableRows = await queryRows<{ name: string }>(
    db,
    sql.raw(`
    select c.relname::text as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and c.relkind in ('r', 'p') order by 1`),
  );
  const tables = new Map<string, CatalogTable>(
    tableRows.map((t) => [t.name, { name: t.name, columns: [], constraints: [], indexes: [], triggers: [] }]),
  );

  const columns = await queryRows<CatalogColumn & { table: string; not_null: boolean }>(
    db,
    sql.raw(`
    select c.relname::text as table, a.attname::text as name, format_type(a.atttypid, a.atttypmod) as type,
      a.attnotnull as not_null, pg_get_expr(d.adbin, d.adrelid) as default, a.attidentity::text as identity,
      a.attgenerated::text as generated
    from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
    left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
    where n.nspname = 'public' and c.relkind in ('r', 'p') and a.attnum > 0 and not a.attisdropped
    order by c.relname, a.attnum`),
  );
  for (const c of columns) {
    tables.get(c.table)?.columns.push({
      name: c.name,
      type: c.type,
      notNull: c.not_null,
      default: c.default,
      identity: c.identity ?? "",
      generated: c.generated ?? "",
    });
  }

  const constraints = await queryRows<{
    name: string;
    table: string;
    kind: CatalogConstraint["kind"];
    def: string;
    columns: string[] | null;
    ref_table: string | null;
    ref_columns: string[] | null;
    validated: boolean;
  }>(
    db,
    sql.raw(`
    select con.conname::text as name, c.relname::text as table, con.contype::text as kind,
      pg_get_constraintdef(con.oid) as def, con.convalidated as validated,
      (select array_agg(a.attname::text order by k.ord) from unnest(con.conkey) with ordinality k(num, ord)
        join pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.num) as columns,
      fc.relname::text as ref_table,
      (select array_agg(a.attname::text order by k.ord) from unnest(con.confkey) with ordinality k(num, ord)
        join pg_attribute a on a.attrelid = con.confrelid and a.attnum = k.num) as ref_columns
    from pg_constraint con join pg_class c on c.oid = con.conrelid join pg_namespace n on n.oid = c.relnamespace
    left join pg_class fc on fc.oid = con.confrelid
    where n.nspname = 'public' and con.contype in ('p', 'u', 'c', 'f') order by c.relname, con.conname`),
  );
  for (const c of constraints) {
    tables.get(c.table)?.constraints.push({
      name: c.name,
      table: c.table,
      kind: c.kind,
      def: c.def.replace(/ NOT VALID$/, ""),
      validated: c.validated,
      columns: c.columns ?? [],
      refTable: c.ref_table,
      refColumns: c.ref_columns ?? [],
    });
  }

  // keys is null for an index without key columns; the catalog's entry holds [] then.
  const indexes = await queryRows<Omit<CatalogIndex, "keys"> & { keys: string[] | null }>(
    db,
    sql.raw(`
    select i.relname::text as name, c.relname::text as table, pg_get_indexdef(i.oid) as def, x.indisunique as unique,
      x.indisvalid as valid, con.conname::text as constraint,
      (select array_agg(pg_get_indexdef(i.oid, k, true) order by k) from generate_series(1, x.indnkeyatts::int) k) as keys,
      pg_get_expr(x.indpred, x.indrelid) as predicate
    from pg_index x join pg_class i on i.oid = x.indexrelid join pg_class c on c.oid = x.indrelid
    join pg_namespace n on n.oid = c.relnamespace
    left join pg_constraint con on con.conindid = i.oid and con.conrelid = x.indrelid and con.contype in ('p', 'u', 'x')
    where n.nspname = 'public' and c.relkind in ('r', 'p') order by c.relname, i.relname`),
  );
  for (const i of indexes) tables.get(i.table)?.indexes.push({ ...i, keys: i.keys ?? [] });

  const triggers = await queryRows<CatalogTrigger>(
    db,
    sql.raw(`
    select t.tgname::text as name, c.relname::text as table, pg_get_triggerdef(t.oid) as def
    from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and not t.tgisinternal order by c.relname, t.tgname`),
  );
  for (const t of triggers) tables.get(t.table)?.triggers.push(t);

  const functions = await queryRows<CatalogFunction>(
    db,
    sql.raw(`
    select p.proname::text as name, pg_get_function_identity_arguments(p.oid) as args, pg_get_functiondef(p.oid) as def, p.prosrc as src
    from pg_proc p join pg_namespace n on n.oid = p.pronamespace
    where n.nspname = 'public' and p.prokind in ('f', 'p') and ${notFromExtension("p.oid")} order by 1, 2`),
  );

  const sequences = await queryRows<{ name: string; table: string | null; column: string | null }>(
    db,
    sql.raw(`
    select s.relname::text as name, t.relname::text as table, a.attname::text as column
    from pg_class s join pg_namespace n on n.oid = s.relnamespace
    left join pg_depend d on d.objid = s.oid and d.deptype = 'a' and d.refobjsubid > 0
    left join pg_class t on t.oid = d.refobjid left join pg_attribute a on a.attrelid = d.refobjid and a.attnum = d.refobjsubid
    where n.nspname = 'public' and s.relkind = 'S' and ${notFromExtension("s.oid")}
      and not exists (select 1 from pg_depend i where i.objid = s.oid and i.deptype = 'i') order by 1`),
  );

  const enums = await queryRows<{ name: string; labels: string[] }>(
    db,
    sql.raw(`
    select t.typname::text as name, array_agg(e.enumlabel::text order by e.enumsortorder) as labels
    from pg_type t join pg_enum e on e.enumtypid = t.oid join pg_namespace n on n.oid = t.typnamespace
    where n.nspname = 'public' group by t.typname order by 1`),
  );

  const extensions = await queryRows<{ name: string }>(
    db,
    sql.raw(`select extname::text as name from pg_extension where extname <> 'plpgsql' order by 1`),
  );

  return {
    tables,
    functions,
    sequences: sequences.map((s) => ({
      name: s.name,
      ownedBy: s.table && s.column ? { table: s.table, column: s.column } : null,
    })),
    enums,
    extensions: extensions.map((e) => e.name),
  };
}

/** Every table `schema.ts` declares, by name (the eleven of SPEC.md §3 and the console's own). */
export function schemaTableNames(): string[] {
  return (Object.values(schema) as unknown[])
    .filter((value): value is PgTable => value instanceof PgTable)
    .map((table) => getTableConfig(table).name)
    .sort();
}

/** The eleven tables of SPEC.md §3, by name, as `schema.ts` groups them in `specTables`. */
export function specTableNames(): string[] {
  return Object.values(schema.specTables).map((table) => getTableConfig(table).name);
}

/** Where the console's migrations are recorded (drizzle's migrator: schema `drizzle`). */
export const migrationsTable = "drizzle.__drizzle_migrations";

/**
 * Thrown before any migration runs on a database that holds tables of the console's schema but no
 * record of its migrations: a database made by another application, to be adopted first.
 */
export class NotAdoptedError extends Error {
  constructor(readonly tables: string[]) {
    super(
      `This database already holds ${tables.length === 1 ? "the table" : "tables"} ${tables.join(", ")} but no record of Pedal Console's migrations: ` +
        "it was made by another application. Nothing was changed.\n" +
        "Adopt it first: `DATABASE_URL=… npm run db:adopt` prints what differs (it changes nothing), " +
        "then `DATABASE_URL=… npm run db:adopt -- --apply` adopts it (docs/adopting.md).",
    );
    this.name = "NotAdoptedError";
  }
}

/**
 * How far the console manages `db`: `recorded` migrations in drizzle's table (0 when none), and
 * which tables of `schema.ts` exist in its `public` schema.
 */
export async function managementState(
  db: AnyDatabase,
): Promise<{ recorded: number; lastCreatedAt: number | null; presentTables: string[] }> {
  const names = schemaTableNames()
    .map((n) => `'${n}'`)
    .join(", ");
  const [state] = await queryRows<{ tracked: boolean; present: string[] | null }>(
    db,
    sql.raw(`
    select to_regclass('${migrationsTable}') is not null as tracked,
      (select array_agg(tablename::text order by tablename) from pg_tables where schemaname = 'public' and tablename in (${names})) as present`),
  );
  let recorded = 0;
  let lastCreatedAt: number | null = null;
  if (state.tracked) {
    const [row] = await queryRows<{ n: number; last: string | null }>(
      db,
      sql.raw(`select count(*)::int as n, max(created_at)::text as last from ${migrationsTable}`),
    );
    recorded = row.n;
    lastCreatedAt = row.last === null ? null : Number(row.last);
  }
  return { recorded, lastCreatedAt, presentTables: state.present ?? [] };
}

/**
 * Refuses to migrate a database made by another application (tables of our schema, no migration
 * recorded): running the first migration there would fail half-way on "relation already exists".
 * @throws NotAdoptedError naming `npm run db:adopt`.
 */
export async function assertMigratable(db: AnyDatabase): Promise<void> {
  const state = await managementState(db);
  if (state.recorded === 0 && state.presentTables.length > 0) throw new NotAdoptedError(state.presentTables);
}
