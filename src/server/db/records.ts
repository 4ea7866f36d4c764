import { eq } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { AuditRecordEntity } from "../../domain/audit";
import type { AuditEntry, Tx } from "../audit";
import { notFound } from "../http/errors";
import { toJson } from "../http/list";

/** A table of records: what `recordsOf` needs to know of it. */
type RecordTable = PgTable & { $inferSelect: Record<string, unknown>; $inferInsert: Record<string, unknown> };

/** A change a route makes, with the audit rows that record it (what `mutate` takes). */
export type Written<R> = { result: R; audit: AuditEntry[] };

/**
 * The record operations every entity's routes share, for one table, inside a route's transaction
 * (`mutate`): the row locked for update or 404 with the entity's message; an insert with its
 * `create` audit row; an update that writes and audits only what changes (a save that changes
 * nothing writes nothing: SPEC.md §4 "skipped if already"), setting `updated_at`.
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
}) {
  type Row = T["$inferSelect"];
  const table = spec.table as PgTable;
  return {
    /** The row locked for update inside `tx`. @throws HttpError 404 when there is none. */
    async lock(tx: Tx, id: string): Promise<Row> {
      const [row] = await tx.select().from(table).where(eq(spec.id, id)).for("update");
      if (!row) throw notFound(spec.notFound);
      return row as Row;
    },

    /** Inserts a record (timestamps set now) and records its creation. */
    async create(tx: Tx, input: T["$inferInsert"]): Promise<Written<Row>> {
      const now = new Date();
      const values = spec.timestamps === false ? input : { ...input, created_at: now, updated_at: now };
      const [row] = (await tx
        .insert(table)
        .values(values as never)
        .returning()) as Row[];
      return {
        result: row,
        audit: [{ action: "create", entity: spec.entity, entity_id: String(row[spec.id.name]), after: toJson(row) }],
      };
    },

    /**
     * Writes the fields of `input` that differ from the locked row `before` (undefined ones left
     * alone), with `updated_at`, and records the change; nothing at all when nothing differs.
     */
    async update(tx: Tx, before: Row, input: Partial<Row>): Promise<Written<Row>> {
      const changes = Object.fromEntries(Object.entries(input).filter(([k, v]) => v !== undefined && before[k] !== v));
      if (Object.keys(changes).length === 0) return { result: before, audit: [] };
      const id = String(before[spec.id.name]);
      const set = spec.timestamps === false ? changes : { ...changes, updated_at: new Date() };
      const [after] = (await tx
        .update(table)
        .set(set as never)
        .where(eq(spec.id, id))
        .returning()) as Row[];
      return {
        result: after,
        audit: [{ action: "update", entity: spec.entity, entity_id: id, before: toJson(before), after: toJson(after) }],
      };
    },
  };
}
