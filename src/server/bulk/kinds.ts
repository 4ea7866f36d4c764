/**
 * Kinds of bulk action most entities share, so that a declaration is a few lines: setting a status
 * (archive, unarchive, activate, deactivate) with the record kit's audit rule (the changed fields,
 * `updated_at` included) and its undo; and the single rules' lock on a parameter's record.
 */
import { z } from "@hono/zod-openapi";
import { sql, type SQL } from "drizzle-orm";
import type { AuditRecordEntity } from "../../domain/audit";
import type { BulkEntity } from "../../domain/bulk";
import { msg } from "../../domain/messages";
import type { AuditEntry, Tx } from "../audit";
import { queryRows } from "../db/client";
import { HttpError } from "../http/errors";
import type { ListDeclaration } from "../http/lists";
import { col, defineBulkAction, type BulkAction, type BulkContext, type BulkRowState } from "./engine";

/** No parameters. */
export const noParams = z.strictObject({}).default({});

/**
 * A status change: every selected row is given the status `to(params)` and `updated_at`, one
 * statement per batch; a row already in it is skipped ("Already archived" or `alreadyReason`),
 * and `skips` adds the entity's own rules (before that one). Its undo puts back each row's status
 * (the value kept in the report), skipping a row whose status is no longer the one it set.
 */
export function statusAction<P extends object>(spec: {
  entity: BulkEntity;
  action: string;
  summary: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  list: ListDeclaration<any, any, any>;
  table: string;
  alias: string;
  id: string;
  name: string;
  /** How a row is named in the preview and the report; its `name` column unless given. */
  label?: SQL;
  auditEntity: AuditRecordEntity;
  params?: z.ZodType<P>;
  to: (params: P) => string;
  alreadyReason?: (params: P) => string;
  skips?: (params: P, batch: SQL, context: BulkContext) => Array<{ reason: string; when: SQL }>;
  guard?: BulkAction<P>["guard"];
}): BulkAction<P> {
  const status = (p: P) => sql`${p === undefined ? null : spec.to(p)}::text`;
  return defineBulkAction<P>({
    entity: spec.entity,
    action: spec.action,
    summary: spec.summary,
    list: spec.list,
    params: (spec.params ?? noParams) as z.ZodType<P>,
    table: spec.table,
    alias: spec.alias,
    id: spec.id,
    label: spec.label ?? col(spec, spec.name),
    before: sql`jsonb_build_object('status', ${col(spec, "status")}, 'updated_at', ${col(spec, "updated_at")})`,
    auditEntity: spec.auditEntity,
    guard: spec.guard,
    skips: (p, batch, context) => [
      ...(spec.skips?.(p, batch, context) ?? []),
      {
        reason: spec.alreadyReason?.(p) ?? msg.bulk.alreadyStatus(spec.to(p)),
        when: sql`${col(spec, "status")} = ${status(p)}`,
      },
    ],
    apply: (tx, p, rows) => setStatuses(tx, spec, rows, () => spec.to(p)),
    // Put back: the status the row had, unless it is no longer the one the action set.
    undo: {
      skips: (p) => [
        { reason: msg.bulk.undoStatusChanged, when: sql`${col(spec, "status")} is distinct from ${status(p)}` },
      ],
      apply: (tx, _p, rows) => setStatuses(tx, spec, rows, (r) => String(r.prior?.status)),
    },
  });
}

/** The record a status action changes: its bulk entity, list, table and columns. */
type StatusTarget = Omit<
  Parameters<typeof statusAction>[0],
  "action" | "summary" | "params" | "to" | "alreadyReason" | "skips"
>;

/** What each status action without parameters sets, and why a row already in that status is skipped. */
const statusChanges = {
  archive: { to: "inactive", alreadyReason: msg.bulk.alreadyArchived },
  deactivate: { to: "inactive", alreadyReason: msg.bulk.alreadyArchived },
  unarchive: { to: "active", alreadyReason: msg.bulk.alreadyActive },
  activate: { to: "active", alreadyReason: msg.bulk.alreadyActive },
} as const;

/**
 * An entity's status actions without parameters (Archive and Unarchive, or Activate and
 * Deactivate), a row each: the action (which fixes the status it sets and the "Already …" reason),
 * its summary, and the entity's own skip rules if any. Each is a `statusAction`.
 */
export function statusActions(
  target: StatusTarget,
  actions: Array<{
    action: keyof typeof statusChanges;
    summary: string;
    skips?: Array<{ reason: string; when: SQL }> | ((context: BulkContext) => Array<{ reason: string; when: SQL }>);
  }>,
): BulkAction<object>[] {
  return actions.map(({ action, summary, skips }) => {
    const { to, alreadyReason } = statusChanges[action];
    return statusAction({
      ...target,
      action,
      summary,
      to: () => to,
      alreadyReason: () => alreadyReason,
      skips: skips && ((_p, _batch, context) => (typeof skips === "function" ? skips(context) : skips)),
    });
  });
}

/**
 * Gives each row the status `to(row)` and `updated_at` now, in one statement, and returns the
 * record kit's audit rows (the row's values before, the status and `updated_at` after).
 */
async function setStatuses(
  tx: Tx,
  spec: { table: string; alias: string; id: string; auditEntity: AuditRecordEntity },
  rows: BulkRowState[],
  to: (row: BulkRowState) => string,
): Promise<AuditEntry[]> {
  const values = JSON.stringify(rows.map((r) => ({ id: r.id, status: to(r) })));
  const changed = await queryRows<{ id: string; updated_at: string }>(
    tx,
    sql`update ${sql.raw(`${spec.table} ${spec.alias}`)} set status = v.status, updated_at = now()
      from jsonb_to_recordset(${values}::jsonb) as v(id uuid, status text)
      where ${col(spec, spec.id)} = v.id
      returning ${col(spec, spec.id)}::text as id, ${col(spec, "updated_at")} as updated_at`,
  );
  const after = new Map(changed.map((r) => [r.id, r.updated_at]));
  return rows.map((r): AuditEntry => ({
    action: "update",
    entity: spec.auditEntity,
    entity_id: r.id,
    before: r.before,
    after: { status: to(r), updated_at: toIso(after.get(r.id)) },
  }));
}

/**
 * The single rule's lock on the record an action's parameter names (the team users join, the skill
 * teams are given): share-locked, so that it cannot be archived or deleted before the batch ends,
 * and active. @throws HttpError 422 with `message` when it is gone or not active.
 */
export async function lockActive(tx: Tx, table: "teams" | "skills", id: string, message: string) {
  const key = table === "teams" ? "team_id" : "skill_id";
  const [row] = await queryRows<{ status: string }>(
    tx,
    sql`select status from ${sql.identifier(table)} where ${sql.identifier(key)} = ${id} for share`,
  );
  if (!row || row.status !== "active") throw new HttpError(422, "validation_failed", message);
}

/** A timestamp as the audit log stores the record kit's (ISO text). */
function toIso(value: unknown): unknown {
  return value instanceof Date ? value.toISOString() : value;
}
