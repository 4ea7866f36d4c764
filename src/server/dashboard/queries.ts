import { signInsPerDay } from "../db/figures";
import { sql } from "drizzle-orm";
import { queryRows, type Database } from "../db/client";
import type { AnalyticsFigureData } from "../../domain/analytics";
import {
  dashboardActivityLimit,
  dashboardTrendDays,
  type DashboardActivityEntry,
  type DashboardAttention,
  type DashboardStats,
  type DashboardTrendRange,
  type DashboardTrends,
} from "../../domain/dashboard";
import type { Snapshots } from "../snapshots";

/**
 * SPEC.md §2 "/ Dashboard": the three totals and the active-users figure, in one statement over
 * the counters the database keeps by triggers (status_counts, migration 0007), exact and O(1) at
 * any size. Active users are those who have signed in at least once (`last_login` not null), as
 * the spec's §7 calls count them.
 */
export async function dashboardStats(db: Database): Promise<DashboardStats> {
  const [row] = await queryRows<Record<keyof DashboardStats, number>>(
    db,
    sql`
    select
      coalesce(sum(n) filter (where entity = 'customers'), 0)::int as total_customers,
      coalesce(sum(n) filter (where entity = 'users_data' and status <> 'signed_in'), 0)::int as total_users,
      coalesce(sum(n) filter (where entity = 'teams'), 0)::int as total_teams,
      coalesce(sum(n) filter (where entity = 'users_data' and status = 'signed_in'), 0)::int as active_users
    from status_counts
  `,
  );
  return {
    total_customers: Number(row.total_customers),
    total_users: Number(row.total_users),
    total_teams: Number(row.total_teams),
    active_users: Number(row.active_users),
  };
}

/** A timestamp as read by `queryRows` (a Date) in ISO 8601. */
const isoTime = (v: unknown) => (v instanceof Date ? v.toISOString() : new Date(String(v)).toISOString());

/** The joined counts of "Needs attention": each the condition of the list filter its link opens. */
const joinedCounts = {
  teams_without_skills: sql`select count(*) from teams t
    where t.status = 'active' and t.team_id in (select x.team_id from team_counts x where x.skills_count = 0)`,
  skills_without_prompts: sql`select count(*) from skills s
    where not exists (select 1 from pedal_prompts x where x.skill_id = s.skill_id)`,
  prompts_without_platforms: sql`select count(*) from pedal_prompts p
    where p.status = 'active' and not exists (select 1 from platform_prompts x where x.prompt_id = p.prompt_id)`,
};
type JoinedCount = keyof typeof joinedCounts;

/** The snapshot key of the joined counts, beside the analytics figures' own. */
const joinedKey = "dashboard:attention";

/** The statement of the joined counts (the benchmark explains it). */
export const joinedCountsStatement = () =>
  sql`select ${sql.join(
    Object.entries(joinedCounts).map(([k, q]) => sql`(${q})::int as ${sql.raw(k)}`),
    sql`, `,
  )}`;

/**
 * docs/dashboard.md "Needs attention". Live, in one statement: comments pending and users never
 * signed in (the maintained `status_counts`, O(1)), prompt changes pending (when `review` is on,
 * or while changes proposed before it was turned off still wait, else null, as the sidebar's
 * Reviews entry; `prompt_changes_pending_idx`), trial customers (`status_counts`) and the oldest one
 * by created_at (`customers_status_created_idx`). The three joined counts (active teams with no
 * active skill, skills with no prompt, active prompts with no platform) read 50,000 to 150,000 index
 * entries each at a million users (80–160 ms), so they come from a snapshot of the app's analytics
 * snapshots, at most ANALYTICS_REFRESH_SECONDS old and refreshed in the background; `as_of` says
 * when they ran. Each is the same condition as its link's list filter.
 */
export async function dashboardAttention(
  db: Database,
  review: boolean,
  snapshots: Snapshots<AnalyticsFigureData>,
): Promise<DashboardAttention> {
  const [row] = await queryRows<{
    pending_comments: number;
    pending_prompt_changes: number | null;
    trial_count: number;
    users_never_signed_in: number;
    oldest_id: string | null;
    oldest_name: string | null;
    oldest_created_at: Date | string | null;
  }>(
    db,
    sql`
    with counters as (
      select
        coalesce(sum(n) filter (where entity = 'skill_comments' and status = 'pending'), 0)::int as pending_comments,
        coalesce(sum(n) filter (where entity = 'customers' and status = 'trial'), 0)::int as trial_count,
        (coalesce(sum(n) filter (where entity = 'users_data' and status <> 'signed_in'), 0)
          - coalesce(sum(n) filter (where entity = 'users_data' and status = 'signed_in'), 0))::int as users_never_signed_in
      from status_counts where entity in ('skill_comments', 'customers', 'users_data')
    )
    select k.pending_comments, k.trial_count, k.users_never_signed_in,
      ${
        review
          ? sql`(select count(*) from prompt_changes where status = 'pending')::int`
          : sql`nullif((select count(*) from prompt_changes where status = 'pending')::int, 0)`
      } as pending_prompt_changes,
      o.customer_id as oldest_id, o.customer_name as oldest_name, o.created_at as oldest_created_at
    from counters k
    left join lateral (
      select c.customer_id, c.customer_name, c.created_at from customers c
      where c.status = 'trial' order by c.created_at, c.customer_id limit 1
    ) o on true
  `,
  );
  const { value: joined, at } = await snapshots.get(joinedKey, async () => {
    const [counts] = await queryRows<Record<JoinedCount, number>>(db, joinedCountsStatement());
    return {
      figure: "prompts-by-status" as const, // the snapshots' shape; `rows` carries the counts
      rows: Object.entries(counts).map(([label, n]) => ({ label, values: { n: Number(n) } })),
      as_of: new Date().toISOString(),
    };
  });
  const count = (k: JoinedCount) => Number(joined.rows.find((r) => r.label === k)?.values.n ?? 0);
  return {
    pending_comments: Number(row.pending_comments),
    pending_prompt_changes: row.pending_prompt_changes === null ? null : Number(row.pending_prompt_changes),
    trial_customers: {
      count: Number(row.trial_count),
      oldest:
        row.oldest_id === null
          ? null
          : {
              customer_id: row.oldest_id,
              customer_name: String(row.oldest_name),
              created_at: isoTime(row.oldest_created_at),
            },
    },
    teams_without_skills: count("teams_without_skills"),
    users_never_signed_in: Number(row.users_never_signed_in),
    skills_without_prompts: count("skills_without_prompts"),
    prompts_without_platforms: count("prompts_without_platforms"),
    as_of: at.toISOString(),
  };
}

/**
 * Users created per week (weeks as PostgreSQL's `date_trunc('week')`: from Monday, in the
 * session's time zone) from the week holding the first of the last `days` days to this week,
 * oldest first, every week present (0 when none): a range of `users_data_created_at_idx`.
 */
export const newUsersStatement = (days = Number(dashboardTrendDays)) => sql`
  select to_char(w.week, 'YYYY-MM-DD') as label, coalesce(n.users, 0)::int as users
  from generate_series(date_trunc('week', date_trunc('day', now()) - make_interval(days => ${days - 1})),
    date_trunc('week', now()), interval '1 week') as w(week)
  left join (
    select date_trunc('week', created_at) as week, count(*) as users from users_data
    where created_at >= date_trunc('week', date_trunc('day', now()) - make_interval(days => ${days - 1}))
    group by 1
  ) n on n.week = w.week
  order by w.week`;

/** The snapshot keys of the dashboard's trends over `days`, beside the analytics figures' own. */
const signInsKey = (days: number) => `dashboard:sign-ins:${days}`;
const newUsersKey = (days: number) => `dashboard:new-users:${days}`;

/**
 * docs/dashboard.md "Trends" over the last `range` days (7, 30 or 90): sign-ins per day
 * (`signInsPerDay` in src/server/db/figures.ts) and new users per week (`newUsersStatement`), each
 * range its own snapshot of the app's analytics snapshots: at most ANALYTICS_REFRESH_SECONDS old,
 * refreshed in the background.
 */
export async function dashboardTrends(
  db: Database,
  snapshots: Snapshots<AnalyticsFigureData>,
  range: DashboardTrendRange = dashboardTrendDays,
): Promise<DashboardTrends> {
  const days = Number(range);
  const { value: signIns, at: signInsAt } = await snapshots.get(signInsKey(days), async () => {
    const rows = await queryRows<{ label: string; users: number }>(db, signInsPerDay(days));
    return {
      figure: "sign-ins" as const,
      rows: rows.map((r) => ({ label: String(r.label), values: { users: Number(r.users) } })),
      as_of: new Date().toISOString(),
    };
  });
  // 75,000 index entries a month at a million users (about 100 ms under load): a snapshot too.
  const { value: weeks, at } = await snapshots.get(newUsersKey(days), async () => {
    const rows = await queryRows<{ label: string; users: number }>(db, newUsersStatement(days));
    return {
      figure: "sign-ins" as const, // the snapshots' shape; `rows` carries the weeks
      rows: rows.map((r) => ({ label: String(r.label), values: { users: Number(r.users) } })),
      as_of: new Date().toISOString(),
    };
  });
  return {
    days,
    sign_ins: {
      rows: signIns.rows.map((r) => ({ label: r.label, users: Number(r.values.users ?? 0) })),
      as_of: signInsAt.toISOString(),
    },
    new_users: {
      rows: weeks.rows.map((r) => ({ label: r.label, users: Number(r.values.users ?? 0) })),
      as_of: at.toISOString(),
    },
  };
}

/**
 * docs/dashboard.md "Recent activity": the last `dashboardActivityLimit` audit entries, newest
 * first; all of them for an admin (`operatorId` undefined), else that operator's own, as the audit
 * log (admin only) would list them. A seek on `audit_log_created_at_idx` or `audit_log_operator_idx`.
 */
export async function dashboardActivity(
  db: Database,
  operatorId: string | undefined,
): Promise<DashboardActivityEntry[]> {
  const rows = await queryRows<Omit<DashboardActivityEntry, "created_at"> & { created_at: Date | string }>(
    db,
    sql`
    select a.audit_id, a.operator_id, a.operator_email, a.action, a.entity, a.entity_id, a.created_at
    from audit_log a
    ${operatorId === undefined ? sql`` : sql`where a.operator_id = ${operatorId}`}
    order by a.created_at desc, a.audit_id desc
    limit ${dashboardActivityLimit}`,
  );
  return rows.map((r) => ({ ...r, created_at: isoTime(r.created_at) }));
}
