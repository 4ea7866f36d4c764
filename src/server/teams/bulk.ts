/**
 * Bulk actions on teams (docs/bulk-actions.md): Archive, Unarchive, and Assign Skill with the one
 * rule of src/server/links/skill-assignments.ts (an active skill, to active teams only; an
 * unassigned record is reactivated, an active one left as it is).
 */
import { z } from "@hono/zod-openapi";
import { sql } from "drizzle-orm";
import { msg } from "../../domain/messages";
import { defineBulkAction, uuidArray } from "../bulk/engine";
import { lockActive, statusActions } from "../bulk/kinds";
import { queryRows, type Database } from "../db/client";
import { HttpError, notFound } from "../http/errors";
import { assignmentAudit, unassignSkills } from "../links";
import { recordNameSql } from "../record-names";
import { teamList } from "./queries";

const team = {
  entity: "teams",
  list: teamList,
  table: "teams",
  alias: "t",
  id: "team_id",
  name: "team_name",
  // Teams of different customers share names ("Support"): the report names each with its customer.
  label: recordNameSql.team("t"),
  auditEntity: "team",
} as const;

/** The skill must exist and be active, as for one assignment. @throws HttpError 404 or 422 on skill_id. */
async function activeSkill(db: Database, skillId: string) {
  const [skill] = await queryRows<{ status: string }>(db, sql`select status from skills where skill_id = ${skillId}`);
  if (!skill) throw notFound(msg.skills.notFound);
  if (skill.status !== "active")
    throw new HttpError(422, "validation_failed", msg.skills.notActive, { skill_id: msg.skills.notActive });
}

export const teamBulkActions = [
  ...statusActions(team, [
    { action: "archive", summary: "Archive teams" },
    {
      action: "unarchive",
      summary: "Unarchive teams",
      skips: [{ reason: msg.bulk.notArchived, when: sql`t.status = 'pending'` }],
    },
  ]),
  defineBulkAction<{ skill_id: string }>({
    ...team,
    action: "assign_skill",
    summary: "Assign a skill to teams",
    params: z.strictObject({ skill_id: z.guid({ error: msg.skills.notFound }) }),
    label: team.label,
    before: (
      p,
    ) => sql`(select jsonb_build_object('status', ts.status, 'assigned_at', ts.assigned_at) from teams_skills ts
      where ts.team_id = t.team_id and ts.skill_id = ${p.skill_id})`,
    check: (db, p) => activeSkill(db, p.skill_id),
    skips: (p) => [
      { reason: msg.bulk.notActiveTeam, when: sql`t.status <> 'active'` },
      {
        reason: msg.bulk.alreadyAssigned,
        when: sql`exists (select 1 from teams_skills ts where ts.team_id = t.team_id and ts.skill_id = ${p.skill_id} and ts.status = 'active')`,
      },
    ],
    apply: async (tx, p, rows) => {
      const db: Database = tx;
      await lockActive(tx, "skills", p.skill_id, msg.skills.notActive);
      const ids = uuidArray(rows.map((r) => r.id));
      // Look, then write (an adopted database may lack the (team_id, skill_id) key): reactivate, then insert.
      const reactivated = await queryRows<{ team_id: string }>(
        db,
        sql`update teams_skills set status = 'active', assigned_at = now()
          where skill_id = ${p.skill_id} and team_id = any(${ids}) and status <> 'active' returning team_id::text`,
      );
      const created = await queryRows<{ team_id: string }>(
        db,
        sql`insert into teams_skills (team_id, skill_id, customer_id, status, assigned_at)
          select t.team_id, ${p.skill_id}, t.customer_id, 'active', now() from teams t
          where t.team_id = any(${ids})
            and not exists (select 1 from teams_skills ts where ts.team_id = t.team_id and ts.skill_id = ${p.skill_id})
          returning team_id::text`,
      );
      const names = new Map(rows.map((r) => [r.id, r.label]));
      return [
        ...reactivated.map((r) => ({ r, action: "reassign_skill" as const })),
        ...created.map((r) => ({ r, action: "assign_skill" as const })),
      ].flatMap(({ r, action }) =>
        assignmentAudit(action, { team_id: r.team_id, skill_id: p.skill_id }, undefined, {
          team_name: names.get(r.team_id),
          status: "active",
        }),
      );
    },
    // Undo: the assignment it made or reactivated is unassigned, unless it was unassigned or assigned again since.
    undo: {
      skips: (p, u) => [
        {
          reason: msg.bulk.undoNoLongerAssigned,
          when: sql`not exists (select 1 from teams_skills ts where ts.team_id = t.team_id and ts.skill_id = ${p.skill_id}
            and ts.status = 'active' and ts.assigned_at <= ${u.ended})`,
        },
      ],
      apply: (tx, p, rows, run) =>
        unassignSkills(
          tx,
          rows.map((r) => ({ team_id: r.id, skill_id: p.skill_id })),
          run,
        ),
    },
  }),
];
