import { z } from "@hono/zod-openapi";
import { sql } from "drizzle-orm";
import { teamSortKeys, teamStatuses } from "../../domain/enums";
import { noSummary } from "../../domain/common";
import {
  availableUserSchema,
  assignableSkillSchema,
  teamListItemSchema,
  teamSummarySchema,
  type TeamDetail,
  type TeamListItem,
  type TeamSkill,
} from "../../domain/teams";
import { queryRows, type Database } from "../db/client";
import { userFullName } from "../db/schema";
import { toJson } from "../http/list";
import { offsetPage } from "../http/offset-page";
import {
  anyOf,
  anyValue,
  counterSort,
  customerNamed,
  defineList,
  idFilter,
  joinedNameSort,
  matchingValues,
  statusCardsSql,
  statusFilter,
  userNameKey,
  type SortKey,
} from "../http/lists";

/**
 * Whether the customer's directory provisioned `t.team_id` as a group (docs/onboarding.md): one
 * probe of directory_groups' primary key per row of the page (a scalar subquery, never a hashed
 * subplan reading the whole table).
 */
const directoryManaged = sql`coalesce((select true from directory_groups g where g.team_id = t.team_id), false)`;

/**
 * SPEC.md §2 "/teams" (and a customer's teams): teams with customer_name, user_count and
 * skills_count (maintained in team_counts), and directory_managed; `q` matches team name, customer name and status;
 * filters customer_id and status. Cards (total, active, inactive) over the filtered set: from the
 * maintained counters when nothing narrows the list, else counted on the matching rows (bounded,
 * then scaled to the planner's estimate and marked as such).
 */
export const teamList = defineList({
  name: "teams",
  item: teamListItemSchema,
  summarySchema: teamSummarySchema,
  from: sql`teams t join customers c on c.customer_id = t.customer_id join team_counts tc on tc.team_id = t.team_id`,
  // Every team has one customer and one counters row: counts and searches need teams alone.
  base: { from: sql`teams t`, sorts: ["team_name", "status", "created_at"] },
  select: sql`t.team_id, t.customer_id, c.customer_name, t.team_name, t.status, t.created_at, t.updated_at, tc.user_count, tc.skills_count,
    ${directoryManaged} as directory_managed`,
  id: { expr: sql`t.team_id`, type: "uuid" },
  sorts: {
    team_name: [{ expr: sql`lower(t.team_name)`, type: "text" }],
    // Walks customers by name (their index), then each customer's teams.
    customer_name: joinedNameSort(sql`c.customer_name`, sql`c.customer_id`),
    user_count: counterSort(sql`tc.user_count`, sql`tc.team_id`),
    skills_count: counterSort(sql`tc.skills_count`, sql`tc.team_id`),
    status: [{ expr: sql`t.status`, type: "text" }],
    created_at: [{ expr: sql`t.created_at`, type: "timestamptz" }],
  } satisfies Record<(typeof teamSortKeys)[number], SortKey[]>,
  defaultSort: "created_at",
  defaultOrder: "desc",
  filters: {
    customer_id: idFilter(sql`t.customer_id`),
    status: statusFilter(teamStatuses, sql`t.status`),
    // `skills=none`: teams with no active skill assignment (docs/dashboard.md "Needs attention"),
    // read from the maintained counter through team_counts_skills_count_idx, not by counting
    // teams_skills per team.
    skills: {
      schema: z.enum(["none"]).optional(),
      where: () => sql`t.team_id in (select x.team_id from team_counts x where x.skills_count = 0)`,
    },
  },
  search: (m) =>
    anyOf([
      sql`t.team_name ilike ${m.pattern}`,
      customerNamed(sql`t.customer_id`, m),
      anyValue(sql`t.status`, matchingValues(teamStatuses, m)),
    ]),
  summaryCounts: "matches",
  summary: ({ filters, q, matching }) =>
    !q && !filters.customer_id && !filters.skills
      ? statusCardsSql("teams", ["active", "inactive"], filters.status)
      : sql`select count(*)::int as total,
          count(*) filter (where m.status = 'active')::int as active,
          count(*) filter (where m.status = 'inactive')::int as inactive
        from ${matching(sql`t.status`)}`,
  totalFromSummary: () => (s) => s.total,
  // Unfiltered cards are counters; a search's or customer's counted cards are reused like a big list's.
  cacheSummary: "counted",
  csv: [
    { header: "Team ID", value: (t) => t.team_id },
    { header: "Team Name", value: (t) => t.team_name },
    { header: "Customer ID", value: (t) => t.customer_id },
    { header: "Customer", value: (t) => t.customer_name },
    { header: "Users", value: (t) => t.user_count },
    { header: "Skills", value: (t) => t.skills_count },
    { header: "Status", value: (t) => t.status },
    { header: "Created", value: (t) => t.created_at },
  ],
});

/** SPEC.md §2 "/teams/{teamId}": the team with its customer's name and cards, or null. */
export async function getTeam(db: Database, teamId: string): Promise<TeamDetail | null> {
  const [row] = await queryRows<TeamListItem & { active_users: number }>(
    db,
    sql`
    select t.team_id, t.customer_id, c.customer_name, t.team_name, t.status, t.created_at, t.updated_at,
      ${directoryManaged} as directory_managed,
      (select count(*) from teams_users tu where tu.team_id = t.team_id)::int as user_count,
      (select count(*) from teams_skills ts where ts.team_id = t.team_id and ts.status = 'active')::int as skills_count,
      (select count(*) from teams_users tu join users_data u on u.user_id = tu.user_id
        where tu.team_id = t.team_id and u.status = 'active')::int as active_users
    from teams t left join customers c on c.customer_id = t.customer_id
    where t.team_id = ${teamId}`,
  );
  if (!row) return null;
  const { active_users, ...team } = row;
  return { ...toJson(team), stats: { total_users: team.user_count, active_users } };
}

/** The team's active skill assignments joined to the skills, by skill name (SPEC.md §4: only active ones count). */
export async function teamSkills(
  db: Database,
  teamId: string,
  limit: number,
  offset: number,
): Promise<{ items: TeamSkill[]; total: number }> {
  return offsetPage<TeamSkill>(
    db,
    {
      rows: sql`
    select s.skill_id, s.skill_name, s.skill_description, s.type, s.is_global, ts.status, ts.assigned_at, ts.score, ts.last_used
    from teams_skills ts join skills s on s.skill_id = ts.skill_id
    where ts.team_id = ${teamId} and ts.status = 'active'
    order by lower(s.skill_name), s.skill_id`,
      count: sql`select count(*)::int as n from teams_skills where team_id = ${teamId} and status = 'active'`,
    },
    limit,
    offset,
  );
}

/**
 * SPEC.md §2 "/teams/{teamId}" modal "Assign Skill to Team": the skills the team can be given, by
 * name; `q` matches name and description. Scoped to one team by `assignableSkillScope`. Keyset
 * pages walk skills_active_name_lower_idx (migration 0009), so a deep page costs what the first does.
 */
export const assignableSkillList = defineList({
  name: "team_assignable_skills",
  item: assignableSkillSchema,
  summarySchema: noSummary,
  from: sql`skills s`,
  select: sql`s.skill_id, s.skill_name, s.skill_description, s.type, s.is_global`,
  id: { expr: sql`s.skill_id`, type: "uuid" },
  sorts: { skill_name: [{ expr: sql`lower(s.skill_name)`, type: "text" }] },
  defaultSort: "skill_name",
  defaultOrder: "asc",
  filters: {},
  // A null description matches no pattern: no coalesce, so skills_description_trgm serves it.
  search: (m) => sql`s.skill_name ilike ${m.pattern} or s.skill_description ilike ${m.pattern}`,
  // A picker over tens of thousands of rows: its total is reused like a big list's (10 s).
  cacheSummary: true,
  csv: [
    { header: "Skill ID", value: (s) => s.skill_id },
    { header: "Skill", value: (s) => s.skill_name },
    { header: "Type", value: (s) => s.type },
    { header: "Global", value: (s) => s.is_global },
  ],
});

/** The condition of `assignableSkillList` for one team: active skills not actively assigned to it. */
export const assignableSkillScope = (teamId: string) =>
  sql`s.status = 'active' and not exists (select 1 from teams_skills ts where ts.team_id = ${teamId} and ts.skill_id = s.skill_id and ts.status = 'active')`;

/**
 * The team page's Add Member modal: the users the team can take, by name (full name, else e-mail);
 * `q` matches full name, e-mail and job title (their trigram indexes). Scoped to one team by
 * `availableUserScope`: the active users of the team's customer who are not members yet, walked
 * on the customer's users (users_data_customer_idx), so a page costs what the customer's size does.
 */
export const availableUserList = defineList({
  name: "team_available_users",
  item: availableUserSchema,
  summarySchema: noSummary,
  from: sql`users_data u`,
  select: sql`u.user_id, u.email, u.first_name, u.last_name, u.job_title`,
  id: { expr: sql`u.user_id`, type: "uuid" },
  sorts: {
    name: [userNameKey],
  },
  defaultSort: "name",
  defaultOrder: "asc",
  filters: {},
  search: (m) =>
    sql`${userFullName("u")} ilike ${m.pattern} or u.email ilike ${m.pattern} or u.job_title ilike ${m.pattern}`,
  csv: [
    { header: "User ID", value: (u) => u.user_id },
    { header: "Email", value: (u) => u.email },
    { header: "First Name", value: (u) => u.first_name },
    { header: "Last Name", value: (u) => u.last_name },
    { header: "Job Title", value: (u) => u.job_title },
  ],
});

/** The condition of `availableUserList` for one team: active users of its customer, not members. */
export const availableUserScope = (teamId: string) =>
  sql`u.customer_id = (select t.customer_id from teams t where t.team_id = ${teamId}) and u.status = 'active'
    and not exists (select 1 from teams_users tu where tu.team_id = ${teamId} and tu.user_id = u.user_id)`;
