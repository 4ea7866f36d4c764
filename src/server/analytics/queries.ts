import { sql, type SQL } from "drizzle-orm";
import type { AnalyticsFigure, AnalyticsFigureData } from "../../domain/analytics";
import { commentStatuses, customerStatuses, promptStatuses, skillTypes } from "../../domain/enums";
import { queryRows, type Database } from "../db/client";

type Row = { label: string } & Record<string, number | string | null>;

/**
 * The SQL aggregate of each figure (one statement each), returning a `label` column and one
 * numeric column per series. Each reads an index or a maintained counter:
 * - customers by status: `status_counts` (kept by triggers), O(1);
 * - sign-ins: `users_data_last_login_at_idx` range over the last `days` days, one row per day;
 * - top skills: active rows of `teams_skills` through `teams_skills_skill_idx` (skill_id, status);
 * - score by type: the scored assignments, grouped by the skill's type;
 * - comments per week: `skill_comments_created_at_idx` range over the last 12 weeks;
 * - prompts by status: `pedal_prompts_status_idx`.
 */
const statements: Record<AnalyticsFigure, (days: number) => SQL> = {
  "customers-by-status": () => sql`
    select s.status as label, coalesce(sc.n, 0)::int as customers
    from unnest(${sql.raw(`array[${customerStatuses.map((s) => `'${s}'`).join(", ")}]`)}::text[]) with ordinality as s(status, i)
    left join status_counts sc on sc.entity = 'customers' and sc.status = s.status
    order by s.i`,
  "sign-ins": (days) => sql`
    select to_char(d.day, 'YYYY-MM-DD') as label, coalesce(n.users, 0)::int as users
    from generate_series(date_trunc('day', now()) - make_interval(days => ${days - 1}), date_trunc('day', now()), interval '1 day') as d(day)
    left join (
      select date_trunc('day', last_login) as day, count(*) as users from users_data
      where last_login >= date_trunc('day', now()) - make_interval(days => ${days - 1})
      group by 1
    ) n on n.day = d.day
    order by d.day`,
  "top-skills": () => sql`
    select s.skill_name as label, t.assignments::int as assignments
    from (select skill_id, count(*) as assignments from teams_skills where status = 'active' group by skill_id order by count(*) desc, skill_id limit 10) t
    join skills s on s.skill_id = t.skill_id
    order by t.assignments desc, s.skill_name, s.skill_id`,
  "score-by-type": () => sql`
    select k.type as label, round(avg(ts.score)::numeric, 1)::float8 as average_score, count(ts.score)::int as assignments
    from unnest(${sql.raw(`array[${skillTypes.map((s) => `'${s}'`).join(", ")}]`)}::text[]) with ordinality as k(type, i)
    left join skills s on s.type = k.type
    left join teams_skills ts on ts.skill_id = s.skill_id and ts.score is not null
    group by k.type, k.i order by k.i`,
  "comments-per-week": () => sql`
    select to_char(w.week, 'YYYY-MM-DD') as label,
      ${sql.raw(commentStatuses.map((s) => `coalesce(sum(c.n) filter (where c.status = '${s}'), 0)::int as ${s}`).join(", "))}
    from generate_series(date_trunc('week', now()) - interval '11 weeks', date_trunc('week', now()), interval '1 week') as w(week)
    left join (
      select date_trunc('week', created_at) as week, status, count(*) as n from skill_comments
      where created_at >= date_trunc('week', now()) - interval '11 weeks'
      group by 1, 2
    ) c on c.week = w.week
    group by w.week order by w.week`,
  "prompts-by-status": () => sql`
    select s.status as label, count(p.status)::int as prompts
    from unnest(${sql.raw(`array[${promptStatuses.map((s) => `'${s}'`).join(", ")}]`)}::text[]) with ordinality as s(status, i)
    left join pedal_prompts p on p.status = s.status
    group by s.status, s.i order by s.i`,
};

/**
 * One analytics figure (SPEC.md §2 "/analytics"): its rows, each a label and a number per series,
 * from one SQL aggregate. `days` (7, 30 or 90) applies to the sign-ins figure only.
 */
export async function analyticsFigure(db: Database, figure: AnalyticsFigure, days: number): Promise<AnalyticsFigureData> {
  const rows = await queryRows<Row>(db, statements[figure](days));
  return {
    figure,
    rows: rows.map(({ label, ...values }) => ({
      label: String(label),
      values: Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v === null ? null : Number(v)])),
    })),
    as_of: new Date().toISOString(),
  };
}

/** The statement of a figure (the benchmark explains it). */
export const analyticsStatement = (figure: AnalyticsFigure, days = 30) => statements[figure](days);
