/**
 * Removing many links at once, as one click removes one (docs/undo-and-restore.md): a membership
 * is deleted, a skill assignment unassigned (its row kept, inactive), a prompt's platform deleted;
 * each keeps its snapshot in deleted_records (restorable from Recently deleted) and writes the
 * audit rows of one click, against both records. Set-based: a few statements for any number of
 * links. Used by the undo of a bulk action that made them.
 */
import { sql, type SQL } from "drizzle-orm";
import type { AuditEntry, AuditRequest, Tx } from "../audit";
import { queryRows } from "../db/client";
import { readRows, recordLinkDeletions, takeRows, type SnapshotRow } from "../deleted/snapshot";
import { assignmentAudit, membershipAudit, platformAssignmentAudit } from "./audit";

/** `(a, b) in ((…), …)` over pairs of uuids: the key of a link table. */
function pairsIn(a: string, b: string, pairs: Array<[string, string]>): SQL {
  return sql`(${sql.raw(a)}, ${sql.raw(b)}) in (${sql.join(
    pairs.map(([x, y]) => sql`(${x}::uuid, ${y}::uuid)`),
    sql`, `,
  )})`;
}

/** Who removed the links and in which run (the snapshots' `bulk_id`). */
type Removal = { c: AuditRequest; bulkId: string };

/**
 * Unassigns the active skill assignments `links`: each row kept, inactive, with its snapshot as it
 * was and `unassign_skill` against the team and the skill. @returns the audit rows.
 */
export async function unassignSkills(
  tx: Tx,
  links: Array<{ team_id: string; skill_id: string }>,
  by: Removal,
): Promise<AuditEntry[]> {
  if (links.length === 0) return [];
  const where = sql`${pairsIn(
    "team_id",
    "skill_id",
    links.map((l) => [l.team_id, l.skill_id]),
  )} and status = 'active'`;
  const kept = await readRows(tx, "teams_skills", where);
  const names = await queryRows<{ team_id: string; team_name: string | null }>(
    tx,
    sql`update teams_skills ts set status = 'inactive' from teams t
      where t.team_id = ts.team_id and ${pairsIn(
        "ts.team_id",
        "ts.skill_id",
        links.map((l) => [l.team_id, l.skill_id]),
      )} and ts.status = 'active'
      returning ts.team_id::text, t.team_name`,
  );
  await recordLinkDeletions(tx, by.c, "skill_assignment", kept, by.bulkId);
  const teamName = new Map(names.map((n) => [n.team_id, n.team_name]));
  return kept.flatMap((r) =>
    assignmentAudit(
      "unassign_skill",
      { team_id: String(r.team_id), skill_id: String(r.skill_id) },
      { status: "active" },
      { team_name: teamName.get(String(r.team_id)) ?? null, status: "inactive" },
    ),
  );
}

/** The links removed by deleting their row: the table, its key's columns, and one click's audit rows. */
const deletedLinks = {
  team_member: {
    table: "teams_users",
    key: ["team_id", "user_id"],
    audit: (r: SnapshotRow) =>
      membershipAudit("remove_member", {
        team_id: String(r.team_id),
        user_id: String(r.user_id),
        customer_id: String(r.customer_id),
      }),
  },
  prompt_platform: {
    table: "platform_prompts",
    key: ["prompt_id", "platform_id"],
    audit: (r: SnapshotRow) =>
      platformAssignmentAudit(
        "unassign_platform",
        { prompt_id: String(r.prompt_id), platform_id: String(r.platform_id) },
        { is_active: r.is_active },
      ),
  },
} as const;

/** Deletes the links of `kind` named in `links` (by their key's two ids) that exist, keeping each one's snapshot. */
async function deleteLinks(tx: Tx, kind: keyof typeof deletedLinks, links: Array<Record<string, string>>, by: Removal) {
  if (links.length === 0) return [];
  const { table, key, audit } = deletedLinks[kind];
  const rows = await takeRows(
    tx,
    table,
    pairsIn(
      key[0],
      key[1],
      links.map((l) => [l[key[0]], l[key[1]]]),
    ),
  );
  await recordLinkDeletions(tx, by.c, kind, rows, by.bulkId);
  return rows.flatMap(audit);
}

/**
 * Deletes the memberships `links` (those that exist), keeping each one's snapshot, with
 * `remove_member` against the team and the user. @returns the audit rows.
 */
export const removeMembers = (tx: Tx, links: Array<{ team_id: string; user_id: string }>, by: Removal) =>
  deleteLinks(tx, "team_member", links, by);

/**
 * Deletes the prompts' platform assignments `links`, keeping each one's snapshot, with
 * `unassign_platform` against the prompt and the platform. @returns the audit rows.
 */
export const unassignPlatforms = (tx: Tx, links: Array<{ prompt_id: string; platform_id: string }>, by: Removal) =>
  deleteLinks(tx, "prompt_platform", links, by);
