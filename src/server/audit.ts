import { sql } from "drizzle-orm";
import type { Database } from "./db/client";
import { audit_log } from "./db/schema";
import type { AuditAction, AuditEntityName } from "../domain/audit";

export type Tx = Parameters<Parameters<Database["transaction"]>[0]>[0];

/**
 * What the audit reads of a request (a Hono context of the app has it): its database, who is
 * signed in, its id and the client's address. Structural, so that this module depends on no
 * route or auth code.
 */
export type AuditRequest = {
  var: {
    db: Database;
    session: { user: { id: string; email: string } } | null;
    requestId: string;
    clientIp: string;
    /** The personal API token the request was made with (`Authorization: Bearer`), if any. */
    apiToken?: { id: string } | null;
  };
};

/** One change to record: what was done to which record, with its values before and after. */
export type AuditEntry = {
  action: AuditAction;
  entity: AuditEntityName;
  entity_id: string | null;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
  /** Who acted, when not the request's session (sign-in events). */
  operator?: { id: string; email: string };
};

/** Keeps only the fields that differ between `before` and `after` (all of them on create/delete). */
export function changedFields(before?: Record<string, unknown> | null, after?: Record<string, unknown> | null) {
  if (!before || !after) return { before: before ?? undefined, after: after ?? undefined };
  const b: Record<string, unknown> = {};
  const a: Record<string, unknown> = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) {
      b[key] = before[key];
      a[key] = after[key];
    }
  }
  return { before: b, after: a };
}

/** Writes audit rows inside `tx`, attributed to the request's operator. */
export async function writeAudit(tx: Tx | Database, c: AuditRequest, entries: AuditEntry[]) {
  const user = c.var.session?.user;
  await writeAuditRows(tx, entries, {
    operator: user ? { id: user.id, email: user.email } : undefined,
    requestId: c.var.requestId,
    ip: c.var.clientIp ?? null,
    apiTokenId: c.var.apiToken?.id ?? null,
  });
}

/**
 * Writes audit rows outside a request (the server's command-line scripts): `operator` is who acted
 * when an entry names nobody, `requestId` names the command (e.g. "cli:operator:unlock"),
 * `apiTokenId` the personal API token a request was made with (docs/identity.md).
 */
export async function writeAuditRows(
  tx: Tx | Database,
  entries: AuditEntry[],
  meta: {
    operator?: { id: string; email: string };
    requestId: string | null;
    ip: string | null;
    apiTokenId?: string | null;
  },
) {
  if (entries.length === 0) return;
  const rows = entries.map((e) => ({
    operator_id: e.operator?.id ?? meta.operator?.id ?? null,
    operator_email: e.operator?.email ?? meta.operator?.email ?? null,
    action: e.action,
    entity: e.entity,
    entity_id: e.entity_id,
    changes: changedFields(e.before, e.after),
  }));
  // One bound parameter however many rows (a bulk batch writes a thousand): the statement stays
  // small to send and to parse. `created_at` is the time of each change itself, not of the
  // transaction's start, so that concurrent changes to one record appear in the order they were made.
  await (tx as Database).execute(sql`insert into ${audit_log}
      (operator_id, operator_email, action, entity, entity_id, changes, request_id, ip_address, api_token_id, created_at)
    select r.operator_id, r.operator_email, r.action, r.entity, r.entity_id, r.changes, ${meta.requestId}, ${meta.ip},
      ${meta.apiTokenId ?? null}::uuid, clock_timestamp()
    from rows from (jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
      as (operator_id text, operator_email text, action text, entity text, entity_id text, changes jsonb))
      with ordinality as r(operator_id, operator_email, action, entity, entity_id, changes, n)
    order by r.n`);
}

/**
 * Runs `work` in one transaction and records the audit entries it returns in the same
 * transaction: either the change and its audit rows are written, or neither.
 */
export async function mutate<T>(
  c: AuditRequest,
  work: (tx: Tx) => Promise<{ result: T; audit: AuditEntry[] }>,
): Promise<T> {
  return c.var.db.transaction(async (tx) => {
    const { result, audit } = await work(tx);
    await writeAudit(tx, c, audit);
    return result;
  });
}
