/**
 * Kinds of bulk action most entities share, so that a declaration is a few lines: setting a status
 * (archive, unarchive, activate, deactivate) with the record kit's audit rule (the changed fields,
 * `updated_at` included).
 */
import { z } from "@hono/zod-openapi";
import { sql, type SQL } from "drizzle-orm";
import type { AuditRecordEntity } from "../../domain/audit";
import type { BulkEntity } from "../../domain/bulk";
import { msg } from "../../domain/messages";
import type { AuditEntry } from "../audit";
import { queryRows, type Database } from "../db/client";
import type { ListDeclaration } from "../http/lists";
import { col, defineBulkAction, uuidArray, type BulkAction } from "./engine";

/** No parameters. */
export const noParams = z.strictObject({}).default({});

/**
 * A status change: every selected row is given the status `to(params)` and `updated_at`, one
 * statement per batch; a row already in it is skipped ("Already archived" or `alreadyReason`),
 * and `skips` adds the entity's own rules (before that one).
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
  auditEntity: AuditRecordEntity;
  params?: z.ZodType<P>;
  to: (params: P) => string;
  alreadyReason?: (params: P) => string;
  skips?: (params: P, batch: SQL) => Array<{ reason: string; when: SQL }>;
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
    label: col(spec, spec.name),
    before: sql`jsonb_build_object('status', ${col(spec, "status")}, 'updated_at', ${col(spec, "updated_at")})`,
    auditEntity: spec.auditEntity,
    skips: (p, batch) => [
      ...(spec.skips?.(p, batch) ?? []),
      {
        reason: spec.alreadyReason?.(p) ?? msg.bulk.alreadyStatus(spec.to(p)),
        when: sql`${col(spec, "status")} = ${status(p)}`,
      },
    ],
    apply: async (tx, p, rows) => {
      const changed = await queryRows<{ id: string; updated_at: string }>(
        tx as unknown as Database,
        sql`update ${sql.raw(`${spec.table} ${spec.alias}`)} set status = ${status(p)}, updated_at = now()
          where ${col(spec, spec.id)} = any(${uuidArray(rows.map((r) => r.id))})
          returning ${col(spec, spec.id)}::text as id, ${col(spec, "updated_at")} as updated_at`,
      );
      const after = new Map(changed.map((r) => [r.id, r.updated_at]));
      return rows.map((r): AuditEntry => ({
        action: "update",
        entity: spec.auditEntity,
        entity_id: r.id,
        before: r.before,
        after: { status: spec.to(p), updated_at: toIso(after.get(r.id)) },
      }));
    },
  });
}

/** A timestamp as the audit log stores the record kit's (ISO text). */
function toIso(value: unknown): unknown {
  return value instanceof Date ? value.toISOString() : value;
}
