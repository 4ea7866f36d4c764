import { searchTextSchema } from "./text";
import { z } from "zod";
import { counts, id, listPage, rowTimestamps, stored } from "./common";
import { commentStatuses, type CommentStatus } from "./enums";
import { commentsMsg } from "./messages/comments";
import { customersMsg } from "./messages/customers";
import { describesRows } from "./table-rows";

/**
 * /comments table row (SPEC.md §2 "/comments", §3 skill_comments "enriched with commenter first_name
 * and last_name, skill_name, customer_name"): names come from SQL joins and are null when the
 * record is missing (the screen shows the spec's fallbacks).
 */
export const commentListItemSchema = z.object({
  comment_id: id,
  customer_id: id,
  customer_name: z.string().nullable(),
  skill_id: id,
  skill_name: z.string().nullable(),
  user_id: id,
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  comment_value: z.string(),
  status: stored(commentStatuses),
  ...rowTimestamps,
});
export type CommentListItem = z.infer<typeof commentListItemSchema>;
/** A row of `skill_comments`, with the names the list joins. */
export const commentListRows = describesRows("skill_comments", commentListItemSchema, {
  derived: ["customer_name", "skill_name", "first_name", "last_name"],
});

/** /comments cards (SPEC.md §2: Total, Pending, Active, Inactive, Rejected) over the filtered list. */
export const commentSummarySchema = counts("total", "pending", "active", "inactive", "rejected");
export type CommentSummary = z.infer<typeof commentSummarySchema>;
export const commentPageSchema = listPage(commentListItemSchema, commentSummarySchema);
export type CommentPage = z.infer<typeof commentPageSchema>;
/** Every column but Comment sorts (SPEC.md §2). */
export { commentSortKeys } from "./enums";

/** The moderation actions (beyond the spec): each moves a comment to one status. */
export const moderationActions = [
  { status: "active", label: commentsMsg.approve, key: "a" },
  { status: "rejected", label: commentsMsg.reject, key: "r" },
  { status: "inactive", label: commentsMsg.deactivate, key: "d" },
  { status: "pending", label: commentsMsg.backToPending, key: undefined },
] as const satisfies ReadonlyArray<{ status: CommentStatus; label: string; key: string | undefined }>;

/** The display name of a commenter: full name, else the user id (SPEC.md §2 "/comments" User column). */
export function commenterName(c: { first_name: string | null; last_name: string | null; user_id: string }): string {
  return (
    [c.first_name, c.last_name]
      .filter((p) => p && p.trim())
      .join(" ")
      .trim() || c.user_id
  );
}

/**
 * PATCH /api/comments/{id}: the new status and, for the optimistic check, the status the operator
 * saw (a different current status is a 409 "already decided by …").
 */
export const setCommentStatusSchema = z.strictObject({
  status: z.enum(commentStatuses, { error: commentsMsg.badStatus }),
  expected_status: z.enum(commentStatuses, { error: commentsMsg.badStatus }).optional(),
});
export type SetCommentStatusInput = z.infer<typeof setCommentStatusSchema>;

/** The filters a bulk change by filter takes: those of the list (status, customer, search). */
export const commentFilterSchema = z.strictObject({
  status: z.enum(commentStatuses, { error: commentsMsg.badStatus }).optional(),
  customer_id: z.guid({ error: customersMsg.notFound }).optional(),
  q: searchTextSchema.optional(),
});
export type CommentFilter = z.infer<typeof commentFilterSchema>;

/** Most comments one bulk change by ids may name. */
export const bulkIdLimit = 500;
/** Most comments one bulk change by filter may change (bounded: a larger set is refused). */
export const bulkFilterLimit = 100_000;
/** Rows changed per statement inside a bulk transaction. */
export const bulkBatchSize = 2_000;

/**
 * POST /api/comments/bulk: the target status and either `ids` (a selection) or `filter` (every
 * comment matching it; an empty filter needs `all: true`); `dry_run` only counts.
 */
export const bulkCommentSchema = z
  .strictObject({
    status: z.enum(commentStatuses, { error: commentsMsg.badStatus }),
    ids: z
      .array(z.guid({ error: commentsMsg.notFound }))
      .min(1, commentsMsg.noneSelected)
      .max(bulkIdLimit, commentsMsg.tooManySelected)
      .optional(),
    filter: commentFilterSchema.optional(),
    all: z.boolean().optional(),
    dry_run: z.boolean().optional(),
  })
  .refine((v) => (v.ids === undefined) !== (v.filter === undefined), {
    message: commentsMsg.idsOrFilter,
    path: ["ids"],
  })
  .refine(
    (v) => v.ids !== undefined || v.all === true || Boolean(v.filter?.status || v.filter?.customer_id || v.filter?.q),
    {
      message: commentsMsg.emptyFilter,
      path: ["filter"],
    },
  );
export type BulkCommentInput = z.infer<typeof bulkCommentSchema>;

/** Counts by current status (the statuses a bulk change moves comments from). */
export const statusCountsSchema = counts("pending", "active", "inactive", "rejected");
/** A bulk change's answer: how many matched, how many change (by current status), whether it was applied. */
export const bulkCommentResultSchema = z.object({
  matched: z.number().int(),
  changed: z.number().int(),
  from: statusCountsSchema,
  dry_run: z.boolean(),
});
export type BulkCommentResult = z.infer<typeof bulkCommentResultSchema>;

/** One comment with its skill, customer and user (the review queue's card). */
export const commentDetailSchema = commentListItemSchema.extend({
  email: z.string().nullable(),
  skill_description: z.string().nullable(),
  decided_by: z.string().nullable(),
});
export type CommentDetail = z.infer<typeof commentDetailSchema>;

/** GET /api/comments/queue: the next pending comment (or null) and how many pending remain. */
export const commentQueueSchema = z.object({
  comment: commentDetailSchema.nullable(),
  remaining: z.number().int(),
});
export type CommentQueue = z.infer<typeof commentQueueSchema>;
