import { and, Column, eq, getTableName, is, SQL, sql } from "drizzle-orm";
import { getTableConfig, type PgColumn, type PgTable } from "drizzle-orm/pg-core";
import type { AuditRecordEntity } from "../../domain/audit";
import { msg } from "../../domain/messages";
import type { AuditEntry, Tx } from "../audit";
import { HttpError, notFound, registerUniqueConstraint } from "../http/errors";
import { toJson } from "../http/list";
import { audit_log } from "./schema";

/** A table of records: what `recordsOf` needs to know of it. */
export type RecordTable = PgTable & { $inferSelect: Record<string, unknown>; $inferInsert: Record<string, unknown> };

/** The record operations of one table (`recordsOf`), for rows `Row` inserted as `Insert`. */
export type Records<Row, Insert = Row> = {
  /** The audit log's name of the record, its 404 message and its table's name. */
  entity: AuditRecordEntity;
  notFound: string;
  table: string;
  /** The messages of the 409 a write that would repeat a unique value gets (OpenAPI's description). */
  unique: string[];
  /** The primary key's column name. */
  key: string;
  lock(tx: Tx, id: string, options?: { ifMatch?: Date }): Promise<Row>;
  create(tx: Tx, input: Insert): Promise<Written<Row>>;
  update(
    tx: Tx,
    before: Row,
    input: Partial<Row>,
    linked?: { before: Record<string, unknown>; after: Record<string, unknown> },
  ): Promise<Written<Row>>;
};

/** A change a route makes, with the audit rows that record it (what `mutate` takes). */
export type Written<R> = { result: R; audit: AuditEntry[] };

/** A change made to a record since a version was read: who, when, and which fields (docs/editing.md). */
export type ChangeSince = { operator_email: string | null; at: string; fields: string[] };

/** The fields an audit row's `changes` names, without the bookkeeping ones. */
const bookkeeping = new Set(["updated_at", "created_at"]);

/**
 * The changes made to one record after `since` (its `updated_at` as the client read it), oldest
 * first, from the audit rows whose `after.updated_at` is later (the rows of changes that moved the
 * record's version on), on audit_log_entity_idx. At most 50.
 */
export async function changesSince(tx: Tx, entity: string, id: string, since: Date): Promise<ChangeSince[]> {
  const rows = await tx
    .select({ operator_email: audit_log.operator_email, at: audit_log.created_at, changes: audit_log.changes })
    .from(audit_log)
    .where(
      and(
        eq(audit_log.entity, entity),
        eq(audit_log.entity_id, id),
        // The index range first (a minute of leeway for the app's and the database's clocks), then
        // exactly the changes that wrote a later version.
        sql`${audit_log.created_at} >= ${since.toISOString()}::timestamptz - interval '1 minute'`,
        sql`(${audit_log.changes}->'after'->>'updated_at')::timestamptz > ${since.toISOString()}::timestamptz`,
      ),
    )
    .orderBy(audit_log.created_at, audit_log.audit_id)
    .limit(50);
  return rows.map((r) => ({
    operator_email: r.operator_email,
    at: r.at.toISOString(),
    fields: Object.keys({ ...r.changes?.before, ...r.changes?.after }).filter((k) => !bookkeeping.has(k)),
  }));
}

/**
 * Every unique index and unique column of `table`, by name, with the columns it covers (those an
 * expression index reads: `lower(email)` covers `email`).
 */
export function uniqueIndexesOf(table: PgTable): Array<{ name: string; columns: string[] }> {
  const config = getTableConfig(table);
  const indexes = config.indexes
    .filter((index) => index.config.unique)
    .map((index) => ({
      name: index.config.name ?? "",
      columns: index.config.columns.flatMap((part) =>
        is(part, SQL)
          ? part.queryChunks.filter((chunk) => is(chunk, Column)).map((c) => c.name)
          : "name" in part && typeof part.name === "string"
            ? [part.name]
            : [],
      ),
    }));
  const columns = config.columns
    .filter((column) => column.isUnique && column.uniqueName)
    .map((column) => ({ name: column.uniqueName ?? "", columns: [column.name] }));
  return [...indexes, ...columns];
}

/**
 * Registers the 409 of each unique index of `table` over one column that `messages` names (see
 * `registerUniqueConstraint`) and answers those messages.
 * @throws Error at start-up when a message names a column no unique index covers alone.
 */
function registerUniqueIndexes(table: PgTable, messages: Record<string, string | undefined>): string[] {
  const indexes = uniqueIndexesOf(table);
  return Object.entries(messages).flatMap(([field, message]) => {
    const index = indexes.find((i) => i.columns.length === 1 && i.columns[0] === field);
    if (!message) return [];
    if (!index) throw new Error(`${getTableName(table)}.${field} has no unique index of its own`);
    registerUniqueConstraint(index.name, { message, field });
    return [message];
  });
}

/**
 * The record operations every entity's routes share, for one table, inside a route's transaction
 * (`mutate`): the row locked for update or 404 with the entity's message, refused as stale when
 * it changed since the version the client read (`ifMatch`); an insert with its `create` audit row;
 * an update that writes and audits only what changes (a save that changes nothing writes nothing:
 * SPEC.md §4 "skipped if already"), setting `updated_at`.
 */
export function recordsOf<T extends RecordTable>(spec: {
  table: T;
  /** The primary key column. */
  id: PgColumn;
  /** The audit log's name of the record. */
  entity: AuditRecordEntity;
  /** The 404 message ("Skill not found"). */
  notFound: string;
  /** Whether the table has `created_at` and `updated_at` the console sets (an adopted table may lack them). */
  timestamps?: boolean;
  /** The record as the entity's routes answer it (a stale save's `current`); the row itself by default. */
  present?: (tx: Tx, row: T["$inferSelect"]) => Promise<Record<string, unknown>>;
  /**
   * The 409's message of each column a unique index of the table covers ("A user with this email
   * address already exists"): a write that breaks the index gets it, under that field.
   */
  unique?: Partial<Record<keyof T["$inferSelect"] & string, string>>;
}): Records<T["$inferSelect"], T["$inferInsert"]> {
  type Row = T["$inferSelect"];
  const table = spec.table as PgTable;
  const unique = registerUniqueIndexes(table, spec.unique ?? {});
  const present = spec.present ?? ((_tx: Tx, row: Row) => Promise.resolve(toJson(row)));
  return {
    entity: spec.entity,
    notFound: spec.notFound,
    table: getTableName(table),
    key: spec.id.name,
    unique,

    /**
     * The row locked for update inside `tx`. With `ifMatch` (the `updated_at` the client read,
     * from the If-Match header), a row whose `updated_at` differs is refused: 409 `stale` with the
     * record as it is now (`current`) and the changes made since (`changes`), so that a save
     * cannot overwrite what it never saw. Two saves of one version: the second waits for the
     * first's lock, then reads its `updated_at` and is refused.
     * @throws HttpError 404 when there is none; 409 `stale`.
     */
    async lock(tx: Tx, id: string, options: { ifMatch?: Date } = {}): Promise<Row> {
      const [row] = await tx.select().from(table).where(eq(spec.id, id)).for("update");
      if (!row) throw notFound(spec.notFound);
      const version = (row as Row).updated_at;
      if (options.ifMatch && version instanceof Date && version.getTime() !== options.ifMatch.getTime()) {
        const [current, changes] = [await present(tx, row), await changesSince(tx, spec.entity, id, options.ifMatch)];
        throw new HttpError(409, "stale", msg.edit.stale, undefined, { current, changes });
      }
      return row;
    },

    /** Inserts a record (timestamps set now) and records its creation. */
    async create(tx: Tx, input: T["$inferInsert"]): Promise<Written<Row>> {
      const now = new Date();
      const values = spec.timestamps === false ? input : { ...input, created_at: now, updated_at: now };
      const [row] = (await tx.insert(table).values(values).returning()) as Row[];
      return {
        result: row,
        audit: [{ action: "create", entity: spec.entity, entity_id: String(row[spec.id.name]), after: toJson(row) }],
      };
    },

    /**
     * Writes the fields of `input` that differ from the locked row `before` (undefined ones left
     * alone), with `updated_at`, and records the change; nothing at all when nothing differs.
     * `linked`: what the route changed in rows that belong to the record (a user's roles), which
     * counts as a change of the record (its `updated_at` moves, its audit row shows them).
     */
    async update(
      tx: Tx,
      before: Row,
      input: Partial<Row>,
      linked?: { before: Record<string, unknown>; after: Record<string, unknown> },
    ): Promise<Written<Row>> {
      const changes = Object.fromEntries(Object.entries(input).filter(([k, v]) => v !== undefined && before[k] !== v));
      if (Object.keys(changes).length === 0 && !linked) return { result: before, audit: [] };
      const id = String(before[spec.id.name]);
      const set = spec.timestamps === false ? changes : { ...changes, updated_at: new Date() };
      const [after] =
        Object.keys(set).length === 0
          ? [before]
          : ((await tx.update(table).set(set).where(eq(spec.id, id)).returning()) as Row[]);
      return {
        result: after,
        audit: [
          {
            action: "update",
            entity: spec.entity,
            entity_id: id,
            before: { ...toJson(before), ...linked?.before },
            after: { ...toJson(after), ...linked?.after },
          },
        ],
      };
    },
  };
}
