/**
 * Undo of bulk actions (docs/bulk-actions.md, "Undo"), on PGlite and PostgreSQL: each kind of
 * action put back (a status change, add to team, assignments of skills and platforms, roles added
 * and removed), rows changed since skipped with the reason and never overwritten, links removed as
 * one click removes them (snapshots, audit rows against both records), the refusals (twice, an undo,
 * still running, another operator's), and the audit. Tests wait for the runs (`bulkIdle`), never sleep.
 */
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { msg } from "../../src/domain/messages";
import { bulkIdle, uuidArray } from "../../src/server/bulk/engine";
import { startConsole, type TestConsole } from "../support/app";
import { targets } from "../support/databases";

type Progress = { bulk_id: string; status: string; changed: number; skipped: number; failed: number } & Record<
  string,
  unknown
>;

describe.each(targets)("undo of bulk actions on %s", (target) => {
  let app: TestConsole;
  beforeAll(async () => void (app = await startConsole(target, { demo: true })));
  afterAll(() => bulkIdle().then(() => app.close()));

  const ids = <T>(rows: T[], key: keyof T) => rows.map((r) => String(r[key]));

  /** Starts an action as `as` (default editor), waits for its run, and answers its final progress. */
  async function apply(entity: string, action: string, selection: unknown, params: unknown = {}, as = "editor") {
    const started = await app.write("POST", `/api/bulk/${entity}/${action}`, { selection, params }, as as "editor");
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    await bulkIdle();
    return (await app.read(`/api/bulk/${started.body.bulk_id}`, "editor")).body as Progress;
  }
  /** Undoes a run as `as` (default editor), waits for it, and answers the undo's final progress. */
  async function undo(bulkId: string, as = "editor"): Promise<Progress> {
    const started = await app.write("POST", `/api/bulk/${bulkId}/undo`, {}, as as "editor");
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    await bulkIdle();
    return (await app.read(`/api/bulk/${started.body.bulk_id}`, "editor")).body as Progress;
  }
  const skippedReasons = async (bulkId: string) =>
    (await app.read(`/api/bulk/${bulkId}/report?outcome=skipped`, "editor")).body.items.map(
      (r: { row_id: string; reason: string }) => [r.row_id, r.reason],
    );
  const statuses = async (table: string, key: string, list: string[]) =>
    (
      await app.rows<{ id: string; status: string }>(
        sql`select ${sql.raw(key)}::text as id, status from ${sql.raw(table)} where ${sql.raw(key)} = any(${uuidArray(list)}) order by 1`,
      )
    ).map((r) => r.status);
  const customerId = async () =>
    (
      await app.rows<{ customer_id: string }>(sql`select customer_id::text from customers order by customer_id limit 1`)
    )[0].customer_id;

  it("puts back a status change, skipping rows changed since, with one audit row per record and one naming the original", async () => {
    const rows = await app.rows<{ customer_id: string }>(sql`
      insert into customers (customer_name, status) values ('UC a', 'active'), ('UC b', 'trial'), ('UC c', 'active'), ('UC d', 'inactive')
      returning customer_id::text`);
    const [a, b, c, d] = ids(rows, "customer_id");
    const run = await apply("customers", "archive", { ids: [a, b, c, d] });
    expect(run).toMatchObject({ changed: 3, skipped: 1, can_undo: true, undo_of: null, undone_by: null });
    // Changed since: c is unarchived by one click; the undo leaves it as it is.
    expect((await app.write("PATCH", `/api/customers/${c}`, { status: "active" })).status).toBe(200);

    const back = await undo(run.bulk_id);
    expect(back).toMatchObject({
      action: "undo",
      undo_of: run.bulk_id,
      status: "done",
      total: 3,
      changed: 2,
      skipped: 1,
    });
    expect(back.can_undo).toBe(false);
    expect(await statuses("customers", "customer_id", [a, b, c, d])).toEqual(
      (
        await app.rows<{ id: string; s: string }>(sql`
          select x.id::text as id, x.s from (values (${a}::uuid, 'active'), (${b}::uuid, 'trial'), (${c}::uuid, 'active'), (${d}::uuid, 'inactive')) x(id, s) order by 1`)
      ).map((r) => r.s),
    );
    expect(await skippedReasons(back.bulk_id)).toEqual([[c, msg.bulk.undoStatusChanged]]);
    // Audit: one update per record put back, and the undo's own row naming the original.
    const audit = await app.rows<{
      entity_id: string;
      changes: { before: { status: string }; after: { status: string } };
    }>(
      sql`select entity_id, changes from audit_log where action = 'update' and entity = 'customer'
        and entity_id in (${a}, ${b}) and changes->'after'->>'status' <> 'inactive' order by entity_id`,
    );
    expect(audit).toHaveLength(2);
    expect(audit.find((r) => r.entity_id === b)!.changes).toMatchObject({
      before: { status: "inactive" },
      after: { status: "trial" },
    });
    const [own] = await app.rows<{ entity: string; changes: { after: Record<string, unknown> } }>(
      sql`select entity, changes from audit_log where action = 'bulk_undo' and entity_id = ${back.bulk_id}`,
    );
    expect(own.entity).toBe("customers");
    expect(own.changes.after).toMatchObject({ undo_of: run.bulk_id, action: "archive", total: 3 });
    // The original now names its undo, and cannot be undone again.
    const original = (await app.read(`/api/bulk/${run.bulk_id}`, "editor")).body;
    expect(original).toMatchObject({ undone_by: back.bulk_id, can_undo: false });
  });

  it("refuses a second undo, an undo of an undo, one still running or being undone, and one that changed nothing, with 409", async () => {
    const [row] = await app.rows<{ customer_id: string }>(
      sql`insert into customers (customer_name, status) values ('UC twice', 'active') returning customer_id::text`,
    );
    const run = await apply("customers", "archive", { ids: [row.customer_id] });
    const back = await undo(run.bulk_id);
    const again = await app.write("POST", `/api/bulk/${run.bulk_id}/undo`, {});
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe(msg.bulk.alreadyUndone);
    const ofUndo = await app.write("POST", `/api/bulk/${back.bulk_id}/undo`, {});
    expect(ofUndo.status).toBe(409);
    expect(ofUndo.body.error.message).toBe(msg.bulk.undoOfUndo);

    // A run still running (as a server leaves it mid-run), and one whose undo is running (no
    // operator recorded: an admin's).
    const [running] = await app.rows<{ bulk_id: string }>(sql`
      insert into bulk_actions (entity, action, selection, status, total, changed) values ('customers', 'archive', '{}'::jsonb, 'running', 10, 5)
      returning bulk_id::text`);
    const still = await app.write("POST", `/api/bulk/${running.bulk_id}/undo`, {}, "admin");
    expect(still.status).toBe(409);
    expect(still.body.error.message).toBe(msg.bulk.undoRunning);
    const [ended] = await app.rows<{ bulk_id: string }>(sql`
      insert into bulk_actions (entity, action, selection, status, total, changed) values ('customers', 'archive', '{}'::jsonb, 'done', 10, 5)
      returning bulk_id::text`);
    await app.rows(sql`
      insert into bulk_actions (entity, action, selection, status, total, undo_of) values ('customers', 'undo', '{}'::jsonb, 'running', 5, ${ended.bulk_id})`);
    const inProgress = await app.write("POST", `/api/bulk/${ended.bulk_id}/undo`, {}, "admin");
    expect(inProgress.status).toBe(409);
    expect(inProgress.body.error.message).toBe(msg.bulk.beingUndone);

    const nothing = await apply("customers", "archive", { ids: [row.customer_id] });
    await apply("customers", "archive", { ids: [row.customer_id] });
    const none = await apply("customers", "archive", { ids: [row.customer_id] });
    expect(none.changed).toBe(0);
    expect((await app.write("POST", `/api/bulk/${none.bulk_id}/undo`, {})).status).toBe(409);
    expect(nothing.changed).toBe(1);
    expect((await app.write("POST", `/api/bulk/${randomUUID()}/undo`, {})).status).toBe(404);
    expect((await app.write("POST", `/api/bulk/${nothing.bulk_id}/undo`, { more: 1 })).status).toBe(422);
  });

  it("lets an editor undo their own actions and an admin anyone's; a viewer none", async () => {
    const rows = await app.rows<{ platform_id: string }>(
      sql`insert into platforms (platform_name, status) values ('UP a', 'active'), ('UP b', 'active') returning platform_id::text`,
    );
    const byAdmin = await apply("platforms", "deactivate", { ids: [rows[0].platform_id] }, {}, "admin");
    expect((await app.read(`/api/bulk/${byAdmin.bulk_id}`, "editor")).body.can_undo).toBe(false);
    const refused = await app.write("POST", `/api/bulk/${byAdmin.bulk_id}/undo`, {}, "editor");
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe(msg.bulk.undoOthers);
    expect((await app.write("POST", `/api/bulk/${byAdmin.bulk_id}/undo`, {}, "viewer")).status).toBe(403);

    const byEditor = await apply("platforms", "deactivate", { ids: [rows[1].platform_id] });
    expect((await app.read(`/api/bulk/${byEditor.bulk_id}`, "admin")).body.can_undo).toBe(true);
    expect(await undo(byEditor.bulk_id, "admin")).toMatchObject({ changed: 1 });
    expect(await undo(byAdmin.bulk_id, "admin")).toMatchObject({ changed: 1 });
    expect(await statuses("platforms", "platform_id", ids(rows, "platform_id"))).toEqual(["active", "active"]);
  });

  it("removes the memberships Add to Team made, as one click does (snapshots, audit against team and user)", async () => {
    const customer = await customerId();
    const [team] = await app.rows<{ team_id: string }>(
      sql`insert into teams (customer_id, team_name, status) values (${customer}, 'UT team', 'active') returning team_id::text`,
    );
    const users = await app.rows<{ user_id: string }>(sql`
      insert into users_data (customer_id, email, status) values
        (${customer}, ${`ua-${randomUUID()}@ut.example`}, 'active'), (${customer}, ${`ub-${randomUUID()}@ut.example`}, 'active'),
        (${customer}, ${`uc-${randomUUID()}@ut.example`}, 'active')
      returning user_id::text`);
    const [ua, ub, uc] = ids(users, "user_id");
    // uc is a member already: the action skips it, and its undo leaves it.
    await app.rows(
      sql`insert into teams_users (team_id, user_id, customer_id) values (${team.team_id}, ${uc}, ${customer})`,
    );
    const run = await apply("users", "add_to_team", { ids: [ua, ub, uc] }, { team_id: team.team_id });
    expect(run).toMatchObject({ changed: 2, skipped: 1 });
    // ub leaves by one click meanwhile: its row is skipped as changed since.
    expect((await app.write("DELETE", `/api/teams/${team.team_id}/members/${ub}`)).status).toBe(200);

    const back = await undo(run.bulk_id);
    expect(back).toMatchObject({ total: 2, changed: 1, skipped: 1 });
    expect(await skippedReasons(back.bulk_id)).toEqual([[ub, msg.bulk.undoNoLongerMember]]);
    const members = await app.rows<{ user_id: string }>(
      sql`select user_id::text from teams_users where team_id = ${team.team_id}`,
    );
    expect(ids(members, "user_id")).toEqual([uc]);
    expect(
      await app.count(
        sql`select 1 from audit_log where action = 'remove_member' and ((entity = 'team' and entity_id = ${team.team_id}) or (entity = 'user' and entity_id = ${ua}))`,
      ),
    ).toBe(3);
    // The removal is kept as one click keeps it: restorable from Recently deleted.
    const [kept] = await app.rows<{ deletion_id: string; bulk_id: string; label: string }>(
      sql`select deletion_id::text, bulk_id::text, label from deleted_records where entity = 'team_member' and entity_id = ${`${team.team_id}:${ua}`}`,
    );
    expect(kept.bulk_id).toBe(back.bulk_id);
    expect(kept.label).toContain("UT team");
    expect((await app.write("POST", `/api/deleted/${kept.deletion_id}/restore`)).status).toBe(200);
    expect(await app.count(sql`select 1 from teams_users where team_id = ${team.team_id}`)).toBe(2);
  });

  it("unassigns what Assign Skill and Assign to Teams made or reactivated; leaves what was assigned before", async () => {
    const customer = await customerId();
    const teams = await app.rows<{ team_id: string }>(sql`
      insert into teams (customer_id, team_name, status) values (${customer}, 'UA a', 'active'), (${customer}, 'UA b', 'active'),
        (${customer}, 'UA c', 'active') returning team_id::text`);
    const [ta, tb, tc] = ids(teams, "team_id");
    const [skill, other] = await app.rows<{ skill_id: string }>(
      sql`insert into skills (skill_name, status) values ('UA skill', 'active'), ('UA other', 'active') returning skill_id::text`,
    );
    // tb had the skill unassigned (reactivated by the action); tc has it active (skipped).
    await app.rows(sql`insert into teams_skills (team_id, skill_id, customer_id, status) values
      (${tb}, ${skill.skill_id}, ${customer}, 'inactive'), (${tc}, ${skill.skill_id}, ${customer}, 'active')`);
    const run = await apply("teams", "assign_skill", { ids: [ta, tb, tc] }, { skill_id: skill.skill_id });
    expect(run).toMatchObject({ changed: 2, skipped: 1 });
    const back = await undo(run.bulk_id);
    expect(back).toMatchObject({ changed: 2, skipped: 0 });
    const states = await app.rows<{ team_id: string; status: string }>(
      sql`select team_id::text, status from teams_skills where skill_id = ${skill.skill_id} order by team_id`,
    );
    expect(Object.fromEntries(states.map((s) => [s.team_id, s.status]))).toEqual({
      [ta]: "inactive",
      [tb]: "inactive",
      [tc]: "active",
    });
    expect(
      await app.count(
        sql`select 1 from audit_log where action = 'unassign_skill' and entity = 'skill' and entity_id = ${skill.skill_id}`,
      ),
    ).toBe(2);
    expect(await app.count(sql`select 1 from deleted_records where bulk_id = ${back.bulk_id}`)).toBe(2);

    // Skills to teams: the other skill gets ta and tb; tb is unassigned by one click since: the skill is skipped whole.
    const toTeams = await apply(
      "skills",
      "assign_to_teams",
      { ids: [other.skill_id, skill.skill_id] },
      { team_ids: [ta, tb] },
    );
    expect(toTeams.changed).toBe(2);
    expect((await app.write("PATCH", `/api/skills/${other.skill_id}/teams/${tb}`, { status: "inactive" })).status).toBe(
      200,
    );
    const back2 = await undo(toTeams.bulk_id);
    expect(back2).toMatchObject({ changed: 1, skipped: 1 });
    expect(await skippedReasons(back2.bulk_id)).toEqual([[other.skill_id, msg.bulk.undoNoLongerAssigned]]);
    expect(
      await app.count(sql`select 1 from teams_skills where skill_id = ${skill.skill_id} and status = 'active'`),
    ).toBe(1);
    expect(
      await app.count(sql`select 1 from teams_skills where skill_id = ${other.skill_id} and status = 'active'`),
    ).toBe(1);
  });

  it("removes the platform assignments Assign Platform made, skipping a prompt deleted since", async () => {
    const [skill] = await app.rows<{ skill_id: string }>(
      sql`insert into skills (skill_name, status) values ('UP skill', 'active') returning skill_id::text`,
    );
    const prompts = await app.rows<{ prompt_id: string }>(sql`
      insert into pedal_prompts (prompt_title, skill_id, status) values ('UPr a', ${skill.skill_id}, 'active'), ('UPr b', ${skill.skill_id}, 'active')
      returning prompt_id::text`);
    const [pa, pb] = ids(prompts, "prompt_id");
    const [platform] = await app.rows<{ platform_id: string }>(
      sql`insert into platforms (platform_name, status) values ('UP platform', 'active') returning platform_id::text`,
    );
    const run = await apply("prompts", "assign_platform", { ids: [pa, pb] }, { platform_id: platform.platform_id });
    expect(run.changed).toBe(2);
    expect((await app.write("DELETE", `/api/prompts/${pb}`)).status).toBe(200);
    const back = await undo(run.bulk_id);
    expect(back).toMatchObject({ total: 2, changed: 1, skipped: 1, failed: 0 });
    const report = (await app.read(`/api/bulk/${back.bulk_id}/report`, "editor")).body.items;
    expect(report.find((r: { row_id: string }) => r.row_id === pb)).toMatchObject({
      outcome: "skipped",
      reason: msg.bulk.notFound,
      label: "UPr b · UP skill",
    });
    expect(await app.count(sql`select 1 from platform_prompts where platform_id = ${platform.platform_id}`)).toBe(0);
    expect(
      await app.count(
        sql`select 1 from audit_log where action = 'unassign_platform' and entity = 'platform' and entity_id = ${platform.platform_id}`,
      ),
    ).toBe(1);
  });

  it("takes back a role Add Role gave and gives back one Remove Role took, unless changed since", async () => {
    const customer = await customerId();
    const users = await app.rows<{ user_id: string }>(sql`
      insert into users_data (customer_id, email, status) values
        (${customer}, ${`ra-${randomUUID()}@ur.example`}, 'active'), (${customer}, ${`rb-${randomUUID()}@ur.example`}, 'active')
      returning user_id::text`);
    const [ra, rb] = ids(users, "user_id");
    const roles = async () =>
      (
        await app.rows<{ user_id: string; role: string }>(
          sql`select user_id::text, role from users_roles where user_id = any(${uuidArray([ra, rb])}) order by user_id, role`,
        )
      )
        .map((r) => `${r.user_id === ra ? "a" : "b"}:${r.role}`)
        .sort();

    const added = await apply("users", "add_role", { ids: [ra, rb] }, { role: "manager" });
    expect(added.changed).toBe(2);
    // rb loses the role by one edit meanwhile.
    await app.rows(sql`delete from users_roles where user_id = ${rb} and role = 'manager'`);
    const back = await undo(added.bulk_id);
    expect(back).toMatchObject({ changed: 1, skipped: 1 });
    expect(await skippedReasons(back.bulk_id)).toEqual([[rb, msg.bulk.undoNoLongerHasRole]]);
    expect(await roles()).toEqual([]);

    await app.rows(sql`insert into users_roles (user_id, role) values (${ra}, 'admin'), (${rb}, 'admin')`);
    const removed = await apply("users", "remove_role", { ids: [ra, rb] }, { role: "admin" });
    expect(removed.changed).toBe(2);
    await app.rows(sql`insert into users_roles (user_id, role) values (${rb}, 'admin')`);
    const back2 = await undo(removed.bulk_id);
    expect(back2).toMatchObject({ changed: 1, skipped: 1 });
    expect(await skippedReasons(back2.bulk_id)).toEqual([[rb, msg.bulk.undoHasRoleAgain]]);
    expect(await roles()).toEqual(["a:admin", "b:admin"]);
    const audit = await app.rows<{ changes: { before: { roles: string[] }; after: { roles: string[] } } }>(
      sql`select changes from audit_log where entity = 'user' and entity_id = ${ra} and action = 'update' order by created_at desc limit 1`,
    );
    expect(audit[0].changes).toEqual({ before: { roles: [] }, after: { roles: ["admin"] } });
  });

  it("undoes user statuses and team archives over more than one batch; a cancelled undo can be finished by another", async () => {
    const customer = await customerId();
    const users = await app.rows<{ user_id: string }>(sql`
      insert into users_data (customer_id, email, status)
      select ${customer}, 'ub-' || g || '-' || ${randomUUID()} || '@batch.example', case when g % 2 = 0 then 'active' else 'pending' end
      from generate_series(1, 2500) g returning user_id::text`);
    const all = ids(users, "user_id");
    const run = await apply("users", "set_status", { ids: all }, { status: "inactive" });
    expect(run.changed).toBe(2500);
    // The undo is cancelled after its first batch: what it put back stays, and a new undo does the rest.
    const started = await app.write("POST", `/api/bulk/${run.bulk_id}/undo`, {});
    expect(started.status).toBe(202);
    await app.write("POST", `/api/bulk/${started.body.bulk_id}/cancel`, {});
    await bulkIdle();
    const first = (await app.read(`/api/bulk/${started.body.bulk_id}`, "editor")).body as Progress;
    if (first.status === "cancelled") {
      expect((await app.read(`/api/bulk/${run.bulk_id}`, "editor")).body.can_undo).toBe(true);
      const rest = await undo(run.bulk_id);
      expect(rest.changed).toBe(2500 - first.changed);
      expect(rest.skipped).toBe(first.changed);
      const reasons = await app.read(`/api/bulk/${rest.bulk_id}/report?outcome=skipped&limit=1`, "editor");
      expect(reasons.body.items[0].reason).toBe(msg.bulk.undoAlreadyPutBack);
    } else expect(first).toMatchObject({ status: "done", changed: 2500 });
    expect(
      await app.count(sql`select 1 from users_data where user_id = any(${uuidArray(all)}) and status = 'pending'`),
    ).toBe(1250);
    expect(
      await app.count(sql`select 1 from users_data where user_id = any(${uuidArray(all)}) and status = 'active'`),
    ).toBe(1250);

    // A team archive: a pending team comes back pending, an active one active.
    const teams = await app.rows<{ team_id: string }>(sql`
      insert into teams (customer_id, team_name, status) values (${customer}, 'UB a', 'active'), (${customer}, 'UB b', 'pending')
      returning team_id::text`);
    const archived = await apply("teams", "archive", { ids: ids(teams, "team_id") });
    expect(archived.changed).toBe(2);
    expect(await undo(archived.bulk_id)).toMatchObject({ changed: 2 });
    expect(await statuses("teams", "team_id", ids(teams, "team_id"))).toEqual(
      (
        await app.rows<{ s: string }>(sql`
          select x.s from (values (${teams[0].team_id}::uuid, 'active'), (${teams[1].team_id}::uuid, 'pending')) x(id, s) order by x.id`)
      ).map((r) => r.s),
    );
  });
});
