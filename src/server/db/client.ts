import path from "node:path";
import v8 from "node:v8";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import type { SQL } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import { defaultPgliteSharedBuffersMb } from "../config";
import { projectRoot } from "../paths";
import { assertMigratable } from "./catalog";
import * as schema from "./schema";

export type Schema = typeof schema;
/** Drizzle database over either driver; feature code only ever sees this type. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;

/** An open database and how to migrate, flush and close it. */
export type DatabaseHandle = {
  db: Database;
  kind: "pglite" | "postgres";
  /**
   * Applies the committed migrations; a no-op for those already applied.
   * @throws NotAdoptedError (nothing changed) on a database of another application's making.
   */
  migrate(): Promise<void>;
  /** Flushes to disk (CHECKPOINT) before a clean stop. */
  checkpoint(): Promise<void>;
  close(): Promise<void>;
  /** The PGlite instance when kind is "pglite" (tests clone it). */
  pglite?: PGlite;
  /** The pool when kind is "postgres" (tests open a second Drizzle instance on it, with a query logger). */
  pool?: pg.Pool;
};

/** The SQL migrations (drizzle-kit), read at start by the sources and the bundle alike. */
export const migrationsFolder = path.join(projectRoot, "src/server/db/migrations");

/**
 * V8 flags of the embedded database's WebAssembly (PostgreSQL, a 9 MB module), set by `openPglite`
 * before PGlite compiles it; they hold for the whole process from then on.
 *
 * `--no-liftoff`: each function is compiled once, by V8's optimizing compiler (TurboFan), when it
 * is first called, on the thread calling it. By default V8 first compiles it with its baseline
 * compiler (Liftoff), then compiles the busy ones again with TurboFan on its background threads;
 * glibc serves each of those threads from a malloc arena of its own, and the compiler's working
 * memory stays resident there once freed. Under the benchmark's mixed traffic on 100,200 users
 * (`npm run bench -- --target pglite --only-step mixed`: 8 clients for 10 min; the RSS split by
 * scripts/bench/mixed.ts `memoryMap`; bench/results/mixed-pglite.md, and the run before the flag in git's history)
 * the server's RSS was at most 336 MiB (p50 321), 63 MiB of it in 9 thread arenas; with the flag
 * 296 MiB (p50 278), 25 MiB in the arenas. PostgreSQL's own memory did not change (40 MiB
 * resident of its 128 MiB WebAssembly memory: shared buffers, caches), nor did the JavaScript heap.
 * Lists were not slower: alternated load runs at 1 and 10 connections on the users and comments
 * lists gave the same p50s and throughput (users' first page at 10 connections 246-248 req/s
 * without the flag, 249-252 with it; comment search 19-30 and 27-32 req/s), and the mixed traffic
 * answered 52,585 requests in 10 min with the flag against 42,782 without (on a machine shared with
 * other work: a rough sign only). The cost: a start about
 * 1 s longer (first calls compile with TurboFan) and about 2 s more for the first in-memory
 * database of a test process. `--liftoff-only` also freed the arenas, but halved the throughput.
 */
export const pgliteV8Flags = ["--no-liftoff"];

/**
 * Opens the embedded database. `dataDir` undefined means in memory (tests).
 * A data folder is created on first use (about 5 s); opening an existing one is fast.
 * `sharedBuffersMb`: PostgreSQL's `shared_buffers` in MB. Sets `pgliteV8Flags` first.
 */
export async function openPglite(
  dataDir?: string,
  sharedBuffersMb = defaultPgliteSharedBuffersMb,
): Promise<DatabaseHandle> {
  for (const flag of pgliteV8Flags) v8.setFlagsFromString(flag);
  const startParams = [...PGlite.defaultStartParams, "-c", `shared_buffers=${sharedBuffersMb}MB`];
  const client = await PGlite.create({ dataDir, extensions: { pg_trgm }, startParams });
  return wrapPglite(client);
}

/**
 * Whether `db` is the embedded database: one connection, on which every statement of the process
 * waits its turn (a transaction holds it to its end), so work that PostgreSQL would spread over
 * several connections is better done one piece at a time there.
 */
export function isEmbedded(db: Database): boolean {
  // drizzle() adds the driver's client as `$client`, which PgDatabase does not declare.
  return (db as unknown as { $client: unknown }).$client instanceof PGlite;
}

/** Wraps an already open PGlite instance (for example a clone of a migrated template). */
export function wrapPglite(client: PGlite): DatabaseHandle {
  const pgliteDb = drizzlePglite({ client, schema });
  const db: Database = pgliteDb;
  return {
    db,
    kind: "pglite",
    pglite: client,
    migrate: async () => {
      await assertMigratable(db);
      await migratePglite(pgliteDb, { migrationsFolder });
    },
    checkpoint: async () => {
      await client.exec("CHECKPOINT");
    },
    close: () => client.close(),
  };
}

/**
 * Planner settings of every pooled connection. `enable_memoize = off`: a page walked from a big
 * table's index and joined to customers or skills got a Memoize cache above each join, which
 * PostgreSQL sizes for the whole table's distinct keys, not the page's 50 rows. At 1,000,200 users
 * the comments' first page took 16–17 ms to execute with the caches and 0.7–0.9 ms without (the same
 * plan otherwise); no list, count or analytics statement of the benchmark was slower without them
 * beyond the run-to-run noise.
 */
export const postgresSessionSettings = "set enable_memoize = off";

/**
 * Applies `postgresSessionSettings` to a new connection; the pool hands the connection out once
 * this has finished (pg-pool's `onConnect`). A failure is ignored: PostgreSQL before 14 has no
 * Memoize and no such setting.
 */
export async function applySessionSettings(client: pg.ClientBase): Promise<void> {
  await client.query(postgresSessionSettings).catch(() => undefined);
}

/**
 * A prepared statement made once per database by `prepare` and kept with it: the returned function
 * gives the database's statement, preparing it on first use. Held weakly, so a closed database
 * (a test's, a restarted pool) takes its statement with it.
 */
export function preparedPerDatabase<S>(prepare: (db: Database) => S): (db: Database) => S {
  const statementOf = new WeakMap<Database, S>();
  return (db) => {
    let statement = statementOf.get(db);
    if (!statement) statementOf.set(db, (statement = prepare(db)));
    return statement;
  };
}

/** How long a request waits for a new connection to the PostgreSQL server before it is answered 503. */
export const connectTimeoutMs = 5_000;

/**
 * Opens a pool on a PostgreSQL server; `max` connections (default 10), each set up with
 * `postgresSessionSettings`. A connection the server ends (restart, failover, admin termination,
 * a network cut) emits an `'error'` event on its client, idle or checked out by a request: both
 * are reported to `onConnectionError`, never left to crash the process. The request using it gets
 * the error (503 `unavailable`, http/errors.ts), the pool discards the broken client on release
 * and opens a new one on the next query, so the console serves again once the server answers.
 * Opening a connection gives up after `connectTimeoutMs`.
 */
export function openPostgres(
  url: string,
  max = 10,
  onConnectionError: (err: Error) => void = () => undefined,
): DatabaseHandle {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    // pg-pool awaits onConnect before it hands the client out.
    // eslint-disable-next-line @typescript-eslint/no-misused-promises
    onConnect: applySessionSettings,
    connectionTimeoutMillis: connectTimeoutMs,
  });
  // Every client, idle or checked out, reports through its own listener (a checked-out one has no
  // other: an unhandled 'error' event would end the process). The pool re-emits an idle client's
  // error, already reported.
  pool.on("connect", (client) => client.on("error", onConnectionError));
  pool.on("error", () => undefined);
  const pgDb = drizzlePg({ client: pool, schema });
  const db: Database = pgDb;
  return {
    db,
    kind: "postgres",
    pool,
    migrate: async () => {
      await assertMigratable(db);
      await migratePg(pgDb, { migrationsFolder });
    },
    checkpoint: async () => {
      await pool.query("CHECKPOINT").catch(() => undefined); // needs superuser; harmless otherwise
    },
    close: () => pool.end(),
  };
}

// Type ids of PostgreSQL's timestamp types (pg_type.oid).
const TIMESTAMPTZ = 1184;
const TIMESTAMP = 1114;
// PostgreSQL's text output of a timestamp (DateStyle ISO), as Drizzle makes both drivers return it.
const pgTimestampText = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2}(?:\.\d+)?)(?:([+-]\d{2})(?::?(\d{2}))?)?$/;

/**
 * A timestamp column's text as a Date (a timestamp without time zone is read as UTC); values a
 * JavaScript Date cannot hold (`infinity`, years past 9999 or before year 1) stay text.
 */
function parseTimestamp(text: string, withZone: boolean): Date | string {
  const m = pgTimestampText.exec(text);
  if (!m) return text;
  const zone = withZone && m[3] ? `${m[3]}:${m[4] ?? "00"}` : "Z";
  const date = new Date(`${m[1]}T${m[2]}${zone}`);
  return Number.isNaN(date.getTime()) ? text : date;
}

/**
 * A timestamp's text as ISO 8601 in UTC with milliseconds, as `Date#toISOString` writes it, or the
 * text itself for values a Date cannot hold. A UTC value (what a session in UTC prints, and every
 * `timestamp`) is rewritten as text; any other offset goes through a Date. Lists answer thousands of
 * these per second, and parsing each into a Date only to print it again was a tenth of their time.
 */
function isoOfTimestamp(text: string, withZone: boolean): string {
  // "2024-05-01 10:00:00[.ffffff][+00]": checked by position; anything else takes the Date path.
  const end = withZone ? text.length - 3 : text.length;
  if (
    (!withZone || text.endsWith("+00")) &&
    end >= 19 &&
    text.charCodeAt(4) === 45 &&
    text.charCodeAt(10) === 32 &&
    (end === 19 || (text.charCodeAt(19) === 46 && end <= 26))
  ) {
    const fraction = end === 19 ? ".000" : (text.slice(19, Math.min(end, 23)) + "00").slice(0, 4);
    return `${text.slice(0, 10)}T${text.slice(11, 19)}${fraction}Z`;
  }
  const value = parseTimestamp(text, withZone);
  return typeof value === "string" ? value : value.toISOString();
}

/**
 * Runs raw SQL and returns its rows (both drivers answer `{ rows, fields }`). Columns whose
 * database type is `timestamptz` or `timestamp` become Dates, chosen by the column's type id that
 * the driver reports, never by what a value looks like: a text column holding
 * "2024-05-01 10:00:00+02" stays that text. (Drizzle sets both drivers' parsers of these types to
 * return text, for its typed columns to map; raw queries get the same treatment here.)
 * `timestamps: "iso"` gives them as ISO 8601 text instead (`Date#toISOString`'s), for rows that go
 * straight into a JSON answer.
 */
export async function queryRows<T>(
  db: Database,
  query: SQL,
  { timestamps = "date" }: { timestamps?: "date" | "iso" } = {},
): Promise<T[]> {
  const result = (await db.execute(query)) as {
    rows: Array<Record<string, unknown>>;
    fields?: Array<{ name: string; dataTypeID: number }>;
  };
  const times = (result.fields ?? []).filter((f) => f.dataTypeID === TIMESTAMPTZ || f.dataTypeID === TIMESTAMP);
  if (times.length > 0) {
    const convert = timestamps === "iso" ? isoOfTimestamp : parseTimestamp;
    for (const row of result.rows) {
      for (const f of times) {
        const value = row[f.name];
        if (typeof value === "string") row[f.name] = convert(value, f.dataTypeID === TIMESTAMPTZ);
      }
    }
  }
  return result.rows as T[];
}
