/**
 * Bulk actions (docs/bulk-actions.md): what the API takes and answers, shared by the server and the
 * screens. A selection is either explicit ids or every record a list shows with a filter and search.
 */
import { z } from "zod";
import { id, rowTimestamps, timestamp } from "./common";
import { bulkActionStatuses, bulkOutcomes } from "./enums";
import { bulkLimits } from "./limits";
import { bulkMsg } from "./messages/bulk";
import { searchTextSchema } from "./text";

/** The entities that declare bulk actions (their list's name and the URL segment). */
export const bulkEntities = ["customers", "teams", "users", "skills", "prompts", "platforms"] as const;
export type BulkEntity = (typeof bulkEntities)[number];

/**
 * A selection: `ids` (1 to bulkLimits.maxIds records), or `filter` (the list's filter values, as its
 * query parameters) with an optional search `q`: every record the list shows with them, not one page.
 */
export function bulkSelectionSchema<F extends z.ZodType>(filter: F) {
  return z
    .strictObject({
      ids: z.array(id).min(1).max(bulkLimits.maxIds).optional(),
      filter: filter.optional(),
      q: searchTextSchema.optional(),
    })
    .refine((s) => (s.ids === undefined) !== (s.filter === undefined), { message: bulkMsg.idsOrFilter, path: ["ids"] })
    .refine((s) => s.ids === undefined || s.q === undefined, { message: bulkMsg.idsOrFilter, path: ["q"] });
}
export type BulkSelection = { ids?: string[]; filter?: Record<string, unknown>; q?: string };

/** One row of a preview's sample or of a report. */
export const bulkRowSchema = z.object({
  row_id: z.string(),
  label: z.string().nullable(),
  outcome: z.enum(bulkOutcomes),
  reason: z.string().nullable(),
});
export type BulkRow = z.infer<typeof bulkRowSchema>;

/** POST /api/bulk/{entity}/{action}/preview: what the action would do, nothing written. */
export const bulkPreviewSchema = z.object({
  total: z.number().int(),
  will_change: z.number().int(),
  skipped: z.array(z.object({ reason: z.string(), count: z.number().int() })),
  sample: z.array(bulkRowSchema),
});
export type BulkPreview = z.infer<typeof bulkPreviewSchema>;

/** GET /api/bulk/{bulkId}: a bulk action's progress. */
export const bulkProgressSchema = z.object({
  bulk_id: id,
  entity: z.string(),
  action: z.string(),
  params: z.record(z.string(), z.unknown()),
  selection: z.record(z.string(), z.unknown()),
  status: z.enum(bulkActionStatuses),
  total: z.number().int(),
  processed: z.number().int(),
  changed: z.number().int(),
  skipped: z.number().int(),
  failed: z.number().int(),
  cancel_requested: z.boolean(),
  operator_email: z.string().nullable(),
  ...rowTimestamps,
  finished_at: timestamp.nullable(),
  /** The action this run undoes (its action is then `undo`). */
  undo_of: id.nullable(),
  /** The latest undo of this action, whatever its status. */
  undone_by: id.nullable(),
  /** Whether the operator asking may undo it now (POST /api/bulk/{bulkId}/undo). */
  can_undo: z.boolean(),
});
export type BulkProgress = z.infer<typeof bulkProgressSchema>;

/** GET /api/bulk/{bulkId}/report: one page of the per-row report, in selection order. */
export const bulkReportPageSchema = z.object({
  items: z.array(bulkRowSchema.extend({ seq: z.number().int() })),
  total: z.number().int(),
  next_after: z.number().int().nullable(),
});
export type BulkReportPage = z.infer<typeof bulkReportPageSchema>;

/** Query of the report: rows after `after` (a seq), `limit` 1–200, optionally one outcome. */
export const bulkReportQuerySchema = z.object({
  after: z.coerce.number().int().min(-1).max(1_000_000).default(-1),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  outcome: z.enum(bulkOutcomes).optional(),
});
