/**
 * Bulk loading with COPY on either driver: PostgreSQL through pg-copy-streams (`COPY ... FROM
 * STDIN`, streamed with back-pressure), PGlite through its `/dev/blob` device (`COPY ... FROM
 * '/dev/blob'` with the batch attached as a Blob). Rows arrive as a stream grouped by table;
 * only one batch is ever held as text.
 */
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { PGlite, Transaction } from "@electric-sql/pglite";
import { getTableColumns } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import type { Database } from "./client";
import { asText } from "../../domain/text";

/** What a load reports after each batch (`done` once a table is complete); `ms` since the table started. */
export type BulkProgress = { table: string; rows: number; expected: number; done: boolean; ms: number };

export type BulkOptions = {
  /** "once": one transaction for everything; "batches": every COPY batch commits on its own. */
  commit: "once" | "batches";
  /** Rows per COPY statement (default 50,000 on PostgreSQL, 20,000 on PGlite). */
  batchRows?: number;
  /** Expected rows per table, for progress reports. */
  expected: Record<string, number>;
  /** The tables (drizzle) the rows belong to, by SQL table name; their columns are written. */
  tables: Record<string, PgTable>;
  onProgress?: (progress: BulkProgress) => void;
  /** Checked after each batch: a stop keeps the batches already committed. */
  signal?: AbortSignal;
};

type Copy = (table: string, columns: string, chunks: Iterable<string>) => Promise<void>;

/** COPY text format: tab-separated, `\N` for NULL, backslash escapes. */
function field(value: unknown): string {
  if (value === null || value === undefined) return "\\N";
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "boolean") return value ? "t" : "f";
  const text = asText(value);
  return /[\\\t\n\r]/.test(text)
    ? text.replace(/[\\\t\n\r]/g, (c) => (c === "\\" ? "\\\\" : c === "\t" ? "\\t" : c === "\n" ? "\\n" : "\\r"))
    : text;
}

/**
 * Writes `rows` (grouped by table, tables in foreign-key order) with COPY and, at the end, runs
 * ANALYZE (VACUUM ANALYZE after a load in batches, so index-only scans work at once). A load in
 * batches builds the tables' GIN indexes after the rows are in (`withGinIndexesAfter`).
 * @returns the rows written per table.
 * @throws `signal.reason` when aborted; with commit "once" nothing is kept.
 */
export async function bulkLoad(
  db: Database,
  rows: Iterable<{ table: string; row: Record<string, unknown> }>,
  options: BulkOptions,
): Promise<Record<string, number>> {
  // Database (PgDatabase) does not declare the driver's client that drizzle() adds as `$client`.
  const client = (db as unknown as { $client: pg.Pool | pg.Client | PGlite }).$client;
  const counts: Record<string, number> = {};
  const columnsOf = new Map(
    Object.entries(options.tables).map(([name, table]) => {
      const columns = Object.entries(getTableColumns(table));
      return [
        name,
        { keys: columns.map(([key]) => key), list: columns.map(([, c]) => `"${c.name}"`).join(", ") },
      ] as const;
    }),
  );

  const run = async (copy: Copy, batchRows: number) => {
    const it = rows[Symbol.iterator]();
    let next = it.next();
    while (!next.done) {
      const table = next.value.table;
      const columns = columnsOf.get(table);
      if (!columns) throw new Error(`bulkLoad: unknown table ${table}`);
      const started = performance.now();
      counts[table] = 0;
      while (!next.done && next.value.table === table) {
        let n = 0;
        // Pulls rows from the stream as the COPY consumes the text, one batch at most.
        const chunks = function* () {
          let buffer = "";
          while (!next.done && next.value.table === table && n < batchRows) {
            const row = next.value.row;
            let line = "";
            for (let k = 0; k < columns.keys.length; k++) line += (k ? "\t" : "") + field(row[columns.keys[k]]);
            buffer += line + "\n";
            n++;
            next = it.next();
            if (buffer.length >= 1 << 16) {
              yield buffer;
              buffer = "";
            }
          }
          if (buffer) yield buffer;
        };
        await copy(table, columns.list, chunks());
        counts[table] += n;
        const done = next.done || next.value.table !== table;
        options.onProgress?.({
          table,
          rows: counts[table],
          expected: options.expected[table] ?? counts[table],
          done: !!done,
          ms: performance.now() - started,
        });
        if (options.signal?.aborted) throw options.signal.reason;
      }
    }
  };

  const tableNames = Object.keys(options.tables).join(", ");
  const loaded = Object.keys(options.tables);
  const analyze = async (exec: (text: string) => Promise<unknown>) => {
    const started = performance.now();
    await exec(options.commit === "batches" ? `vacuum (analyze) ${tableNames}` : `analyze ${tableNames}`);
    options.onProgress?.({ table: "analyze", rows: 0, expected: 0, done: true, ms: performance.now() - started });
  };

  if (typeof (client as PGlite).exec === "function") {
    const lite = client as PGlite;
    const copyWith =
      (target: PGlite | Transaction): Copy =>
      async (table, columns, chunks) => {
        const blob = new Blob([...chunks]);
        if (blob.size) await target.query(`copy ${table} (${columns}) from '/dev/blob'`, [], { blob });
      };
    const batchRows = options.batchRows ?? 20_000;
    if (options.commit === "once") await lite.transaction((tx) => run(copyWith(tx), batchRows));
    else
      await withGinIndexesAfter(
        (text) => lite.query(text),
        loaded,
        () => run(copyWith(lite), batchRows),
      );
    await analyze((text) => lite.exec(text));
    return counts;
  }

  const conn = client instanceof pg.Pool ? await client.connect() : (client as pg.Client);
  const release = () => {
    if (client instanceof pg.Pool) (conn as pg.PoolClient).release();
  };
  const copy: Copy = (table, columns, chunks) =>
    pipeline(
      Readable.from(chunks, { objectMode: false }),
      conn.query(copyFrom(`copy ${table} (${columns}) from stdin`)),
    );
  try {
    const batchRows = options.batchRows ?? 50_000;
    if (options.commit === "once") {
      await conn.query("begin");
      try {
        await run(copy, batchRows);
        await conn.query("commit");
      } catch (err) {
        await conn.query("rollback").catch(() => undefined);
        throw err;
      }
    } else {
      await withGinIndexesAfter(
        (text) => conn.query(text),
        loaded,
        () => run(copy, batchRows),
      );
    }
    await analyze((text) => conn.query(text));
  } finally {
    release();
  }
  return counts;
}

/**
 * A load in batches with the loaded tables' GIN indexes (the trigram searches') dropped first and
 * built again after it, each whole: building a GIN index once is several times faster than growing
 * it with every batch, which at a million users was most of the seed's time. They are built again
 * however the load ends (a stop included), then the error, if any, is thrown.
 */
async function withGinIndexesAfter(
  query: (text: string) => Promise<{ rows: unknown[] }>,
  tables: string[],
  load: () => Promise<void>,
): Promise<void> {
  const names = tables.map((t) => `'${t.replace(/[^a-z_]/g, "")}'`).join(", ");
  const found = (
    await query(`select i.relname as name, pg_get_indexdef(x.indexrelid) as def
      from pg_index x join pg_class i on i.oid = x.indexrelid join pg_class t on t.oid = x.indrelid
      join pg_am a on a.oid = i.relam
      where a.amname = 'gin' and t.relname in (${names}) and t.relnamespace = 'public'::regnamespace
      order by i.relname`)
  ).rows as Array<{ name: string; def: string }>;
  for (const index of found) await query(`drop index if exists "${index.name}"`);
  try {
    await load();
  } finally {
    await query("set maintenance_work_mem = '128MB'");
    for (const index of found) await query(index.def);
    await query("reset maintenance_work_mem");
  }
}
