import { z } from "@hono/zod-openapi";
import { sql } from "drizzle-orm";
import { promptSortKeys, promptStatuses } from "../../domain/enums";
import { noSummary } from "../../domain/common";
import {
  assignablePlatformSchema,
  promptListItemSchema,
  promptPlatformSchema,
  promptVersionSchema,
  type PromptDetail,
  type PromptVersionDetail,
} from "../../domain/prompts";
import { queryRows, type Database } from "../db/client";
import { toJson } from "../http/list";
import {
  anyOf,
  anyValue,
  defineList,
  idFilter,
  matchingValues,
  referencedName,
  statusCards,
  statusFilter,
  totalFromStatusCards,
  type SortKey,
} from "../http/lists";
import type { Tx } from "../audit";
import type { PromptReviewMode } from "../../domain/enums";
import { promptVariables, undeclaredIn } from "../../domain/prompt-changes";
import { reviewRequired } from "./changes-queries";
import { pendingOfPrompt } from "./review";

/**
 * SPEC.md §2 "/prompts": prompts with the first 240 characters of their content, their skill's
 * name (joined) and their platforms' names (aggregated in the same statement, for the page's rows
 * only); `q` matches title, content, skill name and status; filters status and skill_id. Cards
 * (Total, Active, Inactive, Draft) over all prompts, from the maintained status counters.
 */
export const promptList = defineList({
  name: "prompts",
  item: promptListItemSchema,
  from: sql`pedal_prompts p left join skills s on s.skill_id = p.skill_id`,
  // Filters and search name prompts alone (the skill's name through its own table): counts and a
  // search's page read them without the join.
  base: { from: sql`pedal_prompts p`, sorts: ["prompt_title", "status", "created_at", "updated_at"] },
  select: sql`p.prompt_id, p.prompt_title, left(p.prompt_value, 240) as prompt_excerpt, p.skill_id, p.status, p.created_at, p.updated_at,
    s.skill_name,
    array(select coalesce(pl.platform_name, '') from platform_prompts pp join platforms pl on pl.platform_id = pp.platform_id
      where pp.prompt_id = p.prompt_id order by lower(pl.platform_name), pl.platform_id) as platform_names`,
  id: { expr: sql`p.prompt_id`, type: "uuid" },
  sorts: {
    prompt_title: [{ expr: sql`lower(p.prompt_title)`, type: "text" }],
    status: [{ expr: sql`p.status`, type: "text" }],
    created_at: [{ expr: sql`p.created_at`, type: "timestamptz" }],
    updated_at: [{ expr: sql`p.updated_at`, type: "timestamptz" }],
  } satisfies Record<(typeof promptSortKeys)[number], SortKey[]>,
  defaultSort: "created_at",
  defaultOrder: "desc",
  filters: {
    status: statusFilter(promptStatuses, sql`p.status`),
    skill_id: idFilter(sql`p.skill_id`),
    // `platforms=none`: prompts with no platform assignment at all, active or not, as the list's
    // Platforms column shows them (docs/dashboard.md "Needs attention"): an anti join on
    // platform_prompts_prompt_idx.
    platforms: {
      schema: z.enum(["none"]).optional(),
      where: () => sql`not exists (select 1 from platform_prompts x where x.prompt_id = p.prompt_id)`,
    },
  },
  // The skill name is matched through the skills' own trigram index, then the prompts of those
  // skills; a page that walks its sort's index reads each prompt's skill by primary key instead.
  search: (m) =>
    anyOf([
      sql`p.prompt_title ilike ${m.pattern} or p.prompt_value ilike ${m.pattern}`,
      referencedName({ key: sql`p.skill_id`, table: sql`skills x`, id: sql`x.skill_id`, name: sql`x.skill_name` }, m),
      anyValue(sql`p.status`, matchingValues(promptStatuses, m)),
    ]),
  ...statusCards("prompts", promptStatuses),
  // The cards count by status alone: a total narrowed by `platforms` is counted.
  totalFromSummary: ({ filters, q }) =>
    (filters as { platforms?: string }).platforms ? undefined : totalFromStatusCards({ filters: filters, q }),
  csv: [
    { header: "Prompt ID", value: (p) => p.prompt_id },
    { header: "Title", value: (p) => p.prompt_title },
    { header: "Content (start)", value: (p) => p.prompt_excerpt },
    { header: "Skill", value: (p) => p.skill_name },
    { header: "Platforms", value: (p) => p.platform_names },
    { header: "Status", value: (p) => p.status },
    { header: "Created", value: (p) => p.created_at },
    { header: "Updated", value: (p) => p.updated_at },
  ],
});

/**
 * SPEC.md §2 "/prompts/{promptId}" Platform Assignments: the prompt's platforms with name,
 * description and status, newest first; `q` matches name and description (case-insensitive).
 * Scoped to one prompt by the route.
 */
export const promptPlatformList = defineList({
  name: "prompt_platforms",
  item: promptPlatformSchema,
  summarySchema: noSummary,
  from: sql`platform_prompts pp left join platforms pl on pl.platform_id = pp.platform_id`,
  select: sql`pp.platform_id, pl.platform_name, pl.platform_description, pl.status as platform_status, pp.is_active, pp.assigned_at`,
  id: { expr: sql`pp.platform_id`, type: "uuid" },
  sorts: {
    assigned_at: [{ expr: sql`pp.assigned_at`, type: "timestamptz" }],
    platform_name: [{ expr: sql`lower(coalesce(pl.platform_name, ''))`, type: "text" }],
  },
  defaultSort: "assigned_at",
  defaultOrder: "desc",
  filters: {},
  search: (m) => sql`pl.platform_name ilike ${m.pattern} or pl.platform_description ilike ${m.pattern}`,
  csv: [
    { header: "Platform ID", value: (a) => a.platform_id },
    { header: "Platform", value: (a) => a.platform_name },
    { header: "Description", value: (a) => a.platform_description },
    { header: "Active", value: (a) => a.is_active },
    { header: "Assigned", value: (a) => a.assigned_at },
  ],
});

/**
 * SPEC.md §2 the Assign Platform modal: platforms not yet assigned to the prompt, by name; `q`
 * matches name or description, case-insensitive. Scoped to one prompt by the route.
 */
export const assignablePlatformList = defineList({
  name: "prompt_assignable_platforms",
  item: assignablePlatformSchema,
  summarySchema: noSummary,
  from: sql`platforms pl`,
  select: sql`pl.platform_id, pl.platform_name, pl.platform_description, pl.status`,
  id: { expr: sql`pl.platform_id`, type: "uuid" },
  sorts: {
    platform_name: [{ expr: sql`lower(pl.platform_name)`, type: "text" }],
  },
  defaultSort: "platform_name",
  defaultOrder: "asc",
  filters: {},
  search: (m) => sql`pl.platform_name ilike ${m.pattern} or pl.platform_description ilike ${m.pattern}`,
  csv: [
    { header: "Platform ID", value: (p) => p.platform_id },
    { header: "Platform", value: (p) => p.platform_name },
    { header: "Description", value: (p) => p.platform_description },
    { header: "Status", value: (p) => p.status },
  ],
});

/** The condition of `assignablePlatformList` for one prompt: no assignment row yet. */
export const assignablePlatformScope = (promptId: string) =>
  sql`not exists (select 1 from platform_prompts x where x.platform_id = pl.platform_id and x.prompt_id = ${promptId})`;

/** The Versions panel: the prompt's versions, newest first (number, title, who, when). */
export const promptVersionList = defineList({
  name: "prompt_versions",
  item: promptVersionSchema,
  summarySchema: noSummary,
  from: sql`prompt_versions v left join prompt_changes pc on pc.change_id = v.change_id`,
  select: sql`v.version, v.prompt_title, v.restored_from, v.operator_email, v.created_at,
    pc.proposed_by_email, pc.decided_by_email as approved_by_email`,
  id: { expr: sql`v.version`, type: "int" },
  sorts: {
    version: [{ expr: sql`v.version`, type: "int", unique: true }],
  },
  defaultSort: "version",
  defaultOrder: "desc",
  filters: {},
  search: (m) => sql`v.prompt_title ilike ${m.pattern} or v.operator_email ilike ${m.pattern}`,
  csv: [
    { header: "Version", value: (v) => v.version },
    { header: "Title", value: (v) => v.prompt_title },
    { header: "Restored From", value: (v) => v.restored_from },
    { header: "By", value: (v) => v.operator_email },
    { header: "Created", value: (v) => v.created_at },
  ],
});

/**
 * SPEC.md §2 "/prompts/{promptId}": the prompt with its skill's name and status and its number of
 * versions, or null; with its content's `variables`, those an actively assigned platform does not
 * provide (`undeclared`), whether a change to it waits for review under `mode`
 * (`review_required`) and how many of its changes wait (docs/prompt-review.md); the edit of it by
 * `operatorId` that waits (`own_proposal`) and what its platforms provide (`platform_variables`).
 */
export async function getPrompt(
  db: Database | Tx,
  promptId: string,
  mode: PromptReviewMode = "off",
  operatorId?: string,
): Promise<PromptDetail | null> {
  const [row] = await queryRows<
    Record<string, unknown> & { prompt_value: string | null; platform_variables: PromptDetail["platform_variables"] }
  >(
    db,
    sql`
    select p.*, s.skill_name, s.status as skill_status,
      coalesce((select max(v.version) from prompt_versions v where v.prompt_id = p.prompt_id), 0)::int as version_count,
      ${pendingOfPrompt(promptId)} as pending_change_count,
      (select json_build_object('change_id', pc.change_id, 'proposed_at', pc.proposed_at,
          'prompt_title', coalesce(pc.prompt_title, p.prompt_title), 'prompt_value', pc.prompt_value,
          'status', coalesce(pc.prompt_status, p.status), 'skill_id', coalesce(pc.skill_id, p.skill_id))
        from prompt_changes pc where pc.prompt_id = p.prompt_id and pc.proposed_by = ${operatorId ?? ""}
          and pc.kind = 'update' and pc.status = 'pending' limit 1) as own_proposal,
      array(select json_build_object('platform_id', pl.platform_id, 'platform_name', coalesce(pl.platform_name, ''),
          'provided_variables', pl.provided_variables)
        from platform_prompts pp join platforms pl on pl.platform_id = pp.platform_id
        where pp.prompt_id = p.prompt_id and pp.is_active and pl.provided_variables is not null
        order by lower(pl.platform_name), pl.platform_id) as platform_variables
    from pedal_prompts p left join skills s on s.skill_id = p.skill_id where p.prompt_id = ${promptId}`,
  );
  if (!row) return null;
  return toJson({
    ...row,
    variables: promptVariables(row.prompt_value),
    // The platforms just read are the ones the check needs: no second statement for them.
    undeclared: undeclaredIn(row.prompt_value, row.platform_variables),
    review_required: await reviewRequired(db, mode, promptId),
  }) as PromptDetail;
}

/** One version with its texts, or null. */
export async function getPromptVersion(
  db: Database | Tx,
  promptId: string,
  version: number,
): Promise<PromptVersionDetail | null> {
  const [row] = await queryRows<Record<string, unknown>>(
    db,
    sql`
    select version, prompt_title, prompt_value, restored_from, operator_email, created_at
    from prompt_versions where prompt_id = ${promptId} and version = ${version}`,
  );
  return row ? (toJson(row) as PromptVersionDetail) : null;
}
