/**
 * Saved views and list preferences (docs/saved-views.md): the shapes the API answers and takes,
 * shared by the server (zod validation, OpenAPI) and the screens.
 */
import { z } from "zod";
import { id, listPage, noSummary, sortOrders, timestamp } from "./common";
import { maxSearchLength, viewLimits } from "./limits";
import { viewsMsg } from "./messages/views";
import { requiredName } from "./text";
import { describesRows } from "./table-rows";

/**
 * The lists a view can be saved for, by the name of their API path (`/api/<list>`). The spec's
 * lists first, then the console's own.
 */
export const savedViewLists = [
  "customers",
  "teams",
  "users",
  "skills",
  "prompts",
  "platforms",
  "comments",
  "operators",
  "audit",
  "prompt-changes",
  "api-tokens",
  "deleted",
] as const;
export type SavedViewList = (typeof savedViewLists)[number];

/** The screen each list is shown on: a view opens at `<path>?view=<view_id>`. */
export const savedViewListPaths: Record<SavedViewList, string> = {
  customers: "/customers",
  teams: "/teams",
  users: "/users",
  skills: "/skills",
  prompts: "/prompts",
  platforms: "/platforms",
  comments: "/comments",
  operators: "/operators",
  audit: "/audit",
  "prompt-changes": "/reviews",
  "api-tokens": "/api-tokens",
  deleted: "/deleted",
};
export const savedViewListSchema = z.enum(savedViewLists);

/** A filter, column or sort key name. */
const key = z.string().min(1).max(64);

/**
 * What a view restores: the search, the filters (by their API parameter names, as text), the
 * sort, the visible columns in order (ids of the screen's columns; absent: the spec's columns)
 * and the hidden ones, and the page size (absent: the console's default).
 */
export const viewStateSchema = z.strictObject({
  q: z.string().max(maxSearchLength).optional(),
  sort: key.optional(),
  order: z.enum(sortOrders).optional(),
  filters: z
    .record(key, z.string().max(maxSearchLength))
    .refine((f) => Object.keys(f).length <= viewLimits.maxFilters, `At most ${viewLimits.maxFilters} filters`)
    .default({}),
  columns: z.array(key).max(viewLimits.maxColumns).optional(),
  /**
   * The columns hidden when the view was saved. A column in neither list was added to the screen
   * since, and shows at its place; with no `hidden_columns` (a view saved before they were kept),
   * every column not in `columns` stays hidden.
   */
  hidden_columns: z.array(key).max(viewLimits.maxColumns).optional(),
  limit: z
    .number()
    .int()
    .refine((n) => (viewLimits.pageSizes as readonly number[]).includes(n), "Not an offered page size")
    .optional(),
});
export type ViewState = z.infer<typeof viewStateSchema>;

/**
 * A view's name: the rule of every required name (trimmed, at most 100 characters, no
 * bidirectional controls), unique per owner and list whatever its case.
 */
export const viewNameSchema = requiredName({ required: viewsMsg.nameRequired, field: "Name" }, viewLimits.maxName);

/** Why part of a view no longer applies: it is dropped when the view opens, and the screen marks it. */
export const droppedReasons = ["unknown_filter", "unknown_value", "not_found", "unknown_sort"] as const;
export type DroppedReason = (typeof droppedReasons)[number];
export const droppedPartSchema = z.object({
  /** `filters.<name>`, or `sort`. */
  part: z.string(),
  /** The value the view held. */
  value: z.string(),
  reason: z.enum(droppedReasons),
});
export type DroppedPart = z.infer<typeof droppedPartSchema>;

/** One saved view as the API answers it. */
export const savedViewSchema = z.object({
  view_id: id,
  list: savedViewListSchema,
  name: z.string(),
  shared: z.boolean(),
  state: viewStateSchema,
  operator_id: z.string(),
  /** The owner's email (shared views name their author). */
  owner_email: z.string().nullable(),
  /** The asking operator owns it. */
  mine: z.boolean(),
  /** The asking operator may rename, change, share or delete it (its owner, or an admin for a shared view). */
  can_edit: z.boolean(),
  /** It is the asking operator's default view of its list. */
  is_default: z.boolean(),
  version: z.number().int(),
  created_at: timestamp,
  updated_at: timestamp,
});
export type SavedView = z.infer<typeof savedViewSchema>;
/** A row of `saved_views` with what the asking operator may do with it. */
export const savedViewRows = describesRows("saved_views", savedViewSchema, {
  derived: ["owner_email", "mine", "can_edit", "is_default"],
});
export const savedViewPageSchema = listPage(savedViewSchema, noSummary);

/**
 * GET /api/views/{viewId}: the view with its state as it applies today (`state` without the parts
 * that no longer apply) and what was dropped.
 */
export const openedViewSchema = savedViewSchema.extend({ dropped: z.array(droppedPartSchema) });
export type OpenedView = z.infer<typeof openedViewSchema>;

/** POST /api/views. Sharing needs the editor role or above. */
export const viewCreateSchema = z.strictObject({
  list: savedViewListSchema,
  name: viewNameSchema,
  shared: z.boolean().default(false),
  state: viewStateSchema,
});
export type ViewCreate = z.infer<typeof viewCreateSchema>;

/** PATCH /api/views/{viewId}: any of name, shared and state, with the version it was read at. */
export const viewUpdateSchema = z.strictObject({
  version: z.number().int().min(1),
  name: viewNameSchema.optional(),
  shared: z.boolean().optional(),
  state: viewStateSchema.optional(),
});
export type ViewUpdate = z.infer<typeof viewUpdateSchema>;

/** GET/PUT /api/list-preferences/{list}: an operator's columns and default view for one list. */
export const listPreferencesSchema = z.object({
  list: savedViewListSchema,
  /** Visible column ids in order; null: the spec's columns. */
  columns: z.array(z.string()).nullable(),
  /** Column ids hidden when the choice was made (a column in neither list is new, and shows); null: none kept. */
  hidden_columns: z.array(z.string()).nullable(),
  /** The view the list opens with; null: none (a view since deleted reads as null). */
  default_view_id: id.nullable(),
});
export type ListPreferences = z.infer<typeof listPreferencesSchema>;

/** PUT body: any part may be left out (kept as it is), not all; null clears it. */
export const listPreferencesUpdateSchema = z
  .strictObject({
    columns: z.array(key).min(1).max(viewLimits.maxColumns).nullable().optional(),
    hidden_columns: z.array(key).max(viewLimits.maxColumns).nullable().optional(),
    default_view_id: id.nullable().optional(),
  })
  .refine((b) => b.columns !== undefined || b.hidden_columns !== undefined || b.default_view_id !== undefined, {
    message: "Give columns, hidden_columns or default_view_id",
    path: ["columns"],
  });
export type ListPreferencesUpdate = z.infer<typeof listPreferencesUpdateSchema>;
