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
  var: { db: Database; session: { user: { id: string; email: string } } | null; requestId: string; clientIp: string };
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

/**
 * A team membership added or removed: one entry against the team and one against the user, so
 * the change shows in both records' history (the link row names both).
 */
export function membershipAudit(action: "add_member" | "remove_member", m: { team_id: string; user_id: string; customer_id: string }): AuditEntry[] {
  const side = action === "add_member" ? "after" : "before";
  return [
    { action, entity: "team", entity_id: m.team_id, [side]: { user_id: m.user_id, customer_id: m.customer_id } },
    { action, entity: "user", entity_id: m.user_id, [side]: { team_id: m.team_id, customer_id: m.customer_id } },
  ];
}

/**
 * The audit rows of a skill assignment change (a teams_skills row): one against the team and one
 * against the skill, so that both records' histories show it. `before`/`after` hold the row's
 * changed fields (status) and names for the reader.
 */
export function assignmentAudit(
  action: "assign_skill" | "reassign_skill" | "unassign_skill",
  a: { team_id: string; skill_id: string },
  before?: Record<string, unknown>,
  after?: Record<string, unknown>,
): AuditEntry[] {
  return [
    { action, entity: "team", entity_id: a.team_id, before, after: { skill_id: a.skill_id, ...after } },
    { action, entity: "skill", entity_id: a.skill_id, before, after: { team_id: a.team_id, ...after } },
  ];
}

/**
 * The audit rows of a prompt's platform assignment change (a platform_prompts row): one against the
 * prompt and one against the platform, so that both records' histories show it.
 */
export function platformAssignmentAudit(
  action: "assign_platform" | "unassign_platform",
  a: { prompt_id: string; platform_id: string },
  fields: Record<string, unknown>,
): AuditEntry[] {
  const side = action === "assign_platform" ? "after" : "before";
  return [
    { action, entity: "prompt", entity_id: a.prompt_id, [side]: { platform_id: a.platform_id, ...fields } },
    { action, entity: "platform", entity_id: a.platform_id, [side]: { prompt_id: a.prompt_id, ...fields } },
  ];
}

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
  await writeAuditRows(tx, entries, { operator: user ? { id: user.id, email: user.email } : undefined, requestId: c.var.requestId, ip: c.var.clientIp ?? null });
}

/**
 * Writes audit rows outside a request (the server's command-line scripts): `operator` is who acted
 * when an entry names nobody, `requestId` names the command (e.g. "cli:operator:unlock").
 */
export async function writeAuditRows(
  tx: Tx | Database,
  entries: AuditEntry[],
  meta: { operator?: { id: string; email: string }; requestId: string | null; ip: string | null },
) {
  if (entries.length === 0) return;
  await tx.insert(audit_log).values(
    entries.map((e) => ({
      operator_id: e.operator?.id ?? meta.operator?.id ?? null,
      operator_email: e.operator?.email ?? meta.operator?.email ?? null,
      action: e.action,
      entity: e.entity,
      entity_id: e.entity_id,
      changes: changedFields(e.before, e.after),
      request_id: meta.requestId,
      ip_address: meta.ip,
      // The time of the change itself, not of the transaction's start: concurrent changes to one
      // record then appear in the order they were made.
      created_at: sql`clock_timestamp()`,
    })),
  );
}

/**
 * Runs `work` in one transaction and records the audit entries it returns in the same
 * transaction: either the change and its audit rows are written, or neither.
 */
export async function mutate<T>(c: AuditRequest, work: (tx: Tx) => Promise<{ result: T; audit: AuditEntry[] }>): Promise<T> {
  return c.var.db.transaction(async (tx) => {
    const { result, audit } = await work(tx);
    await writeAudit(tx, c, audit);
    return result;
  });
}
