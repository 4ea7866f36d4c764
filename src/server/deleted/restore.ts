/**
 * Restoring a deletion (docs/undo-and-restore.md): the record goes back into its table with the
 * same id and values, then each part of its cascade that can still come back; a part that cannot
 * (its skill was deleted since, its user is in another customer now) is reported, the rest is
 * restored. A link deleted on its own (a removed member, an unassign) comes back whole or not at
 * all (409 with the reason). Everything runs in the caller's transaction, with the audit rows.
 */
import { sql, type SQL } from "drizzle-orm";
import type { AuditRecordEntity } from "../../domain/audit";
import type { DeletedEntity, RestorePart, RestoreReport } from "../../domain/deleted";
import { msg } from "../../domain/messages";
import type { Context } from "hono";
import type { AuditEntry, Tx } from "../audit";
import { queryRows } from "../db/client";
import type { AppEnv } from "../http/env";
import { HttpError, notFound } from "../http/errors";
import { partOf, type CascadeTable, type SnapshotRow, type SnapshotTable } from "./snapshot";
import { asText } from "../../domain/text";

const str = asText;
const reasons = msg.deleted.reasons;
const refuse = (message: string) => new HttpError(409, "conflict", message);

type DeletionRow = {
  deletion_id: string;
  entity: DeletedEntity;
  entity_id: string;
  label: string;
  snapshot: {
    row: SnapshotRow;
    cascade?: Partial<Record<CascadeTable, SnapshotRow[]>>;
    labels?: Record<string, string>;
  };
  restored_at: string | null;
};

/** What one entity's restore did: its parts, and the other records it linked again (for their audit rows). */
type Outcome = {
  restored: RestorePart[];
  notRestored: Array<RestorePart & { reason: string }>;
  linked: Array<{ entity: AuditRecordEntity; id: string }>;
  /** Audit rows of what the restore sent for review instead (prompt review's `propose_change`). */
  audit?: AuditEntry[];
};

/** Column names come from `to_jsonb` of our own tables; anything else is refused rather than quoted blindly. */
function columnsOf(rows: SnapshotRow[]): SQL {
  const names = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  for (const n of names) if (!/^[a-z_][a-z0-9_]*$/.test(n)) throw new Error(`snapshot column ${n}`);
  return sql.join(
    names.map((n) => sql.identifier(n)),
    sql`, `,
  );
}

/**
 * Inserts snapshot rows back into `table` in one statement: `jsonb_populate_recordset` turns them
 * into the table's row type, so every value is cast by PostgreSQL as it was written (timestamps to
 * the microsecond), and the insert's triggers keep the list counters right. Only the snapshot's
 * columns are written: a column added since takes its default.
 */
async function insertRows(tx: Tx, table: SnapshotTable, rows: SnapshotRow[]) {
  if (rows.length === 0) return;
  const cols = columnsOf(rows);
  const t = sql.identifier(table);
  await tx.execute(
    sql`insert into ${t} (${cols}) select ${cols} from jsonb_populate_recordset(null::${t}, ${JSON.stringify(rows)}::jsonb)`,
  );
}

/** Rows of `query` by their `id` column: what still exists of the records a cascade names. */
async function byId<T extends { id: string }>(tx: Tx, query: SQL): Promise<Map<string, T>> {
  const rows = await queryRows<T>(tx, query);
  return new Map(rows.map((r) => [r.id, r]));
}

const idsJson = (rows: SnapshotRow[], column: string) => JSON.stringify([...new Set(rows.map((r) => str(r[column])))]);
const inIds = (column: SQL, ids: string) => sql`${column}::text in (select jsonb_array_elements_text(${ids}::jsonb))`;

async function exists(tx: Tx, query: SQL): Promise<boolean> {
  // Run as it is (not inside EXISTS), so that its `for share` locks what it found.
  return (await queryRows(tx, query)).length > 0;
}

/** Sorts a cascade's rows into those that can come back and those that cannot, with the reason. */
function split(
  d: DeletionRow,
  table: CascadeTable,
  why: (row: SnapshotRow) => string | null,
): { back: SnapshotRow[]; parts: RestorePart[]; refused: Outcome["notRestored"] } {
  const back: SnapshotRow[] = [];
  const parts: RestorePart[] = [];
  const refused: Outcome["notRestored"] = [];
  for (const row of d.snapshot.cascade?.[table] ?? []) {
    const part = partOf(table, row);
    const named = { ...part, label: d.snapshot.labels?.[`${part.kind}:${part.id}`] ?? part.id };
    const reason = why(row);
    if (reason) refused.push({ ...named, reason });
    else {
      back.push(row);
      parts.push(named);
    }
  }
  return { back, parts, refused };
}

/**
 * Sorts a cascade's links by whether the record at their other end (`key` of `other`) still exists:
 * those found are share-locked, so that they stay until the restore commits; the rest are refused
 * with `gone`.
 */
async function splitByOtherEnd(
  tx: Tx,
  d: DeletionRow,
  links: CascadeTable,
  other: { table: "teams" | "skills" | "platforms" | "pedal_prompts"; key: string },
  gone: string,
) {
  const key = sql`${sql.identifier(other.key)}`;
  const ids = idsJson(d.snapshot.cascade?.[links] ?? [], other.key);
  const found = await byId(
    tx,
    sql`select ${key}::text as id from ${sql.identifier(other.table)} where ${inIds(key, ids)} for share`,
  );
  return split(d, links, (r) => (found.has(str(r[other.key])) ? null : gone));
}

/**
 * How a restore puts assignments (platform_prompts rows) back under prompt review: those review
 * covers are proposed for review instead (`sent`, with their audit rows) and the rest written
 * (`back`). The prompts feature registers it (src/server/prompts/served.ts); until then every row
 * comes back, and the database's review gate refuses what review covers.
 */
export type AssignmentReview = <T extends SnapshotRow>(
  tx: Tx,
  c: Context<AppEnv>,
  rows: T[],
) => Promise<{ back: T[]; sent: T[]; audit: AuditEntry[] }>;

let restoreAssignments: AssignmentReview = (_tx, _c, rows) => Promise.resolve({ back: rows, sent: [], audit: [] });

/** Registers how restores put assignments back under prompt review (`AssignmentReview`). */
export function reviewRestoredAssignments(review: AssignmentReview) {
  restoreAssignments = review;
}

/**
 * A cascade's assignments that can come back, split once more by prompt review: those it covers are
 * proposed for review (src/server/prompts/served.ts) and reported not restored, "Sent for review".
 */
async function reviewedAssignments(tx: Tx, c: Context<AppEnv>, p: { back: SnapshotRow[]; parts: RestorePart[] }) {
  const { back, sent, audit } = await restoreAssignments(tx, c, p.back);
  const partOfRow = (r: SnapshotRow) => p.parts[p.back.indexOf(r)];
  return {
    back,
    parts: back.map(partOfRow),
    sent: sent.map((r) => ({ ...partOfRow(r), reason: reasons.sentForReview })),
    audit,
  };
}

/** An assignment's other end: the record it names (`key`), and the reason it is refused when that record is gone. */
type AssignmentEnd = {
  table: "platforms" | "pedal_prompts";
  key: "platform_id" | "prompt_id";
  entity: "platform" | "prompt";
  gone: string;
};
/** The other end of a restored prompt's assignments. */
const platformEnd: AssignmentEnd = {
  table: "platforms",
  key: "platform_id",
  entity: "platform",
  gone: reasons.platformDeleted,
};
/** The other end of a restored platform's assignments. */
const promptEnd: AssignmentEnd = {
  table: "pedal_prompts",
  key: "prompt_id",
  entity: "prompt",
  gone: reasons.promptDeleted,
};

/**
 * Puts back the assignments (platform_prompts rows) in the cascade of a restored prompt or
 * platform: those whose record at the other end (`other`) was deleted since are refused with
 * `other.gone`, those prompt review covers are sent for review, and the rest are inserted and
 * linked again. `restored` holds the assignments' parts only (the caller puts its own first).
 */
async function restorePlatformPrompts(
  tx: Tx,
  d: DeletionRow,
  c: Context<AppEnv>,
  other: AssignmentEnd,
): Promise<Outcome> {
  const p = await splitByOtherEnd(tx, d, "platform_prompts", other, other.gone);
  const a = await reviewedAssignments(tx, c, p);
  await insertRows(tx, "platform_prompts", a.back);
  return {
    restored: a.parts,
    notRestored: [...p.refused, ...a.sent],
    linked: a.back.map((r) => ({ entity: other.entity, id: str(r[other.key]) })),
    audit: a.audit,
  };
}

type Restorer = (tx: Tx, d: DeletionRow, c: Context<AppEnv>) => Promise<Outcome>;

/** The record's own part, first in the report. */
const self = (d: DeletionRow): RestorePart => ({ kind: d.entity, id: d.entity_id, label: d.label });

/** A link's restore: the link alone is back, joining again the two records it names. */
const relinked = (d: DeletionRow, ...linked: Outcome["linked"]): Outcome => ({
  restored: [self(d)],
  notRestored: [],
  linked,
});

const restoreTeam: Restorer = async (tx, d) => {
  const row = d.snapshot.row;
  if (await exists(tx, sql`select 1 from teams where team_id = ${d.entity_id}`)) throw refuse(msg.deleted.exists);
  if (!(await exists(tx, sql`select 1 from customers where customer_id = ${str(row.customer_id)} for share`)))
    throw refuse(reasons.customerDeleted);
  await insertRows(tx, "teams", [row]);
  const members = d.snapshot.cascade?.teams_users ?? [];
  const users = await byId<{ id: string; customer_id: string }>(
    tx,
    sql`select user_id::text as id, customer_id::text as customer_id from users_data where ${inIds(sql`user_id`, idsJson(members, "user_id"))} for share`,
  );
  const m = split(d, "teams_users", (r) => {
    const user = users.get(str(r.user_id));
    if (!user) return reasons.userDeleted;
    return user.customer_id === str(row.customer_id) ? null : reasons.userMoved;
  });
  const a = await splitByOtherEnd(tx, d, "teams_skills", { table: "skills", key: "skill_id" }, reasons.skillDeleted);
  await insertRows(tx, "teams_users", m.back);
  await insertRows(tx, "teams_skills", a.back);
  return {
    restored: [self(d), ...m.parts, ...a.parts],
    notRestored: [...m.refused, ...a.refused],
    linked: [
      ...m.back.map((r) => ({ entity: "user" as const, id: str(r.user_id) })),
      ...a.back.map((r) => ({ entity: "skill" as const, id: str(r.skill_id) })),
    ],
  };
};

const restoreSkill: Restorer = async (tx, d) => {
  if (await exists(tx, sql`select 1 from skills where skill_id = ${d.entity_id}`)) throw refuse(msg.deleted.exists);
  await insertRows(tx, "skills", [d.snapshot.row]);
  const a = await splitByOtherEnd(tx, d, "teams_skills", { table: "teams", key: "team_id" }, reasons.teamDeleted);
  await insertRows(tx, "teams_skills", a.back);
  return {
    restored: [self(d), ...a.parts],
    notRestored: a.refused,
    linked: a.back.map((r) => ({ entity: "team" as const, id: str(r.team_id) })),
  };
};

const restorePrompt: Restorer = async (tx, d, c) => {
  const row = d.snapshot.row;
  if (await exists(tx, sql`select 1 from pedal_prompts where prompt_id = ${d.entity_id}`))
    throw refuse(msg.deleted.exists);
  // A prompt belongs to its skill (RESTRICT): without it, the prompt cannot come back at all.
  if (!(await exists(tx, sql`select 1 from skills where skill_id = ${str(row.skill_id)} for share`)))
    throw refuse(reasons.skillDeleted);
  await insertRows(tx, "pedal_prompts", [row]);
  const v = split(d, "prompt_versions", () => null);
  await insertRows(tx, "prompt_versions", v.back);
  const a = await restorePlatformPrompts(tx, d, c, platformEnd);
  return { ...a, restored: [self(d), ...a.restored, ...v.parts] };
};

const restorePlatform: Restorer = async (tx, d, c) => {
  if (await exists(tx, sql`select 1 from platforms where platform_id = ${d.entity_id}`))
    throw refuse(msg.deleted.exists);
  await insertRows(tx, "platforms", [d.snapshot.row]);
  const a = await restorePlatformPrompts(tx, d, c, promptEnd);
  return { ...a, restored: [self(d), ...a.restored] };
};

/** A team and its state, locked against archiving or deletion until the link is written. */
async function lockedTeam(tx: Tx, teamId: string) {
  const [team] = await queryRows<{ customer_id: string; status: string }>(
    tx,
    sql`select customer_id::text as customer_id, status from teams where team_id = ${teamId} for share`,
  );
  return team;
}

/** A removed member or a Leave Team: the same rules as adding a member (same customer, active team). */
const restoreMember: Restorer = async (tx, d) => {
  const row = d.snapshot.row;
  const [teamId, userId] = [str(row.team_id), str(row.user_id)];
  if (await exists(tx, sql`select 1 from teams_users where team_id = ${teamId} and user_id = ${userId}`))
    throw refuse(msg.deleted.exists);
  const team = await lockedTeam(tx, teamId);
  if (!team) throw refuse(reasons.teamDeleted);
  const [user] = await queryRows<{ customer_id: string }>(
    tx,
    sql`select customer_id::text as customer_id from users_data where user_id = ${userId} for share`,
  );
  if (!user) throw refuse(reasons.userDeleted);
  if (user.customer_id !== team.customer_id) throw refuse(reasons.userMoved);
  if (team.status !== "active") throw refuse(reasons.teamArchived);
  await insertRows(tx, "teams_users", [row]);
  return relinked(d, { entity: "team", id: teamId }, { entity: "user", id: userId });
};

/**
 * An Unassign (the row was kept, inactive): the assignment as it was before, status, assigned_at,
 * score and last use; the same rules as Reassign (both active). Inserted again when its row went
 * since (with a team restored meanwhile).
 */
const restoreAssignment: Restorer = async (tx, d) => {
  const row = d.snapshot.row;
  const [teamId, skillId] = [str(row.team_id), str(row.skill_id)];
  const [skill] = await queryRows<{ status: string }>(
    tx,
    sql`select status from skills where skill_id = ${skillId} for share`,
  );
  if (!skill) throw refuse(reasons.skillDeleted);
  const team = await lockedTeam(tx, teamId);
  if (!team) throw refuse(reasons.teamDeleted);
  const pair = sql`team_id = ${teamId} and skill_id = ${skillId}`;
  const [current] = await queryRows<{ status: string }>(
    tx,
    sql`select status from teams_skills where ${pair} for update`,
  );
  if (current?.status === "active") throw refuse(msg.deleted.exists);
  if (team.status !== "active") throw refuse(reasons.teamArchived);
  if (skill.status !== "active") throw refuse(reasons.skillArchived);
  if (current) {
    await tx.execute(sql`
      update teams_skills ts set status = r.status, assigned_at = r.assigned_at, score = r.score, last_used = r.last_used
      from jsonb_populate_record(null::teams_skills, ${JSON.stringify(row)}::jsonb) r
      where ts.team_id = ${teamId} and ts.skill_id = ${skillId}`);
  } else await insertRows(tx, "teams_skills", [row]);
  return relinked(d, { entity: "team", id: teamId }, { entity: "skill", id: skillId });
};

/**
 * An unassigned platform: the same rules as Assign Platform (an active platform). Under prompt
 * review that covers it, the assignment is proposed for review instead (reported not restored,
 * "Sent for review").
 */
const restorePromptPlatform: Restorer = async (tx, d, c) => {
  const row = d.snapshot.row;
  const [promptId, platformId] = [str(row.prompt_id), str(row.platform_id)];
  if (
    await exists(tx, sql`select 1 from platform_prompts where prompt_id = ${promptId} and platform_id = ${platformId}`)
  )
    throw refuse(msg.deleted.exists);
  if (!(await exists(tx, sql`select 1 from pedal_prompts where prompt_id = ${promptId} for share`)))
    throw refuse(reasons.promptDeleted);
  const [platform] = await queryRows<{ status: string }>(
    tx,
    sql`select status from platforms where platform_id = ${platformId} for share`,
  );
  if (!platform) throw refuse(reasons.platformDeleted);
  if (platform.status !== "active") throw refuse(reasons.platformInactive);
  const a = await restoreAssignments(tx, c, [row]);
  if (a.sent.length > 0)
    return { restored: [], notRestored: [{ ...self(d), reason: reasons.sentForReview }], linked: [], audit: a.audit };
  await insertRows(tx, "platform_prompts", [row]);
  return relinked(d, { entity: "prompt", id: promptId }, { entity: "platform", id: platformId });
};

const restorers: Record<DeletedEntity, Restorer> = {
  team: restoreTeam,
  skill: restoreSkill,
  prompt: restorePrompt,
  platform: restorePlatform,
  team_member: restoreMember,
  skill_assignment: restoreAssignment,
  prompt_platform: restorePromptPlatform,
};

/** The audit entity of a deleted record (links are audited against their two records). */
const recordEntity: Partial<Record<DeletedEntity, AuditRecordEntity>> = {
  team: "team",
  skill: "skill",
  prompt: "prompt",
  platform: "platform",
};

/**
 * Restores deletion `deletionId` inside `tx` and marks it restored (who, when). Under prompt review,
 * an assignment it covers is proposed for review instead of written (docs/prompt-review.md): it is
 * reported not restored, "Sent for review", and a link sent whole stays in Recently deleted.
 * @returns the report (`restored`: the record, then each part of its cascade that came back;
 * `not_restored`: each part that could not, with the reason) and the audit rows: one `restore`
 * against the record, and one against each other record a restored link names.
 * @throws HttpError 404 (unknown deletion) or 409 (already restored; the record exists again; a
 * link, or a prompt without its skill, that cannot come back, with the reason).
 */
export async function restoreDeletion(
  tx: Tx,
  c: Context<AppEnv>,
  deletionId: string,
): Promise<{ result: RestoreReport; audit: AuditEntry[] }> {
  const [d] = await queryRows<DeletionRow>(
    tx,
    sql`select deletion_id::text as deletion_id, entity, entity_id, label, snapshot, restored_at::text as restored_at
      from deleted_records where deletion_id = ${deletionId} for update`,
  );
  if (!d) throw notFound(msg.deleted.notFound);
  if (d.restored_at) throw refuse(msg.deleted.alreadyRestored);
  const outcome = await restorers[d.entity](tx, d, c);
  // A link sent for review instead stays in Recently deleted: nothing of it came back yet.
  if (outcome.restored.length > 0)
    await tx.execute(sql`
    update deleted_records set restored_at = clock_timestamp(), restored_by_email = ${c.get("session")?.user.email ?? null}
    where deletion_id = ${deletionId}`);
  const result: RestoreReport = {
    deletion_id: d.deletion_id,
    entity: d.entity,
    entity_id: d.entity_id,
    label: d.label,
    restored: outcome.restored,
    not_restored: outcome.notRestored,
  };
  const summary = {
    deletion_id: d.deletion_id,
    kind: d.entity,
    label: d.label,
    restored: outcome.restored.length,
    ...(outcome.notRestored.length > 0 ? { not_restored: outcome.notRestored } : {}),
  };
  const own = recordEntity[d.entity];
  const audit: AuditEntry[] = [...(outcome.audit ?? [])];
  if (own) audit.push({ action: "restore", entity: own, entity_id: d.entity_id, after: summary });
  // One row per other record a restored link names (a member's user, an assignment's skill), once each.
  const seen = new Set<string>();
  for (const l of outcome.linked) {
    const key = `${l.entity}:${l.id}`;
    if (seen.has(key)) continue;
    seen.add(key);
    audit.push({ action: "restore", entity: l.entity, entity_id: l.id, after: summary });
  }
  return { result, audit };
}
