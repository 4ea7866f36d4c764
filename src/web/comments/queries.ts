import type { ListParams } from "../../domain/common";
import { keepPreviousData, queryOptions, useMutation } from "@tanstack/react-query";
import {
  bulkCommentResultSchema,
  commentDetailSchema,
  commentPageSchema,
  commentQueueSchema,
  type BulkCommentInput,
  type SetCommentStatusInput,
} from "../../domain/comments";
import { api } from "../api/client";
import { queryRoots } from "../lib/query-client";

export type CommentListParams = ListParams & { status?: string; customer_id?: string };

/** Query keys of comments. */
export const commentKeys = {
  all: queryRoots.comments,
  lists: () => [...commentKeys.all, "list"] as const,
  list: (params: CommentListParams) => [...commentKeys.lists(), params] as const,
};

/** GET /api/comments (SPEC.md §2 "/comments"). */
export const commentListQuery = (params: CommentListParams) =>
  queryOptions({
    queryKey: commentKeys.list(params),
    queryFn: ({ signal }) => api("/comments", commentPageSchema, { query: params, signal }),
    placeholderData: keepPreviousData,
  });

/** A moderation changes the comment lists, the skill pages' Comments tables and the cards. */
const moderationChanges = [queryRoots.comments, queryRoots.skills] as const;

/** PATCH /api/comments/{id}: one comment's new status, checked against the status the operator saw (409 when decided meanwhile). */
export function useSetCommentStatus() {
  return useMutation({
    mutationFn: ({ commentId, ...body }: SetCommentStatusInput & { commentId: string }) =>
      api(`/comments/${commentId}`, commentDetailSchema, { method: "PATCH", body }),
    meta: { invalidates: moderationChanges },
  });
}

/** POST /api/comments/bulk: a dry run (counts by current status) or the change, for a selection or a whole filter. */
export function useBulkComments() {
  return useMutation({
    mutationFn: (input: BulkCommentInput) => api("/comments/bulk", bulkCommentResultSchema, { method: "POST", body: input }),
    meta: { invalidates: moderationChanges },
  });
}

/** The review queue's next pending comment after `after` (customer optional), and what remains; not cached. */
export const fetchQueue = (query: { after?: string; customer_id?: string }) => api("/comments/queue", commentQueueSchema, { query });
/** PATCH without the query client's invalidation (the queue keeps its own state); lists refresh when it is left. */
export const decide = (commentId: string, body: SetCommentStatusInput) => api(`/comments/${commentId}`, commentDetailSchema, { method: "PATCH", body });
