import { sql } from "drizzle-orm";
import type { ListParams } from "../../domain/common";
import type { AvailableTeam, UserDetail, UserListItem, UserMembership, UserPage } from "../../domain/users";
import { queryRows, type Database } from "../db/client";
import { and, orderBy, searchAny, toJson } from "../http/list";

export type UserListQuery = ListParams & { customer_id?: string; team_id?: string; status?: string; signed_in?: "true" | "false" };

const displayName = sql`coalesce(nullif(trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')), ''), u.email)`;

const sortExpr: Record<string, ReturnType<typeof sql>> = {
  name: sql`lower(${displayName})`,
  email: sql`lower(u.email)`,
  customer_name: sql`lower(c.customer_name)`,
  job_title: sql`lower(u.job_title)`,
  status: sql`u.status`,
  last_login: sql`u.last_login`,
  created_at: sql`u.created_at`,
};

/** Roles of `u.user_id` as an array ordered admin, manager, member (evaluated in the same statement). */
const rolesOf = sql`coalesce((select array_agg(r.role order by array_position(array['admin','manager','member'], r.role))
  from users_roles r where r.user_id = u.user_id), '{}')`;

/**
 * SPEC.md §2 "/users" (and the user tables of a customer or a team): one page of users with their
 * customer's name and roles, in one statement; `total` matching; summary cards (Total, Active,
 * Inactive, Recent Logins in the last 24 h) over the customer/team/status/signed-in filter. `signed_in`
 * "true" keeps users who have signed in at least once (last_login set), "false" those who never did. `q` matches full name,
 * email, job title, customer name and status, case-insensitively.
 */
export async function listUsers(db: Database, query: UserListQuery): Promise<UserPage> {
  const filter = and(
    query.customer_id ? sql`u.customer_id = ${query.customer_id}` : undefined,
    query.team_id ? sql`exists (select 1 from teams_users tu where tu.team_id = ${query.team_id} and tu.user_id = u.user_id)` : undefined,
    query.status ? sql`u.status = ${query.status}` : undefined,
    // The dashboard's Active Users card opens the users who have signed in at least once (users_data_last_login_idx).
    query.signed_in === "true" ? sql`u.last_login is not null` : query.signed_in === "false" ? sql`u.last_login is null` : undefined,
  );
  const search = searchAny(query.q, [
    sql`(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, ''))`, sql`u.email`, sql`coalesce(u.job_title, '')`,
    sql`coalesce(c.customer_name, '')`, sql`u.status`,
  ]);
  const items = await queryRows<UserPage["items"][number]>(db, sql`
    select u.user_id, u.customer_id, c.customer_name, u.email, u.first_name, u.last_name, u.job_title, u.status,
      u.last_login, u.created_at, u.updated_at, ${rolesOf} as roles
    from users_data u left join customers c on c.customer_id = u.customer_id
    where ${filter} and ${search}
    ${orderBy(sortExpr[query.sort] ?? sortExpr.created_at, query.order, sql`u.user_id`)}
    limit ${query.limit} offset ${query.offset}`);
  const [counts] = await queryRows<{ total: number } & UserPage["summary"]>(db, sql`
    select count(*) filter (where ${search})::int as total,
      count(*)::int as all_users,
      count(*) filter (where u.status = 'active')::int as active,
      count(*) filter (where u.status = 'inactive')::int as inactive,
      count(*) filter (where u.last_login >= now() - interval '24 hours')::int as recent_logins
    from users_data u left join customers c on c.customer_id = u.customer_id
    where ${filter}`);
  const c = counts as unknown as { total: number; all_users: number; active: number; inactive: number; recent_logins: number };
  return {
    items: toJson(items),
    total: c.total,
    summary: { total: c.all_users, active: c.active, inactive: c.inactive, recent_logins: c.recent_logins },
  };
}

/** The user's columns of the list and detail, with customer name and roles, for alias `u` and its customer `c`. */
const userColumns = sql`u.user_id, u.customer_id, c.customer_name, u.email, u.first_name, u.last_name, u.job_title, u.status,
  u.last_login, u.created_at, u.updated_at, ${rolesOf} as roles`;

/**
 * SPEC.md §2 "/users/{userId}": the user with its customer's name, its roles and its cards
 * (Total Teams, Active Teams: memberships, and memberships of active teams), or null when unknown.
 */
export async function getUser(db: Database, userId: string): Promise<UserDetail | null> {
  const [row] = await queryRows<UserListItem & { total_teams: number; active_teams: number }>(db, sql`
    select ${userColumns},
      (select count(*) from teams_users tu where tu.user_id = u.user_id)::int as total_teams,
      (select count(*) from teams_users tu join teams t on t.team_id = tu.team_id
        where tu.user_id = u.user_id and t.status = 'active')::int as active_teams
    from users_data u left join customers c on c.customer_id = u.customer_id
    where u.user_id = ${userId}`);
  if (!row) return null;
  const { total_teams, active_teams, ...user } = row;
  return { ...toJson(user), stats: { total_teams, active_teams } } as UserDetail;
}

/** One user, as a list item, read inside a transaction or not (for mutation answers). */
export async function getUserItem(db: Database, userId: string): Promise<UserListItem | null> {
  const [row] = await queryRows<UserListItem>(db, sql`
    select ${userColumns} from users_data u left join customers c on c.customer_id = u.customer_id
    where u.user_id = ${userId}`);
  return row ? (toJson(row) as UserListItem) : null;
}

export type MembershipQuery = ListParams;

const membershipSort: Record<string, ReturnType<typeof sql>> = {
  team_name: sql`lower(t.team_name)`,
  customer_name: sql`lower(c.customer_name)`,
  status: sql`t.status`,
  user_count: sql`user_count`,
  created_at: sql`t.created_at`,
};

/**
 * SPEC.md §2 "/users/{userId}" Team Memberships: one page of the user's `teams_users` rows joined
 * to the team and its customer's name, with each team's member count, and the number matching.
 * `q` matches team name, customer name and team status, case-insensitively.
 */
export async function userMemberships(db: Database, userId: string, query: MembershipQuery): Promise<{ items: UserMembership[]; total: number }> {
  const where = and(
    sql`tu.user_id = ${userId}`,
    searchAny(query.q, [sql`t.team_name`, sql`coalesce(c.customer_name, '')`, sql`t.status`]),
  );
  const items = await queryRows<UserMembership>(db, sql`
    select t.team_id, t.team_name, t.status, t.customer_id, c.customer_name, t.created_at,
      (select count(*) from teams_users m where m.team_id = t.team_id)::int as user_count
    from teams_users tu join teams t on t.team_id = tu.team_id left join customers c on c.customer_id = t.customer_id
    where ${where}
    ${orderBy(membershipSort[query.sort] ?? membershipSort.team_name, query.order, sql`t.team_id`)}
    limit ${query.limit} offset ${query.offset}`);
  const [count] = await queryRows<{ n: number }>(db, sql`
    select count(*)::int as n
    from teams_users tu join teams t on t.team_id = tu.team_id left join customers c on c.customer_id = t.customer_id
    where ${where}`);
  return { items: toJson(items), total: count.n };
}

/**
 * SPEC.md §2 "/users/{userId}" Add Team modal: the active teams of the user's customer that the
 * user is not in, by name, with their member counts; `q` matches the team name.
 */
export async function availableTeams(db: Database, user: { user_id: string; customer_id: string }, q: string | undefined, limit: number, offset: number): Promise<{ items: AvailableTeam[]; total: number }> {
  const where = and(
    sql`t.customer_id = ${user.customer_id}`,
    sql`t.status = 'active'`,
    sql`not exists (select 1 from teams_users tu where tu.team_id = t.team_id and tu.user_id = ${user.user_id})`,
    searchAny(q, [sql`t.team_name`]),
  );
  const items = await queryRows<AvailableTeam>(db, sql`
    select t.team_id, t.team_name, t.created_at,
      (select count(*) from teams_users m where m.team_id = t.team_id)::int as user_count
    from teams t where ${where}
    order by lower(t.team_name), t.team_id
    limit ${limit} offset ${offset}`);
  const [count] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from teams t where ${where}`);
  return { items: toJson(items), total: count.n };
}
