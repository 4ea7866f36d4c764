import { z } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import { deletedResultSchema } from "../../domain/deleted";
import { msg } from "../../domain/messages";
import {
  addedMemberSchema,
  addMemberSchema,
  assignSkillSchema,
  createTeamSchema,
  teamDetailSchema,
  teamSchema,
  teamSkillSchema,
  teamSkillsSchema,
  updateTeamSchema,
} from "../../domain/teams";
import { mutate } from "../audit";
import { recordName } from "../deleted";
import { addMember, assignSkillToTeam, removeMember } from "../links";
import { customers, teams } from "../db/schema";
import { notFound } from "../http/errors";
import { requireFound } from "../http/found";
import { createdOrExistingResponses } from "../http/link-responses";
import { toJson } from "../http/list";
import { offsetPagingSchema } from "../../domain/common";
import { apiRoute, createRouter, invalidResponse, jsonBody, jsonResponse, notFoundResponse } from "../http/route";
import {
  assignableSkillList,
  assignableSkillScope,
  availableUserList,
  availableUserScope,
  getTeam,
  teamList,
  teamSkills,
} from "./queries";
import { recordsOf } from "../db/records";
import { idParams, mountRecordRoutes } from "../http/record-routes";

export const teamsBase = "/api/teams";
const teamNotFound = notFoundResponse(msg.teams.notFound);
const teamRecords = recordsOf({ table: teams, id: teams.team_id, entity: "team", notFound: msg.teams.notFound });
const params = idParams("teamId", msg.teams.notFound);
const paging = offsetPagingSchema;

/** GET /api/teams/{teamId}/skills?limit&offset → the team's active skill assignments. */
const skillsOfTeam = apiRoute(teamsBase, "viewer", {
  method: "get",
  path: "/{teamId}/skills",
  tags: ["Teams"],
  summary: "Skills assigned to a team",
  request: { params, query: paging },
  responses: { 200: jsonResponse(teamSkillsSchema, "Active assignments"), ...teamNotFound },
});

/**
 * POST /api/teams/{teamId}/members `{ user_id }` → 201 membership created, 200 already a member
 * (Add Member, the mirror of the user page's Add Team). Only an active user of the team's own
 * customer, and only an active team (422, field user_id); 404 unknown team or user.
 */
const addMemberRoute = apiRoute(teamsBase, "editor", {
  method: "post",
  path: "/{teamId}/members",
  tags: ["Teams"],
  summary: "Add a member to a team",
  request: { params, body: jsonBody(addMemberSchema) },
  responses: {
    ...createdOrExistingResponses(addedMemberSchema, "Already a member", "Added"),
    ...teamNotFound,
    ...invalidResponse,
  },
});

/**
 * DELETE /api/teams/{teamId}/members/{userId} → `{ ok, deletion_id }`: removes the user from the
 * team, keeping the membership's snapshot for Undo; 404 when not a member.
 */
const removeMemberRoute = apiRoute(teamsBase, "editor", {
  method: "delete",
  path: "/{teamId}/members/{userId}",
  tags: ["Teams"],
  summary: "Remove a member",
  request: { params: params.extend({ userId: z.guid({ error: msg.users.notFound }) }) },
  responses: { 200: jsonResponse(deletedResultSchema, "Removed"), ...notFoundResponse(msg.users.notFound) },
});

/**
 * POST /api/teams/{teamId}/skills `{ skill_id }` → 201 new assignment, 200 when an inactive one was
 * reactivated or it was already active (idempotent). Only active skills (SPEC.md §4).
 */
const assign = apiRoute(teamsBase, "editor", {
  method: "post",
  path: "/{teamId}/skills",
  tags: ["Teams"],
  summary: "Assign a skill to a team",
  request: { params, body: jsonBody(assignSkillSchema) },
  responses: {
    ...createdOrExistingResponses(
      teamSkillSchema.pick({ skill_id: true, status: true }),
      "Already assigned, or reactivated",
      "Assigned",
    ),
    ...teamNotFound,
    ...invalidResponse,
  },
});

export const teamsRouter = createRouter();

/**
 * GET /api/teams/{teamId} → the team with customer name and cards. POST /api/teams `{ customer_id,
 * team_name, status? }` → 201 the team with its created_at and updated_at (SPEC.md §5 "Add team"); 404 unknown customer. PATCH
 * /api/teams/{teamId} `{ team_name?, status? }` → the team: Edit, and Archive Team (inactive) /
 * Unarchive Team (active). DELETE /api/teams/{teamId} → `{ ok, deletion_id }`: the team, its
 * memberships and its skill assignments.
 */
mountRecordRoutes(teamsRouter, {
  base: teamsBase,
  tag: "Teams",
  noun: "team",
  params,
  records: teamRecords,
  detail: { schema: teamDetailSchema, read: getTeam },
  create: {
    summary: "Add a team to a customer",
    body: createTeamSchema,
    // With its times, so that the answer's updated_at can go straight into an edit's If-Match.
    schema: teamSchema,
    responses: notFoundResponse(msg.customers.notFound),
    write: async (tx, input) => {
      const [customer] = await tx
        .select({ id: customers.customer_id })
        .from(customers)
        .where(eq(customers.customer_id, input.customer_id));
      if (!customer) throw notFound(msg.customers.notFound);
      const [row] = await tx.insert(teams).values(input).returning();
      return { result: row, audit: [{ action: "create", entity: "team", entity_id: row.team_id, after: toJson(row) }] };
    },
    answer: ({ team_id, customer_id, team_name, status, created_at, updated_at }) => ({
      team_id,
      customer_id,
      team_name,
      status,
      created_at: created_at.toISOString(),
      updated_at: updated_at.toISOString(),
    }),
  },
  update: { summary: "Edit, archive or unarchive a team", body: updateTeamSchema, schema: teamSchema },
  remove: {
    schema: deletedResultSchema,
    label: (team, tx) => recordName(tx, "team", team.team_id),
    cascade: ["teams_users", "teams_skills"],
    audit: (taken) => ({ member_count: taken.teams_users?.length, assignment_count: taken.teams_skills?.length }),
  },
  list: {
    description:
      "Teams with customer_name, user_count and skills_count; `q` searches team name, customer name and status; cards on the filtered set.",
    list: teamList,
  },
  lists: [
    // The Assign Skill modal's candidates; 404 "Team not found".
    {
      path: "/assignable-skills",
      summary: "Skills that can be assigned to a team",
      description:
        'Active skills not actively assigned to the team (SPEC.md §2 "Assign Skill to Team"), by name; `q` searches name and description.',
      list: assignableSkillList,
      where: (id) => assignableSkillScope(id),
    },
    // The Add Member modal's candidates; 404 "Team not found".
    {
      path: "/available-users",
      summary: "Users who can join a team",
      description:
        "Active users of the team's customer who are not members, by name; `q` searches full name, email and job title.",
      list: availableUserList,
      where: (id) => availableUserScope(id),
    },
  ],
});

teamsRouter
  .openapi(skillsOfTeam, async (c) => {
    const { teamId } = c.req.valid("param");
    const { limit, offset } = c.req.valid("query");
    requireFound(await getTeam(c.get("db"), teamId), msg.teams.notFound);
    return c.json(await teamSkills(c.get("db"), teamId, limit, offset), 200);
  })
  .openapi(addMemberRoute, async (c) => {
    const { teamId } = c.req.valid("param");
    const { user_id } = c.req.valid("json");
    const outcome = await mutate(c, (tx) => addMember(tx, teamId, user_id, { field: "user_id", activeUser: true }));
    return c.json({ user_id, team_id: teamId, customer_id: outcome.customer_id }, outcome.created ? 201 : 200);
  })
  .openapi(removeMemberRoute, async (c) => {
    const { teamId, userId } = c.req.valid("param");
    const deletionId = await mutate(c, (tx) => removeMember(tx, c, teamId, userId, msg.teams.notMember));
    return c.json({ ok: true as const, deletion_id: deletionId }, 200);
  })
  .openapi(assign, async (c) => {
    const { teamId } = c.req.valid("param");
    const { skill_id } = c.req.valid("json");
    const outcome = await mutate(c, (tx) => assignSkillToTeam(tx, teamId, skill_id));
    return c.json({ skill_id, status: "active" as const }, outcome.created ? 201 : 200);
  });
