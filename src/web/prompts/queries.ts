import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { deletedResultSchema } from "../../domain/deleted";
import {
  promptChangePageSchema,
  promptChangeSchema,
  proposedResultSchema,
  type ProposedResult,
} from "../../domain/prompt-changes";
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
  type UpdatePromptInput,
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
/** The prompt's proposed changes, newest first: the Pending review panel and the Review history. */
export const promptChangesQuery = prompts.nested("changes", promptChangePageSchema);

/** One version's texts (the diff's source). */
export const promptVersionQuery = (id: string, version: number) =>
  queryOptions({
    queryKey: promptKeys.nested(id, "version", version),
    queryFn: ({ signal }) => api(`/prompts/${id}/versions/${version}`, promptVersionDetailSchema, { signal }),
    staleTime: Infinity,
  });

/** One proposed change with the live state it was made against and the live state now (the pending panel's diff). */
export const promptChangeQuery = (promptId: string, changeId: string) =>
  queryOptions({
    queryKey: promptKeys.nested(promptId, "change", changeId),
    queryFn: ({ signal }) => api(`/prompt-changes/${changeId}`, promptChangeSchema, { signal }),
  });

/** What a prompt mutation answers: the usual record, or (202) the proposed change saved for review. */
const orProposed = <S extends z.ZodType>(schema: S) => z.union([proposedResultSchema, schema]);
/** Whether a mutation's answer is a change waiting for review rather than the change applied. */
export const isProposed = (result: unknown): result is ProposedResult =>
  (result as { proposed?: unknown } | null | undefined)?.proposed === true;

/** A prompt change shows up in prompts, its skill's Prompts panel and the platforms' prompt tables. */
const promptChanges = { invalidates: [queryRoots.prompts, queryRoots.skills, queryRoots.platforms] };
/** An assignment shows up on both sides. */
const assignmentChanges = { invalidates: [queryRoots.prompts, queryRoots.platforms] };

/** POST /api/prompts (SPEC.md §2 "/prompts/add"). */
export const useCreatePrompt = prompts.creates(promptChanges);

/** PATCH /api/prompts/{id}: Edit, Activate, Archive; under review it answers the proposed change. */
export const useUpdatePrompt = (id: string) =>
  useApiMutation(
    ({ ifMatch, ...input }: UpdatePromptInput & { ifMatch?: string }) =>
      api(`/prompts/${id}`, orProposed(promptSchema), { method: "PATCH", body: input, ifMatch }),
    promptChanges,
  );

/**
 * Delete. Done, the prompt's own queries are dropped (they would answer 404) and it leaves its
 * skill's Prompts panel and the platforms' prompt tables; sent for review, the prompt stays and
 * its page refreshes (its pending changes).
 */
export function useDeletePrompt(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      const result = await api(`/prompts/${id}`, orProposed(deletedResultSchema), { method: "DELETE" });
      if (isProposed(result)) await client.invalidateQueries({ queryKey: promptKeys.detail(id) });
      else client.removeQueries({ queryKey: promptKeys.detail(id) });
      return result;
    },
    meta: { invalidates: [promptKeys.lists(), queryRoots.skills, queryRoots.platforms] },
  });
}

/** Assign Platform. */
export const useAssignPlatform = (id: string) =>
  useApiMutation(
    (platformId: string) =>
      api(`/prompts/${id}/platforms`, orProposed(platformAssignmentResultSchema), {
        method: "POST",
        body: { platform_id: platformId },
      }),
    assignmentChanges,
  );

/** Unassign (the row is deleted, SPEC.md §4). */
export const useUnassignPlatform = (id: string) =>
  useApiMutation(
    (platformId: string) =>
      api(`/prompts/${id}/platforms/${platformId}`, orProposed(deletedResultSchema), { method: "DELETE" }),
    assignmentChanges,
  );

/** Restore a version: the prompt takes its texts as a new version. */
export const useRestoreVersion = (id: string) =>
  useApiMutation(
    (version: number) => api(`/prompts/${id}/restore`, orProposed(promptSchema), { method: "POST", body: { version } }),
    promptChanges,
  );
