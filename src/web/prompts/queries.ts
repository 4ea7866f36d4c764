import { queryOptions } from "@tanstack/react-query";
import {
  assignablePlatformPageSchema,
  platformAssignmentResultSchema,
  promptDetailSchema,
  promptPageSchema,
  promptPlatformPageSchema,
  promptSchema,
  promptVersionDetailSchema,
  promptVersionPageSchema,
  createPromptSchema,
  updatePromptSchema,
} from "../../domain/prompts";
import { api } from "../api/client";
import { entityQueries, useApiMutation } from "../lib/entity-queries";
import { queryRoots } from "../lib/query-client";

const prompts = entityQueries(queryRoots.prompts, "/prompts", {
  list: promptPageSchema,
  detail: promptDetailSchema,
  row: promptSchema,
  create: createPromptSchema,
  update: updatePromptSchema,
});
/** Query keys of prompts (everything about one prompt under its `detail` key), GET /api/prompts and /api/prompts/{id}. */
export const { keys: promptKeys, listQuery: promptListQuery, detailQuery: promptQuery } = prompts;

/** The prompt page's Platform Assignments table. */
export const promptPlatformsQuery = prompts.nested("platforms", promptPlatformPageSchema);
/** The Assign Platform modal's candidates: active platforms not yet assigned. */
export const assignablePlatformsQuery = prompts.nested(
  "assignable",
  assignablePlatformPageSchema,
  "assignable-platforms",
);
/** The Versions panel. */
export const promptVersionsQuery = prompts.nested("versions", promptVersionPageSchema);

/** One version's texts (the diff's source). */
export const promptVersionQuery = (id: string, version: number) =>
  queryOptions({
    queryKey: promptKeys.nested(id, "version", version),
    queryFn: ({ signal }) => api(`/prompts/${id}/versions/${version}`, promptVersionDetailSchema, { signal }),
    staleTime: Infinity,
  });

/** A prompt change shows up in prompts, its skill's Prompts panel and the platforms' prompt tables. */
const promptChanges = { invalidates: [queryRoots.prompts, queryRoots.skills, queryRoots.platforms] };
/** An assignment shows up on both sides. */
const assignmentChanges = { invalidates: [queryRoots.prompts, queryRoots.platforms] };

/** POST /api/prompts (SPEC.md §2 "/prompts/add"). */
export const useCreatePrompt = prompts.creates(promptChanges);

/** PATCH /api/prompts/{id}: Edit, Activate, Archive. */
export const useUpdatePrompt = prompts.updates(promptChanges);

/** Delete; it also leaves its skill's Prompts panel and the platforms' prompt tables. */
export const useDeletePrompt = prompts.deletes([queryRoots.skills, queryRoots.platforms]);

/** Assign Platform. */
export const useAssignPlatform = (id: string) =>
  useApiMutation(
    (platformId: string) =>
      api(`/prompts/${id}/platforms`, platformAssignmentResultSchema, {
        method: "POST",
        body: { platform_id: platformId },
      }),
    assignmentChanges,
  );

/** Unassign (the row is deleted, SPEC.md §4). */
export const useUnassignPlatform = prompts.unlinks("platforms", assignmentChanges);

/** Restore a version: the prompt takes its texts as a new version. */
export const useRestoreVersion = (id: string) =>
  useApiMutation(
    (version: number) => api(`/prompts/${id}/restore`, promptSchema, { method: "POST", body: { version } }),
    promptChanges,
  );
