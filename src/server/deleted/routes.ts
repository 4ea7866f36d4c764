import { z } from "@hono/zod-openapi";
import { sql } from "drizzle-orm";
import { noSummary } from "../../domain/common";
import { deletedEntities, deletedRecordSchema, deletedSortKeys, restoreReportSchema } from "../../domain/deleted";
import { msg } from "../../domain/messages";
import { mutate } from "../audit";
import { errorBodySchema } from "../http/errors";
import { defineList, type SortKey } from "../http/lists";
import { mountList } from "../http/list-routes";
import { apiRoute, createRouter, jsonResponse, notFoundResponse } from "../http/route";
import { restoreDeletion } from "./restore";

export const deletedBase = "/api/deleted";

/**
 * "Recently deleted" (docs/undo-and-restore.md): the snapshots not restored yet, newest first by
 * default (the partial index on open ones, `deleted_records_open_idx`); filters `entity` (a kind
 * of record or link) and `entity_id` (a record's own deletions: its page's "This team was
 * deleted"); `q` searches the name and who deleted it. `cascade_count`: rows that went with it.
 */
export const deletedList = defineList({
  name: "deleted_records",
  item: deletedRecordSchema,
  summarySchema: noSummary,
  // Only what can still be restored; the planner flattens the subquery onto the partial index.
  from: sql`(select * from deleted_records where restored_at is null) d`,
  select: sql`d.deletion_id, d.entity, d.entity_id, d.label, d.deleted_by_email, d.deleted_at,
    (select coalesce(sum(jsonb_array_length(e.value)), 0) from jsonb_each(coalesce(d.snapshot->'cascade', '{}'::jsonb)) e)::int as cascade_count`,
  id: { expr: sql`d.deletion_id`, type: "uuid" },
  sorts: {
    deleted_at: [{ expr: sql`d.deleted_at`, type: "timestamptz" }],
    label: [{ expr: sql`lower(d.label)`, type: "text" }],
    entity: [{ expr: sql`d.entity`, type: "text" }],
  } satisfies Record<(typeof deletedSortKeys)[number], SortKey[]>,
  unindexedSorts: {
    sorts: ["label", "entity"],
    reason:
      "Only snapshots not restored yet and younger than DELETED_RETENTION_DAYS (30 by default) are listed: " +
      "sorted whole by name or kind; the default order, newest first, walks deleted_records_open_idx.",
  },
  defaultSort: "deleted_at",
  defaultOrder: "desc",
  filters: {
    entity: { schema: z.enum(deletedEntities).optional(), where: (v: string) => sql`d.entity = ${v}` },
    entity_id: { schema: z.string().max(100).optional(), where: (v: string) => sql`d.entity_id = ${v}` },
  },
  search: (m) => sql`d.label ilike ${m.pattern} or coalesce(d.deleted_by_email, '') ilike ${m.pattern}`,
  csv: [
    { header: "Deletion ID", value: (d) => d.deletion_id },
    { header: "Kind", value: (d) => d.entity },
    { header: "Record ID", value: (d) => d.entity_id },
    { header: "Name", value: (d) => d.label },
    { header: "Related", value: (d) => d.cascade_count },
    { header: "Deleted by", value: (d) => d.deleted_by_email },
    { header: "Deleted", value: (d) => d.deleted_at },
  ],
});

/**
 * POST /api/deleted/{deletionId}/restore → 200 `{ deletion_id, entity, entity_id, label, restored:
 * [{ kind, id, label }], not_restored: [{ kind, id, label, reason }] }`: the record back with the
 * same id and values, and each part of its cascade that can still come back; audited (`restore`).
 * 404 unknown deletion; 409 already restored, the record exists again, or (a link deleted on its
 * own, a prompt whose skill is gone) it cannot come back, with the reason.
 */
const restore = apiRoute(deletedBase, "editor", {
  method: "post",
  path: "/{deletionId}/restore",
  tags: ["Deleted records"],
  summary: "Restore a deleted record or link",
  request: { params: z.object({ deletionId: z.guid({ error: msg.deleted.notFound }) }) },
  responses: {
    200: jsonResponse(restoreReportSchema, "Restored, with what could not come back"),
    ...notFoundResponse(msg.deleted.notFound),
    409: jsonResponse(errorBodySchema, "Already restored, exists again, or cannot come back"),
  },
});

export const deletedRouter = createRouter();

/** GET /api/deleted (admin and editor) and its CSV export: docs/lists.md. */
mountList(deletedRouter, {
  base: deletedBase,
  path: "/",
  access: "editor",
  tags: ["Deleted records"],
  summary: "Recently deleted",
  description:
    "Deleted records and links not restored yet, newest first; filters entity, entity_id; `q` searches the name and who deleted it. Snapshots are purged after DELETED_RETENTION_DAYS.",
  list: deletedList,
});

deletedRouter.openapi(restore, async (c) => {
  const { deletionId } = c.req.valid("param");
  const report = await mutate(c, (tx) => restoreDeletion(tx, c, deletionId));
  return c.json(report, 200);
});
