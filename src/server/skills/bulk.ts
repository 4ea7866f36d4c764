/**
 * Bulk actions on skills (docs/bulk-actions.md): Archive, Unarchive, and Assign to Teams with the
 * one rule of src/server/links/skill-assignments.ts (active skills, active teams; an unassigned
 * record is reactivated, an active one left as it is).
 */
import { z } from "@hono/zod-openapi";
import { sql, type SQL } from "drizzle-orm";
import { msg } from "../../domain/messages";
import { defineBulkAction, uuidArray } from "../bulk/engine";
import { statusActions } from "../bulk/kinds";
import { queryRows, type Database } from "../db/client";
import { HttpError } from "../http/errors";
import { assignmentAudit, unassignSkills } from "../links";
import { skillList } from "./queries";

const skill = {
  entity: "skills",
  list: skillList,
  table: "skills",
  alias: "s",
  id: "skill_id",
  name: "skill_name",
  auditEntity: "skill",
} as const;

/** Every team must exist and be active. @throws HttpError 422 on team_ids. */
async function activeTeams(db: Database, teamIds: string[], lock = false) {
  const found = await queryRows<{ team_id: string; status: string }>(
    db,
    sql`select team_id::text, status from teams where team_id = any(${uuidArray(teamIds)}) order by team_id
      ${lock ? sql`for share` : sql``}`,
  );
  if (found.length !== new Set(teamIds).size)
    throw new HttpError(422, "validation_failed", msg.teams.notFound, { team_ids: msg.teams.notFound });
  if (found.some((t) => t.status !== "active"))
    throw new HttpError(422, "validation_failed", msg.skills.teamNotActive, { team_ids: msg.skills.teamNotActive });
}

type TeamsParams = { team_ids: string[] };

/** Whether the kept assignments (`prior`, jsonb array) held team `x.team_id` active before the action. */
const wasActive = (prior: SQL) =>
  sql`exists (select 1 from jsonb_array_elements(coalesce(${prior}, '[]'::jsonb)) e
    where e->>'team_id' = x.team_id::text and e->>'status' = 'active')`;

export const skillBulkActions = [
  ...statusActions(skill, [
    { action: "archive", summary: "Archive skills" },
    { action: "unarchive", summary: "Unarchive skills" },
  ]),
  defineBulkAction<TeamsParams>({
    ...skill,
    action: "assign_to_teams",
    summary: "Assign skills to teams",
    params: z.strictObject({
      team_ids: z
        .array(z.guid({ error: msg.teams.notFound }))
        .min(1)
        .max(50),
    }),
    label: sql`s.skill_name`,
    before: (
      p,
    ) => sql`(select coalesce(jsonb_agg(jsonb_build_object('team_id', ts.team_id, 'status', ts.status)), '[]'::jsonb)
      from teams_skills ts where ts.skill_id = s.skill_id and ts.team_id = any(${uuidArray(p.team_ids)}))`,
    check: (db, p) => activeTeams(db, p.team_ids),
    skips: (p) => [
      { reason: msg.bulk.notActiveSkill, when: sql`s.status <> 'active'` },
      {
        reason: msg.bulk.alreadyAssigned,
        when: sql`(select count(*) from teams_skills ts where ts.skill_id = s.skill_id and ts.status = 'active'
          and ts.team_id = any(${uuidArray(p.team_ids)})) = ${new Set(p.team_ids).size}`,
      },
    ],
    apply: async (tx, p, rows) => {
      const db: Database = tx;
      // The skills are locked by the batch; the teams share-locked (the single rule's order is skill, then team).
      await activeTeams(db, p.team_ids, true);
      const skills = uuidArray(rows.map((r) => r.id));
      const teams = uuidArray(p.team_ids);
      const reactivated = await queryRows<{ team_id: string; skill_id: string }>(
        db,
        sql`update teams_skills set status = 'active', assigned_at = now()
          where skill_id = any(${skills}) and team_id = any(${teams}) and status <> 'active'
          returning team_id::text, skill_id::text`,
      );
      const created = await queryRows<{ team_id: string; skill_id: string }>(
        db,
        sql`insert into teams_skills (team_id, skill_id, customer_id, status, assigned_at)
          select t.team_id, s.skill_id, t.customer_id, 'active', now()
          from teams t cross join skills s
          where t.team_id = any(${teams}) and s.skill_id = any(${skills})
            and not exists (select 1 from teams_skills ts where ts.team_id = t.team_id and ts.skill_id = s.skill_id)
          returning team_id::text, skill_id::text`,
      );
      return [
        ...reactivated.map((r) => ({ r, action: "reassign_skill" as const })),
        ...created.map((r) => ({ r, action: "assign_skill" as const })),
      ].flatMap(({ r, action }) => assignmentAudit(action, r, undefined, { status: "active" }));
    },
    // Undo: the assignments it made or reactivated (the teams not active before) are unassigned;
    // the skill is skipped when one of them was unassigned or assigned again since.
    undo: {
      skips: (p, u) => [
        {
          reason: msg.bulk.undoNoLongerAssigned,
          when: sql`exists (select 1 from unnest(${uuidArray(p.team_ids)}) as x(team_id)
            where not ${wasActive(u.prior)} and not exists (select 1 from teams_skills ts where ts.skill_id = s.skill_id
              and ts.team_id = x.team_id and ts.status = 'active' and ts.assigned_at <= ${u.ended}))`,
        },
      ],
      apply: (tx, p, rows, run) =>
        unassignSkills(
          tx,
          rows.flatMap((r) => {
            // This action keeps a jsonb array as a row's `before`; BulkRowState types `prior` as an object.
            const before = (r.prior as unknown as Array<{ team_id: string; status: string }> | null) ?? [];
            const active = new Set(before.filter((b) => b.status === "active").map((b) => b.team_id));
            return [...new Set(p.team_ids)].filter((t) => !active.has(t)).map((t) => ({ team_id: t, skill_id: r.id }));
          }),
          run,
        ),
    },
  }),
];
