import { sql } from "drizzle-orm";
import { z } from "@hono/zod-openapi";
import { membershipSortKeys, teamStatuses, userSortKeys, userStatuses } from "../../domain/enums";
import { noSummary } from "../../domain/common";
import { limits } from "../../domain/messages";
import {
  userListItemSchema,
  userMembershipSchema,
  userSummarySchema,
  type AvailableTeam,
  type UserDetail,
  type UserListItem,
} from "../../domain/users";
import { queryRows, type Database } from "../db/client";
import { userFullName } from "../db/schema";
import { likePattern, toJson } from "../http/list";
import { offsetPage } from "../http/offset-page";
import {
  allOf,
  anyOf,
  anyValue,
  customerNamed,
  dayRange,
  defineList,
  idFilter,
  joinedNameSort,
  matchingValues,
  statusFilter,
  userNameKey,
  type SortKey,
} from "../http/lists";
import { asText } from "../../domain/text";

/** Roles of `u.user_id` as an array ordered admin, manager, member (evaluated for the page's rows only). */
const rolesOf = sql`coalesce((select array_agg(r.role order by array_position(array['admin','manager','member'], r.role))
  from users_roles r where r.user_id = u.user_id), '{}')`;

/**
 * Whether the customer's directory provisioned `u.user_id` (docs/onboarding.md): one probe of
 * directory_users' primary key per row of the page. A scalar subquery rather than `exists`, which
 * the planner may turn into a hashed subplan reading the whole table.
 */
const directoryManaged = sql`coalesce((select true from directory_users d where d.user_id = u.user_id), false)`;

/** A login within the last 24 hours of the row `alias` (counted from `users_data_last_login_at_idx` alone). */
const recentLogin = (alias = sql`u`) =>
  sql`${alias}.last_login >= now() - make_interval(hours => ${limits.recentLoginHours})`;

/** The day filters of /users: the dashboard's trend points open them (docs/dashboard.md "Trends"). */
const userDayFilters = {
  ...dayRange({ from: "last_login_from", to: "last_login_to" }, sql`u.last_login`, { label: "last_login" }),
  ...dayRange({ from: "created_from", to: "created_to" }, sql`u.created_at`, { label: "created" }),
};

/**
 * SPEC.md §2 "/users" (and the users of a customer or a team): users with their customer's name
 * and roles; `q` matches full name, email, job title, customer name and status; filters
 * customer_id, team_id, status, signed_in, and whole days of last sign-in or creation
 * (`last_login_from`/`_to`, `created_from`/`_to`). Cards (Total, Active, Inactive, Recent Logins
 * (24h)) over the filters and the search: from the maintained counters plus one indexed count when
 * only status and signed_in narrow the list, else counted over the matches (bounded like every
 * count, reused for a few seconds on big lists).
 */
export const userList = defineList({
  name: "users",
  item: userListItemSchema,
  summarySchema: userSummarySchema,
  from: sql`users_data u join customers c on c.customer_id = u.customer_id`,
  // Every user has one customer (NOT NULL foreign key): counts and searches need users_data alone.
  base: { from: sql`users_data u`, sorts: ["name", "email", "job_title", "status", "last_login", "created_at"] },
  select: sql`u.user_id, u.customer_id, c.customer_name, u.email, u.first_name, u.last_name, u.job_title, u.status,
    u.last_login, u.created_at, u.updated_at, ${rolesOf} as roles, ${directoryManaged} as directory_managed`,
  id: { expr: sql`u.user_id`, type: "uuid" },
  sorts: {
    name: [userNameKey],
    email: [{ expr: sql`lower(u.email)`, type: "text" }],
    // Walks customers by name (their index), then each customer's users.
    customer_name: joinedNameSort(sql`c.customer_name`, sql`c.customer_id`),
    job_title: [{ expr: sql`lower(coalesce(u.job_title, ''))`, type: "text" }],
    status: [{ expr: sql`u.status`, type: "text" }],
    // Never signed in sorts as the oldest login.
    last_login: [{ expr: sql`coalesce(u.last_login, '-infinity'::timestamptz)`, type: "timestamptz" }],
    created_at: [{ expr: sql`u.created_at`, type: "timestamptz" }],
  } satisfies Record<(typeof userSortKeys)[number], SortKey[]>,
  defaultSort: "created_at",
  defaultOrder: "desc",
  filters: {
    customer_id: idFilter(sql`u.customer_id`),
    team_id: {
      schema: z.guid().optional(),
      where: (v: string) =>
        sql`exists (select 1 from teams_users tu where tu.team_id = ${v} and tu.user_id = u.user_id)`,
    },
    status: statusFilter(userStatuses, sql`u.status`),
    // The dashboard's Active Users card opens /users?signed_in=true: "true" keeps the users who
    // have signed in at least once, "false" those who never have (users_data_last_login_at_idx).
    signed_in: {
      schema: z.enum(["true", "false"]).optional(),
      where: (v: "true" | "false") => (v === "true" ? sql`u.last_login is not null` : sql`u.last_login is null`),
    },
    ...userDayFilters,
  },
  // Each branch has its own index (pg_trgm on name, email, job title; customers by name), so the
  // planner can OR their bitmaps instead of scanning the table.
  search: (m) =>
    anyOf([
      sql`${userFullName("u")} ilike ${m.pattern} or u.email ilike ${m.pattern} or u.job_title ilike ${m.pattern}`,
      customerNamed(sql`u.customer_id`, m),
      anyValue(sql`u.status`, matchingValues(userStatuses, m)),
    ]),
  summaryCounts: "matches",
  summary: ({ filters, q, matching, filterWhere }) =>
    q || filters.customer_id || filters.team_id || Object.keys(userDayFilters).some((k) => filters[k as never])
      ? sql`select count(*)::int as total,
          count(*) filter (where m.status = 'active')::int as active,
          count(*) filter (where m.status = 'inactive')::int as inactive,
          count(*) filter (where ${recentLogin(sql`m`)})::int as recent_logins
        from ${matching(sql`u.status, u.last_login`)}`
      : sql`select coalesce(sum(n) filter (where ${filters.status ? sql`status = ${String(filters.status)}` : sql`status <> 'signed_in'`}), 0)::int as total,
          coalesce(sum(n) filter (where status = 'active' and 'active' = any(${statusArray(filters.status)})), 0)::int as active,
          coalesce(sum(n) filter (where status = 'inactive' and 'inactive' = any(${statusArray(filters.status)})), 0)::int as inactive,
          (select count(*) from users_data u where ${recentLogin()} and ${filterWhere})::int as recent_logins
        from (${statusCountRows(filters.signed_in)}) sc`,
  totalFromSummary: () => (s) => s.total,
  cacheSummary: true,
  csv: [
    { header: "User ID", value: (u) => u.user_id },
    { header: "Email", value: (u) => u.email },
    { header: "First Name", value: (u) => u.first_name },
    { header: "Last Name", value: (u) => u.last_name },
    { header: "Customer", value: (u) => u.customer_name },
    { header: "Roles", value: (u) => u.roles },
    { header: "Job Title", value: (u) => u.job_title },
    { header: "Status", value: (u) => u.status },
    { header: "Last Login", value: (u) => u.last_login },
    { header: "Created", value: (u) => u.created_at },
  ],
});

/**
 * Users per status from the maintained counters (migration 0008): all of them, those who have
 * signed in at least once (`signed_in` "true"), or the others (all minus those).
 */
const statusCountRows = (signedIn: unknown) =>
  signedIn === "true"
    ? sql`select status, n from status_counts where entity = 'users_signed_in'`
    : signedIn === "false"
      ? sql`select status, n from status_counts where entity = 'users_data'
          union all select status, -n from status_counts where entity = 'users_signed_in'`
      : sql`select status, n from status_counts where entity = 'users_data'`;

/** The statuses a status filter keeps (all of them without one), as a text[] literal. */
const statusArray = (status: unknown) =>
  sql`${sql`array[${sql.join(
    (status ? [asText(status)] : [...userStatuses]).map((s) => sql`${s}`),
    sql`, `,
  )}]::text[]`}`;

/** The user's columns of the list and detail, with customer name, roles and directory_managed, for alias `u` and its customer `c`. */
const userColumns = sql`u.user_id, u.customer_id, c.customer_name, u.email, u.first_name, u.last_name, u.job_title, u.status,
  u.last_login, u.created_at, u.updated_at, ${rolesOf} as roles, ${directoryManaged} as directory_managed`;

/**
 * SPEC.md §2 "/users/{userId}": the user with its customer's name, its roles and its cards
 * (Total Teams, Active Teams: memberships, and memberships of active teams), or null when unknown.
 */
export async function getUser(db: Database, userId: string): Promise<UserDetail | null> {
  const [row] = await queryRows<UserListItem & { total_teams: number; active_teams: number }>(
    db,
    sql`
    select ${userColumns},
      (select count(*) from teams_users tu where tu.user_id = u.user_id)::int as total_teams,
      (select count(*) from teams_users tu join teams t on t.team_id = tu.team_id
        where tu.user_id = u.user_id and t.status = 'active')::int as active_teams
    from users_data u left join customers c on c.customer_id = u.customer_id
    where u.user_id = ${userId}`,
  );
  if (!row) return null;
  const { total_teams, active_teams, ...user } = row;
  return { ...toJson(user), stats: { total_teams, active_teams } };
}

/** One user, as a list item, read inside a transaction or not (for mutation answers). */
export async function getUserItem(db: Database, userId: string): Promise<UserListItem | null> {
  const [row] = await queryRows<UserListItem>(
    db,
    sql`
    select ${userColumns} from users_data u left join customers c on c.customer_id = u.customer_id
    where u.user_id = ${userId}`,
  );
  return row ? toJson(row) : null;
}

/**
 * SPEC.md §2 "/users/{userId}" Team Memberships: the user's `teams_users` rows joined to the team
 * and its customer's name, with each team's member count; `q` matches team name, customer name
 * and team status. Scoped to one user by the route (`tu.user_id`).
 */
export const membershipList = defineList({
  name: "user_teams",
  item: userMembershipSchema,
  summarySchema: noSummary,
  from: sql`teams_users tu join teams t on t.team_id = tu.team_id join customers c on c.customer_id = t.customer_id join team_counts tc on tc.team_id = t.team_id`,
  select: sql`t.team_id, t.team_name, t.status, t.customer_id, c.customer_name, t.created_at, tc.user_count`,
  id: { expr: sql`t.team_id`, type: "uuid" },
  sorts: {
    team_name: [{ expr: sql`lower(t.team_name)`, type: "text" }],
    customer_name: [{ expr: sql`lower(c.customer_name)`, type: "text" }],
    status: [{ expr: sql`t.status`, type: "text" }],
    user_count: [{ expr: sql`tc.user_count`, type: "int" }],
    created_at: [{ expr: sql`t.created_at`, type: "timestamptz" }],
  } satisfies Record<(typeof membershipSortKeys)[number], SortKey[]>,
  defaultSort: "team_name",
  defaultOrder: "asc",
  filters: {},
  search: (m) =>
    sql`t.team_name ilike ${m.pattern} or c.customer_name ilike ${m.pattern} or ${anyValue(sql`t.status`, matchingValues(teamStatuses, m))}`,
  csv: [
    { header: "Team ID", value: (m) => m.team_id },
    { header: "Team Name", value: (m) => m.team_name },
    { header: "Customer", value: (m) => m.customer_name },
    { header: "Status", value: (m) => m.status },
    { header: "Members", value: (m) => m.user_count },
    { header: "Created", value: (m) => m.created_at },
  ],
});

/**
 * SPEC.md §2 "/users/{userId}" Add Team modal: the active teams of the user's customer that the
 * user is not in, by name, with their member counts; `q` matches the team name.
 */
export async function availableTeams(
  db: Database,
  user: { user_id: string; customer_id: string },
  q: string | undefined,
  limit: number,
  offset: number,
): Promise<{ items: AvailableTeam[]; total: number }> {
  const where = allOf([
    sql`t.customer_id = ${user.customer_id}`,
    sql`t.status = 'active'`,
    sql`not exists (select 1 from teams_users tu where tu.team_id = t.team_id and tu.user_id = ${user.user_id})`,
    q ? sql`t.team_name ilike ${likePattern(q)}` : undefined,
  ]);
  return offsetPage<AvailableTeam>(
    db,
    {
      rows: sql`
    select t.team_id, t.team_name, t.created_at,
      (select count(*) from teams_users m where m.team_id = t.team_id)::int as user_count
    from teams t where ${where}
    order by lower(t.team_name), t.team_id`,
      count: sql`select count(*)::int as n from teams t where ${where}`,
    },
    limit,
    offset,
  );
}
