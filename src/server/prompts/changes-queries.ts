/**
 * Reading proposed prompt changes (docs/prompt-review.md): the Reviews queue and a prompt's review
 * history (list engine declarations), one change with its diff's three states, and the variables a
 * prompt would send to a platform that does not declare them.
 */
import { z } from "@hono/zod-openapi";
import { sql, type SQL } from "drizzle-orm";
import { noSummary } from "../../domain/common";
import { promptChangeStatuses, type PromptReviewMode } from "../../domain/enums";
import {
  promptChangeListItemSchema,
  promptVariables,
  undeclaredIn,
  type PromptChange,
  type PromptState,
  type UndeclaredVariable,
} from "../../domain/prompt-changes";
import { queryRows, type Database } from "../db/client";
import { toJson } from "../http/list";
import { defineList, idFilter, type ListDeclaration } from "../http/lists";
import type { Tx } from "../audit";

/**
 * Whether a pending change can no longer be applied as proposed (SQL over `pc` and the live prompt
 * `p`): the prompt's title, content, status or skill moved on since (an edit or a deletion), the
 * platform got assigned meanwhile (an assign), or is no longer assigned (an unassign).
 */
export const staleSql = sql`case
  when pc.status <> 'pending' then false
  when pc.kind in ('update', 'delete') then
    (p.prompt_title, p.prompt_value, p.status, p.skill_id) is distinct from (pc.base_title, pc.base_value, pc.base_status, pc.base_skill_id)
  when pc.kind = 'assign' then
    exists (select 1 from platform_prompts x where x.prompt_id = pc.prompt_id and x.platform_id = pc.platform_id)
  else not exists (select 1 from platform_prompts x where x.prompt_id = pc.prompt_id and x.platform_id = pc.platform_id)
end`;

/**
 * The platforms a change reaches (`platform_names`): an assignment's own platform (`pl`), or every
 * platform its prompt is assigned to for an edit or a deletion; one subquery on platform_prompts'
 * prompt_id index per row of the page.
 */
const reachesSql = sql`case when pc.platform_id is not null then array[coalesce(pl.platform_name, '')]
  else array(select coalesce(pp_pl.platform_name, '') from platform_prompts pp
    join platforms pp_pl on pp_pl.platform_id = pp.platform_id
    where pp.prompt_id = pc.prompt_id order by lower(pp_pl.platform_name), pp_pl.platform_id) end as platform_names`;

/**
 * What the queue and the history share: the change, its prompt's title and skill, its platform,
 * the platforms it reaches (`platform_names`: an assignment's one, or every platform the prompt is
 * assigned to for an edit or a deletion), whether it is stale.
 */
const changeColumns = {
  item: promptChangeListItemSchema,
  summarySchema: noSummary,
  from: sql`prompt_changes pc join pedal_prompts p on p.prompt_id = pc.prompt_id
    left join skills s on s.skill_id = p.skill_id left join platforms pl on pl.platform_id = pc.platform_id`,
  select: sql`pc.change_id, pc.prompt_id, p.prompt_title, p.skill_id, s.skill_name, pc.kind, pc.status,
    pc.platform_id, pl.platform_name,
    ${reachesSql},
    pc.proposed_by, pc.proposed_by_email, pc.proposed_at,
    pc.decided_by_email, pc.decided_at, pc.decision_comment, pc.applied_version, ${staleSql} as stale`,
  id: { expr: sql`pc.change_id`, type: "uuid" as const },
  sorts: {
    proposed_at: [{ expr: sql`pc.proposed_at`, type: "timestamptz" as const }],
    prompt_title: [{ expr: sql`lower(p.prompt_title)`, type: "text" as const }],
    status: [{ expr: sql`pc.status`, type: "text" as const }],
  },
  search: (m: { pattern: string }) =>
    sql`p.prompt_title ilike ${m.pattern} or pc.proposed_by_email ilike ${m.pattern} or s.skill_name ilike ${m.pattern}`,
  csv: [
    { header: "Change ID", value: (c: z.infer<typeof promptChangeListItemSchema>) => c.change_id },
    { header: "Prompt", value: (c: z.infer<typeof promptChangeListItemSchema>) => c.prompt_title },
    { header: "Kind", value: (c: z.infer<typeof promptChangeListItemSchema>) => c.kind },
    { header: "Platforms", value: (c: z.infer<typeof promptChangeListItemSchema>) => c.platform_names.join(", ") },
    { header: "Status", value: (c: z.infer<typeof promptChangeListItemSchema>) => c.status },
    { header: "Proposed By", value: (c: z.infer<typeof promptChangeListItemSchema>) => c.proposed_by_email },
    { header: "Proposed", value: (c: z.infer<typeof promptChangeListItemSchema>) => c.proposed_at },
    { header: "Decided By", value: (c: z.infer<typeof promptChangeListItemSchema>) => c.decided_by_email },
    { header: "Decided", value: (c: z.infer<typeof promptChangeListItemSchema>) => c.decided_at },
    { header: "Comment", value: (c: z.infer<typeof promptChangeListItemSchema>) => c.decision_comment },
  ],
};

/** Status filter: pending by default (the queue), `all` for every state. */
const statusOrAll = {
  schema: z.enum([...promptChangeStatuses, "all"]).default("pending"),
  where: (v: string) => (v === "all" ? sql`true` : sql`pc.status = ${v}`),
};

/**
 * GET /api/prompt-changes: the Reviews queue, oldest first; filters `status` (default pending,
 * `all`), `platform_id` (the change's platform, or a platform the prompt is assigned to),
 * `skill_id`, `proposed_by` (operator id); `q` matches the prompt's title, the author's e-mail and
 * the skill's name. Pending changes are read on prompt_changes_pending_idx.
 */
export const promptChangeList = defineList({
  ...changeColumns,
  name: "prompt_changes",
  unindexedSorts: {
    sorts: ["prompt_title"],
    reason:
      "The review queue holds the changes waiting for review: it walks the prompts' title index and " +
      "sorts each title's few changes by id (the tiebreak is another table's, so no index holds both).",
  },
  defaultSort: "proposed_at",
  defaultOrder: "asc",
  filters: {
    status: statusOrAll,
    platform_id: {
      schema: z.guid().optional(),
      where: (v: string) => sql`(pc.platform_id = ${v} or exists (select 1 from platform_prompts pp
        where pp.prompt_id = pc.prompt_id and pp.platform_id = ${v}))`,
    },
    skill_id: idFilter(sql`p.skill_id`),
    proposed_by: { schema: z.string().max(100).optional(), where: (v: string) => sql`pc.proposed_by = ${v}` },
  },
});

/** GET /api/prompts/{promptId}/changes: the prompt's proposed changes in every state, newest first (its review history). */
export const promptChangeHistoryList: ListDeclaration<
  z.infer<typeof promptChangeListItemSchema>,
  Record<string, never>,
  { status: string }
> = defineList({
  ...changeColumns,
  name: "prompt_review_history",
  defaultSort: "proposed_at",
  defaultOrder: "desc",
  filters: { status: { ...statusOrAll, schema: statusOrAll.schema.removeDefault().optional() } },
});

type ChangeRow = {
  change_id: string;
  prompt_id: string;
  kind: PromptChange["kind"];
  status: PromptChange["status"];
  base_title: string;
  base_value: string | null;
  base_status: string;
  base_skill_id: string;
  prompt_title: string | null;
  prompt_value: string | null;
  prompt_status: string | null;
  skill_id: string | null;
  restored_from: number | null;
  platform_id: string | null;
  platform_name: string | null;
  platform_names: string[];
  proposed_by: string;
  proposed_by_email: string | null;
  proposed_at: Date;
  updated_at: Date;
  decided_by: string | null;
  decided_by_email: string | null;
  decided_at: Date | null;
  decision_comment: string | null;
  applied_version: number | null;
  revision: number;
  superseded_by: string | null;
  live_title: string | null;
  live_value: string | null;
  live_status: string | null;
  live_skill_id: string | null;
  skill_name: string | null;
  stale: boolean;
};

/**
 * The variables of `content` that a platform does not provide, for the platforms the prompt is
 * actively assigned to (or `platformIds` instead) that declare their variables (a platform that
 * declares none is not checked).
 */
export async function undeclaredVariables(
  db: Database | Tx,
  content: string | null,
  where: { promptId: string } | { platformIds: string[] },
): Promise<UndeclaredVariable[]> {
  if (promptVariables(content).length === 0) return [];
  const scope: SQL =
    "promptId" in where
      ? sql`pl.platform_id in (select pp.platform_id from platform_prompts pp where pp.prompt_id = ${where.promptId} and pp.is_active)`
      : sql`pl.platform_id = any(${`{${where.platformIds.join(",")}}`}::uuid[])`;
  const platforms = await queryRows<{ platform_id: string; platform_name: string; provided_variables: string[] }>(
    db,
    sql`select pl.platform_id, pl.platform_name, pl.provided_variables from platforms pl
      where pl.provided_variables is not null and ${scope} order by lower(pl.platform_name), pl.platform_id`,
  );
  return undeclaredIn(content, platforms);
}

/** GET /api/prompt-changes/{changeId}: one change with the live prompt and whether it is stale, or null. */
export async function getPromptChange(db: Database | Tx, changeId: string): Promise<PromptChange | null> {
  const [row] = await queryRows<ChangeRow>(
    db,
    sql`select pc.*, pl.platform_name, ${reachesSql}, p.prompt_title as live_title, p.prompt_value as live_value,
      p.status as live_status, p.skill_id as live_skill_id, s.skill_name, ${staleSql} as stale
    from prompt_changes pc join pedal_prompts p on p.prompt_id = pc.prompt_id
      left join skills s on s.skill_id = coalesce(pc.skill_id, p.skill_id)
      left join platforms pl on pl.platform_id = pc.platform_id
    where pc.change_id = ${changeId}`,
  );
  if (!row) return null;
  const state = (title: string | null, value: string | null, status: string | null, skill: string | null) =>
    title === null ? null : ({ prompt_title: title, prompt_value: value, status, skill_id: skill } as PromptState);
  const proposed =
    row.kind === "update" ? state(row.prompt_title, row.prompt_value, row.prompt_status, row.skill_id) : null;
  const undeclared =
    row.status !== "pending"
      ? []
      : row.kind === "update"
        ? await undeclaredVariables(db, row.prompt_value, { promptId: row.prompt_id })
        : row.kind === "assign" && row.platform_id
          ? await undeclaredVariables(db, row.live_value, { platformIds: [row.platform_id] })
          : [];
  return toJson({
    change_id: row.change_id,
    prompt_id: row.prompt_id,
    kind: row.kind,
    status: row.status,
    base: state(row.base_title, row.base_value, row.base_status, row.base_skill_id),
    proposed,
    current: state(row.live_title, row.live_value, row.live_status, row.live_skill_id),
    skill_name: row.skill_name,
    restored_from: row.restored_from,
    platform_id: row.platform_id,
    platform_name: row.platform_name,
    platform_names: row.platform_names,
    proposed_by: row.proposed_by,
    proposed_by_email: row.proposed_by_email,
    proposed_at: row.proposed_at,
    updated_at: row.updated_at,
    decided_by_email: row.decided_by_email,
    decided_at: row.decided_at,
    decision_comment: row.decision_comment,
    applied_version: row.applied_version,
    revision: row.revision,
    superseded_by: row.superseded_by,
    stale: row.stale,
    undeclared,
  }) as PromptChange;
}

/**
 * Whether a change to prompt `promptId` (SQL: a value or a column) waits for review under `mode`
 * (docs/prompt-review.md), as SQL: never when off; always under `all`; under `protected`, when the
 * prompt has an active assignment to a platform marked "Changes need review", or the change
 * assigns or unassigns such a platform (`platformId`). The prompt routes and the bulk actions'
 * skip rules both ask it.
 */
export function reviewRequiredSql(mode: PromptReviewMode, promptId: SQL, platformId?: string): SQL {
  if (mode === "off") return sql`false`;
  if (mode === "all") return sql`true`;
  return sql`(exists (select 1 from platform_prompts rpp join platforms rpl on rpl.platform_id = rpp.platform_id
      where rpp.prompt_id = ${promptId} and rpp.is_active and rpl.needs_review = true)
    ${platformId ? sql`or exists (select 1 from platforms rpl where rpl.platform_id = ${platformId} and rpl.needs_review = true)` : sql``})`;
}

/** `reviewRequiredSql` for one prompt, asked now. */
export async function reviewRequired(
  db: Database | Tx,
  mode: PromptReviewMode,
  promptId: string,
  platformId?: string,
): Promise<boolean> {
  if (mode === "off") return false;
  const [row] = await queryRows<{ required: boolean }>(
    db,
    sql`select ${reviewRequiredSql(mode, sql`${promptId}::uuid`, platformId)} as required`,
  );
  return row.required;
}

/** How many changes wait for review (the sidebar's count), on prompt_changes_pending_idx. */
export async function pendingChangeCount(db: Database): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from prompt_changes where status = 'pending'`,
  );
  return row.n;
}
