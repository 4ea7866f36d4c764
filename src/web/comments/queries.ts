import {
  bulkCommentResultSchema,
  commentDetailSchema,
  commentPageSchema,
  commentQueueSchema,
  type BulkCommentInput,
  type SetCommentStatusInput,
} from "../../domain/comments";
import { api } from "../api/client";
import { entityQueries, useApiMutation } from "../lib/entity-queries";
import { queryRoots } from "../lib/query-client";

const comments = entityQueries(queryRoots.comments, "/comments", { list: commentPageSchema });
/** Query keys of comments, and GET /api/comments (SPEC.md §2 "/comments"). */
export const { keys: commentKeys, listQuery: commentListQuery } = comments;

/** A moderation changes the comment lists, the skill pages' Comments tables and the cards. */
const moderationChanges = { invalidates: [queryRoots.comments, queryRoots.skills] };

/** PATCH /api/comments/{id}: one comment's new status, checked against the status the operator saw (409 when decided meanwhile). */
export const useSetCommentStatus = () =>
  useApiMutation(
    ({ commentId, ...body }: SetCommentStatusInput & { commentId: string }) =>
      api(`/comments/${commentId}`, commentDetailSchema, { method: "PATCH", body }),
    moderationChanges,
  );

/** POST /api/comments/bulk: a dry run (counts by current status) or the change, for a selection or a whole filter. */
export const useBulkComments = () =>
  useApiMutation(
    (input: BulkCommentInput) => api("/comments/bulk", bulkCommentResultSchema, { method: "POST", body: input }),
    moderationChanges,
  );

/** The review queue's next pending comment after `after` (customer optional), and what remains; not cached. */
export const fetchQueue = (query: { after?: string; customer_id?: string }) =>
  api("/comments/queue", commentQueueSchema, { query });
/** PATCH without the query client's invalidation (the queue keeps its own state); lists refresh when it is left. */
export const decide = (commentId: string, body: SetCommentStatusInput) =>
  api(`/comments/${commentId}`, commentDetailSchema, { method: "PATCH", body });
