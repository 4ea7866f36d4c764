import { z } from "@hono/zod-openapi";
import { sql } from "drizzle-orm";
import {
  bulkBatchSize,
  bulkCommentResultSchema,
  bulkCommentSchema,
  bulkFilterLimit,
  commentDetailSchema,
  commentQueueSchema,
  setCommentStatusSchema,
} from "../../domain/comments";
import { commentStatuses, type CommentStatus } from "../../domain/enums";
import { msg } from "../../domain/messages";
import { mutate, writeAudit, type AuditEntry, type Tx } from "../audit";
import { queryRows } from "../db/client";
import { errorBodySchema, HttpError, notFound } from "../http/errors";
import { requireFound } from "../http/found";
import { mountList } from "../http/list-routes";
import { apiRoute, createRouter, invalidResponse, jsonBody, jsonResponse, notFoundResponse } from "../http/route";
import { commentFilterWhere, commentList, countByStatus, getComment, nextPending } from "./queries";

export const commentsBase = "/api/comments";
const json = jsonResponse;
const params = z.object({ commentId: z.guid({ error: msg.comments.notFound }) });
const conflict409 = (description: string) => ({ 409: jsonResponse(errorBodySchema, description) });

/**
 * GET /api/comments/queue?after&customer_id → `{ comment, remaining }`: the review queue (beyond
 * the spec; issue "Comments"): the oldest pending comment after the comment `after` (J skips
 * ahead), with its skill, customer, user and last decider, or null; `remaining` pending comments
 * (of the customer, when given).
 */
const queue = apiRoute(commentsBase, "viewer", {
  method: "get",
  path: "/queue",
  tags: ["Comments"],
  summary: "Next pending comment to review",
  request: {
    query: z.object({
      after: z.guid({ error: msg.comments.notFound }).optional(),
      customer_id: z.guid({ error: msg.customers.notFound }).optional(),
    }),
  },
  responses: { 200: json(commentQueueSchema, "The next pending comment, or null"), ...invalidResponse },
});

/** GET /api/comments/{commentId} → one comment with its skill, customer and user; 404 "Comment not found". */
const detail = apiRoute(commentsBase, "viewer", {
  method: "get",
  path: "/{commentId}",
  tags: ["Comments"],
  summary: "One comment",
  request: { params },
  responses: { 200: json(commentDetailSchema, "The comment"), ...notFoundResponse(msg.comments.notFound) },
});

/**
 * PATCH /api/comments/{commentId} `{ status, expected_status? }` → the comment: Approve (active),
 * Reject (rejected), Deactivate (inactive), Back to pending. Sets updated_at; audited (action
 * `moderate`). `expected_status` is the status the operator saw: when the comment has another one
 * now, 409 "Already decided by {operator}" and nothing changes (two reviewers never both decide one
 * comment silently). The status it already has writes nothing. 404 "Comment not found"; 422.
 */
const setStatus = apiRoute(commentsBase, "editor", {
  method: "patch",
  path: "/{commentId}",
  tags: ["Comments"],
  summary: "Moderate one comment",
  request: { params, body: jsonBody(setCommentStatusSchema) },
  responses: {
    200: json(commentDetailSchema, "Updated"),
    ...notFoundResponse(msg.comments.notFound),
    ...invalidResponse,
    ...conflict409("Decided by another operator meanwhile"),
  },
});

/**
 * POST /api/comments/bulk `{ status, ids? | filter?: { status?, customer_id?, q? }, all?, dry_run? }`
 * → `{ matched, changed, from: { pending, active, inactive, rejected }, dry_run }`. `ids` (1–500)
 * is all or nothing: an unknown id changes nothing (422). `filter` takes every comment the list
 * shows with those filters and search (not only a page); an empty filter needs `all: true`; more
 * than 100,000 matches is refused (422). `from` counts the comments that change, by their current
 * status (those already in `status` do not change); `dry_run` only counts, the same way. Applied in
 * one transaction, in batches of 2,000 rows, one audit row per comment (action `moderate`, `bulk`).
 */
const bulk = apiRoute(commentsBase, "editor", {
  method: "post",
  path: "/bulk",
  tags: ["Comments"],
  summary: "Moderate many comments at once",
  request: { body: jsonBody(bulkCommentSchema) },
  responses: { 200: json(bulkCommentResultSchema, "Counted (dry run) or applied"), ...invalidResponse },
});

export const commentsRouter = createRouter();

/** GET /api/comments (SPEC.md §2 "/comments") and its CSV export: docs/lists.md. */
mountList(commentsRouter, {
  base: commentsBase,
  path: "/",
  access: "viewer",
  tags: ["Comments"],
  summary: "List comments",
  description:
    "Comments with user, skill and customer names; filters status and customer_id; `q` searches comment, user, skill, customer and status; cards Total, Pending, Active, Inactive, Rejected over the filtered list.",
  list: commentList,
});

/** Who made the last audited change to a comment (its decider), or null. */
async function lastDecider(tx: Tx, commentId: string): Promise<string | null> {
  const [row] = await queryRows<{ who: string | null }>(
    tx,
    sql`
    select operator_email as who from audit_log where entity = 'comment' and entity_id = ${commentId}
    order by created_at desc, audit_id desc limit 1`,
  );
  return row?.who ?? null;
}

const noCounts = (): Record<CommentStatus, number> => ({ pending: 0, active: 0, inactive: 0, rejected: 0 });

commentsRouter
  .openapi(queue, async (c) => {
    const { after, customer_id } = c.req.valid("query");
    return c.json(await nextPending(c.get("db"), { after, customerId: customer_id }), 200);
  })
  .openapi(detail, async (c) =>
    c.json(requireFound(await getComment(c.get("db"), c.req.valid("param").commentId), msg.comments.notFound), 200),
  )
  .openapi(setStatus, async (c) => {
    const { commentId } = c.req.valid("param");
    const { status, expected_status } = c.req.valid("json");
    await mutate(c, async (tx) => {
      const [row] = await queryRows<{ status: CommentStatus; updated_at: string }>(
        tx,
        sql`
        select status, updated_at from skill_comments where comment_id = ${commentId} for update`,
      );
      if (!row) throw notFound(msg.comments.notFound);
      if (expected_status && row.status !== expected_status) {
        throw new HttpError(409, "conflict", msg.comments.alreadyDecided(await lastDecider(tx, commentId)));
      }
      if (row.status === status) return { result: null, audit: [] };
      await tx.execute(
        sql`update skill_comments set status = ${status}, updated_at = now() where comment_id = ${commentId}`,
      );
      return {
        result: null,
        audit: [
          {
            action: "moderate",
            entity: "comment",
            entity_id: commentId,
            before: { status: row.status },
            after: { status },
          },
        ],
      };
    });
    return c.json((await getComment(c.get("db"), commentId))!, 200);
  })
  .openapi(bulk, async (c) => {
    const input = c.req.valid("json");
    const target = input.status;
    const ids = input.ids ? [...new Set(input.ids)] : undefined;
    const where = ids
      ? sql`sm.comment_id = any(${sql`array[${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )}]::uuid[]`})`
      : commentFilterWhere(input.filter ?? {});

    const summarize = (counts: Record<CommentStatus, number>) => {
      const matched = commentStatuses.reduce((n, s) => n + counts[s], 0);
      if (!ids && matched > bulkFilterLimit)
        throw new HttpError(422, "validation_failed", msg.comments.tooMany(matched, bulkFilterLimit), {
          filter: msg.comments.tooMany(matched, bulkFilterLimit),
        });
      const from = { ...counts, [target]: 0 };
      return { matched, from, changed: commentStatuses.reduce((n, s) => n + from[s], 0) };
    };

    if (input.dry_run) {
      const counts = await countByStatus(c.get("db"), where, bulkFilterLimit);
      if (ids && commentStatuses.reduce((n, s) => n + counts[s], 0) !== ids.length) {
        throw new HttpError(
          422,
          "validation_failed",
          msg.comments.unknownIds(ids.length - commentStatuses.reduce((n, s) => n + counts[s], 0)),
          { ids: msg.comments.notFound },
        );
      }
      return c.json({ ...summarize(counts), dry_run: true }, 200);
    }

    const result = await mutate(c, async (tx) => {
      // Lock every matching comment (in id order: no deadlock with a concurrent bulk change).
      const locked = await queryRows<{ comment_id: string; status: CommentStatus }>(
        tx,
        sql`
        select sm.comment_id, sm.status from skill_comments sm where ${where}
        order by sm.comment_id for update limit ${bulkFilterLimit + 1}`,
      );
      if (ids && locked.length !== ids.length) {
        throw new HttpError(422, "validation_failed", msg.comments.unknownIds(ids.length - locked.length), {
          ids: msg.comments.notFound,
        });
      }
      const counts = noCounts();
      for (const r of locked) counts[r.status] += 1;
      const summary = summarize(counts);
      const changing = locked.filter((r) => r.status !== target);
      for (let i = 0; i < changing.length; i += bulkBatchSize) {
        const batch = changing.slice(i, i + bulkBatchSize);
        await tx.execute(sql`update skill_comments set status = ${target}, updated_at = now()
          where comment_id = any(${sql`array[${sql.join(
            batch.map((r) => sql`${r.comment_id}`),
            sql`, `,
          )}]::uuid[]`})`);
        const entries: AuditEntry[] = batch.map((r) => ({
          action: "moderate",
          entity: "comment",
          entity_id: r.comment_id,
          before: { status: r.status },
          after: { status: target, bulk: true },
        }));
        await writeAudit(tx, c, entries);
      }
      return { result: summary, audit: [] };
    });
    return c.json({ ...result, dry_run: false }, 200);
  });
