import { sql } from "drizzle-orm";
import type { UserPage } from "../../domain/users";
import { queryRows, type Database } from "../db/client";
import { and, orderBy, searchAny, toJson } from "../http/list";

export type UserListQuery = {
  q?: string;
  sort: string;
  order: "asc" | "desc";
  limit: number;
  offset: number;
  customer_id?: string;
  team_id?: string;
  status?: string;
};

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
 * Inactive, Recent Logins in the last 24 h) over the customer/team filter. `q` matches full name,
 * email, job title, customer name and status, case-insensitively.
 */
export async function listUsers(db: Database, query: UserListQuery): Promise<UserPage> {
  const filter = and(
    query.customer_id ? sql`u.customer_id = ${query.customer_id}` : undefined,
    query.team_id ? sql`exists (select 1 from teams_users tu where tu.team_id = ${query.team_id} and tu.user_id = u.user_id)` : undefined,
    query.status ? sql`u.status = ${query.status}` : undefined,
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
