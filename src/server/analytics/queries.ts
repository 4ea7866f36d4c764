import { signInsPerDay } from "../db/figures";
import { sql, type SQL } from "drizzle-orm";
import { signInRanges, type AnalyticsFigure, type AnalyticsFigureData } from "../../domain/analytics";
import { commentStatuses, customerStatuses, promptStatuses, skillTypes } from "../../domain/enums";
import { queryRows, type Database } from "../db/client";
import type { Snapshots } from "../snapshots";

type Row = { label: string } & Record<string, number | string | null>;

/**
 * The SQL aggregate of each figure (one statement each), returning a `label` column and one
 * numeric column per series:
 * - customers by status and prompts by status: `status_counts` (kept by triggers), O(1), live;
 * - sign-ins: `users_data_last_login_at_idx` range over the last `days` days, one row per day;
 * - top skills: active rows of `teams_skills` through `teams_skills_skill_idx` (skill_id, status);
 * - score by type: the scored assignments, grouped by the skill's type;
 * - comments per week: `skill_comments_created_at_idx` range over the last 12 weeks.
 * The last four read a large share of a big table (hundreds of ms at a million users), so they are
 * answered from snapshots (see `snapshotted`).
 */
const statements: Record<AnalyticsFigure, (days: number) => SQL> = {
  "customers-by-status": () => sql`
    select s.status as label, coalesce(sc.n, 0)::int as customers
    from unnest(${sql.raw(`array[${customerStatuses.map((s) => `'${s}'`).join(", ")}]`)}::text[]) with ordinality as s(status, i)
    left join status_counts sc on sc.entity = 'customers' and sc.status = s.status
    order by s.i`,
  "sign-ins": signInsPerDay,
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
    select s.status as label, coalesce(sc.n, 0)::int as prompts
    from unnest(${sql.raw(`array[${promptStatuses.map((s) => `'${s}'`).join(", ")}]`)}::text[]) with ordinality as s(status, i)
    left join status_counts sc on sc.entity = 'prompts' and sc.status = s.status
    order by s.i`,
};

/**
 * Figures answered from a snapshot at most ANALYTICS_REFRESH_SECONDS old (docs/decisions.md "Analytics"):
 * their aggregates scan a large share of `users_data`, `teams_skills` or `skill_comments`. The
 * others read maintained counters and are always live.
 */
export const snapshotted: ReadonlySet<AnalyticsFigure> = new Set<AnalyticsFigure>([
  "sign-ins",
  "top-skills",
  "score-by-type",
  "comments-per-week",
]);

/** Runs a figure's aggregate now: `{ figure, rows, as_of }`, `as_of` being the time of this run. */
async function computeFigure(db: Database, figure: AnalyticsFigure, days: number): Promise<AnalyticsFigureData> {
  const at = new Date();
  const rows = await queryRows<Row>(db, statements[figure](days));
  return {
    figure,
    rows: rows.map(({ label, ...values }) => ({
      label: String(label),
      values: Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v === null ? null : Number(v)])),
    })),
    as_of: at.toISOString(),
  };
}

/** The snapshot key of a figure: the range matters to sign-ins only. */
const snapshotKey = (figure: AnalyticsFigure, days: number) => (figure === "sign-ins" ? `${figure}:${days}` : figure);

/**
 * One analytics figure (SPEC.md §2 "/analytics"): its rows, each a label and a number per series,
 * from one SQL aggregate, and `as_of`, when that aggregate ran (ISO 8601). `days` (7, 30 or 90)
 * applies to the sign-ins figure only. Figures in `snapshotted` come from `snapshots`
 * (stale-while-revalidate), the others are computed for the request.
 */
export async function analyticsFigure(
  db: Database,
  figure: AnalyticsFigure,
  days: number,
  snapshots: Snapshots<AnalyticsFigureData>,
): Promise<AnalyticsFigureData> {
  if (!snapshotted.has(figure)) return computeFigure(db, figure, days);
  const { value, at } = await snapshots.get(snapshotKey(figure, days), () => computeFigure(db, figure, days));
  return { ...value, as_of: at.toISOString() };
}

/**
 * Computes every snapshotted figure (each range of sign-ins) one after the other, so that the first
 * visit of /analytics after a start finds them ready. A failure is left for that visit to retry and show.
 */
export async function warmAnalytics(db: Database, snapshots: Snapshots<AnalyticsFigureData>): Promise<void> {
  for (const figure of snapshotted) {
    for (const days of figure === "sign-ins" ? signInRanges : [30]) {
      await snapshots.refresh(snapshotKey(figure, days), () => computeFigure(db, figure, days)).catch(() => undefined);
    }
  }
}

/** The statement of a figure (the benchmark explains it). */
export const analyticsStatement = (figure: AnalyticsFigure, days = 30) => statements[figure](days);
