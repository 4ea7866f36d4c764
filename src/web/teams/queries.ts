import { queryOptions } from "@tanstack/react-query";
import {
  assignableSkillPageSchema,
  createdTeamSchema,
  teamDetailSchema,
  addedMemberSchema,
  availableUserPageSchema,
  teamPageSchema,
  teamSchema,
  teamSkillSchema,
  teamSkillsSchema,
  type CreateTeamInput,
  updateTeamSchema,
} from "../../domain/teams";
import { api } from "../api/client";
import { entityQueries, useApiMutation } from "../lib/entity-queries";
import { queryRoots } from "../lib/query-client";

const teams = entityQueries(queryRoots.teams, "/teams", {
  list: teamPageSchema,
  detail: teamDetailSchema,
  row: teamSchema,
  update: updateTeamSchema,
});
/** Query keys of teams (everything about one team under its `detail` key), GET /api/teams and /api/teams/{id}. */
export const { keys: teamKeys, listQuery: teamListQuery, detailQuery: teamQuery } = teams;

/** The team page's Assigned Skills (all of them: a team has few). */
export const teamSkillsQuery = (id: string) =>
  queryOptions({
    queryKey: teamKeys.nested(id, "skills"),
    queryFn: ({ signal }) => api(`/teams/${id}/skills`, teamSkillsSchema, { query: { limit: 200 }, signal }),
  });

/** The Assign Skill modal's candidates: active skills the team does not have, by name. */
export const assignableSkillsQuery = teams.candidates("assignable", assignableSkillPageSchema, "assignable-skills");

/** Everything a team change can show up in: teams, the customer's cards and tables, the dashboard, users' memberships. */
const teamChanges = { invalidates: [queryRoots.teams, queryRoots.customers, queryRoots.dashboard, queryRoots.users] };

/** POST /api/teams (SPEC.md §5 "Add team"). */
export const useCreateTeam = () =>
  useApiMutation(
    (input: CreateTeamInput) => api("/teams", createdTeamSchema, { method: "POST", body: input }),
    teamChanges,
  );

/** Edit: PATCH /api/teams/{id} with the version read (If-Match); 409 `stale` to decide on. */
export const useUpdateTeam = teams.updates(teamChanges);

/** The Add Member modal's candidates: active users of the team's customer who are not members, by name. */
export const availableUsersQuery = teams.candidates("available-users", availableUserPageSchema, "available-users");

/** Add Member from the team page (the mirror of the user page's Add Team). */
export const useAddMember = (teamId: string) =>
  useApiMutation(
    (userId: string) =>
      api(`/teams/${teamId}/members`, addedMemberSchema, { method: "POST", body: { user_id: userId } }),
    teamChanges,
  );

/** Archive Team (inactive) / Unarchive Team (active). */
export const useSetTeamStatus = (id: string) =>
  useApiMutation(
    (status: "active" | "inactive") => api(`/teams/${id}`, createdTeamSchema, { method: "PATCH", body: { status } }),
    teamChanges,
  );

/** Delete Team; it also leaves the customer's cards and tables, the dashboard and users' memberships. */
export const useDeleteTeam = teams.deletes([queryRoots.customers, queryRoots.dashboard, queryRoots.users]);

/** Remove a member from the team page. */
export const useRemoveMember = teams.unlinks("members", teamChanges);

/** Assign Skill from the team page. */
export const useAssignSkill = (teamId: string) =>
  useApiMutation(
    (skillId: string) =>
      api(`/teams/${teamId}/skills`, teamSkillSchema.pick({ skill_id: true, status: true }), {
        method: "POST",
        body: { skill_id: skillId },
      }),
    { invalidates: [queryRoots.teams, queryRoots.customers, queryRoots.dashboard] },
  );
