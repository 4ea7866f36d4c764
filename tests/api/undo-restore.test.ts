/**
 * Undo and restore (issue 33, docs/undo-and-restore.md), on PGlite and PostgreSQL: every delete,
 * removed member and unassign takes its rows out of the spec's tables, keeps them in
 * `deleted_records` in the same transaction and answers `deletion_id`; a restore puts back the same
 * ids and values with the cascade that can still come back, reports the rest, refuses a second
 * restore, and is audited; old snapshots are purged by a clock passed in; viewers cannot list or
 * restore.
 */
import { randomUUID } from "node:crypto";
import { sql, type SQL } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { msg } from "../../src/domain/messages";
import { purgeDeletedRecords, schedulePurge } from "../../src/server/deleted";
import { startConsole, testClock, type TestConsole } from "../support/app";
import { targets } from "../support/databases";
import pino from "pino";

const uid = () => randomUUID().slice(0, 8);

describe.each(targets)("undo and restore on %s", (target) => {
  let app: TestConsole;
  beforeAll(async () => {
    app = await startConsole(target);
  });
  afterAll(() => app.close());

  const rows = <T>(query: SQL) => app.rows<T>(query);
  const count = (query: SQL) => app.count(query);
  const send = (method: string, path: string, json?: unknown, as: "admin" | "editor" | "viewer" = "editor") =>
    app.write(method, path, json, as);
  const restore = (deletionId: string, as: "admin" | "editor" | "viewer" = "editor") =>
    send("POST", `/api/deleted/${deletionId}/restore`, undefined, as);

  /** Every column of a table's rows matching `where`, as text, in a stable order: "the same row" means equal here. */
  const snapshot = (table: string, where: SQL) =>
    rows<{ row: string }>(
      sql`select to_jsonb(t)::text as row from ${sql.identifier(table)} t where ${where} order by 1`,
    );

  async function customer() {
    const [c] = await rows<{ customer_id: string }>(
      sql`insert into customers (customer_name) values (${`Undo Co ${uid()}`}) returning customer_id`,
    );
    return c.customer_id;
  }
  async function user(customerId: string, name = `Ann ${uid()}`) {
    const [u] = await rows<{ user_id: string }>(sql`
      insert into users_data (customer_id, email, first_name) values (${customerId}, ${`u-${uid()}@test.example`}, ${name})
      returning user_id`);
    return u.user_id;
  }
  async function skill(name = `Undo Skill ${uid()}`) {
    const { status, body } = await send("POST", "/api/skills", { skill_name: name });
    expect(status).toBe(201);
    return body.skill_id as string;
  }
  async function platform(name = `Undo Platform ${uid()}`) {
    const { status, body } = await send("POST", "/api/platforms", { platform_name: name });
    expect(status).toBe(201);
    return body.platform_id as string;
  }
  /** A team of a new customer with two members and two skills (one assignment with a score and last use). */
  async function teamWithCascade() {
    const customerId = await customer();
    const { body: team } = await send("POST", "/api/teams", {
      customer_id: customerId,
      team_name: `Undo Team ${uid()}`,
    });
    const users = [await user(customerId), await user(customerId)];
    for (const u of users)
      expect((await send("POST", `/api/users/${u}/teams`, { team_id: team.team_id })).status).toBe(201);
    const skills = [await skill(), await skill()];
    for (const s of skills)
      expect((await send("POST", `/api/teams/${team.team_id}/skills`, { skill_id: s })).status).toBe(201);
    await rows(
      sql`update teams_skills set score = 87.5, last_used = now() - interval '3 days' where skill_id = ${skills[0]}`,
    );
    return { customerId, teamId: team.team_id as string, teamName: team.team_name as string, users, skills };
  }

  const teamRows = (teamId: string) =>
    Promise.all([
      snapshot("teams", sql`team_id = ${teamId}`),
      snapshot("teams_users", sql`team_id = ${teamId}`),
      snapshot("teams_skills", sql`team_id = ${teamId}`),
    ]);

  it("deletes a team with its memberships and assignments, keeps them as one snapshot, and restores them as they were", async () => {
    const t = await teamWithCascade();
    const before = await teamRows(t.teamId);
    const { customer_name } = (await app.read(`/api/teams/${t.teamId}`)).body;
    // Named with its customer: teams of different customers share names (issue 46).
    const label = `${t.teamName} · ${customer_name}`;
    const { status, body } = await send("DELETE", `/api/teams/${t.teamId}`);
    expect(status).toBe(200);
    expect(body).toEqual({ ok: true, deletion_id: expect.any(String) });
    // Gone from the spec's tables: readers of the old console's tables see it deleted.
    expect(await count(sql`select 1 from teams where team_id = ${t.teamId}`)).toBe(0);
    expect(await count(sql`select 1 from teams_users where team_id = ${t.teamId}`)).toBe(0);
    expect(await count(sql`select 1 from teams_skills where team_id = ${t.teamId}`)).toBe(0);
    const [kept] = await rows<{ entity: string; entity_id: string; label: string; deleted_by_email: string }>(
      sql`select entity, entity_id, label, deleted_by_email from deleted_records where deletion_id = ${body.deletion_id}`,
    );
    expect(kept).toEqual({
      entity: "team",
      entity_id: t.teamId,
      label,
      deleted_by_email: "editor@test.example",
    });
    expect((await app.read(`/api/teams/${t.teamId}`)).status).toBe(404);

    const listed = await app.read(`/api/deleted?entity=team&entity_id=${t.teamId}`, "editor");
    expect(listed.status).toBe(200);
    expect(listed.body.items).toEqual([
      expect.objectContaining({ deletion_id: body.deletion_id, label, cascade_count: 4 }),
    ]);

    const restored = await restore(body.deletion_id);
    expect(restored.status).toBe(200);
    expect(restored.body.not_restored).toEqual([]);
    expect(restored.body.restored.map((p: { kind: string }) => p.kind).sort()).toEqual(
      ["skill_assignment", "skill_assignment", "team", "team_member", "team_member"].sort(),
    );
    // Its members named with their emails.
    for (const part of restored.body.restored.filter((p: { kind: string }) => p.kind === "team_member"))
      expect(part.label).toMatch(/^Ann \w+ · u-\w+@test\.example$/);
    // Same ids, same values, to the microsecond.
    expect(await teamRows(t.teamId)).toEqual(before);
    expect((await app.read(`/api/teams/${t.teamId}`)).body.stats.total_users).toBe(2);
    // Restored records leave "Recently deleted".
    expect((await app.read(`/api/deleted?entity_id=${t.teamId}`, "editor")).body.items).toEqual([]);
  });

  it("restores what can come back and reports the rest: a skill deleted since, a user now in another customer", async () => {
    const t = await teamWithCascade();
    const { body } = await send("DELETE", `/api/teams/${t.teamId}`);
    const skillName = (
      await rows<{ n: string }>(sql`select skill_name as n from skills where skill_id = ${t.skills[1]}`)
    )[0].n;
    expect((await send("DELETE", `/api/skills/${t.skills[1]}`)).status).toBe(200);
    const other = await customer();
    await rows(sql`update users_data set customer_id = ${other} where user_id = ${t.users[1]}`);

    const { status, body: report } = await restore(body.deletion_id);
    expect(status).toBe(200);
    expect(report.not_restored).toEqual(
      expect.arrayContaining([
        {
          kind: "skill_assignment",
          id: `${t.teamId}:${t.skills[1]}`,
          label: skillName,
          reason: msg.deleted.reasons.skillDeleted,
        },
        expect.objectContaining({
          kind: "team_member",
          id: `${t.teamId}:${t.users[1]}`,
          reason: msg.deleted.reasons.userMoved,
        }),
      ]),
    );
    expect(report.not_restored).toHaveLength(2);
    expect(await count(sql`select 1 from teams where team_id = ${t.teamId}`)).toBe(1);
    expect(await rows(sql`select user_id from teams_users where team_id = ${t.teamId}`)).toEqual([
      { user_id: t.users[0] },
    ]);
    expect(await rows(sql`select skill_id, score from teams_skills where team_id = ${t.teamId}`)).toEqual([
      { skill_id: t.skills[0], score: 87.5 },
    ]);
  });

  it("refuses a second restore (409), and a restore of a record whose id exists again", async () => {
    const t = await teamWithCascade();
    const { body } = await send("DELETE", `/api/teams/${t.teamId}`);
    expect((await restore(body.deletion_id)).status).toBe(200);
    const again = await restore(body.deletion_id);
    expect(again.status).toBe(409);
    expect(again.body.error).toEqual({ code: "conflict", message: msg.deleted.alreadyRestored });
    // Deleted again, restored from the newer snapshot, then the older one names a record that exists.
    const { body: second } = await send("DELETE", `/api/teams/${t.teamId}`);
    await rows(sql`update deleted_records set restored_at = null where deletion_id = ${body.deletion_id}`);
    expect((await restore(second.deletion_id)).status).toBe(200);
    const exists = await restore(body.deletion_id);
    expect(exists.status).toBe(409);
    expect(exists.body.error.message).toBe(msg.deleted.exists);
    expect((await restore(randomUUID())).status).toBe(404);
    expect((await restore("not-a-uuid")).status).toBe(404);
  });

  it("restores a skill with its assignments; a team deleted since is reported", async () => {
    const t = await teamWithCascade();
    const customerId = await customer();
    const { body: other } = await send("POST", "/api/teams", { customer_id: customerId, team_name: `Other ${uid()}` });
    await send("POST", `/api/teams/${other.team_id}/skills`, { skill_id: t.skills[0] });
    const before = await snapshot("skills", sql`skill_id = ${t.skills[0]}`);
    const assignments = await snapshot("teams_skills", sql`skill_id = ${t.skills[0]} and team_id = ${t.teamId}`);
    const { status, body } = await send("DELETE", `/api/skills/${t.skills[0]}`);
    expect(status).toBe(200);
    expect(await count(sql`select 1 from teams_skills where skill_id = ${t.skills[0]}`)).toBe(0);
    expect((await send("DELETE", `/api/teams/${other.team_id}`)).status).toBe(200);
    const { body: report } = await restore(body.deletion_id);
    expect(report.not_restored).toEqual([
      expect.objectContaining({ kind: "skill_assignment", reason: msg.deleted.reasons.teamDeleted }),
    ]);
    expect(await snapshot("skills", sql`skill_id = ${t.skills[0]}`)).toEqual(before);
    expect(await snapshot("teams_skills", sql`skill_id = ${t.skills[0]}`)).toEqual(assignments);
  });

  it("restores a prompt with its versions and platforms, and a platform with its prompts", async () => {
    const skillId = await skill();
    const { body: prompt } = await send("POST", "/api/prompts", { prompt_title: `P ${uid()}`, skill_id: skillId });
    const title = `P2 ${uid()}`;
    await send("PATCH", `/api/prompts/${prompt.prompt_id}`, { prompt_title: title });
    const platforms = [await platform(), await platform()];
    for (const p of platforms) await send("POST", `/api/prompts/${prompt.prompt_id}/platforms`, { platform_id: p });
    const where = sql`prompt_id = ${prompt.prompt_id}`;
    const before = await Promise.all(
      ["pedal_prompts", "prompt_versions", "platform_prompts"].map((t) => snapshot(t, where)),
    );
    const { body } = await send("DELETE", `/api/prompts/${prompt.prompt_id}`);
    expect(body.deletion_id).toEqual(expect.any(String));
    expect(await count(sql`select 1 from prompt_versions where ${where}`)).toBe(0);
    // Named with its skill, as the bulk report names it.
    const [{ skill_name }] = await rows<{ skill_name: string }>(
      sql`select skill_name from skills where skill_id = ${skillId}`,
    );
    expect((await app.read(`/api/deleted?entity_id=${prompt.prompt_id}`, "editor")).body.items).toEqual([
      expect.objectContaining({ label: `${title} · ${skill_name}` }),
    ]);
    const { body: report } = await restore(body.deletion_id);
    expect(report.restored.filter((p: { kind: string }) => p.kind === "prompt_version")).toHaveLength(2);
    expect(
      await Promise.all(["pedal_prompts", "prompt_versions", "platform_prompts"].map((t) => snapshot(t, where))),
    ).toEqual(before);

    const { body: gone } = await send("DELETE", `/api/platforms/${platforms[0]}?cascade=true`);
    expect(gone).toEqual({ ok: true, removed_assignments: 1, deletion_id: expect.any(String) });
    expect((await restore(gone.deletion_id)).body.not_restored).toEqual([]);
    expect(await count(sql`select 1 from platform_prompts where platform_id = ${platforms[0]}`)).toBe(1);

    // A prompt whose skill is gone cannot come back at all: 409 with the reason.
    const lone = await skill();
    const { body: p2 } = await send("POST", "/api/prompts", { prompt_title: `Lone ${uid()}`, skill_id: lone });
    const { body: d2 } = await send("DELETE", `/api/prompts/${p2.prompt_id}`);
    expect((await send("DELETE", `/api/skills/${lone}`)).status).toBe(200);
    const refused = await restore(d2.deletion_id);
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toBe(msg.deleted.reasons.skillDeleted);
    expect(
      await count(sql`select 1 from deleted_records where deletion_id = ${d2.deletion_id} and restored_at is null`),
    ).toBe(1);
  });

  it("undoes a removed member, a Leave Team, a skill unassign and a platform unassign", async () => {
    const t = await teamWithCascade();
    const member = sql`team_id = ${t.teamId} and user_id = ${t.users[0]}`;
    const membership = await snapshot("teams_users", member);
    const removed = await send("DELETE", `/api/teams/${t.teamId}/members/${t.users[0]}`);
    expect(removed.body).toEqual({ ok: true, deletion_id: expect.any(String) });
    // A link is named by its two sides: the user with their email, the team with its customer.
    const { customer_name } = (await app.read(`/api/teams/${t.teamId}`)).body;
    expect(
      (await app.read(`/api/deleted?entity=team_member&entity_id=${t.teamId}:${t.users[0]}`, "editor")).body.items,
    ).toEqual([
      expect.objectContaining({
        label: expect.stringMatching(
          new RegExp(`^Ann \\w+ · u-\\w+@test\\.example — ${t.teamName} · ${customer_name}$`),
        ),
      }),
    ]);
    expect((await restore(removed.body.deletion_id)).body.restored).toEqual([
      expect.objectContaining({ kind: "team_member", id: `${t.teamId}:${t.users[0]}` }),
    ]);
    expect(await snapshot("teams_users", member)).toEqual(membership);

    const left = await send("DELETE", `/api/users/${t.users[0]}/teams/${t.teamId}`);
    expect(left.body.deletion_id).toEqual(expect.any(String));
    // The same rules as adding a member: an archived team refuses it, with the reason.
    await send("PATCH", `/api/teams/${t.teamId}`, { status: "inactive" });
    const archived = await restore(left.body.deletion_id);
    expect(archived.status).toBe(409);
    expect(archived.body.error.message).toBe(msg.deleted.reasons.teamArchived);
    await send("PATCH", `/api/teams/${t.teamId}`, { status: "active" });
    expect((await restore(left.body.deletion_id)).status).toBe(200);

    const pair = sql`team_id = ${t.teamId} and skill_id = ${t.skills[0]}`;
    const assignment = await snapshot("teams_skills", pair);
    const unassigned = await send("PATCH", `/api/skills/${t.skills[0]}/teams/${t.teamId}`, { status: "inactive" });
    expect(unassigned.body).toMatchObject({ status: "inactive", deletion_id: expect.any(String) });
    // The spec keeps an unassigned row (inactive); Undo puts back its state before, score and last use included.
    expect((await restore(unassigned.body.deletion_id)).status).toBe(200);
    expect(await snapshot("teams_skills", pair)).toEqual(assignment);
    // Reassigned meanwhile: nothing to restore.
    const second = await send("PATCH", `/api/skills/${t.skills[0]}/teams/${t.teamId}`, { status: "inactive" });
    await send("PATCH", `/api/skills/${t.skills[0]}/teams/${t.teamId}`, { status: "active" });
    expect((await restore(second.body.deletion_id)).status).toBe(409);

    const skillId = await skill();
    const { body: prompt } = await send("POST", "/api/prompts", { prompt_title: `P ${uid()}`, skill_id: skillId });
    const platformId = await platform();
    await send("POST", `/api/prompts/${prompt.prompt_id}/platforms`, { platform_id: platformId });
    const link = sql`prompt_id = ${prompt.prompt_id} and platform_id = ${platformId}`;
    const assigned = await snapshot("platform_prompts", link);
    const un = await send("DELETE", `/api/prompts/${prompt.prompt_id}/platforms/${platformId}`);
    expect(un.body).toEqual({ ok: true, deletion_id: expect.any(String) });
    expect(await count(sql`select 1 from platform_prompts where ${link}`)).toBe(0);
    expect((await restore(un.body.deletion_id)).status).toBe(200);
    expect(await snapshot("platform_prompts", link)).toEqual(assigned);
  });

  it("audits each restore: one row against the record and one against each record it linked again", async () => {
    const t = await teamWithCascade();
    const { body } = await send("DELETE", `/api/teams/${t.teamId}`);
    await restore(body.deletion_id);
    const audit = await rows<{ entity: string; entity_id: string; operator_email: string }>(sql`
      select entity, entity_id, operator_email from audit_log
      where action = 'restore' and changes->'after'->>'deletion_id' = ${body.deletion_id} order by entity, entity_id`);
    expect(audit).toEqual(
      [
        { entity: "team", entity_id: t.teamId },
        ...t.users.map((u) => ({ entity: "user", entity_id: u })),
        ...t.skills.map((s) => ({ entity: "skill", entity_id: s })),
      ]
        .map((a) => ({ ...a, operator_email: "editor@test.example" }))
        .sort((a, b) => (a.entity + a.entity_id).localeCompare(b.entity + b.entity_id)),
    );
  });

  it("lists open deletions for admins and editors, paged, searched, filtered and sorted; viewers get 403", async () => {
    const name = `Findable ${uid()}`;
    const skillId = await skill(name);
    const { body } = await send("DELETE", `/api/skills/${skillId}`);
    for (const role of ["admin", "editor"] as const) {
      const { status, body: page } = await app.read(`/api/deleted?q=${encodeURIComponent(name)}`, role);
      expect(status).toBe(200);
      expect(page.items).toEqual([
        expect.objectContaining({ deletion_id: body.deletion_id, entity: "skill", label: name, cascade_count: 0 }),
      ]);
      expect(page.total).toBe(1);
    }
    expect((await app.read("/api/deleted", "viewer")).status).toBe(403);
    expect((await app.read("/api/deleted/export.csv", "viewer")).status).toBe(403);
    expect((await restore(body.deletion_id, "viewer")).status).toBe(403);
    expect((await app.read("/api/deleted?entity=customer", "editor")).status).toBe(422);
    for (const sort of ["deleted_at", "label", "entity"])
      expect((await app.read(`/api/deleted?sort=${sort}&order=asc&limit=2`, "editor")).status).toBe(200);
    const paged = await app.read("/api/deleted?limit=1", "editor");
    expect(paged.body.items).toHaveLength(1);
    expect(paged.body.next_cursor).toEqual(expect.any(String));
  });

  it("purges snapshots older than the retention by the clock it is given, at start and every hour", async () => {
    const clock = testClock();
    const skillId = await skill();
    const { body } = await send("DELETE", `/api/skills/${skillId}`);
    const kept = sql`select 1 from deleted_records where deletion_id = ${body.deletion_id}`;
    expect(await purgeDeletedRecords(app.handle.db, { retentionDays: 30, now: clock() })).toBe(0);
    clock.advance(29 * 86_400);
    await purgeDeletedRecords(app.handle.db, { retentionDays: 30, now: clock() });
    expect(await count(kept)).toBe(1);
    clock.advance(2 * 86_400);
    const scheduled = schedulePurge(app.handle.db, { retentionDays: 30, clock, logger: pino({ level: "silent" }) });
    await scheduled.first;
    scheduled.stop();
    expect(await count(kept)).toBe(0);
    expect((await restore(body.deletion_id)).status).toBe(404);
  });
});
