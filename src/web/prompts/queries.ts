import type { ListParams } from "../../domain/common";
import { keepPreviousData, queryOptions, useMutation } from "@tanstack/react-query";
import { okSchema } from "../../domain/common";
import {
  assignablePlatformPageSchema,
  platformAssignmentResultSchema,
  promptDetailSchema,
  promptPageSchema,
  promptPlatformPageSchema,
  promptSchema,
  promptVersionDetailSchema,
  promptVersionPageSchema,
  type CreatePromptInput,
  type UpdatePromptInput,
} from "../../domain/prompts";
import { api } from "../api/client";
import { queryRoots } from "../lib/query-client";

export type PromptListParams = ListParams & { status?: string; skill_id?: string };
type NestedParams = ListParams & Record<string, string | number | undefined>;

/** Query keys of prompts; everything about one prompt sits under its `detail` key. */
export const promptKeys = {
  all: queryRoots.prompts,
  lists: () => [...promptKeys.all, "list"] as const,
  list: (params: PromptListParams) => [...promptKeys.lists(), params] as const,
  detail: (id: string) => [...promptKeys.all, "detail", id] as const,
  nested: (id: string, table: string, params: unknown) => [...promptKeys.detail(id), table, params] as const,
};

export const promptListQuery = (params: PromptListParams) =>
  queryOptions({
    queryKey: promptKeys.list(params),
    queryFn: ({ signal }) => api("/prompts", promptPageSchema, { query: params, signal }),
    placeholderData: keepPreviousData,
  });

export const promptQuery = (id: string) =>
  queryOptions({ queryKey: promptKeys.detail(id), queryFn: ({ signal }) => api(`/prompts/${id}`, promptDetailSchema, { signal }) });

/** The prompt page's Platform Assignments table. */
export const promptPlatformsQuery = (id: string) => (params: NestedParams) =>
  queryOptions({
    queryKey: promptKeys.nested(id, "platforms", params),
    queryFn: ({ signal }) => api(`/prompts/${id}/platforms`, promptPlatformPageSchema, { query: params, signal }),
    placeholderData: keepPreviousData,
  });

/** The Assign Platform modal's candidates: active platforms not yet assigned. */
export const assignablePlatformsQuery = (id: string) => (params: NestedParams) =>
  queryOptions({
    queryKey: promptKeys.nested(id, "assignable", params),
    queryFn: ({ signal }) => api(`/prompts/${id}/assignable-platforms`, assignablePlatformPageSchema, { query: params, signal }),
    placeholderData: keepPreviousData,
  });

/** The Versions panel. */
export const promptVersionsQuery = (id: string) => (params: NestedParams) =>
  queryOptions({
    queryKey: promptKeys.nested(id, "versions", params),
    queryFn: ({ signal }) => api(`/prompts/${id}/versions`, promptVersionPageSchema, { query: params, signal }),
    placeholderData: keepPreviousData,
  });

/** One version's texts (the diff's source). */
export const promptVersionQuery = (id: string, version: number) =>
  queryOptions({
    queryKey: promptKeys.nested(id, "version", version),
    queryFn: ({ signal }) => api(`/prompts/${id}/versions/${version}`, promptVersionDetailSchema, { signal }),
    staleTime: Infinity,
  });

/** A prompt change shows up in prompts, its skill's Prompts panel and the platforms' prompt tables. */
const promptChanges = [queryRoots.prompts, queryRoots.skills, queryRoots.platforms] as const;

/** POST /api/prompts (SPEC.md §2 "/prompts/add"). */
export function useCreatePrompt() {
  return useMutation({
    mutationFn: (input: CreatePromptInput) => api("/prompts", promptSchema, { method: "POST", body: input }),
    meta: { invalidates: promptChanges },
  });
}

/** PATCH /api/prompts/{id}: Edit, Activate, Archive. */
export function useUpdatePrompt(id: string) {
  return useMutation({
    mutationFn: (input: UpdatePromptInput) => api(`/prompts/${id}`, promptSchema, { method: "PATCH", body: input }),
    meta: { invalidates: promptChanges },
  });
}

/** Delete; the prompt's own queries would now answer 404, so they are dropped instead of refetched. */
export function useDeletePrompt(id: string) {
  return useMutation({
    mutationFn: () => api(`/prompts/${id}`, okSchema, { method: "DELETE" }),
    meta: { removes: [promptKeys.detail(id)], invalidates: [promptKeys.lists(), queryRoots.skills, queryRoots.platforms] },
  });
}

/** Assign Platform. */
export function useAssignPlatform(id: string) {
  return useMutation({
    mutationFn: (platformId: string) => api(`/prompts/${id}/platforms`, platformAssignmentResultSchema, { method: "POST", body: { platform_id: platformId } }),
    meta: { invalidates: [queryRoots.prompts, queryRoots.platforms] },
  });
}

/** Unassign (the row is deleted, SPEC.md §4). */
export function useUnassignPlatform(id: string) {
  return useMutation({
    mutationFn: (platformId: string) => api(`/prompts/${id}/platforms/${platformId}`, okSchema, { method: "DELETE" }),
    meta: { invalidates: [queryRoots.prompts, queryRoots.platforms] },
  });
}

/** Restore a version (a new version with its texts). */
export function useRestoreVersion(id: string) {
  return useMutation({
    mutationFn: (version: number) => api(`/prompts/${id}/restore`, promptSchema, { method: "POST", body: { version } }),
    meta: { invalidates: promptChanges },
  });
}
