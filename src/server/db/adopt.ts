/**
 * Adopting an existing database (docs/adopting.md): a database that the
 * console this one replaces filled, holding the eleven tables of SPEC.md §3 in a looser shape.
 *
 * The shape the console needs is not written down here: it is the database the committed
 * migrations build. `buildReference()` applies them to an empty in-memory PGlite and reads its
 * catalog, so a migration added later (a new table, index, trigger or function) is covered the day
 * it is committed. `inspect()` compares the target database with that reference, table by table and
 * column by column, and counts the existing rows that would break each missing constraint.
 * `applyPlan()` then does only what is safe:
 *  1. outside any transaction: the extensions, then the missing indexes of existing tables, built
 *     CONCURRENTLY (the tables stay writable); unique ones only when no rows share a key;
 *  2. in one transaction: enum types and sequences, the console's own tables (and any missing
 *     spec table, empty), missing columns (nullable; existing rows are not rewritten) and column
 *     defaults, functions, constraints the existing rows satisfy, indexes of the new tables,
 *     triggers, the rows the migrations put in the console's own tables, the maintained counters
 *     (`refresh_list_counts()`), and drizzle's migration record holding every journal entry with
 *     its hash and `when`, so that `npm start` afterwards applies only newer migrations.
 * Nothing is ever dropped, renamed, retyped or rewritten in a table that already exists.
 */
import { sql } from "drizzle-orm";
import { readMigrationFiles } from "drizzle-orm/migrator";
import {
  ident,
  managementState,
  migrationsTable,
  readCatalog,
  specTableNames,
  type Catalog,
  type CatalogConstraint,
  type CatalogIndex,
  type CatalogTable,
} from "./catalog";
import { migrationsFolder, openPglite, queryRows, type Database, type DatabaseHandle } from "./client";

/** Functions that rebuild what the console's own tables derive from the eleven (docs/lists.md "Counters"). */
const rebuildFunctions = ["refresh_list_counts"];
/** Example keys shown per finding. */
const maxExamples = 5;

/** The shape the migrations build: its catalog, and the rows they write into the console's own tables. */
export type Reference = {
  catalog: Catalog;
  rows: Map<string, unknown[]>;
  migrations: ReturnType<typeof readMigrationFiles>;
};

/** Applies the committed migrations to an empty in-memory PGlite and reads what they built (a few seconds). */
export async function buildReference(): Promise<Reference> {
  const handle = await openPglite();
  try {
    await handle.migrate();
    const catalog = await readCatalog(handle.db);
    const spec = new Set(specTableNames());
    const rows = new Map<string, unknown[]>();
    for (const name of catalog.tables.keys()) {
      if (spec.has(name)) continue;
      const found = await queryRows<{ row: unknown }>(
        handle.db,
        sql.raw(`select to_jsonb(t) as row from ${ident(name)} t`),
      );
      if (found.length)
        rows.set(
          name,
          found.map((r) => r.row),
        );
    }
    return { catalog, rows, migrations: readMigrationFiles({ migrationsFolder }) };
  } finally {
    await handle.close();
  }
}

/** Rows that break a constraint: how many, and up to five of their keys. */
export type Breaking = { count: number; examples: string[] };

/** One line of the report. */
export type Finding = {
  kind: "table" | "column" | "constraint" | "index" | "trigger" | "function" | "extension" | "type" | "sequence";
  name: string;
  /** match: as the console has it; differs: present but not as ours (left as is); missing: absent; extra: not ours (left as is). */
  state: "match" | "differs" | "missing" | "extra";
  /** What differs, in words (types, nullability, definitions). */
  detail?: string;
  /** Rows that break a missing constraint (then it is not added). */
  breaking?: Breaking;
  /** What --apply does about it. */
  action: "none" | "create" | "create-concurrently" | "report" | "not-added";
  /** Columns an added primary key marks NOT NULL (the rollback unmarks them). */
  marksNotNull?: string[];
};

export type TableReport = { name: string; spec: boolean; exists: boolean; rows: number | null; findings: Finding[] };

/** The finding on one of the console's constraints; `detail` is its definition unless said otherwise. */
function constraintFinding(
  c: CatalogConstraint,
  state: Finding["state"],
  action: Finding["action"],
  detail = c.def,
): Finding {
  return { kind: "constraint", name: c.name, state, action, detail };
}

type Step = { sql: string; label: string; savepoint?: boolean };

/** What inspect() found and what --apply would do. */
export type Plan = {
  /** adoptable: --apply has work to do; managed: the console already manages it; empty: none of our tables. */
  status: "adoptable" | "managed" | "empty";
  recorded: number;
  serverVersion: string;
  tables: TableReport[];
  global: Finding[];
  /** Run one by one, outside a transaction, before the transaction. */
  outside: Step[];
  /** Run in one transaction, in order; a step with `savepoint` that fails is reported, not fatal. */
  inside: Step[];
  migrations: Reference["migrations"];
};

const normalizeIndex = (def: string) => def.replace(/^CREATE (UNIQUE )?INDEX \S+ ON /, "CREATE $1INDEX ON ");
const normalizeTrigger = (def: string) => def.replace(/^CREATE (CONSTRAINT )?TRIGGER \S+ /, "CREATE $1TRIGGER ");
const checkExpression = (def: string) => def.replace(/^CHECK /, "");

/** SQL that renders a row's key as `col=value, col=value` for the examples. */
function keySql(columns: string[], alias = "t") {
  return columns.length
    ? `concat_ws(', ', ${columns.map((c) => `'${c}=' || coalesce(${alias}.${ident(c)}::text, 'null')`).join(", ")})`
    : `${alias}.ctid::text`;
}

async function breakingRows(db: Database, from: string, where: string, key: string): Promise<Breaking> {
  const [{ n }] = await queryRows<{ n: number }>(db, sql.raw(`select count(*)::int as n from ${from} where ${where}`));
  if (n === 0) return { count: 0, examples: [] };
  const examples = await queryRows<{ k: string }>(
    db,
    sql.raw(`select ${key} as k from ${from} where ${where} order by 1 limit ${maxExamples}`),
  );
  return { count: n, examples: examples.map((e) => e.k) };
}

/** Keys held by more than one row (or null in a primary key): the rows a unique key would refuse. */
async function duplicateKeys(
  db: Database,
  table: string,
  keys: string[],
  predicate: string | null,
  primary: string[],
): Promise<Breaking> {
  const from = `${ident(table)} t`;
  const where = predicate ? `where ${predicate}` : "";
  const label = (k: string) => k.replace(/^t\."(.*)"$/, "$1").replace(/'/g, "''");
  const groupKey = `concat_ws(', ', ${keys.map((k) => `'${label(k)}=' || coalesce((${k})::text, 'null')`).join(", ")})`;
  const dup = await queryRows<{ k: string; n: number }>(
    db,
    sql.raw(`
    select ${groupKey} as k, count(*)::int as n from ${from} ${where} group by ${keys.map((k) => `(${k})`).join(", ")} having count(*) > 1 order by 1`),
  );
  const nulls = primary.length
    ? await breakingRows(db, from, primary.map((c) => `t.${ident(c)} is null`).join(" or "), keySql(primary))
    : { count: 0, examples: [] };
  return {
    count: dup.length + nulls.count,
    examples: [
      ...dup.slice(0, maxExamples).map((d) => `${d.k} (${d.n} rows)`),
      ...nulls.examples.map((e) => `${e} (null key)`),
    ].slice(0, maxExamples),
  };
}

function primaryKeyColumns(table: CatalogTable | undefined): string[] {
  return table?.constraints.find((c) => c.kind === "p")?.columns ?? [];
}

/** CREATE TABLE for a table of the reference, columns only (constraints and indexes follow). */
function createTableSql(t: CatalogTable): string {
  const cols = t.columns.map((c) => {
    let line = `${ident(c.name)} ${c.type}`;
    if (c.generated === "s") line += ` GENERATED ALWAYS AS (${c.default}) STORED`;
    else if (c.identity) line += ` GENERATED ${c.identity === "a" ? "ALWAYS" : "BY DEFAULT"} AS IDENTITY`;
    else if (c.default !== null) line += ` DEFAULT ${c.default}`;
    if (c.notNull) line += " NOT NULL";
    return line;
  });
  return `CREATE TABLE ${ident(t.name)} (\n  ${cols.join(",\n  ")}\n)`;
}

const addConstraintSql = (c: CatalogConstraint) =>
  `ALTER TABLE ${ident(c.table)} ADD CONSTRAINT ${ident(c.name)} ${c.def}`;

/**
 * Compares the database with the reference and plans --apply. Reads only (catalog queries and one
 * counting query per missing constraint). The reference is built only when there is something to
 * compare (not for a database the console already manages, or one without the eleven tables).
 */
export async function inspect(handle: DatabaseHandle, loadReference: () => Promise<Reference>): Promise<Plan> {
  const db = handle.db;
  const [{ version }] = await queryRows<{ version: string }>(
    db,
    sql.raw("select current_setting('server_version') as version"),
  );
  const state = await managementState(db);
  const spec = specTableNames();
  const specSet = new Set(spec);
  const plan: Plan = {
    status: "adoptable",
    recorded: state.recorded,
    serverVersion: version,
    tables: [],
    global: [],
    outside: [],
    inside: [],
    migrations: [],
  };
  if (state.recorded > 0) return { ...plan, status: "managed" };
  const live = await readCatalog(db);
  if (!spec.some((name) => live.tables.has(name))) return { ...plan, status: "empty" };
  const reference = await loadReference();
  plan.migrations = reference.migrations;

  const ref = reference.catalog;
  const concurrently = handle.kind === "postgres" ? " CONCURRENTLY" : "";
  // Buckets of the transaction, in the order they must run.
  const b = {
    types: [] as Step[],
    tables: [] as Step[],
    columns: [] as Step[],
    functions: [] as Step[],
    keys: [] as Step[],
    checks: [] as Step[],
    indexes: [] as Step[],
    foreign: [] as Step[],
    triggers: [] as Step[],
    rows: [] as Step[],
    owned: [] as Step[],
  };

  for (const ext of ref.extensions) {
    if (live.extensions.includes(ext)) continue;
    plan.global.push({ kind: "extension", name: ext, state: "missing", action: "create" });
    plan.outside.push({
      sql: `CREATE EXTENSION IF NOT EXISTS ${ident(ext)}`,
      label: `extension ${ext}`,
      savepoint: true,
    });
  }
  // Functions an index expression calls (customer_domains) are created here, before those indexes.
  const afterExtensions = plan.outside.length;
  const indexDefs = [...ref.tables.values()].flatMap((t) => t.indexes.map((i) => i.def));
  for (const e of ref.enums) {
    const there = live.enums.find((x) => x.name === e.name);
    if (!there) {
      plan.global.push({ kind: "type", name: e.name, state: "missing", action: "create" });
      b.types.push({
        sql: `CREATE TYPE ${ident(e.name)} AS ENUM (${e.labels.map((l) => `'${l.replace(/'/g, "''")}'`).join(", ")})`,
        label: `type ${e.name}`,
      });
    } else if (there.labels.join() !== e.labels.join()) {
      plan.global.push({
        kind: "type",
        name: e.name,
        state: "differs",
        detail: `values here: ${there.labels.join(", ")}; the console's: ${e.labels.join(", ")}`,
        action: "report",
      });
    }
  }
  for (const s of ref.sequences) {
    if (live.sequences.some((x) => x.name === s.name)) continue;
    plan.global.push({ kind: "sequence", name: s.name, state: "missing", action: "create" });
    b.types.push({ sql: `CREATE SEQUENCE ${ident(s.name)}`, label: `sequence ${s.name}` });
    if (s.ownedBy)
      b.owned.push({
        sql: `ALTER SEQUENCE ${ident(s.name)} OWNED BY ${ident(s.ownedBy.table)}.${ident(s.ownedBy.column)}`,
        label: `sequence ${s.name}`,
      });
  }

  // Unique keys that exist (or will) per table, for the foreign keys that need them.
  const uniqueKeys = new Map<string, string[][]>();
  const addUnique = (table: string, cols: string[]) => uniqueKeys.set(table, [...(uniqueKeys.get(table) ?? []), cols]);
  const created = new Set<string>();
  const allIndexNames = new Map<string, CatalogIndex>();
  for (const t of live.tables.values()) for (const i of t.indexes) allIndexNames.set(i.name, i);
  const allConstraintNames = new Set<string>();
  for (const t of live.tables.values()) for (const c of t.constraints) allConstraintNames.add(c.name);

  const refTables = [...ref.tables.values()].sort(
    (a, b2) =>
      Number(specSet.has(b2.name)) - Number(specSet.has(a.name)) ||
      spec.indexOf(a.name) - spec.indexOf(b2.name) ||
      a.name.localeCompare(b2.name),
  );
  // First pass: tables, columns, primary keys and unique keys (foreign keys need to know them).
  const reports = new Map<string, TableReport>();
  for (const r of refTables) {
    const l = live.tables.get(r.name);
    const report: TableReport = {
      name: r.name,
      spec: specSet.has(r.name),
      exists: Boolean(l),
      rows: null,
      findings: [],
    };
    reports.set(r.name, report);
    plan.tables.push(report);
    if (!l) {
      created.add(r.name);
      report.findings.push({
        kind: "table",
        name: r.name,
        state: "missing",
        action: "create",
        detail: report.spec ? "created empty" : undefined,
      });
      b.tables.push({ sql: createTableSql(r), label: `table ${r.name}` });
      for (const c of r.constraints.filter((x) => x.kind === "p" || x.kind === "u")) {
        b.keys.push({ sql: addConstraintSql(c), label: `${r.name}: ${c.name}` });
        addUnique(r.name, c.columns);
      }
      for (const c of r.constraints.filter((x) => x.kind === "c"))
        b.checks.push({ sql: addConstraintSql(c), label: `${r.name}: ${c.name}` });
      for (const i of r.indexes.filter((x) => !x.constraint)) {
        b.indexes.push({ sql: i.def, label: `${r.name}: ${i.name}` });
        if (i.unique && !i.predicate) addUnique(r.name, i.keys);
      }
      for (const t of r.triggers) b.triggers.push({ sql: t.def, label: `${r.name}: ${t.name}` });
      for (const row of reference.rows.get(r.name) ?? []) {
        b.rows.push({
          sql: `INSERT INTO ${ident(r.name)} SELECT * FROM jsonb_populate_record(null::${ident(r.name)}, '${JSON.stringify(row).replace(/'/g, "''")}'::jsonb)`,
          label: `${r.name}: row`,
        });
      }
      continue;
    }
    const [{ n }] = await queryRows<{ n: number }>(db, sql.raw(`select count(*)::int as n from ${ident(r.name)}`));
    report.rows = n;
    const key = primaryKeyColumns(r).filter((c) => l.columns.some((x) => x.name === c));

    for (const c of r.columns) {
      const lc = l.columns.find((x) => x.name === c.name);
      if (!lc) {
        report.findings.push({
          kind: "column",
          name: c.name,
          state: "missing",
          action: "create",
          detail: `${c.type}; added as a nullable column (existing rows are not rewritten)${c.default ? `, default ${c.default} for new rows` : ""}`,
        });
        b.columns.push({
          sql: `ALTER TABLE ${ident(r.name)} ADD COLUMN ${ident(c.name)} ${c.type}`,
          label: `${r.name}.${c.name}`,
        });
        if (c.default && !c.generated && !c.identity)
          b.columns.push({
            sql: `ALTER TABLE ${ident(r.name)} ALTER COLUMN ${ident(c.name)} SET DEFAULT ${c.default}`,
            label: `${r.name}.${c.name} default`,
          });
        continue;
      }
      const differences: string[] = [];
      let action: Finding["action"] = "report";
      if (lc.type !== c.type) differences.push(`type ${lc.type} here, ${c.type} in the console`);
      if (c.notNull && !lc.notNull) {
        const nulls = await breakingRows(db, `${ident(r.name)} t`, `t.${ident(c.name)} is null`, keySql(key));
        differences.push(
          `nullable here (${nulls.count} ${nulls.count === 1 ? "row holds" : "rows hold"} null${nulls.examples.length ? `: ${nulls.examples.join("; ")}` : ""}), NOT NULL in the console`,
        );
      }
      if (!c.notNull && lc.notNull) differences.push("NOT NULL here, nullable in the console");
      if (c.default !== null && lc.default === null && !c.identity && !c.generated) {
        differences.push(`no default here; default ${c.default} set for new rows`);
        action = "create";
        b.columns.push({
          sql: `ALTER TABLE ${ident(r.name)} ALTER COLUMN ${ident(c.name)} SET DEFAULT ${c.default}`,
          label: `${r.name}.${c.name} default`,
        });
      } else if (c.default !== null && lc.default !== null && c.default !== lc.default) {
        differences.push(`default ${lc.default} here, ${c.default} in the console`);
      }
      report.findings.push(
        differences.length
          ? {
              kind: "column",
              name: c.name,
              state: "differs",
              detail: differences.join("; "),
              action: differences.length === 1 && action === "create" ? "create" : "report",
            }
          : { kind: "column", name: c.name, state: "match", action: "none", detail: c.type },
      );
    }
    for (const lc of l.columns) {
      if (r.columns.some((c) => c.name === lc.name)) continue;
      const blocks = lc.notNull && lc.default === null && !lc.identity && !lc.generated;
      report.findings.push({
        kind: "column",
        name: lc.name,
        state: "extra",
        action: "report",
        detail: `${lc.type}, not the console's; kept as is${blocks ? ". It is NOT NULL without a default, so rows the console adds will be refused: give it a default or make it nullable" : ""}`,
      });
    }

    // Primary key and unique constraints.
    const livePk = l.constraints.find((c) => c.kind === "p");
    for (const c of r.constraints.filter((x) => x.kind === "p" || x.kind === "u")) {
      const same = l.constraints.find((x) => x.name === c.name);
      const equivalent = l.constraints.find((x) => x.kind === c.kind && x.columns.join() === c.columns.join());
      if (same && same.def === c.def) {
        report.findings.push(constraintFinding(c, "match", "none"));
        addUnique(r.name, c.columns);
        continue;
      }
      if (c.kind === "p" && livePk) {
        const sameCols = livePk.columns.join() === c.columns.join();
        report.findings.push({
          kind: "constraint",
          name: c.name,
          state: sameCols ? "match" : "differs",
          action: sameCols ? "none" : "report",
          detail: sameCols
            ? `${c.def} (named ${livePk.name} here)`
            : `primary key here: ${livePk.def}; the console's: ${c.def}`,
        });
        if (sameCols) addUnique(r.name, c.columns);
        continue;
      }
      if (equivalent) {
        report.findings.push(constraintFinding(c, "match", "none", `${c.def} (named ${equivalent.name} here)`));
        addUnique(r.name, c.columns);
        continue;
      }
      if (same || allIndexNames.has(c.name)) {
        report.findings.push(
          constraintFinding(
            c,
            "differs",
            "report",
            `the name is taken here by ${same ? same.def : "another index"}; the console's: ${c.def}`,
          ),
        );
        continue;
      }
      const breaking = await duplicateKeys(
        db,
        r.name,
        c.columns.map((x) => `t.${ident(x)}`),
        null,
        c.kind === "p" ? c.columns : [],
      );
      if (breaking.count > 0) {
        report.findings.push({ ...constraintFinding(c, "missing", "not-added"), breaking });
        continue;
      }
      const nullable = c.kind === "p" ? c.columns.filter((x) => !l.columns.find((y) => y.name === x)?.notNull) : [];
      report.findings.push({
        kind: "constraint",
        name: c.name,
        state: "missing",
        action: "create",
        marksNotNull: nullable,
        detail: `${c.def}${nullable.length ? ` (marks ${nullable.join(", ")} NOT NULL; no row holds null)` : ""}`,
      });
      const idx = r.indexes.find((i) => i.constraint === c.name);
      if (idx && concurrently) {
        plan.outside.push({
          sql: idx.def.replace(/^CREATE (UNIQUE )?INDEX /, `CREATE $1INDEX${concurrently} IF NOT EXISTS `),
          label: `${r.name}: ${c.name}`,
          savepoint: true,
        });
        b.keys.push({
          sql: `ALTER TABLE ${ident(r.name)} ADD CONSTRAINT ${ident(c.name)} ${c.kind === "p" ? "PRIMARY KEY" : "UNIQUE"} USING INDEX ${ident(c.name)}`,
          label: `${r.name}: ${c.name}`,
          savepoint: true,
        });
      } else {
        b.keys.push({ sql: addConstraintSql(c), label: `${r.name}: ${c.name}`, savepoint: true });
      }
      addUnique(r.name, c.columns);
    }

    // Check constraints.
    for (const c of r.constraints.filter((x) => x.kind === "c")) {
      const same = l.constraints.find((x) => x.name === c.name);
      const equivalent = l.constraints.find((x) => x.kind === "c" && x.def === c.def);
      if (same && same.def === c.def) {
        report.findings.push(constraintFinding(c, "match", "none"));
      } else if (equivalent) {
        report.findings.push(constraintFinding(c, "match", "none", `${c.def} (named ${equivalent.name} here)`));
      } else if (same) {
        report.findings.push(constraintFinding(c, "differs", "report", `here: ${same.def}; the console's: ${c.def}`));
      } else if (!c.columns.every((col) => l.columns.some((x) => x.name === col))) {
        report.findings.push(constraintFinding(c, "missing", "create"));
        b.checks.push({ sql: addConstraintSql(c), label: `${r.name}: ${c.name}`, savepoint: true });
      } else {
        const shown = [...key, ...c.columns.filter((x) => !key.includes(x))];
        const breaking = await breakingRows(
          db,
          `${ident(r.name)} t`,
          `not coalesce(${checkExpression(c.def)}, true)`,
          keySql(shown),
        );
        if (breaking.count > 0) report.findings.push({ ...constraintFinding(c, "missing", "not-added"), breaking });
        else {
          report.findings.push(constraintFinding(c, "missing", "create"));
          b.checks.push({ sql: addConstraintSql(c), label: `${r.name}: ${c.name}`, savepoint: true });
        }
      }
    }

    // Indexes that back no constraint: ours by name (later migrations refer to them by name).
    for (const i of r.indexes.filter((x) => !x.constraint)) {
      const same = l.indexes.find((x) => x.name === i.name);
      const taken = allIndexNames.get(i.name);
      const equivalent = l.indexes.find((x) => x.name !== i.name && normalizeIndex(x.def) === normalizeIndex(i.def));
      if (same && same.valid && normalizeIndex(same.def) === normalizeIndex(i.def)) {
        report.findings.push({ kind: "index", name: i.name, state: "match", action: "none", detail: indexDetail(i) });
        if (i.unique && !i.predicate) addUnique(r.name, i.keys);
        continue;
      }
      if ((same && same.valid) || (taken && taken.table !== r.name) || allConstraintNames.has(i.name)) {
        report.findings.push({
          kind: "index",
          name: i.name,
          state: "differs",
          action: "report",
          detail: `the name is taken here by ${same ? same.def : `an object of ${taken?.table ?? "another table"}`}; the console's: ${indexDetail(i)}`,
        });
        continue;
      }
      if (i.unique) {
        const breaking = await duplicateKeys(db, r.name, i.keys, i.predicate, []);
        if (breaking.count > 0) {
          report.findings.push({
            kind: "index",
            name: i.name,
            state: "missing",
            action: "not-added",
            detail: indexDetail(i),
            breaking,
          });
          continue;
        }
        if (!i.predicate) addUnique(r.name, i.keys);
      }
      // An index on a column this plan adds is built in the transaction, once the column exists.
      const onNewColumn = r.columns.some(
        (c) => !l.columns.some((x) => x.name === c.name) && new RegExp(`\\b${c.name}\\b`).test(i.def),
      );
      if (onNewColumn) {
        report.findings.push({
          kind: "index",
          name: i.name,
          state: "missing",
          action: "create",
          detail: `${indexDetail(i)} (on a column added here: built with it)`,
        });
        b.indexes.push({ sql: i.def, label: `${r.name}: ${i.name}` });
        continue;
      }
      report.findings.push({
        kind: "index",
        name: i.name,
        state: "missing",
        action: concurrently ? "create-concurrently" : "create",
        detail: `${indexDetail(i)}${same ? " (an unfinished build of it is replaced)" : ""}${equivalent ? ` (${equivalent.name} here is the same; ours is added so that later migrations find it by name)` : ""}`,
      });
      if (same && !same.valid)
        plan.outside.push({
          sql: `DROP INDEX${concurrently} IF EXISTS ${ident(i.name)}`,
          label: `${r.name}: unfinished ${i.name}`,
        });
      plan.outside.push({
        sql: i.def.replace(/^CREATE (UNIQUE )?INDEX /, `CREATE $1INDEX${concurrently} IF NOT EXISTS `),
        label: `${r.name}: ${i.name}`,
        savepoint: true,
      });
    }
    for (const li of l.indexes.filter((x) => !x.constraint && !r.indexes.some((i) => i.name === x.name))) {
      report.findings.push({
        kind: "index",
        name: li.name,
        state: "extra",
        action: "report",
        detail: `${indexDetail(li)}; not the console's, kept`,
      });
    }

    // Triggers (the maintained counters of the lists).
    for (const t of r.triggers) {
      const same = l.triggers.find((x) => x.name === t.name);
      if (same && normalizeTrigger(same.def) === normalizeTrigger(t.def)) {
        report.findings.push({ kind: "trigger", name: t.name, state: "match", action: "none" });
      } else if (same) {
        report.findings.push({
          kind: "trigger",
          name: t.name,
          state: "differs",
          action: "report",
          detail: `here: ${same.def}`,
        });
      } else {
        report.findings.push({
          kind: "trigger",
          name: t.name,
          state: "missing",
          action: "create",
          detail: triggerDetail(t.def),
        });
        b.triggers.push({ sql: t.def, label: `${r.name}: ${t.name}` });
      }
    }
    for (const lt of l.triggers.filter((x) => !r.triggers.some((t) => t.name === x.name))) {
      report.findings.push({
        kind: "trigger",
        name: lt.name,
        state: "extra",
        action: "report",
        detail: `${triggerDetail(lt.def)}; not the console's, kept`,
      });
    }
  }

  // Foreign keys, once every table's unique keys are known.
  for (const r of refTables) {
    const l = live.tables.get(r.name);
    const report = reports.get(r.name)!;
    for (const c of r.constraints.filter((x) => x.kind === "f")) {
      if (!l) {
        b.foreign.push({
          sql: addConstraintSql(c),
          label: `${r.name}: ${c.name}`,
          savepoint: !created.has(c.refTable!),
        });
        continue;
      }
      const same = l.constraints.find((x) => x.name === c.name);
      const equivalent = l.constraints.find((x) => x.kind === "f" && x.name !== c.name && x.def === c.def);
      if (same && same.def === c.def) {
        report.findings.push(constraintFinding(c, "match", "none"));
        continue;
      }
      if (same) {
        report.findings.push(constraintFinding(c, "differs", "report", `here: ${same.def}; the console's: ${c.def}`));
        continue;
      }
      const shown = [...primaryKeyColumns(r), ...c.columns.filter((x) => !primaryKeyColumns(r).includes(x))].filter(
        (x) => l.columns.some((y) => y.name === x),
      );
      const parentExists = live.tables.has(c.refTable!);
      const columnsExist = c.columns.every((col) => l.columns.some((x) => x.name === col));
      const breaking = !columnsExist
        ? { count: 0, examples: [] }
        : await breakingRows(
            db,
            `${ident(r.name)} t`,
            parentExists
              ? `${c.columns.map((col) => `t.${ident(col)} is not null`).join(" and ")} and not exists (select 1 from ${ident(c.refTable!)} p where ${c.columns.map((col, k) => `p.${ident(c.refColumns[k])} = t.${ident(col)}`).join(" and ")})`
              : c.columns.map((col) => `t.${ident(col)} is not null`).join(" and "),
            keySql(shown),
          );
      const parentKeyed = (uniqueKeys.get(c.refTable!) ?? []).some((cols) => cols.join() === c.refColumns.join());
      if (breaking.count > 0) {
        report.findings.push({ ...constraintFinding(c, "missing", "not-added", `${c.def}: orphaned rows`), breaking });
      } else if (!parentKeyed) {
        const refKey = `${c.refTable}(${c.refColumns.join(", ")})`;
        report.findings.push(
          constraintFinding(c, "missing", "not-added", `${c.def}: ${refKey} is not a unique key here`),
        );
      } else {
        report.findings.push({
          kind: "constraint",
          name: c.name,
          state: "missing",
          action: "create",
          detail: `${c.def}${equivalent ? ` (${equivalent.name} here is the same; ours is added so that later migrations find it by name)` : ""}`,
        });
        b.foreign.push({ sql: addConstraintSql(c), label: `${r.name}: ${c.name}`, savepoint: true });
      }
    }
  }

  for (const f of ref.functions) {
    const same = live.functions.find((x) => x.name === f.name && x.args === f.args);
    if (same && same.src.trim() === f.src.trim()) continue;
    if (same) {
      plan.global.push({
        kind: "function",
        name: `${f.name}(${f.args})`,
        state: "differs",
        action: "report",
        detail: "a function of this name and arguments exists here with another body; kept as is",
      });
      continue;
    }
    plan.global.push({ kind: "function", name: `${f.name}(${f.args})`, state: "missing", action: "create" });
    const step = {
      sql: f.def
        .replace(/^CREATE OR REPLACE FUNCTION/, "CREATE FUNCTION")
        .replace(/^CREATE OR REPLACE PROCEDURE/, "CREATE PROCEDURE"),
      label: `function ${f.name}`,
    };
    const inIndex = indexDefs.some((def) => new RegExp(`\\b${f.name}\\(`).test(def));
    if (inIndex) plan.outside.splice(afterExtensions, 0, { ...step, savepoint: true });
    else b.functions.push(step);
  }

  const rebuild: Step[] = rebuildFunctions
    .filter((name) => ref.functions.some((f) => f.name === name && f.args === ""))
    .map((name) => ({ sql: `SELECT ${ident(name)}()`, label: `rebuild ${name}` }));
  plan.inside = [
    ...b.types,
    ...b.tables,
    ...b.columns,
    ...b.functions,
    ...b.keys,
    ...b.checks,
    ...b.indexes,
    ...b.foreign,
    ...b.triggers,
    ...b.rows,
    ...b.owned,
    ...rebuild,
  ];
  return plan;
}

function indexDetail(i: CatalogIndex) {
  const using = i.def.replace(/^.* USING /, "");
  return `${i.unique ? "unique " : ""}${using}`;
}

function triggerDetail(def: string) {
  return def.replace(/^CREATE (CONSTRAINT )?TRIGGER \S+ /, "").replace(/ ON public\./, " ON ");
}

/** What --apply did: steps run, and those refused by the server (reported, the rest went on). */
export type ApplyResult = { applied: string[]; refused: Array<{ label: string; error: string }>; recorded: number };

/**
 * Carries out `plan` (from inspect()): the steps outside the transaction, then the transaction that
 * ends by recording every migration of the journal as applied. A step with `savepoint` that the
 * server refuses is rolled back alone and reported; any other failure rolls the transaction back.
 */
export async function applyPlan(handle: DatabaseHandle, plan: Plan): Promise<ApplyResult> {
  if (plan.status !== "adoptable") return { applied: [], refused: [], recorded: 0 };
  const result: ApplyResult = { applied: [], refused: [], recorded: 0 };
  for (const step of plan.outside) {
    try {
      await handle.db.execute(sql.raw(step.sql));
      result.applied.push(step.label);
    } catch (err) {
      if (!step.savepoint) throw err;
      result.refused.push({ label: step.label, error: (err as Error).message });
    }
  }
  await handle.db.transaction(async (tx) => {
    // Two adoptions at once: the second waits here, then finds the migrations recorded and stops.
    await tx.execute(sql.raw(`select pg_advisory_xact_lock(hashtext('pedal-console-adopt'))`));
    if ((await managementState(tx)).recorded > 0)
      throw new Error("Another --apply adopted this database meanwhile; nothing more was done.");
    for (const step of plan.inside) {
      if (!step.savepoint) {
        await tx.execute(sql.raw(step.sql));
        result.applied.push(step.label);
        continue;
      }
      try {
        await tx.transaction(async (sp) => {
          await sp.execute(sql.raw(step.sql));
        });
        result.applied.push(step.label);
      } catch (err) {
        result.refused.push({ label: step.label, error: (err as Error).message });
      }
    }
    const [schemaName, tableName] = migrationsTable.split(".");
    // The same table drizzle's migrator creates; it then applies the entries whose `when` is newer
    // than the newest `created_at` recorded here.
    await tx.execute(sql.raw(`CREATE SCHEMA IF NOT EXISTS ${ident(schemaName)}`));
    await tx.execute(
      sql.raw(
        `CREATE TABLE IF NOT EXISTS ${ident(schemaName)}.${ident(tableName)} (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at bigint)`,
      ),
    );
    for (const m of plan.migrations) {
      await tx.execute(
        sql`insert into ${sql.identifier(schemaName)}.${sql.identifier(tableName)} ("hash", "created_at") values (${m.hash}, ${m.folderMillis})`,
      );
      result.recorded++;
    }
  });
  return result;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;
const tag: Record<Finding["state"], string> = { match: "ok", differs: "DIFFERS", missing: "MISSING", extra: "EXTRA" };

function findingLine(f: Finding, dryRun: boolean): string {
  const will = dryRun ? "--apply " : "";
  let text = `  ${tag[f.state].padEnd(8)} ${f.kind} ${f.name}${f.detail ? `  ${f.detail}` : ""}`;
  if (f.action === "create") text += `  → ${will}adds it`;
  if (f.action === "create-concurrently") text += `  → ${will}builds it concurrently`;
  if (f.action === "not-added" && f.breaking) {
    text += `\n           → not added: ${plural(f.breaking.count, f.kind === "constraint" && f.breaking.examples.some((e) => e.endsWith(" rows)")) ? "duplicated key" : "row")} ${f.breaking.count === 1 ? "breaks" : "break"} it, e.g. ${f.breaking.examples.join("; ")}`;
  } else if (f.action === "not-added") {
    text += "  → not added";
  }
  return text;
}

/** The report `npm run db:adopt` prints (docs/adopting.md). */
export function formatReport(plan: Plan, options: { dryRun: boolean }): string {
  const out: string[] = [];
  const migrations = plan.migrations;
  const journal = `${plural(migrations.length, "migration")}`;
  if (plan.status === "managed") {
    return `This database is already managed by Pedal Console (${plural(plan.recorded, "migration")} recorded): there is nothing to adopt and nothing was changed. \`npm start\` applies any newer migration.\n`;
  }
  if (plan.status === "empty") {
    return "This database holds none of the eleven tables of SPEC.md section 3: there is nothing to adopt and nothing was changed. `npm start` creates every table.\n";
  }
  out.push(
    `Adopting an existing database (PostgreSQL ${plan.serverVersion}), compared with the schema the console's ${journal} build.`,
  );
  out.push(
    "ok: as the console has it; DIFFERS: present but not as the console has it (left as is); MISSING: absent; EXTRA: not the console's (kept).",
  );
  const groups: Array<[string, TableReport[]]> = [
    [
      "The eleven tables of SPEC.md section 3 (their rows and columns are never changed)",
      plan.tables.filter((t) => t.spec),
    ],
    ["The console's own tables", plan.tables.filter((t) => !t.spec)],
  ];
  for (const [title, tables] of groups) {
    out.push("", `== ${title}`);
    for (const t of tables) {
      if (!t.exists) {
        out.push(
          "",
          `${t.name}: MISSING${t.spec ? " (created empty)" : ""} → ${options.dryRun ? "--apply " : ""}creates it with its keys, indexes and triggers`,
        );
        continue;
      }
      out.push("", `${t.name} (${plural(t.rows ?? 0, "row")})`);
      for (const f of t.findings) out.push(findingLine(f, options.dryRun));
    }
  }
  if (plan.global.length) {
    out.push("", "== Extensions, types and functions");
    for (const f of plan.global) out.push(findingLine(f, options.dryRun));
  }
  const all = plan.tables.flatMap((t) => t.findings);
  const count = (pred: (f: Finding) => boolean) => all.filter(pred).length + plan.global.filter(pred).length;
  const notAdded = all.filter((f) => f.action === "not-added");
  const spec = plan.tables.filter((t) => t.spec);
  out.push("", "== Summary");
  out.push(
    `The eleven tables: ${spec.filter((t) => t.exists).length} of 11 present, ${plural(
      spec.reduce((n, t) => n + (t.rows ?? 0), 0),
      "row",
    )} in all.`,
  );
  out.push(
    `Differences: ${plural(
      count((f) => f.kind === "column" && f.state === "differs"),
      "column",
    )} differ, ${plural(
      count((f) => f.kind === "column" && f.state === "missing"),
      "column",
    )} missing, ` +
      `${plural(
        count((f) => f.kind === "constraint" && f.state === "missing"),
        "constraint",
      )} missing (${notAdded.filter((f) => f.kind === "constraint").length} broken by existing rows), ` +
      `${plural(
        count((f) => f.kind === "index" && f.state === "missing"),
        "index",
        "indexes",
      )} missing, ${plural(
        count((f) => f.kind === "trigger" && f.state === "missing"),
        "trigger",
      )} missing.`,
  );
  out.push(
    `${options.dryRun ? "--apply would create" : "Adopting creates"}: ${plural(plan.tables.filter((t) => !t.exists).length, "table")}, ` +
      `${plural(
        count((f) => f.kind === "index" && (f.action === "create" || f.action === "create-concurrently")),
        "index",
        "indexes",
      )} on existing tables, ` +
      `${plural(
        count((f) => f.kind === "constraint" && f.action === "create"),
        "constraint",
      )}, ${plural(
        count((f) => f.kind === "trigger" && f.action === "create"),
        "trigger",
      )}, ` +
      `${plural(
        count((f) => f.kind === "function" && f.action === "create"),
        "function",
      )}; and ${options.dryRun ? "would record" : "records"} the ${journal} ` +
      `as applied, so that \`npm start\` applies only newer ones.`,
  );
  if (notAdded.length) {
    out.push(
      `Not added, because existing rows break them (the console works without them and validates the rows it writes): ` +
        notAdded.map((f) => `${f.name}${f.breaking ? ` (${f.breaking.count})` : ""}`).join(", ") +
        ".",
    );
  }
  if (options.dryRun)
    out.push("", "Dry run: nothing was changed. To adopt this database: DATABASE_URL=… npm run db:adopt -- --apply");
  return out.join("\n") + "\n";
}

/** What `--apply` prints after the report. */
export function formatResult(result: ApplyResult): string {
  const out = [
    `Adopted: ${plural(result.applied.length, "change")} made, ${plural(result.recorded, "migration")} recorded as applied.`,
  ];
  for (const r of result.refused) out.push(`  refused by the server, left out: ${r.label}: ${r.error}`);
  out.push(
    "Next: DATABASE_URL=… npm run operator:create -- --email you@example.com --password '…', then DATABASE_URL=… npm start.",
  );
  return out.join("\n") + "\n";
}

/**
 * The SQL that undoes `--apply` of `plan` (docs/adopting.md): drops what it
 * created, in dependency order, and the migration record; the eleven tables' rows and columns were
 * never changed. One transaction; every statement is IF EXISTS, so it also undoes a partial apply.
 */
export function rollbackSql(plan: Plan): string {
  const q = ident;
  const out: string[] = ["BEGIN;"];
  for (const t of plan.tables.filter((x) => !x.exists)) out.push(`DROP TABLE IF EXISTS ${q(t.name)} CASCADE;`);
  const existing = plan.tables.filter((x) => x.exists);
  const added = (t: TableReport, kind: Finding["kind"]) =>
    t.findings.filter((f) => f.kind === kind && (f.action === "create" || f.action === "create-concurrently"));
  for (const t of existing)
    for (const f of added(t, "trigger")) out.push(`DROP TRIGGER IF EXISTS ${q(f.name)} ON ${q(t.name)};`);
  const constraints = existing.flatMap((t) => added(t, "constraint").map((f) => ({ t, f })));
  // Foreign keys first: they may depend on a key added with them.
  constraints.sort(
    (a, b) => Number(!a.f.detail?.startsWith("FOREIGN KEY")) - Number(!b.f.detail?.startsWith("FOREIGN KEY")),
  );
  for (const { t, f } of constraints) {
    out.push(`ALTER TABLE ${q(t.name)} DROP CONSTRAINT IF EXISTS ${q(f.name)};`);
    for (const column of f.marksNotNull ?? [])
      out.push(`ALTER TABLE ${q(t.name)} ALTER COLUMN ${q(column)} DROP NOT NULL;`);
  }
  for (const t of existing) for (const f of added(t, "index")) out.push(`DROP INDEX IF EXISTS ${q(f.name)};`);
  for (const t of existing) {
    for (const f of t.findings.filter((x) => x.kind === "column")) {
      if (f.state === "missing") out.push(`ALTER TABLE ${q(t.name)} DROP COLUMN IF EXISTS ${q(f.name)};`);
      else if (f.action === "create") out.push(`ALTER TABLE ${q(t.name)} ALTER COLUMN ${q(f.name)} DROP DEFAULT;`);
    }
  }
  for (const f of plan.global.filter((x) => x.action === "create" && x.kind === "function"))
    out.push(`DROP FUNCTION IF EXISTS ${f.name.replace(/^([^(]+)/, (n) => q(n))};`);
  for (const f of plan.global.filter((x) => x.action === "create" && x.kind === "sequence"))
    out.push(`DROP SEQUENCE IF EXISTS ${q(f.name)};`);
  for (const f of plan.global.filter((x) => x.action === "create" && x.kind === "type"))
    out.push(`DROP TYPE IF EXISTS ${q(f.name)};`);
  for (const f of plan.global.filter((x) => x.action === "create" && x.kind === "extension"))
    out.push(`DROP EXTENSION IF EXISTS ${q(f.name)};`);
  out.push(`DROP SCHEMA IF EXISTS ${q(migrationsTable.split(".")[0])} CASCADE;`, "COMMIT;");
  return out.join("\n") + "\n";
}
