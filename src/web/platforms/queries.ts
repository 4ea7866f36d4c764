import type { ListParams } from "../../domain/common";
import { keepPreviousData, queryOptions, useMutation } from "@tanstack/react-query";
import {
  deletePlatformResultSchema,
  platformDetailSchema,
  platformPageSchema,
  platformPromptPageSchema,
  platformSchema,
  type CreatePlatformInput,
  type UpdatePlatformInput,
} from "../../domain/platforms";
import { okSchema } from "../../domain/common";
import { api } from "../api/client";
import { queryRoots } from "../lib/query-client";

export type PlatformListParams = ListParams & { status?: string };
type NestedParams = ListParams & Record<string, string | number | undefined>;

/** Query keys of platforms; everything about one platform sits under its `detail` key. */
export const platformKeys = {
  all: queryRoots.platforms,
  lists: () => [...platformKeys.all, "list"] as const,
  list: (params: PlatformListParams) => [...platformKeys.lists(), params] as const,
  detail: (id: string) => [...platformKeys.all, "detail", id] as const,
  nested: (id: string, table: string, params: unknown) => [...platformKeys.detail(id), table, params] as const,
};

export const platformListQuery = (params: PlatformListParams) =>
  queryOptions({
    queryKey: platformKeys.list(params),
    queryFn: ({ signal }) => api("/platforms", platformPageSchema, { query: params, signal }),
    placeholderData: keepPreviousData,
  });

export const platformQuery = (id: string) =>
  queryOptions({ queryKey: platformKeys.detail(id), queryFn: ({ signal }) => api(`/platforms/${id}`, platformDetailSchema, { signal }) });

/** The platform page's prompts. */
export const platformPromptsQuery = (id: string) => (params: NestedParams) =>
  queryOptions({
    queryKey: platformKeys.nested(id, "prompts", params),
    queryFn: ({ signal }) => api(`/platforms/${id}/prompts`, platformPromptPageSchema, { query: params, signal }),
    placeholderData: keepPreviousData,
  });

/** A platform change shows up in platforms and in the prompts' Platforms column and assignments. */
const platformChanges = [queryRoots.platforms, queryRoots.prompts] as const;

export function useCreatePlatform() {
  return useMutation({
    mutationFn: (input: CreatePlatformInput) => api("/platforms", platformSchema, { method: "POST", body: input }),
    meta: { invalidates: platformChanges },
  });
}

/** PATCH /api/platforms/{id}: Edit, Archive, Activate. */
export function useUpdatePlatform(id: string) {
  return useMutation({
    mutationFn: (input: UpdatePlatformInput) => api(`/platforms/${id}`, platformSchema, { method: "PATCH", body: input }),
    meta: { invalidates: platformChanges },
  });
}

/** Delete (with `cascade`, its prompt assignments too). */
export function useDeletePlatform(id: string) {
  return useMutation({
    mutationFn: (cascade: boolean) => api(`/platforms/${id}`, deletePlatformResultSchema, { method: "DELETE", query: cascade ? { cascade: "true" } : undefined }),
    meta: { removes: [platformKeys.detail(id)], invalidates: [platformKeys.lists(), queryRoots.prompts] },
  });
}

/** Unassign a prompt from the platform page. */
export function useUnassignPrompt(platformId: string) {
  return useMutation({
    mutationFn: (promptId: string) => api(`/prompts/${promptId}/platforms/${platformId}`, okSchema, { method: "DELETE" }),
    meta: { invalidates: platformChanges },
  });
}
