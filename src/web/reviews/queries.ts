import { z } from "zod";
import {
  approveChangesResultSchema,
  promptChangePageSchema,
  promptChangeSchema,
  type PromptChange,
} from "../../domain/prompt-changes";
import { promptReviewModes } from "../../domain/enums";
import { api } from "../api/client";
import { entityQueries, useApiMutation } from "../lib/entity-queries";
import { queryRoots } from "../lib/query-client";

const changes = entityQueries(queryRoots.reviews, "/prompt-changes", {
  list: promptChangePageSchema,
  detail: promptChangeSchema,
});
/** Query keys of proposed changes, GET /api/prompt-changes (the Reviews queue) and /api/prompt-changes/{id}. */
export const { keys: reviewKeys, listQuery: reviewListQuery, detailQuery: reviewQuery } = changes;

/** GET /api/prompt-changes/summary: the pending count and the PROMPT_REVIEW mode (the sidebar's entry). */
const summarySchema = z.object({ pending: z.number().int(), mode: z.enum(promptReviewModes) });
export type ReviewSummary = z.infer<typeof summarySchema>;
export const fetchSummary = (signal?: AbortSignal) => api("/prompt-changes/summary", summarySchema, { signal });

/**
 * A decision changes the queue and its count, and an approval the prompt (a new version), its
 * skill's Prompts panel and the platforms' prompt tables.
 */
const decisionChanges = {
  invalidates: [queryRoots.reviews, queryRoots.prompts, queryRoots.skills, queryRoots.platforms],
};

/** POST /api/prompt-changes/{id}/approve `{ comment? }`. */
export const useApproveChange = (id: string, revision: number) =>
  useApiMutation(
    (comment: string): Promise<PromptChange> =>
      api(`/prompt-changes/${id}/approve`, promptChangeSchema, {
        method: "POST",
        body: comment ? { comment, revision } : { revision },
      }),
    decisionChanges,
  );

/** POST /api/prompt-changes/{id}/reject `{ reason }`. */
export const useRejectChange = (id: string, revision: number) =>
  useApiMutation(
    (reason: string): Promise<PromptChange> =>
      api(`/prompt-changes/${id}/reject`, promptChangeSchema, { method: "POST", body: { reason, revision } }),
    decisionChanges,
  );

/** POST /api/prompt-changes/{id}/withdraw (the author only). */
export const useWithdrawChange = (id: string) =>
  useApiMutation(
    (): Promise<PromptChange> =>
      api(`/prompt-changes/${id}/withdraw`, promptChangeSchema, { method: "POST", body: {} }),
    decisionChanges,
  );

/** POST /api/prompt-changes/approve `{ change_ids, comment? }`: each change approved or refused on its own. */
export const useApproveChanges = () =>
  useApiMutation(
    ({ ids, comment }: { ids: string[]; comment: string }) =>
      api("/prompt-changes/approve", approveChangesResultSchema, {
        method: "POST",
        body: { change_ids: ids, ...(comment ? { comment } : {}) },
      }),
    decisionChanges,
  );
