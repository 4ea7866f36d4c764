import type { ListParams } from "../../domain/common";
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { okSchema } from "../../domain/common";
import {
  assignableSkillsSchema,
  createdTeamSchema,
  teamDetailSchema,
  teamPageSchema,
  teamSkillSchema,
  teamSkillsSchema,
  type CreateTeamInput,
} from "../../domain/teams";
import { api } from "../api/client";
import { customerKeys } from "../customers/queries";
import { dashboardKeys } from "../dashboard/queries";
import { userKeys } from "../users/queries";

export type TeamListParams = ListParams & { customer_id?: string };

/** Query keys of teams. */
export const teamKeys = {
  all: ["teams"] as const,
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
    queryFn: ({ signal }) => api(`/teams/${id}/assignable-skills`, assignableSkillsSchema, { query: { q, limit: 20 }, signal }),
    placeholderData: keepPreviousData,
  });

/** Invalidates everything a team change can show up in. */
function useInvalidateTeams() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: teamKeys.all });
    void queryClient.invalidateQueries({ queryKey: customerKeys.all });
    void queryClient.invalidateQueries({ queryKey: dashboardKeys.all });
  };
}

export function useCreateTeam() {
  const invalidate = useInvalidateTeams();
  return useMutation({
    mutationFn: (input: CreateTeamInput) => api("/teams", createdTeamSchema, { method: "POST", body: input }),
    onSuccess: invalidate,
  });
}

export function useSetTeamStatus(id: string) {
  const invalidate = useInvalidateTeams();
  return useMutation({
    mutationFn: (status: "active" | "inactive") => api(`/teams/${id}`, createdTeamSchema, { method: "PATCH", body: { status } }),
    onSuccess: invalidate,
  });
}

export function useDeleteTeam(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api(`/teams/${id}`, okSchema, { method: "DELETE" }),
    onSuccess: () => {
      // The team's own queries would now answer 404: drop them instead of refetching.
      queryClient.removeQueries({ queryKey: teamKeys.detail(id) });
      void queryClient.invalidateQueries({ queryKey: teamKeys.lists() });
      void queryClient.invalidateQueries({ queryKey: customerKeys.all });
      void queryClient.invalidateQueries({ queryKey: dashboardKeys.all });
    },
  });
}

export function useRemoveMember(teamId: string) {
  const queryClient = useQueryClient();
  const invalidate = useInvalidateTeams();
  return useMutation({
    mutationFn: (userId: string) => api(`/teams/${teamId}/members/${userId}`, okSchema, { method: "DELETE" }),
    onSuccess: () => {
      invalidate();
      void queryClient.invalidateQueries({ queryKey: userKeys.all });
    },
  });
}

export function useAssignSkill(teamId: string) {
  const invalidate = useInvalidateTeams();
  return useMutation({
    mutationFn: (skillId: string) =>
      api(`/teams/${teamId}/skills`, teamSkillSchema.pick({ skill_id: true, status: true }), { method: "POST", body: { skill_id: skillId } }),
    onSuccess: invalidate,
  });
}
