import type { ListParams } from "../../domain/common";
import { keepPreviousData, queryOptions, useMutation } from "@tanstack/react-query";
import { okSchema } from "../../domain/common";
import {
  assignableSkillPageSchema,
  createdTeamSchema,
  teamDetailSchema,
  teamPageSchema,
  teamSkillSchema,
  teamSkillsSchema,
  type CreateTeamInput,
} from "../../domain/teams";
import { api } from "../api/client";
import { queryRoots } from "../lib/query-client";

export type TeamListParams = ListParams & { customer_id?: string };

/** Query keys of teams. */
export const teamKeys = {
  all: queryRoots.teams,
  lists: () => [...teamKeys.all, "list"] as const,
  list: (params: TeamListParams) => [...teamKeys.lists(), params] as const,
  detail: (id: string) => [...teamKeys.all, "detail", id] as const,
  skills: (id: string) => [...teamKeys.all, "detail", id, "skills"] as const,
  assignable: (id: string, q: string) => [...teamKeys.all, "detail", id, "assignable", q] as const,
};

export const teamListQuery = (params: TeamListParams) =>
  queryOptions({
    queryKey: teamKeys.list(params),
    queryFn: ({ signal }) => api("/teams", teamPageSchema, { query: params, signal }),
    placeholderData: keepPreviousData,
  });

export const teamQuery = (id: string) =>
  queryOptions({ queryKey: teamKeys.detail(id), queryFn: ({ signal }) => api(`/teams/${id}`, teamDetailSchema, { signal }) });

export const teamSkillsQuery = (id: string) =>
  queryOptions({ queryKey: teamKeys.skills(id), queryFn: ({ signal }) => api(`/teams/${id}/skills`, teamSkillsSchema, { query: { limit: 200 }, signal }) });

export const assignableSkillsQuery = (id: string, q: string) =>
  queryOptions({
    queryKey: teamKeys.assignable(id, q),
    queryFn: ({ signal }) => api(`/teams/${id}/assignable-skills`, assignableSkillPageSchema, { query: { q, limit: 20 }, signal }),
    placeholderData: keepPreviousData,
  });

/** Everything a team change can show up in: teams, the customer's cards and tables, the dashboard, users' memberships. */
const teamChanges = [queryRoots.teams, queryRoots.customers, queryRoots.dashboard, queryRoots.users] as const;

export function useCreateTeam() {
  return useMutation({
    mutationFn: (input: CreateTeamInput) => api("/teams", createdTeamSchema, { method: "POST", body: input }),
    meta: { invalidates: teamChanges },
  });
}

export function useSetTeamStatus(id: string) {
  return useMutation({
    mutationFn: (status: "active" | "inactive") => api(`/teams/${id}`, createdTeamSchema, { method: "PATCH", body: { status } }),
    meta: { invalidates: teamChanges },
  });
}

/** Delete Team; the team's own queries would now answer 404, so they are dropped instead of refetched. */
export function useDeleteTeam(id: string) {
  return useMutation({
    mutationFn: () => api(`/teams/${id}`, okSchema, { method: "DELETE" }),
    meta: { removes: [teamKeys.detail(id)], invalidates: [teamKeys.lists(), queryRoots.customers, queryRoots.dashboard, queryRoots.users] },
  });
}

export function useRemoveMember(teamId: string) {
  return useMutation({
    mutationFn: (userId: string) => api(`/teams/${teamId}/members/${userId}`, okSchema, { method: "DELETE" }),
    meta: { invalidates: teamChanges },
  });
}

export function useAssignSkill(teamId: string) {
  return useMutation({
    mutationFn: (skillId: string) =>
      api(`/teams/${teamId}/skills`, teamSkillSchema.pick({ skill_id: true, status: true }), { method: "POST", body: { skill_id: skillId } }),
    meta: { invalidates: [queryRoots.teams, queryRoots.customers, queryRoots.dashboard] },
  });
}
