import { eq, sql } from "drizzle-orm";
import { z } from "@hono/zod-openapi";
import { assignmentStatuses, commentStatuses, skillSortKeys, skillStatuses, skillTypes } from "../../domain/enums";
import { noSummary } from "../../domain/common";
import {
  assignableTeamSchema,
  skillAssignmentSchema,
  skillCommentSchema,
  type SkillDetail,
  type SkillOption,
  skillPromptSchema,
  skillRecords,
  skillScopes,
  skillSummarySchema,
} from "../../domain/skills";
import { tablePicker } from "../http/table-picker";
import { queryRows, type Database } from "../db/client";
import { skills } from "../db/schema";
import { toJson } from "../http/list";
import {
  anyOf,
  anyValue,
  counterSort,
  customerNamed,
  defineList,
  idFilter,
  joinedNameSort,
  matchingValues,
  promptTitleOrStatus,
  statusFilter,
  type SortKey,
} from "../http/lists";
import type { Tx } from "../audit";

/**
 * SPEC.md §2 "/skills": skills with team_count, their active team assignments (maintained in
 * skill_counts by the teams_skills trigger, so the Teams column sorts through an index); `q`
 * matches name, description, type and status; filters type, scope (global | local) and status.
 * Cards (Total, Active, Inactive, Global) over all skills, from the maintained status counters.
 */
export const skillList = defineList({
  name: "skills",
  item: skillRecords.item,
  summarySchema: skillSummarySchema,
  from: sql`skills s join skill_counts sc on sc.skill_id = s.skill_id`,
  // Filters and search name skills alone (every skill has its counter row): counts and a search's
  // page read it without the join.
  base: { from: sql`skills s`, sorts: ["skill_name", "status", "type", "is_global", "created_at"] },
  select: sql`s.skill_id, s.skill_name, s.skill_description, s.type, s.is_global, s.status, s.created_at, s.updated_at, sc.team_count`,
  id: { expr: sql`s.skill_id`, type: "uuid" },
  sorts: {
    skill_name: [{ expr: sql`lower(s.skill_name)`, type: "text" }],
    status: [{ expr: sql`s.status`, type: "text" }],
    type: [{ expr: sql`s.type`, type: "text" }],
    // Scope: local (false) before global (true) when ascending.
    is_global: [{ expr: sql`s.is_global`, type: "boolean" }],
    team_count: counterSort(sql`sc.team_count`, sql`sc.skill_id`),
    created_at: [{ expr: sql`s.created_at`, type: "timestamptz" }],
  } satisfies Record<(typeof skillSortKeys)[number], SortKey[]>,
  defaultSort: "created_at",
  defaultOrder: "desc",
  filters: {
    type: statusFilter(skillTypes, sql`s.type`),
    scope: { schema: z.enum(skillScopes).optional(), where: (v: string) => sql`s.is_global = ${v === "global"}` },
    status: statusFilter(skillStatuses, sql`s.status`),
    // `prompts=none`: skills no prompt belongs to (docs/dashboard.md "Needs attention"): an anti
    // join on pedal_prompts_skill_idx.
    prompts: {
      schema: z.enum(["none"]).optional(),
      where: () => sql`not exists (select 1 from pedal_prompts x where x.skill_id = s.skill_id)`,
    },
  },
  search: (m) => sql`s.skill_name ilike ${m.pattern} or s.skill_description ilike ${m.pattern}
    or ${anyValue(sql`s.type`, matchingValues(skillTypes, m))} or ${anyValue(sql`s.status`, matchingValues(skillStatuses, m))}`,
  summaryCounts: "set",
  summary: () => sql`
    select coalesce(sum(n) filter (where status in ('active', 'inactive')), 0)::int as total,
      coalesce(sum(n) filter (where status = 'active'), 0)::int as active,
      coalesce(sum(n) filter (where status = 'inactive'), 0)::int as inactive,
      coalesce(sum(n) filter (where status = 'global'), 0)::int as global
    from status_counts where entity = 'skills'`,
  // The cards are counters; a filtered or searched total that needed a count is reused like a big list's.
  cacheSummary: "counted",
  // The cards count all skills: the total reads from them when only one of status or scope narrows the list.
  totalFromSummary: ({ filters, q }) => {
    const f = filters as { type?: string; scope?: string; status?: string; prompts?: string };
    if (q || f.type || f.prompts || (f.scope && f.status)) return undefined;
    if (f.status) return (s) => s[f.status as "active" | "inactive"];
    if (f.scope === "global") return (s) => s.global;
    if (f.scope === "local") return (s) => s.total - s.global;
    return (s) => s.total;
  },
  csv: [
    { header: "Skill ID", value: (s) => s.skill_id },
    { header: "Skill", value: (s) => s.skill_name },
    { header: "Description", value: (s) => s.skill_description },
    { header: "Status", value: (s) => s.status },
    { header: "Type", value: (s) => s.type },
    { header: "Scope", value: (s) => (s.is_global ? "global" : "local") },
    { header: "Teams", value: (s) => s.team_count },
    { header: "Created", value: (s) => s.created_at },
  ],
});

/**
 * SPEC.md §2 "/skills/{skillId}" Team Assignments: the skill's `teams_skills` rows (active and
 * not) joined to team and customer names, newest first; `q` matches team name, customer name and
 * assignment status. Scoped to one skill by the route (`ts.skill_id`).
 */
export const skillAssignmentList = defineList({
  name: "skill_teams",
  item: skillAssignmentSchema,
  summarySchema: noSummary,
  from: sql`teams_skills ts left join teams t on t.team_id = ts.team_id left join customers c on c.customer_id = ts.customer_id`,
  select: sql`ts.team_id, t.team_name, t.status as team_status, ts.customer_id, c.customer_name, ts.status, ts.assigned_at, ts.score, ts.last_used`,
  id: { expr: sql`ts.team_id`, type: "uuid" },
  sorts: {
    assigned_at: [{ expr: sql`ts.assigned_at`, type: "timestamptz" }],
    team_name: [{ expr: sql`lower(coalesce(t.team_name, ''))`, type: "text" }],
    customer_name: [{ expr: sql`lower(coalesce(c.customer_name, ''))`, type: "text" }],
    status: [{ expr: sql`ts.status`, type: "text" }],
  },
  defaultSort: "assigned_at",
  defaultOrder: "desc",
  filters: {},
  search: (m) =>
    sql`t.team_name ilike ${m.pattern} or c.customer_name ilike ${m.pattern} or ${anyValue(sql`ts.status`, matchingValues(assignmentStatuses, m))}`,
  csv: [
    { header: "Team ID", value: (a) => a.team_id },
    { header: "Team", value: (a) => a.team_name },
    { header: "Customer", value: (a) => a.customer_name },
    { header: "Status", value: (a) => a.status },
    { header: "Assigned", value: (a) => a.assigned_at },
    { header: "Score", value: (a) => a.score },
    { header: "Last Used", value: (a) => a.last_used },
  ],
});

/**
 * SPEC.md §2/§4 the skill page's Assign modal: active teams with no assignment record for the
 * skill (active or not), by name; `customer_id` narrows to one customer; `q` matches team and
 * customer names. Scoped to one skill by the route.
 */
export const assignableTeamList = defineList({
  name: "skill_assignable_teams",
  item: assignableTeamSchema,
  summarySchema: noSummary,
  from: sql`teams t join customers c on c.customer_id = t.customer_id`,
  // The scope, filter and search name teams alone (customers through a subquery): the count of a
  // search reads the trigram indexes instead of joining every team to every customer.
  base: { from: sql`teams t`, sorts: ["team_name"] },
  select: sql`t.team_id, t.team_name, t.customer_id, c.customer_name`,
  id: { expr: sql`t.team_id`, type: "uuid" },
  sorts: {
    team_name: [{ expr: sql`lower(t.team_name)`, type: "text" }],
    customer_name: joinedNameSort(sql`c.customer_name`, sql`c.customer_id`),
  },
  defaultSort: "team_name",
  defaultOrder: "asc",
  filters: {
    customer_id: idFilter(sql`t.customer_id`),
  },
  search: (m) => anyOf([sql`t.team_name ilike ${m.pattern}`, customerNamed(sql`t.customer_id`, m)]),
  // A picker over tens of thousands of rows: its total is reused like a big list's (10 s).
  cacheSummary: true,
  csv: [
    { header: "Team ID", value: (t) => t.team_id },
    { header: "Team", value: (t) => t.team_name },
    { header: "Customer", value: (t) => t.customer_name },
  ],
});

/** The condition of `assignableTeamList` for one skill (SPEC.md §4 "For assignment from a skill"). */
export const assignableScope = (skillId: string) =>
  sql`t.status = 'active' and not exists (select 1 from teams_skills x where x.team_id = t.team_id and x.skill_id = ${skillId})`;

/** SPEC.md §2 "/skills/{skillId}" Prompts panel: the skill's prompts, newest first; `q` matches title and status. */
export const skillPromptList = defineList({
  name: "skill_prompts",
  item: skillPromptSchema,
  summarySchema: noSummary,
  from: sql`pedal_prompts p`,
  select: sql`p.prompt_id, p.prompt_title, p.prompt_value, p.skill_id, p.status, p.created_at, p.updated_at`,
  id: { expr: sql`p.prompt_id`, type: "uuid" },
  sorts: {
    created_at: [{ expr: sql`p.created_at`, type: "timestamptz" }],
  },
  defaultSort: "created_at",
  defaultOrder: "desc",
  filters: {},
  search: promptTitleOrStatus,
  csv: [
    { header: "Prompt ID", value: (p) => p.prompt_id },
    { header: "Title", value: (p) => p.prompt_title },
    { header: "Content", value: (p) => p.prompt_value },
    { header: "Status", value: (p) => p.status },
    { header: "Created", value: (p) => p.created_at },
    { header: "Updated", value: (p) => p.updated_at },
  ],
});

/**
 * SPEC.md §2 "/skills/{skillId}" Comments table: the skill's comments with the commenter's names
 * (SPEC.md §3 "enriched"), newest first; `q` matches the comment and its status.
 */
export const skillCommentList = defineList({
  name: "skill_comments",
  item: skillCommentSchema,
  summarySchema: noSummary,
  from: sql`skill_comments sm left join users_data u on u.user_id = sm.user_id`,
  select: sql`sm.comment_id, sm.user_id, u.first_name, u.last_name, u.email, sm.customer_id, sm.comment_value, sm.status, sm.created_at, sm.updated_at`,
  id: { expr: sql`sm.comment_id`, type: "uuid" },
  sorts: {
    created_at: [{ expr: sql`sm.created_at`, type: "timestamptz" }],
  },
  defaultSort: "created_at",
  defaultOrder: "desc",
  filters: {},
  search: (m) =>
    sql`sm.comment_value ilike ${m.pattern} or ${anyValue(sql`sm.status`, matchingValues(commentStatuses, m))}`,
  csv: [
    { header: "Comment ID", value: (c) => c.comment_id },
    { header: "User ID", value: (c) => c.user_id },
    { header: "First Name", value: (c) => c.first_name },
    { header: "Last Name", value: (c) => c.last_name },
    { header: "Comment", value: (c) => c.comment_value },
    { header: "Status", value: (c) => c.status },
    { header: "Created", value: (c) => c.created_at },
    { header: "Updated", value: (c) => c.updated_at },
  ],
});

/** SPEC.md §2 "/skills/{skillId}": the skill and its statistics, or null when unknown. */
export async function getSkill(db: Database | Tx, skillId: string): Promise<SkillDetail | null> {
  const [row] = await queryRows<Record<string, unknown>>(
    db,
    sql`
    select s.*,
      (select count(*) from teams_skills ts where ts.skill_id = s.skill_id)::int as total_teams,
      (select count(*) from teams_skills ts where ts.skill_id = s.skill_id and ts.status = 'active')::int as active_assignments,
      (select count(*) from teams_skills ts where ts.skill_id = s.skill_id and ts.status = 'inactive')::int as inactive_assignments,
      (select count(*) from pedal_prompts p where p.skill_id = s.skill_id)::int as prompts,
      (select count(*) from skill_comments sm where sm.skill_id = s.skill_id)::int as comments
    from skills s where s.skill_id = ${skillId}`,
  );
  if (!row) return null;
  const { total_teams, active_assignments, inactive_assignments, prompts, comments, ...skill } = row;
  return {
    ...toJson(skill),
    stats: { total_teams, active_assignments, inactive_assignments, prompts, comments },
  } as SkillDetail;
}

/**
 * The skill picker (SPEC.md §2 prompt forms: "active skills"): pages of skills by name whose name
 * matches `q` (contains from 3 characters, else starts with), active ones only with `active=true`,
 * never the whole table; and one skill as an option (the current choice).
 */
export const skillPicker = tablePicker<SkillOption>({
  table: "skills",
  key: "skill_id",
  name: "skill_name",
  columns: ["skill_id", "skill_name", "status", "is_global"],
});

/** The skill row locked for update inside `tx`, or undefined. */
export async function lockSkill(tx: Tx, skillId: string) {
  const [row] = await tx.select().from(skills).where(eq(skills.skill_id, skillId)).for("update");
  return row;
}
