/**
 * The dashboard's sections below the spec's cards (docs/dashboard.md): each "Needs attention"
 * figure equals a direct SQL count of exactly those records and the `total` of the list its link
 * opens; the trends match SQL; recent activity is scoped by role. On PGlite and PostgreSQL.
 */
import { sql, type SQL } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startConsole, type TestConsole } from "../support/app";
import { targets } from "../support/databases";

/** Each figure, its direct SQL count and the list request its link opens (docs/dashboard.md). */
const figures: { key: string; direct: SQL; list: string }[] = [
  {
    key: "pending_comments",
    direct: sql`select count(*)::int as n from skill_comments where status = 'pending'`,
    list: "/api/comments?status=pending",
  },
  {
    key: "trial_customers",
    direct: sql`select count(*)::int as n from customers where status = 'trial'`,
    list: "/api/customers?status=trial",
  },
  {
    key: "teams_without_skills",
    direct: sql`select count(*)::int as n from teams t where t.status = 'active'
      and not exists (select 1 from teams_skills ts where ts.team_id = t.team_id and ts.status = 'active')`,
    list: "/api/teams?status=active&skills=none",
  },
  {
    key: "users_never_signed_in",
    direct: sql`select count(*)::int as n from users_data where last_login is null`,
    list: "/api/users?signed_in=false",
  },
  {
    key: "skills_without_prompts",
    direct: sql`select count(*)::int as n from skills s where not exists (select 1 from pedal_prompts p where p.skill_id = s.skill_id)`,
    list: "/api/skills?prompts=none",
  },
  {
    key: "prompts_without_platforms",
    direct: sql`select count(*)::int as n from pedal_prompts p where p.status = 'active'
      and not exists (select 1 from platform_prompts pp where pp.prompt_id = p.prompt_id)`,
    list: "/api/prompts?status=active&platforms=none",
  },
];

const valueOf = (body: Record<string, any>, key: string): number =>
  key === "trial_customers" ? body.trial_customers.count : body[key];

describe.each(targets)("dashboard API on %s", (target) => {
  let app: TestConsole;
  beforeAll(async () => {
    app = await startConsole(target, { demo: true, promptReview: "all" });
    // Records of each kind the demo data may lack, so that no figure is checked at zero only.
    const skill = await app.write("POST", "/api/skills", {
      skill_name: "Dashboard Skill Without Prompts",
      type: "manual",
    });
    expect(skill.status).toBe(201);
  });
  afterAll(() => app.close());

  const direct = async (query: SQL) => (await app.rows<{ n: number }>(query))[0].n;

  it("counts each figure over exactly its records, and its list's total agrees", async () => {
    const { status, body } = await app.read("/api/dashboard/attention");
    expect(status).toBe(200);
    for (const f of figures) {
      const expected = await direct(f.direct);
      expect(valueOf(body, f.key), f.key).toBe(expected);
      const list = await app.read(`${f.list}&limit=1`.replace(/^([^?]*)&/, "$1?"));
      expect(list.status, f.list).toBe(200);
      expect(list.body.total, f.list).toBe(expected);
    }
    // Every figure but the changes is above zero on the demo data (plus the skill made above).
    for (const f of figures) expect(valueOf(body, f.key), f.key).toBeGreaterThan(0);
  });

  it("names the oldest trial customer", async () => {
    const [oldest] = await app.rows<{ customer_id: string; customer_name: string }>(
      sql`select customer_id, customer_name from customers where status = 'trial' order by created_at, customer_id limit 1`,
    );
    const { body } = await app.read("/api/dashboard/attention");
    expect(body.trial_customers.oldest.customer_id).toBe(oldest.customer_id);
    expect(body.trial_customers.oldest.customer_name).toBe(oldest.customer_name);
  });

  it("counts the prompt changes waiting for review, equal to the Reviews queue's total", async () => {
    const [prompt] = await app.rows<{ prompt_id: string }>(
      sql`select prompt_id from pedal_prompts where status = 'active' order by prompt_id limit 1`,
    );
    const proposed = await app.write("PATCH", `/api/prompts/${prompt.prompt_id}`, {
      prompt_value: "Proposed on the dashboard",
    });
    expect(proposed.status).toBeLessThan(300);
    const expected = await direct(sql`select count(*)::int as n from prompt_changes where status = 'pending'`);
    expect(expected).toBeGreaterThan(0);
    const { body } = await app.read("/api/dashboard/attention");
    expect(body.pending_prompt_changes).toBe(expected);
    const queue = await app.read("/api/prompt-changes?status=pending&limit=1");
    expect(queue.body.total).toBe(expected);
  });

  it("draws sign-ins per day and new users per week over the last 30 days", async () => {
    const { status, body } = await app.read("/api/dashboard/trends");
    expect(status).toBe(200);
    expect(body.sign_ins.rows).toHaveLength(30);
    const signIns = await direct(sql`select count(*)::int as n from users_data
      where last_login >= date_trunc('day', now()) - interval '29 days'`);
    expect(body.sign_ins.rows.reduce((n: number, r: { users: number }) => n + r.users, 0)).toBe(signIns);
    const weeks = await app.rows<{ label: string; n: number }>(sql`
      select to_char(date_trunc('week', created_at), 'YYYY-MM-DD') as label, count(*)::int as n from users_data
      where created_at >= date_trunc('week', date_trunc('day', now()) - interval '29 days') group by 1`);
    expect(body.new_users.rows.length).toBeGreaterThanOrEqual(5);
    const got = Object.fromEntries(
      body.new_users.rows.map((r: { label: string; users: number }) => [r.label, r.users]),
    );
    for (const w of weeks) expect(got[w.label], w.label).toBe(w.n);
    expect(Object.values(got).reduce((n: number, v) => n + (v as number), 0)).toBe(weeks.reduce((n, w) => n + w.n, 0));
  });

  it("draws 7, 30 or 90 days, and each point's users are the list its link opens", async () => {
    for (const days of [7, 30, 90]) {
      const { status, body } = await app.read(`/api/dashboard/trends?days=${days}`);
      expect(status).toBe(200);
      expect(body.days).toBe(days);
      expect(body.sign_ins.rows).toHaveLength(days);
      expect(body.new_users.rows.length).toBeGreaterThanOrEqual(Math.ceil(days / 7));
    }
    expect((await app.read("/api/dashboard/trends?days=12")).status).toBe(422);
    const { body } = await app.read("/api/dashboard/trends?days=90");
    // The busiest day and week: the users list of that day (or week) has exactly that many users.
    const day = body.sign_ins.rows.reduce((a: { users: number }, b: { users: number }) => (b.users > a.users ? b : a));
    expect(day.users).toBeGreaterThan(0);
    const signedIn = await app.read(`/api/users?last_login_from=${day.label}&last_login_to=${day.label}&limit=1`);
    expect(signedIn.body.total).toBe(day.users);
    const week = body.new_users.rows.reduce((a: { users: number }, b: { users: number }) =>
      b.users > a.users ? b : a,
    );
    const sunday = new Date(`${week.label}T00:00:00Z`);
    sunday.setUTCDate(sunday.getUTCDate() + 6);
    const created = await app.read(
      `/api/users?created_from=${week.label}&created_to=${sunday.toISOString().slice(0, 10)}&limit=1`,
    );
    expect(created.body.total).toBe(week.users);
  });

  it("shows an admin everyone's last 10 audit entries and anyone else their own", async () => {
    await app.write("POST", "/api/customers", { customer_name: "Dashboard Activity Customer" }, "editor");
    await app.write("POST", "/api/customers", { customer_name: "Dashboard Admin Customer" }, "admin");
    const all = await app.rows<{ audit_id: string }>(
      sql`select audit_id from audit_log order by created_at desc, audit_id desc limit 10`,
    );
    const admin = await app.read("/api/dashboard/activity", "admin");
    expect(admin.status).toBe(200);
    expect(admin.body.scope).toBe("all");
    expect(admin.body.items.map((e: { audit_id: string }) => e.audit_id)).toEqual(all.map((r) => r.audit_id));

    const editor = await app.read("/api/dashboard/activity", "editor");
    expect(editor.body.scope).toBe("own");
    expect(editor.body.items.length).toBeGreaterThan(0);
    const [editorId] = new Set(editor.body.items.map((e: { operator_id: string }) => e.operator_id));
    expect(new Set(editor.body.items.map((e: { operator_id: string }) => e.operator_id)).size).toBe(1);
    const own = await app.rows<{ audit_id: string }>(
      sql`select audit_id from audit_log where operator_id = ${editorId} order by created_at desc, audit_id desc limit 10`,
    );
    expect(editor.body.items.map((e: { audit_id: string }) => e.audit_id)).toEqual(own.map((r) => r.audit_id));
    expect(editor.body.items.some((e: { entity_id: string }) => e.entity_id === admin.body.items[0].entity_id)).toBe(
      false,
    );

    const viewer = await app.read("/api/dashboard/activity", "viewer");
    expect(viewer.body.scope).toBe("own");
    // The viewer's own entries: their sign-in, nobody's customer.
    expect(viewer.body.items.length).toBeGreaterThan(0);
    for (const e of viewer.body.items) {
      expect(e.operator_email).toBe(viewer.body.items[0].operator_email);
      expect(e.action).not.toBe("create");
      expect(Number.isNaN(Date.parse(e.created_at))).toBe(false);
    }
    expect((await app.request("/api/dashboard/activity")).status).toBe(401);
  });
});

describe.each(targets)("dashboard API with PROMPT_REVIEW off on %s", (target) => {
  let app: TestConsole;
  beforeAll(async () => {
    app = await startConsole(target, { demo: true });
  });
  afterAll(() => app.close());

  it("counts the changes still waiting from before review was turned off, as the sidebar does, and leaves them out once none waits", async () => {
    const summary = (await app.read("/api/prompt-changes/summary")).body;
    expect(summary.mode).toBe("off");
    expect(summary.pending).toBeGreaterThan(0);
    expect((await app.read("/api/dashboard/attention")).body.pending_prompt_changes).toBe(summary.pending);
    await app.rows(sql`update prompt_changes set status = 'withdrawn' where status = 'pending'`);
    expect((await app.read("/api/dashboard/attention")).body.pending_prompt_changes).toBeNull();
  });
});
