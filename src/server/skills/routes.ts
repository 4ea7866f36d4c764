import { z } from "@hono/zod-openapi";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { assignmentChangeResultSchema, deletedResultSchema } from "../../domain/deleted";
import { msg } from "../../domain/messages";
import { createSkillPromptSchema } from "../../domain/prompts";
import {
  assignmentStatusSchema,
  assignTeamSchema,
  bulkAssignResultSchema,
  bulkAssignSchema,
  skillAssignmentResultSchema,
  skillOptionSchema,
  skillOptionsSchema,
  skillPromptSchema,
  skillRecords,
  skillSchema,
} from "../../domain/skills";
import { mutate, type Tx } from "../audit";
import { assignmentAudit, assignSkillToTeam, sharedSkill } from "../links";
import { readRows, recordDeletion } from "../deleted";
import { recordsOf } from "../db/records";
import { idParams, mountRecordRoutes } from "../http/record-routes";
import { queryRows } from "../db/client";
import { pedal_prompts, skills, teams, teams_skills } from "../db/schema";
import { errorBodySchema, HttpError, notFound } from "../http/errors";
import { toJson } from "../http/list";
import { apiRoute, createRouter, invalidResponse, jsonBody, jsonResponse, notFoundResponse } from "../http/route";
import {
  assignableScope,
  assignableTeamList,
  getSkill,
  lockSkill,
  skillAssignmentList,
  skillCommentList,
  skillList,
  skillPicker,
  skillPromptList,
} from "./queries";

export const skillsBase = "/api/skills";
const json = jsonResponse;
const skillNotFound = notFoundResponse(msg.skills.notFound);
const invalid = invalidResponse;
const conflict409 = (description: string) => ({ 409: jsonResponse(errorBodySchema, description) });
const params = idParams("skillId", msg.skills.notFound);
const assignmentParams = params.extend({ teamId: z.guid({ error: msg.teams.notFound }) });

/**
 * POST /api/skills/{skillId}/teams `{ team_id }` → 201 new active assignment (customer_id taken
 * from the team); 200 when the team's assignment was inactive (reactivated) or already active.
 * 404 unknown skill or team; 422 inactive skill or team.
 */
const assign = apiRoute(skillsBase, "editor", {
  method: "post",
  path: "/{skillId}/teams",
  tags: ["Skills"],
  summary: "Assign a skill to a team",
  request: { params, body: jsonBody(assignTeamSchema) },
  responses: {
    200: json(skillAssignmentResultSchema, "Already assigned, or reactivated"),
    201: json(skillAssignmentResultSchema, "Assigned"),
    ...skillNotFound,
    ...invalid,
  },
});

/**
 * POST /api/skills/{skillId}/teams/bulk `{ team_ids: [uuid, …] }` (1–200) → 201 `{ created }`:
 * one active assignment per team, all in one transaction with one audit row each, or none: any
 * unknown or inactive team, or one that already has a record for the skill, refuses the whole
 * request (422, a message per bad team id; 409 when another request assigned one meanwhile).
 */
const bulkAssign = apiRoute(skillsBase, "editor", {
  method: "post",
  path: "/{skillId}/teams/bulk",
  tags: ["Skills"],
  summary: "Assign a skill to many teams at once",
  request: { params, body: jsonBody(bulkAssignSchema) },
  responses: {
    201: json(bulkAssignResultSchema, "Assigned"),
    ...skillNotFound,
    ...invalid,
    ...conflict409("Assigned meanwhile"),
  },
});

/**
 * PATCH /api/skills/{skillId}/teams/{teamId} `{ status }` → Unassign (`inactive`: the row is kept)
 * or Reassign (`active`) (SPEC.md §4); unchanged status writes nothing. An Unassign that changed
 * the row keeps its state before in a snapshot and answers its `deletion_id` (Undo). 404 when the
 * team has no assignment record for the skill; 422 reassigning an inactive skill or to an inactive team.
 */
const setAssignment = apiRoute(skillsBase, "editor", {
  method: "patch",
  path: "/{skillId}/teams/{teamId}",
  tags: ["Skills"],
  summary: "Unassign or reassign a skill",
  request: { params: assignmentParams, body: jsonBody(assignmentStatusSchema) },
  responses: {
    200: json(assignmentChangeResultSchema, "Updated"),
    ...notFoundResponse(msg.skills.notAssigned),
    ...invalid,
  },
});

/**
 * POST /api/skills/{skillId}/prompts `{ prompt_title, prompt_value?, status? }` → 201 the prompt
 * (SPEC.md §2 the skill page's Add Prompt modal, §5 validation). 404 "Skill not found".
 */
const addPrompt = apiRoute(skillsBase, "editor", {
  method: "post",
  path: "/{skillId}/prompts",
  tags: ["Skills"],
  summary: "Add a prompt to a skill",
  request: { params, body: jsonBody(createSkillPromptSchema) },
  responses: { 201: json(skillPromptSchema, "Created"), ...skillNotFound, ...invalid },
});

export const skillsRouter = createRouter();

const skillTable = recordsOf({ table: skills, id: skills.skill_id, entity: "skill", notFound: msg.skills.notFound });

/** The skill locked for update (404 "Skill not found"); with `active`, 422 unless it is active. */
async function lockedSkill(tx: Tx, skillId: string, options: { active?: boolean } = {}) {
  const skill = await skillTable.lock(tx, skillId);
  if (options.active && skill.status !== "active") throw new HttpError(422, "validation_failed", msg.skills.notActive);
  return skill;
}

/**
 * GET /api/skills/options?q&active&limit&after → `{ items: [{ skill_id, skill_name, status,
 * is_global }], more, next }` for pickers (`active=true` for the prompt forms: SPEC.md §2
 * "/prompts/add"), GET /api/skills/{skillId}/option one of them. GET /api/skills/{skillId} → the
 * skill with its statistics (SPEC.md §2). POST /api/skills
 * `{ skill_name, skill_description?, type?, status?, is_global? }` → 201 the skill (SPEC.md §5
 * "Skill create"; defaults manual, active, not global). PATCH /api/skills/{skillId} (the same
 * fields) → the skill: Edit (SPEC.md §5) and Archive / Unarchive (`{ status }`, §4); archiving an
 * inactive skill writes nothing. DELETE /api/skills/{skillId} → `{ ok, deletion_id }`: the skill
 * and all its team assignments (SPEC.md §2 confirm text); refused with 409 naming how many prompts
 * and comments refer to it (docs/decisions.md: the confirm text promises only the team assignments).
 */
mountRecordRoutes(skillsRouter, {
  base: skillsBase,
  tag: "Skills",
  noun: "skill",
  params,
  records: skillTable,
  options: { schema: skillOptionsSchema, item: skillOptionSchema, ...skillPicker },
  detail: { schema: skillRecords.detail, read: getSkill },
  create: { body: skillRecords.create, schema: skillSchema },
  update: { summary: "Edit, archive or unarchive a skill", body: skillRecords.update, schema: skillSchema },
  remove: {
    schema: deletedResultSchema,
    responses: conflict409("Prompts or comments refer to the skill"),
    label: (skill) => skill.skill_name,
    cascade: ["teams_skills"],
    check: async (tx, skillId) => {
      const [refs] = await queryRows<{ prompts: number; comments: number }>(
        tx,
        sql`
        select (select count(*) from pedal_prompts where skill_id = ${skillId})::int as prompts,
          (select count(*) from skill_comments where skill_id = ${skillId})::int as comments`,
      );
      if (refs.prompts > 0 || refs.comments > 0)
        throw new HttpError(409, "conflict", msg.skills.deleteBlocked(refs.prompts, refs.comments));
    },
    audit: (taken) => ({ assignment_count: taken.teams_skills?.length }),
  },
  list: {
    description:
      "Skills with team_count (active assignments); filters type, scope (global | local), status; `q` searches name, description, type and status; cards over all skills.",
    list: skillList,
  },
  lists: [
    // The Team Assignments table (newest first) and its CSV export; 404 "Skill not found".
    {
      path: "/teams",
      summary: "Team assignments of a skill",
      description:
        "The skill's assignments, active and inactive, joined to team and customer names; `q` searches team, customer and status.",
      list: skillAssignmentList,
      where: (id) => sql`ts.skill_id = ${id}`,
    },
    // The Assign modal's candidates; 404 "Skill not found".
    {
      path: "/assignable-teams",
      summary: "Teams a skill can be assigned to",
      description:
        "Active teams with no assignment record for the skill (SPEC.md §4); `customer_id` narrows to one customer; `q` searches team and customer names.",
      list: assignableTeamList,
      where: (id) => assignableScope(id),
    },
    // The Prompts panel (newest first); 404 "Skill not found".
    {
      path: "/prompts",
      summary: "Prompts of a skill",
      description: "The skill's prompts, newest first; `q` searches title and status.",
      list: skillPromptList,
      where: (id) => sql`p.skill_id = ${id}`,
    },
    // The Comments table (newest first) with commenter names; 404 "Skill not found".
    {
      path: "/comments",
      summary: "Comments on a skill",
      description:
        "The skill's comments with the commenter's first and last name, newest first; `q` searches the comment and status.",
      list: skillCommentList,
      where: (id) => sql`sm.skill_id = ${id}`,
    },
  ],
});

skillsRouter
  .openapi(assign, async (c) => {
    const { skillId } = c.req.valid("param");
    const { team_id } = c.req.valid("json");
    const outcome = await mutate(c, (tx) => assignSkillToTeam(tx, team_id, skillId));
    return c.json({ team_id, skill_id: skillId, status: "active" as const }, outcome.created ? 201 : 200);
  })
  .openapi(bulkAssign, async (c) => {
    const { skillId } = c.req.valid("param");
    const { team_ids } = c.req.valid("json");
    const created = await mutate(c, async (tx) => {
      await lockedSkill(tx, skillId, { active: true });
      // Locked in id order, so that concurrent requests over the same teams cannot deadlock.
      const found = await tx
        .select()
        .from(teams)
        .where(inArray(teams.team_id, team_ids))
        .orderBy(asc(teams.team_id))
        .for("update");
      const existing = await tx
        .select({ team_id: teams_skills.team_id })
        .from(teams_skills)
        .where(and(eq(teams_skills.skill_id, skillId), inArray(teams_skills.team_id, team_ids)));
      const byId = new Map(found.map((t) => [t.team_id, t]));
      const assigned = new Set(existing.map((e) => e.team_id));
      const fields: Record<string, string> = {};
      team_ids.forEach((id, i) => {
        const team = byId.get(id);
        if (!team) fields[`team_ids.${i}`] = msg.teams.notFound;
        else if (team.status !== "active") fields[`team_ids.${i}`] = msg.skills.teamNotActive;
        else if (assigned.has(id)) fields[`team_ids.${i}`] = msg.skills.alreadyAssigned;
      });
      if (Object.keys(fields).length > 0) throw new HttpError(422, "validation_failed", msg.skills.bulkInvalid, fields);
      const now = new Date();
      const rows = await tx
        .insert(teams_skills)
        .values(
          team_ids.map((id) => ({
            team_id: id,
            skill_id: skillId,
            customer_id: byId.get(id)!.customer_id,
            status: "active" as const,
            assigned_at: now,
          })),
        )
        .onConflictDoNothing()
        .returning({ team_id: teams_skills.team_id });
      // Another request assigned one of them after the check above: all or nothing.
      if (rows.length !== team_ids.length) throw new HttpError(409, "conflict", msg.skills.bulkInvalid);
      return {
        result: rows.length,
        audit: team_ids.flatMap((id) =>
          assignmentAudit("assign_skill", { team_id: id, skill_id: skillId }, undefined, {
            team_name: byId.get(id)!.team_name,
            status: "active",
            bulk: true,
          }),
        ),
      };
    });
    return c.json({ created }, 201);
  })
  .openapi(setAssignment, async (c) => {
    const { skillId, teamId } = c.req.valid("param");
    const { status } = c.req.valid("json");
    const deletionId = await mutate(c, async (tx) => {
      const skill = await lockSkill(tx, skillId);
      if (!skill) throw notFound(msg.skills.notFound);
      const [row] = await tx
        .select()
        .from(teams_skills)
        .where(and(eq(teams_skills.skill_id, skillId), eq(teams_skills.team_id, teamId)))
        .for("update");
      if (!row) throw notFound(msg.skills.notAssigned);
      if (row.status === status) return { result: undefined, audit: [] };
      const [team] = await tx.select().from(teams).where(eq(teams.team_id, teamId));
      if (status === "active") {
        if (skill.status !== "active") throw new HttpError(422, "validation_failed", msg.skills.notActive);
        if (team?.status !== "active") throw new HttpError(422, "validation_failed", msg.skills.teamNotActive);
      }
      // An Unassign keeps the assignment as it was (status, assigned_at, score, last use) for Undo.
      const kept =
        status === "inactive"
          ? await readRows(tx, "teams_skills", sql`skill_id = ${skillId} and team_id = ${teamId}`)
          : [];
      await tx
        .update(teams_skills)
        .set({ status })
        .where(and(eq(teams_skills.skill_id, skillId), eq(teams_skills.team_id, teamId)));
      const deletion = kept[0] ? await recordDeletion(tx, c, { entity: "skill_assignment", row: kept[0] }) : undefined;
      return {
        result: deletion,
        audit: assignmentAudit(
          status === "active" ? "reassign_skill" : "unassign_skill",
          { team_id: teamId, skill_id: skillId },
          { status: row.status },
          { team_name: team?.team_name ?? null, status },
        ),
      };
    });
    return c.json(
      { team_id: teamId, skill_id: skillId, status, ...(deletionId ? { deletion_id: deletionId } : {}) },
      200,
    );
  })
  .openapi(addPrompt, async (c) => {
    const { skillId } = c.req.valid("param");
    const input = c.req.valid("json");
    const created = await mutate(c, async (tx) => {
      // Shared lock: the skill cannot be deleted while its prompt is being added.
      if (!(await sharedSkill(tx, skillId))) throw notFound(msg.skills.notFound);
      const now = new Date();
      const [row] = await tx
        .insert(pedal_prompts)
        .values({ ...input, skill_id: skillId, created_at: now, updated_at: now })
        .returning();
      return {
        result: row,
        audit: [{ action: "create", entity: "prompt", entity_id: row.prompt_id, after: toJson(row) }],
      };
    });
    return c.json(toJson(created), 201);
  });
