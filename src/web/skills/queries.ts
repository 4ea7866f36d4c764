import type { ListParams } from "../../domain/common";
import { keepPreviousData, queryOptions, useMutation } from "@tanstack/react-query";
import { okSchema } from "../../domain/common";
import type { CreateSkillPromptInput } from "../../domain/prompts";
import {
  assignableTeamPageSchema,
  bulkAssignResultSchema,
  skillAssignmentPageSchema,
  skillAssignmentResultSchema,
  skillCommentPageSchema,
  skillDetailSchema,
  skillPageSchema,
  skillPromptPageSchema,
  skillPromptSchema,
  skillSchema,
  type CreateSkillInput,
  type UpdateSkillInput,
} from "../../domain/skills";
import { api } from "../api/client";
import { queryRoots } from "../lib/query-client";

export type SkillListParams = ListParams & { type?: string; scope?: string; status?: string };
type NestedParams = ListParams & Record<string, string | number | undefined>;

/** Query keys of skills; everything about one skill sits under its `detail` key. */
export const skillKeys = {
  all: queryRoots.skills,
  lists: () => [...skillKeys.all, "list"] as const,
  list: (params: SkillListParams) => [...skillKeys.lists(), params] as const,
  detail: (id: string) => [...skillKeys.all, "detail", id] as const,
  nested: (id: string, table: string, params: NestedParams) => [...skillKeys.detail(id), table, params] as const,
};

export const skillListQuery = (params: SkillListParams) =>
  queryOptions({
    queryKey: skillKeys.list(params),
    queryFn: ({ signal }) => api("/skills", skillPageSchema, { query: params, signal }),
    placeholderData: keepPreviousData,
  });

export const skillQuery = (id: string) =>
  queryOptions({ queryKey: skillKeys.detail(id), queryFn: ({ signal }) => api(`/skills/${id}`, skillDetailSchema, { signal }) });

/** The skill page's Team Assignments table. */
export const skillAssignmentsQuery = (id: string) => (params: NestedParams) =>
  queryOptions({
    queryKey: skillKeys.nested(id, "teams", params),
    queryFn: ({ signal }) => api(`/skills/${id}/teams`, skillAssignmentPageSchema, { query: params, signal }),
    placeholderData: keepPreviousData,
  });

/** The Assign modal's candidates: active teams with no record for the skill. */
export const assignableTeamsQuery = (id: string) => (params: NestedParams) =>
  queryOptions({
    queryKey: skillKeys.nested(id, "assignable", params),
    queryFn: ({ signal }) => api(`/skills/${id}/assignable-teams`, assignableTeamPageSchema, { query: params, signal }),
    placeholderData: keepPreviousData,
  });

/** The skill page's Prompts panel. */
export const skillPromptsQuery = (id: string) => (params: NestedParams) =>
  queryOptions({
    queryKey: skillKeys.nested(id, "prompts", params),
    queryFn: ({ signal }) => api(`/skills/${id}/prompts`, skillPromptPageSchema, { query: params, signal }),
    placeholderData: keepPreviousData,
  });

/** The skill page's Comments table. */
export const skillCommentsQuery = (id: string) => (params: NestedParams) =>
  queryOptions({
    queryKey: skillKeys.nested(id, "comments", params),
    queryFn: ({ signal }) => api(`/skills/${id}/comments`, skillCommentPageSchema, { query: params, signal }),
    placeholderData: keepPreviousData,
  });

/** Everything a skill change can show up in: skills, the teams' skill counts and lists, customers' team tables. */
const skillChanges = [queryRoots.skills, queryRoots.teams, queryRoots.customers] as const;

/** POST /api/skills (SPEC.md §5 "Skill create"). */
export function useCreateSkill() {
  return useMutation({
    mutationFn: (input: CreateSkillInput) => api("/skills", skillSchema, { method: "POST", body: input }),
    meta: { invalidates: [queryRoots.skills] },
  });
}

/** PATCH /api/skills/{id}: Edit, Archive (`{ status: "inactive" }`), Unarchive. */
export function useUpdateSkill(id: string) {
  return useMutation({
    mutationFn: (input: UpdateSkillInput) => api(`/skills/${id}`, skillSchema, { method: "PATCH", body: input }),
    meta: { invalidates: skillChanges },
  });
}

/** Delete; the skill's own queries would now answer 404, so they are dropped instead of refetched. */
export function useDeleteSkill(id: string) {
  return useMutation({
    mutationFn: () => api(`/skills/${id}`, okSchema, { method: "DELETE" }),
    meta: { removes: [skillKeys.detail(id)], invalidates: [skillKeys.lists(), queryRoots.teams, queryRoots.customers] },
  });
}

/** Assign to one team, or to several at once (one transaction). */
export function useAssignTeams(id: string) {
  return useMutation({
    mutationFn: async (teamIds: string[]) =>
      teamIds.length === 1
        ? (await api(`/skills/${id}/teams`, skillAssignmentResultSchema, { method: "POST", body: { team_id: teamIds[0] } }), { created: 1 })
        : api(`/skills/${id}/teams/bulk`, bulkAssignResultSchema, { method: "POST", body: { team_ids: teamIds } }),
    meta: { invalidates: skillChanges },
  });
}

/** Unassign (inactive) or Reassign (active) one team's assignment. */
export function useSetAssignment(id: string) {
  return useMutation({
    mutationFn: ({ teamId, status }: { teamId: string; status: "active" | "inactive" }) =>
      api(`/skills/${id}/teams/${teamId}`, skillAssignmentResultSchema, { method: "PATCH", body: { status } }),
    meta: { invalidates: skillChanges },
  });
}

/** Add Prompt from the skill page. */
export function useAddPrompt(id: string) {
  return useMutation({
    mutationFn: (input: CreateSkillPromptInput) => api(`/skills/${id}/prompts`, skillPromptSchema, { method: "POST", body: input }),
    meta: { invalidates: [skillKeys.detail(id), queryRoots.prompts] },
  });
}
