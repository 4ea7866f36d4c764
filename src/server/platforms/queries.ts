import { z } from "@hono/zod-openapi";
import { sql } from "drizzle-orm";
import { platformSortKeys, platformStatuses } from "../../domain/enums";
import { noSummary } from "../../domain/common";
import { platformRecords, platformPromptSchema, type PlatformOption } from "../../domain/platforms";
import {
  anyValue,
  defineList,
  matchingValues,
  promptTitleOrStatus,
  statusCards,
  statusFilter,
  totalFromStatusCards,
  type SortKey,
} from "../http/lists";
import { tablePicker } from "../http/table-picker";

/**
 * SPEC.md §2 "/platforms": platforms with their number of assigned prompts (counted for the page's
 * rows only, through the (platform_id, …) primary key); `q` matches name, description and status;
 * filter status. Cards (Total, Active, Inactive, Draft) over all platforms, from the status counters.
 */
export const platformList = defineList({
  name: "platforms",
  item: platformRecords.item,
  from: sql`platforms pl`,
  select: sql`pl.platform_id, pl.platform_name, pl.platform_description, pl.status, pl.created_at, pl.updated_at,
    pl.needs_review is true as needs_review, pl.provided_variables,
    (select count(*) from platform_prompts pp where pp.platform_id = pl.platform_id)::int as prompt_count`,
  id: { expr: sql`pl.platform_id`, type: "uuid" },
  sorts: {
    platform_name: [{ expr: sql`lower(pl.platform_name)`, type: "text" }],
    status: [{ expr: sql`pl.status`, type: "text" }],
    created_at: [{ expr: sql`pl.created_at`, type: "timestamptz" }],
    updated_at: [{ expr: sql`pl.updated_at`, type: "timestamptz" }],
  } satisfies Record<(typeof platformSortKeys)[number], SortKey[]>,
  defaultSort: "created_at",
  defaultOrder: "desc",
  filters: {
    status: statusFilter(platformStatuses, sql`pl.status`),
    // "Changes need review" (docs/prompt-review.md): `true` on platforms_needs_review_idx; an adopted row's null is false.
    needs_review: {
      schema: z.enum(["true", "false"]).optional(),
      where: (v: string) => (v === "true" ? sql`pl.needs_review = true` : sql`pl.needs_review is not true`),
    },
  },
  search: (m) => sql`pl.platform_name ilike ${m.pattern} or pl.platform_description ilike ${m.pattern}
    or ${anyValue(sql`pl.status`, matchingValues(platformStatuses, m))}`,
  ...statusCards("platforms", platformStatuses),
  // The cards count by status alone: a total narrowed by `needs_review` is counted.
  totalFromSummary: ({ filters, q }) =>
    (filters as { needs_review?: string }).needs_review ? undefined : totalFromStatusCards({ filters: filters, q }),
  csv: [
    { header: "Platform ID", value: (p) => p.platform_id },
    { header: "Platform", value: (p) => p.platform_name },
    { header: "Description", value: (p) => p.platform_description },
    { header: "Status", value: (p) => p.status },
    { header: "Prompts", value: (p) => p.prompt_count },
    { header: "Changes need review", value: (p) => (p.needs_review ? "yes" : "no") },
    { header: "Provided variables", value: (p) => p.provided_variables?.join(" ") ?? "" },
    { header: "Created", value: (p) => p.created_at },
    { header: "Updated", value: (p) => p.updated_at },
  ],
});

/** The platform page's prompts: the prompts assigned to it, newest assignment first; `q` matches title and prompt status. */
export const platformPromptList = defineList({
  name: "platform_prompts",
  item: platformPromptSchema,
  summarySchema: noSummary,
  from: sql`platform_prompts pp join pedal_prompts p on p.prompt_id = pp.prompt_id`,
  select: sql`pp.prompt_id, p.prompt_title, p.status, pp.is_active, pp.assigned_at`,
  id: { expr: sql`pp.prompt_id`, type: "uuid" },
  sorts: {
    assigned_at: [{ expr: sql`pp.assigned_at`, type: "timestamptz" }],
  },
  defaultSort: "assigned_at",
  defaultOrder: "desc",
  filters: {},
  search: promptTitleOrStatus,
  csv: [
    { header: "Prompt ID", value: (p) => p.prompt_id },
    { header: "Prompt", value: (p) => p.prompt_title },
    { header: "Status", value: (p) => p.status },
    { header: "Active", value: (p) => p.is_active },
    { header: "Assigned", value: (p) => p.assigned_at },
  ],
});

/**
 * The platform picker (the API token form's delivery platform): pages of platforms by name, and
 * one platform as an option (the current choice).
 */
export const platformPicker = tablePicker<PlatformOption>({
  table: "platforms",
  key: "platform_id",
  name: "platform_name",
  columns: ["platform_id", "platform_name", "status"],
});
