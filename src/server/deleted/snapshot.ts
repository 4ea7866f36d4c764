/**
 * Deleting with a snapshot (docs/undo-and-restore.md): a delete removes its rows from the spec's
 * tables as before (readers of those tables see them gone), and in the same transaction keeps
 * them, every column as PostgreSQL has it (`to_jsonb`), in `deleted_records`, so that a restore can
 * put back exactly what was there, same ids and times included.
 */
import { sql, type SQL } from "drizzle-orm";
import type { DeletedEntity, RestorePartKind } from "../../domain/deleted";
import type { AuditRequest, Tx } from "../audit";
import { queryRows } from "../db/client";
import { deleted_records } from "../db/schema";
import { recordNameSql } from "../record-names";
import { asText } from "../../domain/text";

/** A row as `to_jsonb` wrote it: column name → JSON value (timestamps as ISO text, uuids as text). */
export type SnapshotRow = Record<string, unknown>;

/** The tables a delete takes rows from, each with its key's columns. */
export const snapshotTables = {
  teams: ["team_id"],
  skills: ["skill_id"],
  pedal_prompts: ["prompt_id"],
  platforms: ["platform_id"],
  teams_users: ["team_id", "user_id"],
  teams_skills: ["team_id", "skill_id"],
  platform_prompts: ["prompt_id", "platform_id"],
  prompt_versions: ["prompt_id", "version"],
} as const;
export type SnapshotTable = keyof typeof snapshotTables;
/** The tables a record's cascade can hold. */
export type CascadeTable = "teams_users" | "teams_skills" | "platform_prompts" | "prompt_versions";
export type Cascade = Partial<Record<CascadeTable, SnapshotRow[]>>;

/**
 * Deletes the rows of `table` matching `where` (columns unqualified, or qualified `t.`) and returns
 * each whole, as JSON. Used by every delete, unassign and removal in place of a plain DELETE.
 */
export async function takeRows(tx: Tx, table: SnapshotTable, where: SQL): Promise<SnapshotRow[]> {
  const rows = await queryRows<{ row: SnapshotRow }>(
    tx,
    sql`delete from ${sql.identifier(table)} as t where ${where} returning to_jsonb(t) as row`,
  );
  return rows.map((r) => r.row);
}

/** Reads the rows of `table` matching `where` whole, as JSON, without deleting them (an unassign keeps its row). */
export async function readRows(tx: Tx, table: SnapshotTable, where: SQL): Promise<SnapshotRow[]> {
  const rows = await queryRows<{ row: SnapshotRow }>(
    tx,
    sql`select to_jsonb(t) as row from ${sql.identifier(table)} as t where ${where}`,
  );
  return rows.map((r) => r.row);
}

const str = asText;

/** The kind and id of one cascade row, as a restore's report names it. */
export function partOf(table: CascadeTable, row: SnapshotRow): { kind: RestorePartKind; id: string } {
  switch (table) {
    case "teams_users":
      return { kind: "team_member", id: `${str(row.team_id)}:${str(row.user_id)}` };
    case "teams_skills":
      return { kind: "skill_assignment", id: `${str(row.team_id)}:${str(row.skill_id)}` };
    case "platform_prompts":
      return { kind: "prompt_platform", id: `${str(row.prompt_id)}:${str(row.platform_id)}` };
    case "prompt_versions":
      return { kind: "prompt_version", id: `${str(row.prompt_id)}/${str(row.version)}` };
  }
}

/** Names of records by id, read in one statement per kind (`for share`: they cannot go meanwhile). */
type NameKind = "user" | "team" | "skill" | "prompt" | "platform";
const nameSql: Record<NameKind, (ids: string) => SQL> = {
  user: (ids) =>
    sql`select u.user_id::text as id, coalesce(nullif(${recordNameSql.user("u")}, ''), u.user_id::text) as name from users_data u where u.user_id::text in (select jsonb_array_elements_text(${ids}::jsonb))`,
  team: (ids) =>
    sql`select t.team_id::text as id, ${recordNameSql.team("t")} as name from teams t where t.team_id::text in (select jsonb_array_elements_text(${ids}::jsonb))`,
  skill: (ids) =>
    sql`select skill_id::text as id, coalesce(skill_name, skill_id::text) as name from skills where skill_id::text in (select jsonb_array_elements_text(${ids}::jsonb))`,
  prompt: (ids) =>
    sql`select p.prompt_id::text as id, ${recordNameSql.prompt("p")} as name from pedal_prompts p where p.prompt_id::text in (select jsonb_array_elements_text(${ids}::jsonb))`,
  platform: (ids) =>
    sql`select platform_id::text as id, platform_name as name from platforms where platform_id::text in (select jsonb_array_elements_text(${ids}::jsonb))`,
};

async function namesOf(tx: Tx, kind: NameKind, ids: unknown[]): Promise<Map<string, string>> {
  const unique = [...new Set(ids.map(str))];
  if (unique.length === 0) return new Map();
  const rows = await queryRows<{ id: string; name: string }>(tx, nameSql[kind](JSON.stringify(unique)));
  return new Map(rows.map((r) => [r.id, r.name]));
}

/**
 * The name of one record as Recently deleted gives it: a team with its customer, a user with their
 * email, a prompt with its skill (`nameSql`); its id when it is gone.
 */
export async function recordName(tx: Tx, kind: NameKind, id: string): Promise<string> {
  return (await namesOf(tx, kind, [id])).get(id) ?? id;
}

/**
 * Which side of a cascade row names it in the report of `entity`'s restore: a team's members by
 * user, its assignments by skill; a skill's assignments by team; a prompt's platforms by platform;
 * a platform's prompts by prompt.
 */
const otherSide: Partial<Record<DeletedEntity, Partial<Record<CascadeTable, [NameKind, string]>>>> = {
  team: { teams_users: ["user", "user_id"], teams_skills: ["skill", "skill_id"] },
  skill: { teams_skills: ["team", "team_id"] },
  prompt: { platform_prompts: ["platform", "platform_id"] },
  platform: { platform_prompts: ["prompt", "prompt_id"] },
};

/**
 * A link deleted on its own: its two records, named "first — second" (the user, then the team:
 * "Ann Lee · ann@example.com — Support · Schneider Inc"); each side is named as `nameSql` names it.
 */
const linkSides: Partial<Record<DeletedEntity, [[NameKind, string], [NameKind, string]]>> = {
  team_member: [
    ["user", "user_id"],
    ["team", "team_id"],
  ],
  skill_assignment: [
    ["skill", "skill_id"],
    ["team", "team_id"],
  ],
  prompt_platform: [
    ["platform", "platform_id"],
    ["prompt", "prompt_id"],
  ],
};

/** The id of a link's deleted_records row: its two ids joined by ":" (as `partOf` names it). */
export function linkId(entity: DeletedEntity, row: SnapshotRow): string {
  const table = { team_member: "teams_users", skill_assignment: "teams_skills", prompt_platform: "platform_prompts" }[
    entity as "team_member"
  ] as CascadeTable;
  return partOf(table, row).id;
}

/**
 * The labels of links of kind `entity` ("Ann Lee · ann@example.com — Support · Schneider Inc"),
 * one statement per side.
 */
async function linkLabels(tx: Tx, entity: DeletedEntity, rows: SnapshotRow[]): Promise<string[]> {
  const sides = linkSides[entity] ?? [];
  const names = await Promise.all(
    sides.map(([kind, column]) =>
      namesOf(
        tx,
        kind,
        rows.map((r) => r[column]),
      ),
    ),
  );
  return rows.map((row) =>
    sides.map(([, column], i) => names[i].get(str(row[column])) ?? str(row[column])).join(" — "),
  );
}

/**
 * Keeps the snapshots of many links removed together (a bulk action's undo), one per link as
 * `recordDeletion` keeps one, in one statement, tagged with the run's `bulkId`.
 * @returns the deletions' ids, in the order of `rows`.
 */
export async function recordLinkDeletions(
  tx: Tx,
  c: AuditRequest,
  entity: "team_member" | "skill_assignment" | "prompt_platform",
  rows: SnapshotRow[],
  bulkId: string,
): Promise<string[]> {
  if (rows.length === 0) return [];
  const labels = await linkLabels(tx, entity, rows);
  const user = c.var.session?.user;
  const written = await tx
    .insert(deleted_records)
    .values(
      rows.map((row, i) => ({
        entity,
        entity_id: linkId(entity, row),
        label: labels[i],
        snapshot: { row, labels: {} },
        bulk_id: bulkId,
        deleted_by_id: user?.id ?? null,
        deleted_by_email: user?.email ?? null,
      })),
    )
    .returning({ deletion_id: deleted_records.deletion_id });
  return written.map((w) => w.deletion_id);
}

/**
 * Keeps a deletion's snapshot in `deleted_records`, inside the delete's transaction: the record
 * (`row`) and the rows removed with it (`cascade`), with the names of its parts as they are now
 * (a restore reports by name what cannot come back, even once that record is gone). A link's label
 * is made here ("Ann Lee · ann@example.com — Support · Schneider Inc"); a record's is given.
 * @returns the deletion's id, which the delete answers as `deletion_id` (Undo restores it).
 */
export async function recordDeletion(
  tx: Tx,
  c: AuditRequest,
  d: { entity: DeletedEntity; entityId?: string; label?: string; row: SnapshotRow; cascade?: Cascade },
): Promise<string> {
  const labels: Record<string, string> = {};
  for (const [table, rows] of Object.entries(d.cascade ?? {}) as Array<[CascadeTable, SnapshotRow[]]>) {
    const side = otherSide[d.entity]?.[table];
    const names = side
      ? await namesOf(
          tx,
          side[0],
          rows.map((r) => r[side[1]]),
        )
      : new Map<string, string>();
    for (const row of rows) {
      const part = partOf(table, row);
      labels[`${part.kind}:${part.id}`] =
        table === "prompt_versions"
          ? `Version ${str(row.version)}`
          : side
            ? (names.get(str(row[side[1]])) ?? str(row[side[1]]))
            : part.id;
    }
  }
  const label = d.label ?? (linkSides[d.entity] ? (await linkLabels(tx, d.entity, [d.row]))[0] : undefined);
  const user = c.var.session?.user;
  const [written] = await tx
    .insert(deleted_records)
    .values({
      entity: d.entity,
      entity_id: d.entityId ?? linkId(d.entity, d.row),
      label: label ?? d.entityId ?? "",
      snapshot: { row: d.row, ...(d.cascade ? { cascade: d.cascade } : {}), labels },
      deleted_by_id: user?.id ?? null,
      deleted_by_email: user?.email ?? null,
    })
    .returning({ deletion_id: deleted_records.deletion_id });
  return written.deletion_id;
}
