import { sql } from "drizzle-orm";
import type { ListParams } from "../../domain/common";
import type { TeamDetail, TeamPage, TeamSkill } from "../../domain/teams";
import { queryRows, type Database } from "../db/client";
import { and, likePattern, orderBy, searchAny, toJson } from "../http/list";

export type TeamListQuery = ListParams & { customer_id?: string; status?: string };

const sortExpr: Record<string, ReturnType<typeof sql>> = {
  team_name: sql`lower(t.team_name)`,
  customer_name: sql`lower(c.customer_name)`,
  user_count: sql`user_count`,
  skills_count: sql`skills_count`,
  status: sql`t.status`,
  created_at: sql`t.created_at`,
};

/** Team columns with customer_name, user_count and skills_count (active assignments), for alias `t`. */
const teamColumns = sql`t.team_id, t.customer_id, c.customer_name, t.team_name, t.status, t.created_at, t.updated_at,
  (select count(*) from teams_users tu where tu.team_id = t.team_id)::int as user_count,
  (select count(*) from teams_skills ts where ts.team_id = t.team_id and ts.status = 'active')::int as skills_count`;

/**
 * SPEC.md §2 "/teams": one page of teams with derived counts, `total` matching, and the cards
 * (total, active, inactive) computed on the filtered set (customer filter and search).
 * `q` matches team name, customer name and status.
 */
export async function listTeams(db: Database, query: TeamListQuery): Promise<TeamPage> {
  const where = and(
    query.customer_id ? sql`t.customer_id = ${query.customer_id}` : undefined,
    query.status ? sql`t.status = ${query.status}` : undefined,
    searchAny(query.q, [sql`t.team_name`, sql`coalesce(c.customer_name, '')`, sql`t.status`]),
  );
  const items = await queryRows<TeamPage["items"][number]>(db, sql`
    select ${teamColumns}
    from teams t left join customers c on c.customer_id = t.customer_id
    where ${where}
    ${orderBy(sortExpr[query.sort] ?? sortExpr.created_at, query.order, sql`t.team_id`)}
    limit ${query.limit} offset ${query.offset}`);
  const [summary] = await queryRows<TeamPage["summary"]>(db, sql`
    select count(*)::int as total,
      count(*) filter (where t.status = 'active')::int as active,
      count(*) filter (where t.status = 'inactive')::int as inactive
    from teams t left join customers c on c.customer_id = t.customer_id
    where ${where}`);
  return { items: toJson(items), total: summary.total, summary };
}

/** SPEC.md §2 "/teams/{teamId}": the team with its customer's name and cards, or null. */
export async function getTeam(db: Database, teamId: string): Promise<TeamDetail | null> {
  const [row] = await queryRows<TeamPage["items"][number] & { active_users: number }>(db, sql`
    select ${teamColumns},
      (select count(*) from teams_users tu join users_data u on u.user_id = tu.user_id
        where tu.team_id = t.team_id and u.status = 'active')::int as active_users
    from teams t left join customers c on c.customer_id = t.customer_id
    where t.team_id = ${teamId}`);
  if (!row) return null;
  const { active_users, ...team } = row;
  return { ...toJson(team), stats: { total_users: team.user_count, active_users } } as TeamDetail;
}

/** The team's active skill assignments joined to the skills, by skill name (SPEC.md §4: only active ones count). */
export async function teamSkills(db: Database, teamId: string, limit: number, offset: number): Promise<{ items: TeamSkill[]; total: number }> {
  const items = await queryRows<TeamSkill>(db, sql`
    select s.skill_id, s.skill_name, s.skill_description, s.type, s.is_global, ts.status, ts.assigned_at, ts.score, ts.last_used
    from teams_skills ts join skills s on s.skill_id = ts.skill_id
    where ts.team_id = ${teamId} and ts.status = 'active'
    order by lower(s.skill_name), s.skill_id
    limit ${limit} offset ${offset}`);
  const [count] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from teams_skills where team_id = ${teamId} and status = 'active'`);
  return { items: toJson(items), total: count.n };
}

/** Skills the team can be given: active and not actively assigned to it, by name; `q` matches name and description. */
export async function assignableSkills(db: Database, teamId: string, q: string | undefined, limit: number, offset: number) {
  const where = sql`s.status = 'active'
    and not exists (select 1 from teams_skills ts where ts.team_id = ${teamId} and ts.skill_id = s.skill_id and ts.status = 'active')
    ${q ? sql`and (s.skill_name ilike ${likePattern(q)} or coalesce(s.skill_description, '') ilike ${likePattern(q)})` : sql``}`;
  const items = await queryRows<{ skill_id: string; skill_name: string; skill_description: string | null; type: TeamSkill["type"]; is_global: boolean }>(db, sql`
    select s.skill_id, s.skill_name, s.skill_description, s.type, s.is_global from skills s
    where ${where} order by lower(s.skill_name), s.skill_id limit ${limit} offset ${offset}`);
  const [count] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from skills s where ${where}`);
  return { items, total: count.n };
}
