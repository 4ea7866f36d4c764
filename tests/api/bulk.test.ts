/**
 * Bulk actions (docs/bulk-actions.md), on PGlite and PostgreSQL: each declared action's preview and
 * apply with its skip reasons; the single rules (active teams only, the user's own customer, the
 * user edit's rules); selection by filter meaning what the list shows; cancel between batches over
 * more than 1,000 rows; the per-row report and its CSV; the bound; one audit row per changed record
 * and one for the action; interrupted runs marked at start. Tests wait for the runs (`bulkIdle`)
 * and read their state, never sleep.
 */
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bulkLimits } from "../../src/domain/limits";
import { msg } from "../../src/domain/messages";
import {
  bulkIdle,
  bulkSettings,
  markInterruptedBulkActions,
  nextBatchSize,
  uuidArray,
} from "../../src/server/bulk/engine";
import { startConsole, type TestConsole } from "../support/app";
import { targets } from "../support/databases";

/** A text array literal (audit_log.entity_id is text). */
const textArray = (values: string[]) =>
  sql`array[${sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  )}]::text[]`;

describe.each(targets)("bulk actions on %s", (target) => {
  let app: TestConsole;
  beforeAll(async () => {
    app = await startConsole(target, { demo: true });
  });
  afterAll(async () => {
    await bulkIdle();
    await app.close();
  });

  const send = (method: string, path: string, json?: unknown) => app.write(method, path, json);
  const ids = <T>(rows: T[], key: keyof T) => rows.map((r) => String(r[key]));

  /** Starts an action, waits for its run, and answers its final progress. */
  async function apply(entity: string, action: string, selection: unknown, params: unknown = {}) {
    const started = await send("POST", `/api/bulk/${entity}/${action}`, { selection, params });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    await bulkIdle();
    const progress = await app.read(`/api/bulk/${started.body.bulk_id}`, "editor");
    expect(progress.status).toBe(200);
    return progress.body;
  }
  const preview = (entity: string, action: string, selection: unknown, params: unknown = {}) =>
    send("POST", `/api/bulk/${entity}/${action}/preview`, { selection, params });

  /** `n` customers of their own, named with a tag, in `status`. */
  async function newCustomers(n: number, status = "active") {
    const tag = `Bulk ${randomUUID().slice(0, 8)}`;
    const rows = await app.rows<{ customer_id: string }>(sql`
      insert into customers (customer_name, status)
      select ${tag} || ' ' || g, ${status} from generate_series(1, ${n}) g returning customer_id::text`);
    return { tag, ids: ids(rows, "customer_id") };
  }

  it("archives customers: preview counts and skips, apply changes, reports and audits each one", async () => {
    const { ids: active } = await newCustomers(3);
    const { ids: archived } = await newCustomers(2, "inactive");
    const selection = { ids: [...active, ...archived] };
    const before = await app.count(sql`select 1 from customers where status = 'inactive'`);

    const dry = await preview("customers", "archive", selection);
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({
      total: 5,
      will_change: 3,
      skipped: [{ reason: msg.bulk.alreadyArchived, count: 2 }],
    });
    expect(dry.body.sample).toHaveLength(5);
    // A dry run writes nothing.
    expect(await app.count(sql`select 1 from customers where status = 'inactive'`)).toBe(before);

    const run = await apply("customers", "archive", selection);
    expect(run).toMatchObject({ status: "done", total: 5, processed: 5, changed: 3, skipped: 2, failed: 0 });
    expect(
      await app.count(
        sql`select 1 from customers where customer_id = any(${uuidArray(active)}) and status = 'inactive'`,
      ),
    ).toBe(3);

    // One audit row per changed customer (status and updated_at), and one for the action itself.
    const audit = await app.rows<{
      entity_id: string;
      changes: { before: { status: string }; after: { status: string } };
    }>(sql`
      select entity_id, changes from audit_log where action = 'update' and entity = 'customer' and entity_id = any(${textArray([...active, ...archived])})`);
    expect(audit.map((a) => a.entity_id).sort()).toEqual([...active].sort());
    expect(audit[0].changes.before.status).toBe("active");
    expect(audit[0].changes.after).toMatchObject({ status: "inactive" });
    const [own] = await app.rows<{ entity: string; changes: { after: Record<string, unknown> } }>(
      sql`select entity, changes from audit_log where action = 'bulk' and entity_id = ${run.bulk_id}`,
    );
    expect(own.entity).toBe("customers");
    expect(own.changes.after).toMatchObject({ action: "archive", selection, total: 5 });

    // The per-row report, paged in selection order, with before values kept for an undo.
    const page = await app.read(`/api/bulk/${run.bulk_id}/report?limit=2`, "editor");
    expect(page.body.total).toBe(5);
    expect(page.body.items).toHaveLength(2);
    const rest = await app.read(`/api/bulk/${run.bulk_id}/report?after=${page.body.next_after}`, "editor");
    expect(rest.body.items).toHaveLength(3);
    const skipped = await app.read(`/api/bulk/${run.bulk_id}/report?outcome=skipped`, "editor");
    expect(skipped.body.items.map((r: { row_id: string }) => r.row_id).sort()).toEqual([...archived].sort());
    expect(skipped.body.items[0].reason).toBe(msg.bulk.alreadyArchived);
    const [kept] = await app.rows<{ before: { status: string } }>(
      sql`select before from bulk_action_rows where bulk_id = ${run.bulk_id} and outcome = 'changed' limit 1`,
    );
    expect(kept.before.status).toBe("active");

    const csv = await app.request(`/api/bulk/${run.bulk_id}/report.csv`, { as: "editor" });
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toContain("text/csv");
    const lines = (await csv.text()).trim().split("\r\n");
    expect(lines[0]).toBe("Record ID,Record,Outcome,Reason");
    expect(lines).toHaveLength(6);
  });

  it("neutralises formulas in the report's CSV", async () => {
    const [row] = await app.rows<{ customer_id: string }>(
      sql`insert into customers (customer_name, status) values ('=HYPERLINK("x")', 'active') returning customer_id::text`,
    );
    const run = await apply("customers", "archive", { ids: [row.customer_id] });
    const text = await (await app.request(`/api/bulk/${run.bulk_id}/report.csv`, { as: "editor" })).text();
    expect(text).toContain(`'=HYPERLINK`);
  });

  it("selects by the list's filter and search, the rows the list shows", async () => {
    const { tag, ids: mine } = await newCustomers(4, "inactive");
    const list = await app.read(`/api/customers?q=${encodeURIComponent(tag)}&status=inactive&limit=50`);
    expect(list.body.total).toBe(4);
    const dry = await preview("customers", "unarchive", { filter: { status: "inactive" }, q: tag });
    expect(dry.body).toMatchObject({ total: 4, will_change: 4 });
    const run = await apply("customers", "unarchive", { filter: { status: "inactive" }, q: tag });
    expect(run.changed).toBe(4);
    expect(
      await app.count(sql`select 1 from customers where customer_id = any(${uuidArray(mine)}) and status = 'active'`),
    ).toBe(4);
  });

  it("unarchives teams but not pending ones, archives skills, prompts and platforms", async () => {
    const [c] = await app.rows<{ customer_id: string }>(
      sql`select customer_id::text from customers order by customer_id limit 1`,
    );
    const teams = await app.rows<{ team_id: string }>(sql`
      insert into teams (customer_id, team_name, status) values
        (${c.customer_id}, 'BT a', 'inactive'), (${c.customer_id}, 'BT b', 'pending'), (${c.customer_id}, 'BT c', 'active')
      returning team_id::text`);
    const t = await apply("teams", "unarchive", { ids: ids(teams, "team_id") });
    expect(t).toMatchObject({ changed: 1, skipped: 2 });
    const reasons = await app.read(`/api/bulk/${t.bulk_id}/report?outcome=skipped`, "editor");
    expect(reasons.body.items.map((r: { reason: string }) => r.reason).sort()).toEqual(
      [msg.bulk.alreadyActive, msg.bulk.notArchived].sort(),
    );
    const archived = await apply("teams", "archive", { ids: ids(teams, "team_id") });
    expect(archived.changed).toBe(3);
    // Teams of different customers share names: the report names each with its customer.
    const [customer] = await app.rows<{ customer_name: string }>(
      sql`select customer_name from customers where customer_id = ${c.customer_id}`,
    );
    const named = await app.read(`/api/bulk/${archived.bulk_id}/report`, "editor");
    expect(named.body.items.map((r: { label: string }) => r.label).sort()).toEqual(
      ["BT a", "BT b", "BT c"].map((t) => `${t} · ${customer.customer_name}`),
    );

    const skills = await app.rows<{ skill_id: string }>(
      sql`insert into skills (skill_name, status) values ('BS a', 'active'), ('BS b', 'inactive') returning skill_id::text`,
    );
    expect(await apply("skills", "archive", { ids: ids(skills, "skill_id") })).toMatchObject({
      changed: 1,
      skipped: 1,
    });
    expect(await apply("skills", "unarchive", { ids: ids(skills, "skill_id") })).toMatchObject({ changed: 2 });

    const prompts = await app.rows<{ prompt_id: string }>(sql`
      insert into pedal_prompts (prompt_title, skill_id, status) values ('BP a', ${skills[0].skill_id}, 'draft'), ('BP b', ${skills[0].skill_id}, 'active')
      returning prompt_id::text`);
    expect(await apply("prompts", "activate", { ids: ids(prompts, "prompt_id") })).toMatchObject({
      changed: 1,
      skipped: 1,
    });
    expect(await apply("prompts", "archive", { ids: ids(prompts, "prompt_id") })).toMatchObject({ changed: 2 });

    const platforms = await app.rows<{ platform_id: string }>(
      sql`insert into platforms (platform_name, status) values ('BPL a', 'active'), ('BPL b', 'draft') returning platform_id::text`,
    );
    expect(await apply("platforms", "deactivate", { ids: ids(platforms, "platform_id") })).toMatchObject({
      changed: 2,
    });
    expect(await apply("platforms", "activate", { ids: ids(platforms, "platform_id") })).toMatchObject({ changed: 2 });

    // Assign a platform: only an active one; an assigned prompt is skipped.
    const pl = platforms[0].platform_id;
    const assign = { platform_id: pl };
    expect(await apply("prompts", "assign_platform", { ids: [prompts[0].prompt_id] }, assign)).toMatchObject({
      changed: 1,
    });
    const both = await apply("prompts", "assign_platform", { ids: ids(prompts, "prompt_id") }, assign);
    expect(both).toMatchObject({ changed: 1, skipped: 1 });
    expect(await app.count(sql`select 1 from platform_prompts where platform_id = ${pl}`)).toBe(2);
    expect(
      await app.count(
        sql`select 1 from audit_log where action = 'assign_platform' and entity = 'platform' and entity_id = ${pl}`,
      ),
    ).toBe(2);
    await app.rows(sql`update platforms set status = 'inactive' where platform_id = ${platforms[1].platform_id}`);
    const refused = await preview(
      "prompts",
      "assign_platform",
      { ids: [prompts[0].prompt_id] },
      { platform_id: platforms[1].platform_id },
    );
    expect(refused.status).toBe(422);
    expect(refused.body.error.message).toBe(msg.platforms.notActive);
  });

  it("assigns a skill to active teams only, and skills to teams, by the single rule", async () => {
    const [c] = await app.rows<{ customer_id: string }>(
      sql`select customer_id::text from customers order by customer_id limit 1`,
    );
    const teams = await app.rows<{ team_id: string }>(sql`
      insert into teams (customer_id, team_name, status) values
        (${c.customer_id}, 'AS a', 'active'), (${c.customer_id}, 'AS b', 'inactive'), (${c.customer_id}, 'AS c', 'active')
      returning team_id::text`);
    const [skill, off] = await app.rows<{ skill_id: string }>(
      sql`insert into skills (skill_name, status) values ('AS skill', 'active'), ('AS off', 'inactive') returning skill_id::text`,
    );
    // An unassigned (inactive) assignment is reactivated, as one click would.
    await app.rows(
      sql`insert into teams_skills (team_id, skill_id, customer_id, status) values (${teams[2].team_id}, ${skill.skill_id}, ${c.customer_id}, 'inactive')`,
    );
    const selection = { ids: ids(teams, "team_id") };
    const dry = await preview("teams", "assign_skill", selection, { skill_id: skill.skill_id });
    expect(dry.body).toMatchObject({ will_change: 2, skipped: [{ reason: msg.bulk.notActiveTeam, count: 1 }] });
    const run = await apply("teams", "assign_skill", selection, { skill_id: skill.skill_id });
    expect(run).toMatchObject({ changed: 2, skipped: 1 });
    expect(
      await app.count(sql`select 1 from teams_skills where skill_id = ${skill.skill_id} and status = 'active'`),
    ).toBe(2);
    expect(
      await app.count(
        sql`select 1 from audit_log where entity = 'skill' and entity_id = ${skill.skill_id} and action in ('assign_skill', 'reassign_skill')`,
      ),
    ).toBe(2);
    // Again: already assigned.
    expect(await apply("teams", "assign_skill", selection, { skill_id: skill.skill_id })).toMatchObject({
      changed: 0,
      skipped: 3,
    });
    // An inactive skill is refused before anything is selected; an unknown one is a 404.
    expect((await preview("teams", "assign_skill", selection, { skill_id: off.skill_id })).status).toBe(422);
    expect(
      (await send("POST", "/api/bulk/teams/assign_skill", { selection, params: { skill_id: randomUUID() } })).status,
    ).toBe(404);

    // Skills to teams: an inactive team is refused; an inactive skill is skipped.
    const inactiveTeam = await preview(
      "skills",
      "assign_to_teams",
      { ids: [skill.skill_id] },
      { team_ids: [teams[1].team_id] },
    );
    expect(inactiveTeam.status).toBe(422);
    expect(inactiveTeam.body.error.message).toBe(msg.skills.teamNotActive);
    const s2 = await apply(
      "skills",
      "assign_to_teams",
      { ids: [skill.skill_id, off.skill_id] },
      { team_ids: [teams[0].team_id, teams[2].team_id] },
    );
    expect(s2).toMatchObject({ changed: 0, skipped: 2 });
    const [fresh] = await app.rows<{ skill_id: string }>(
      sql`insert into skills (skill_name) values ('AS fresh') returning skill_id::text`,
    );
    const s3 = await apply(
      "skills",
      "assign_to_teams",
      { ids: [fresh.skill_id] },
      { team_ids: [teams[0].team_id, teams[2].team_id] },
    );
    expect(s3).toMatchObject({ changed: 1 });
    expect(
      await app.count(sql`select 1 from teams_skills where skill_id = ${fresh.skill_id} and status = 'active'`),
    ).toBe(2);
  });

  it("sets users' status, adds them to a team of their customer, adds and removes roles, as the user edit may", async () => {
    const customers = await app.rows<{ customer_id: string }>(
      sql`insert into customers (customer_name) values ('BU one'), ('BU two') returning customer_id::text`,
    );
    const [one, two] = ids(customers, "customer_id");
    const users = await app.rows<{ user_id: string }>(sql`
      insert into users_data (customer_id, email, status) values
        (${one}, ${`a-${randomUUID()}@bu.example`}, 'active'), (${one}, ${`b-${randomUUID()}@bu.example`}, 'active'),
        (${two}, ${`c-${randomUUID()}@bu.example`}, 'active')
      returning user_id::text`);
    const userIds = ids(users, "user_id");
    const all = { ids: userIds };

    // Roles: the two users of customer one become admins.
    expect(await apply("users", "add_role", { ids: userIds.slice(0, 2) }, { role: "admin" })).toMatchObject({
      changed: 2,
    });
    expect(await apply("users", "add_role", all, { role: "admin" })).toMatchObject({ changed: 1, skipped: 2 });
    // Removing admin from all: the three admins lose it, as a user edit could take it from each.
    const dry = await preview("users", "remove_role", all, { role: "admin" });
    expect(dry.body).toMatchObject({ will_change: 3 });
    const removed = await apply("users", "remove_role", all, { role: "admin" });
    expect(removed).toMatchObject({ changed: 3, skipped: 0 });
    expect(
      await app.count(sql`select 1 from users_roles where role = 'admin' and user_id = any(${uuidArray(userIds)})`),
    ).toBe(0);
    expect((await apply("users", "remove_role", all, { role: "admin" })).skipped).toBe(3);
    // Deactivating every user, then activating them again.
    const status = await apply("users", "set_status", all, { status: "inactive" });
    expect(status).toMatchObject({ changed: 3, skipped: 0 });
    expect((await apply("users", "set_status", all, { status: "active" })).changed).toBe(3);
    // Archive and Unarchive, the verbs of every other list: a pending user is not unarchived.
    expect(await apply("users", "archive", all)).toMatchObject({ changed: 3, skipped: 0 });
    expect(
      await app.count(sql`select 1 from users_data where status = 'inactive' and user_id = any(${uuidArray(userIds)})`),
    ).toBe(3);
    await apply("users", "set_status", { ids: userIds.slice(0, 1) }, { status: "pending" });
    const back = await apply("users", "unarchive", all);
    expect(back).toMatchObject({ changed: 2, skipped: 1 });
    expect((await app.read(`/api/bulk/${back.bulk_id}/report?outcome=skipped`, "editor")).body.items[0]).toMatchObject({
      row_id: userIds[0],
      reason: msg.bulk.notArchived,
    });
    await apply("users", "set_status", { ids: userIds.slice(0, 1) }, { status: "active" });

    // Add to a team: only the team's customer's users; an inactive team is refused.
    const [team, closed] = await app.rows<{ team_id: string }>(sql`
      insert into teams (customer_id, team_name, status) values (${one}, 'BU team', 'active'), (${one}, 'BU closed', 'inactive') returning team_id::text`);
    const join = await apply("users", "add_to_team", all, { team_id: team.team_id });
    expect(join).toMatchObject({ changed: 2, skipped: 1 });
    const other = await app.read(`/api/bulk/${join.bulk_id}/report?outcome=skipped`, "editor");
    expect(other.body.items[0]).toMatchObject({ row_id: userIds[2], reason: msg.bulk.otherCustomer });
    expect(await app.count(sql`select 1 from teams_users where team_id = ${team.team_id}`)).toBe(2);
    expect(
      await app.count(
        sql`select 1 from audit_log where action = 'add_member' and entity = 'team' and entity_id = ${team.team_id}`,
      ),
    ).toBe(2);
    expect((await apply("users", "add_to_team", all, { team_id: team.team_id })).skipped).toBe(3);
    const refused = await preview("users", "add_to_team", all, { team_id: closed.team_id });
    expect(refused.status).toBe(422);
    expect(refused.body.error.message).toBe(msg.users.teamNotActive);
  });

  it("cancels between batches over more than 1,000 rows, leaving whole batches and their report", async () => {
    const { ids: many } = await newCustomers(4_500);
    const started = await send("POST", "/api/bulk/customers/archive", { selection: { ids: many }, params: {} });
    expect(started.status).toBe(202);
    const cancel = await send("POST", `/api/bulk/${started.body.bulk_id}/cancel`, {});
    expect(cancel.status).toBe(200);
    await bulkIdle();
    const { body } = await app.read(`/api/bulk/${started.body.bulk_id}`, "editor");
    expect(body.status).toBe("cancelled");
    // Whole batches: the first ones, none of them partly written.
    expect(body.processed).toBeGreaterThanOrEqual(bulkLimits.minBatch);
    expect(body.processed).toBeLessThan(4_500);
    expect(
      await app.count(
        sql`select 1 from bulk_action_rows where bulk_id = ${started.body.bulk_id} and seq < ${body.processed}`,
      ),
    ).toBe(body.processed);
    expect(
      await app.count(sql`select 1 from customers where customer_id = any(${uuidArray(many)}) and status = 'inactive'`),
    ).toBe(body.changed);
    expect(await app.count(sql`select 1 from bulk_action_rows where bulk_id = ${started.body.bulk_id}`)).toBe(
      body.processed,
    );
    expect(
      await app.count(
        sql`select 1 from audit_log where action = 'update' and entity = 'customer' and entity_id = any(${textArray(many)})`,
      ),
    ).toBe(body.changed);
    // An ended action cannot be cancelled.
    expect((await send("POST", `/api/bulk/${started.body.bulk_id}/cancel`, {})).status).toBe(409);
  });

  it("refuses a selection over the bound, unknown ids, and malformed input with 4xx, writing nothing", async () => {
    const saved = bulkSettings.maxSelection;
    bulkSettings.maxSelection = 3;
    try {
      const { tag } = await newCustomers(5);
      const over = await preview("customers", "archive", { filter: {}, q: tag });
      expect(over.status).toBe(422);
      expect(over.body.error.message).toBe(msg.bulk.tooMany(5, 3));
      const start = await send("POST", "/api/bulk/customers/archive", {
        selection: { filter: {}, q: tag },
        params: {},
      });
      expect(start.status).toBe(422);
    } finally {
      bulkSettings.maxSelection = saved;
    }
    const unknown = await preview("customers", "archive", { ids: [randomUUID()] });
    expect(unknown.status).toBe(422);
    expect(unknown.body.error.message).toBe(msg.bulk.unknownIds(1));
    expect((await preview("customers", "archive", { ids: [], filter: {} })).status).toBe(422);
    expect((await preview("customers", "archive", { filter: { status: "nope" } })).status).toBe(422);
    expect((await preview("users", "set_status", { filter: {} }, { status: "gone" })).status).toBe(422);
    expect(
      (await preview("customers", "archive", { ids: Array.from({ length: 5_001 }, () => randomUUID()) })).status,
    ).toBe(422);
    expect((await app.read(`/api/bulk/${randomUUID()}`, "editor")).status).toBe(404);
  });

  it("marks runs left running that cannot be resumed (no selected ids kept) as interrupted", async () => {
    const [row] = await app.rows<{ bulk_id: string }>(sql`
      insert into bulk_actions (entity, action, selection, status, total) values ('customers', 'archive', '{}'::jsonb, 'running', 10)
      returning bulk_id::text`);
    expect(await markInterruptedBulkActions(app.handle.db)).toBeGreaterThanOrEqual(1);
    const { body } = await app.read(`/api/bulk/${row.bulk_id}`, "editor");
    expect(body.status).toBe("interrupted");
  });

  it("is for editors and admins only", async () => {
    const run = await app.rows<{ bulk_id: string }>(sql`select bulk_id::text from bulk_actions limit 1`);
    expect((await app.read(`/api/bulk/${run[0].bulk_id}`, "viewer")).status).toBe(403);
    expect(
      (
        await app.write(
          "POST",
          "/api/bulk/customers/archive/preview",
          { selection: { filter: {} }, params: {} },
          "viewer",
        )
      ).status,
    ).toBe(403);
    expect((await app.read(`/api/bulk/${run[0].bulk_id}`, "admin")).status).toBe(200);
  });
});

describe("batch size", () => {
  it("aims each batch at the target time: smaller when the database is slow, larger (at most doubling) when quick", () => {
    const { batchSize, minBatch, batchTargetMs } = bulkLimits;
    expect(nextBatchSize(1_000, batchTargetMs)).toBe(1_000);
    expect(nextBatchSize(1_000, 4 * batchTargetMs)).toBe(250);
    expect(nextBatchSize(200, 10_000)).toBe(minBatch);
    expect(nextBatchSize(250, batchTargetMs / 10)).toBe(500);
    expect(nextBatchSize(800, 1)).toBe(batchSize);
    expect(nextBatchSize(50, 0)).toBe(100);
  });
});

/**
 * An operator has at most two previews or runs under way at once. On PostgreSQL, where requests
 * run side by side: two runs held by a lock their batches wait for, then the editor's third request
 * is refused 429 (Retry-After), another operator's is not, and the editor's goes through once the
 * runs end. (PGlite has one connection, so one request's statements run at a time anyway.)
 */
describe.each(targets.filter((t) => t === "postgres"))("bulk actions under way per operator on %s", (target) => {
  let app: TestConsole;
  beforeAll(async () => {
    app = await startConsole(target, { demo: true });
  });
  afterAll(async () => {
    await bulkIdle();
    await app.close();
  });

  it("refuses a third preview or run of one operator while two run, with 429 and Retry-After", async () => {
    const customers = await app.rows<{ customer_id: string }>(
      sql`select customer_id::text as customer_id from customers where status = 'active' order by customer_id limit 3`,
    );
    const [a, b, c] = customers.map((r) => r.customer_id);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const taken = new Promise<void>((resolve) => (locked = resolve));
    const holder = app.handle.db.transaction(async (tx) => {
      await tx.execute(sql`select 1 from customers where customer_id in (${a}, ${b}) for update`);
      locked();
      await held;
    });
    await taken;
    const archive = (id: string, as: "editor" | "admin" = "editor", preview = false) =>
      app.request(`/api/bulk/customers/archive${preview ? "/preview" : ""}`, {
        as,
        method: "POST",
        json: { selection: { ids: [id] } },
      });
    expect((await archive(a)).status).toBe(202);
    expect((await archive(b)).status).toBe(202);
    for (const third of [await archive(c, "editor", true), await archive(c)]) {
      expect(third.status).toBe(429);
      expect(third.headers.get("retry-after")).toBe("2");
      expect((await third.json()).error).toEqual({ code: "rate_limited", message: msg.bulk.busy(2) });
    }
    expect((await archive(c, "admin", true)).status).toBe(200);
    release();
    await holder;
    await bulkIdle();
    expect((await archive(c, "editor", true)).status).toBe(200);
  });
});
