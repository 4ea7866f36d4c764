/**
 * Analytics API (SPEC.md §2 "/analytics"): each figure checked against a direct SQL query on the
 * demo data, on PGlite and PostgreSQL.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { analyticsFigures } from "../../src/domain/analytics";
import { startConsole, testClock, type TestConsole } from "../support/app";
import { targets } from "../support/databases";

describe.each(targets)("analytics API on %s", (target) => {
  let app: TestConsole;
  beforeAll(async () => {
    app = await startConsole(target, { demo: true });
  });
  afterAll(() => app.close());

  /** The figure as `{ label: values }`. */
  const figure = async (path: string) => {
    const { status, body } = await app.read(`/api/analytics/${path}`);
    expect(status, path).toBe(200);
    return Object.fromEntries(
      body.rows.map((r: { label: string; values: Record<string, number | null> }) => [r.label, r.values]),
    );
  };
  const direct = async <T extends Record<string, unknown>>(query: ReturnType<typeof sql>) => app.rows<T>(query);

  it("counts customers by status", async () => {
    const rows = await direct<{ status: string; n: number }>(
      sql`select status, count(*)::int as n from customers group by status`,
    );
    const got = await figure("customers-by-status");
    expect(Object.keys(got)).toEqual(["active", "inactive", "trial"]);
    for (const r of rows) expect(got[r.status].customers).toBe(r.n);
    expect(Object.values(got).reduce((n, v: any) => n + v.customers, 0)).toBe(rows.reduce((n, r) => n + r.n, 0));
  });

  it("counts users by the day of their last sign-in over 7, 30 and 90 days", async () => {
    for (const days of [7, 30, 90]) {
      const got = await figure(`sign-ins?days=${days}`);
      expect(Object.keys(got)).toHaveLength(days);
      const rows = await direct<{ day: string; n: number }>(sql`
        select to_char(date_trunc('day', last_login), 'YYYY-MM-DD') as day, count(*)::int as n from users_data
        where last_login >= date_trunc('day', now()) - make_interval(days => ${days - 1}) group by 1`);
      expect(rows.length).toBeGreaterThan(0);
      for (const r of rows) expect(got[r.day].users, r.day).toBe(r.n);
      const total = Object.values(got).reduce((n, v: any) => n + v.users, 0);
      expect(total).toBe(rows.reduce((n, r) => n + r.n, 0));
    }
    expect((await app.read("/api/analytics/sign-ins?days=12")).status).toBe(422);
  });

  it("lists the top 10 skills by active team assignments", async () => {
    const rows = await direct<{ skill_name: string; n: number }>(sql`
      select s.skill_name, t.n from (
        select skill_id, count(*)::int as n from teams_skills where status = 'active' group by skill_id order by n desc, skill_id limit 10
      ) t join skills s using (skill_id) order by t.n desc, s.skill_name, s.skill_id`);
    const { body } = await app.read("/api/analytics/top-skills");
    expect(body.rows).toHaveLength(10);
    expect(body.rows.map((r: any) => r.values.assignments)).toEqual(rows.map((r) => r.n));
    expect(body.rows[0].label).toBe(rows[0].skill_name);
  });

  it("averages the assignment score per skill type", async () => {
    const rows = await direct<{ type: string; avg: number; n: number }>(sql`
      select s.type, round(avg(ts.score)::numeric, 1)::float8 as avg, count(*)::int as n from teams_skills ts join skills s using (skill_id)
      where ts.score is not null group by s.type`);
    const got = await figure("score-by-type");
    expect(Object.keys(got)).toEqual(["manual", "agent", "detected"]);
    for (const r of rows) expect(got[r.type]).toEqual({ average_score: r.avg, assignments: r.n });
  });

  it("counts comments per status per week over the last 12 weeks", async () => {
    const got = await figure("comments-per-week");
    expect(Object.keys(got)).toHaveLength(12);
    const rows = await direct<{ week: string; status: string; n: number }>(sql`
      select to_char(date_trunc('week', created_at), 'YYYY-MM-DD') as week, status, count(*)::int as n from skill_comments
      where created_at >= date_trunc('week', now()) - interval '11 weeks' group by 1, 2`);
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) expect((got[r.week] as any)[r.status], `${r.week} ${r.status}`).toBe(r.n);
  });

  it("counts prompts by status", async () => {
    const rows = await direct<{ status: string; n: number }>(
      sql`select status, count(*)::int as n from pedal_prompts group by status`,
    );
    const got = await figure("prompts-by-status");
    for (const r of rows) expect(got[r.status].prompts).toBe(r.n);
    expect(Object.keys(got)).toEqual(["active", "inactive", "draft"]);
  });

  it("answers every figure, and 404 for an unknown one", async () => {
    for (const f of analyticsFigures) expect((await app.read(`/api/analytics/${f}`)).status).toBe(200);
    expect((await app.read("/api/analytics/nothing")).status).toBe(404);
  });

  /** Today's bar of the 7-day sign-ins figure: its users, and the figure's time. */
  const signInsToday = async (own: TestConsole) => {
    const { body } = await own.read("/api/analytics/sign-ins?days=7");
    return { users: body.rows.at(-1).values.users as number, asOf: body.as_of as string };
  };
  /** One more user signed in today, straight in the database. */
  const signInOneMoreToday = (own: TestConsole) =>
    own.rows(sql`
    update users_data set last_login = now() where user_id = (
      select user_id from users_data where last_login is null or last_login < date_trunc('day', now()) order by user_id limit 1)`);

  it("answers the costly figures from a snapshot, refreshed in the background once a minute old, and the counters' figures live", async () => {
    const clock = testClock();
    const own = await startConsole(target, { demo: true, clock });
    try {
      const today = () => signInsToday(own);
      const signInOneMore = () => signInOneMoreToday(own);
      const first = await today();
      expect(first.asOf).toBe(clock().toISOString());
      await signInOneMore();
      clock.advance(30);
      // Younger than a minute: the snapshot as it was.
      expect(await today()).toEqual(first);
      clock.advance(31);
      // Older: still the snapshot for this answer, while a refresh runs in the background.
      expect(await today()).toEqual(first);
      await own.analytics.settled();
      const refreshed = await today();
      expect(refreshed.users).toBe(first.users + 1);
      expect(refreshed.asOf).toBe(clock().toISOString());
      // Older than 15 minutes: computed for the request itself.
      await signInOneMore();
      clock.advance(16 * 60);
      expect((await today()).users).toBe(first.users + 2);

      // Customers by status reads maintained counters: a change shows at once.
      const before = (await own.read("/api/analytics/customers-by-status")).body.rows.find(
        (r: any) => r.label === "trial",
      ).values.customers;
      await own.rows(
        sql`update customers set status = 'trial' where customer_id = (select customer_id from customers where status <> 'trial' order by customer_id limit 1)`,
      );
      const after = (await own.read("/api/analytics/customers-by-status")).body.rows.find(
        (r: any) => r.label === "trial",
      ).values.customers;
      expect(after).toBe(before + 1);
    } finally {
      await own.close();
    }
  });

  it("computes every figure for its request when ANALYTICS_REFRESH_SECONDS is 0", async () => {
    const own = await startConsole(target, { demo: true, analyticsRefreshSeconds: 0 });
    try {
      const before = await signInsToday(own);
      await signInOneMoreToday(own);
      expect((await signInsToday(own)).users).toBe(before.users + 1);
    } finally {
      await own.close();
    }
  });
});
