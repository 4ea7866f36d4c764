/**
 * Skills API (SPEC.md §2 "/skills" screens, §3–§5, §8): the list's filters, search and cards
 * against direct SQL; the Teams column (active assignments only); create, edit, archive and
 * delete with every validation message and audit row; assign, unassign and reassign keeping one
 * row per (team, skill); the Assign modal's candidates; bulk assign all-or-nothing; the skill's
 * prompts (Add Prompt) and comments; the skill picker. On PGlite and PostgreSQL.
 */
import { randomUUID } from "node:crypto";
import { sql, type SQL } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { skillStatuses, skillTypes } from "../../src/domain/enums";
import { msg } from "../../src/domain/messages";
import { skillScopes } from "../../src/domain/skills";
import { startConsole, type TestConsole } from "../support/app";
import { targets } from "../support/databases";

const uid = () => randomUUID().slice(0, 8);

describe.each(targets)("skills API on %s", (target) => {
  let app: TestConsole;
  beforeAll(async () => {
    app = await startConsole(target, { demo: true });
  });
  afterAll(() => app.close());

  const rows = <T>(query: SQL) => app.rows<T>(query);
  const get = (path: string) => app.read(path);
  const send = (method: string, path: string, json?: unknown) => app.write(method, path, json);

  async function newSkill(body: Record<string, unknown> = {}): Promise<{ skill_id: string; skill_name: string }> {
    const { status, body: created } = await send("POST", "/api/skills", { skill_name: `Test Skill ${uid()}`, ...body });
    expect(status).toBe(201);
    return created;
  }

  async function newTeam(
    options: { customerId?: string; status?: "active" | "inactive" } = {},
  ): Promise<{ team_id: string; customer_id: string; team_name: string }> {
    let customer_id = options.customerId;
    if (!customer_id) {
      const c = await send("POST", "/api/customers", { customer_name: `Skill Customer ${uid()}` });
      customer_id = c.body.customer_id as string;
    }
    const { status, body } = await send("POST", "/api/teams", {
      customer_id,
      team_name: `Skill Team ${uid()}`,
      status: options.status ?? "active",
    });
    expect(status).toBe(201);
    return body;
  }

  const assignmentRows = (skillId: string) =>
    rows<{ team_id: string; status: string; customer_id: string }>(
      sql`select team_id, status, customer_id from teams_skills where skill_id = ${skillId} order by team_id`,
    );

  const auditOf = (skillId: string) =>
    rows<{ action: string; changes: { before?: Record<string, unknown>; after?: Record<string, unknown> } }>(sql`
      select action, changes from audit_log where entity = 'skill' and entity_id = ${skillId} order by created_at, audit_id`);

  const teamCount = async (skillId: string) => {
    const { body } = await get(
      `/api/skills?limit=200&q=${encodeURIComponent((await get(`/api/skills/${skillId}`)).body.skill_name)}`,
    );
    return (body.items as Array<{ skill_id: string; team_count: number }>).find((s) => s.skill_id === skillId)!
      .team_count;
  };

  describe("GET /api/skills", () => {
    it("gives every filter combination the total of a direct SQL count, and cards over all skills", async () => {
      const [cards] = await rows<{ total: number; active: number; inactive: number; global: number }>(sql`
        select count(*)::int as total, count(*) filter (where status = 'active')::int as active,
          count(*) filter (where status = 'inactive')::int as inactive, count(*) filter (where is_global)::int as global from skills`);
      for (const type of [undefined, ...skillTypes]) {
        for (const scope of [undefined, ...skillScopes]) {
          for (const status of [undefined, ...skillStatuses]) {
            for (const q of [undefined, "data", "an"]) {
              const params = new URLSearchParams({ limit: "200" });
              if (type) params.set("type", type);
              if (scope) params.set("scope", scope);
              if (status) params.set("status", status);
              if (q) params.set("q", q);
              const { status: code, body } = await get(`/api/skills?${params}`);
              expect(code).toBe(200);
              const pattern = q ? (q.length >= 3 ? `%${q}%` : `${q}%`) : undefined;
              const [{ n }] = await rows<{ n: number }>(sql`
                select count(*)::int as n from skills s where true
                ${type ? sql`and s.type = ${type}` : sql``}
                ${scope ? sql`and s.is_global = ${scope === "global"}` : sql``}
                ${status ? sql`and s.status = ${status}` : sql``}
                ${
                  pattern
                    ? sql`and (s.skill_name ilike ${pattern} or s.skill_description ilike ${pattern}
                  or s.type ilike ${pattern} or s.status ilike ${pattern})`
                    : sql``
                }`);
              const where = `${params}`;
              expect(body.total, where).toBe(n);
              expect(body.items.length, where).toBe(Math.min(n, 200));
              expect(body.summary, where).toEqual(cards);
              for (const item of body.items) {
                if (type) expect(item.type).toBe(type);
                if (scope) expect(item.is_global).toBe(scope === "global");
                if (status) expect(item.status).toBe(status);
              }
            }
          }
        }
      }
    });

    it("counts only active assignments in the Teams column, for every skill", async () => {
      const { body } = await get("/api/skills?limit=200");
      const expected = await rows<{ skill_id: string; n: number }>(sql`
        select s.skill_id, (select count(*) from teams_skills ts where ts.skill_id = s.skill_id and ts.status = 'active')::int as n from skills s`);
      const byId = new Map(expected.map((r) => [r.skill_id, r.n]));
      expect(body.items.length).toBeGreaterThan(0);
      for (const item of body.items) expect(item.team_count, item.skill_name).toBe(byId.get(item.skill_id));
      // The demo data has inactive assignments, so the difference matters.
      const [{ inactive }] = await rows<{ inactive: number }>(
        sql`select count(*)::int as inactive from teams_skills where status = 'inactive'`,
      );
      expect(inactive).toBeGreaterThan(0);
    });

    it("sorts by the Teams column and by scope", async () => {
      const desc = (await get("/api/skills?limit=200&sort=team_count&order=desc")).body.items.map(
        (s: { team_count: number }) => s.team_count,
      );
      expect(desc).toEqual([...desc].sort((a, b) => b - a));
      const scope = (await get("/api/skills?limit=200&sort=is_global&order=asc")).body.items.map(
        (s: { is_global: boolean }) => s.is_global,
      );
      expect(scope).toEqual([...scope].sort((a, b) => Number(a) - Number(b)));
    });

    it("refuses unknown filter values with 422", async () => {
      for (const bad of ["type=robot", "scope=everywhere", "status=archived", "sort=nope"]) {
        const { status, body } = await get(`/api/skills?${bad}`);
        expect(status, bad).toBe(422);
        expect(body.error.code).toBe("validation_failed");
      }
    });
  });

  describe("create and edit", () => {
    it("creates with the spec's defaults, trims the name, saves an empty description as null, and audits", async () => {
      const { status, body } = await send("POST", "/api/skills", {
        skill_name: "  Trimmed Skill  ",
        skill_description: "   ",
      });
      expect(status).toBe(201);
      expect(body).toMatchObject({
        skill_name: "Trimmed Skill",
        skill_description: null,
        type: "manual",
        status: "active",
        is_global: false,
      });
      expect((await auditOf(body.skill_id)).map((a) => a.action)).toEqual(["create"]);
      const full = await send("POST", "/api/skills", {
        skill_name: "Agent Skill",
        skill_description: "  Does things  ",
        type: "agent",
        status: "inactive",
        is_global: true,
      });
      expect(full.body).toMatchObject({
        skill_description: "Does things",
        type: "agent",
        status: "inactive",
        is_global: true,
      });
    });

    it("answers every validation message of the skill form", async () => {
      const cases: Array<[unknown, string, string]> = [
        [{}, "skill_name", msg.skills.nameRequired],
        [{ skill_name: "   " }, "skill_name", msg.skills.nameRequired],
        [{ skill_name: "x".repeat(201) }, "skill_name", msg.text.tooLong("Skill name", 200)],
        [
          { skill_name: "Ok", skill_description: "x".repeat(5001) },
          "skill_description",
          msg.text.tooLong("Skill description", 5000),
        ],
        [{ skill_name: "Ok", type: "robot" }, "type", msg.skills.typeInvalid],
        [{ skill_name: "Ok", status: "archived" }, "status", msg.skills.statusInvalid],
        [{ skill_name: "Ok", is_global: "yes" }, "is_global", msg.skills.globalInvalid],
      ];
      for (const [input, field, message] of cases) {
        const { status, body } = await send("POST", "/api/skills", input);
        expect(status, JSON.stringify(input)).toBe(422);
        expect(body.error.fields[field]).toBe(message);
      }
      const skill = await newSkill();
      const empty = await send("PATCH", `/api/skills/${skill.skill_id}`, {});
      expect(empty.status).toBe(422);
      expect(empty.body.error.message).toBe(msg.skills.nothingToUpdate);
      const blank = await send("PATCH", `/api/skills/${skill.skill_id}`, { skill_name: " " });
      expect(blank.body.error.fields.skill_name).toBe(msg.skills.nameRequired);
      const missing = await send("PATCH", `/api/skills/${randomUUID()}`, { skill_name: "X" });
      expect(missing.status).toBe(404);
      expect(missing.body.error.message).toBe(msg.skills.notFound);
      expect((await get("/api/skills/not-a-uuid")).body.error.message).toBe(msg.skills.notFound);
    });

    it("edits every field, sets updated_at, and audits the changed fields only", async () => {
      const skill = await newSkill({ skill_description: "Old" });
      const before = (await get(`/api/skills/${skill.skill_id}`)).body;
      const { status, body } = await send("PATCH", `/api/skills/${skill.skill_id}`, {
        skill_name: " Renamed ",
        skill_description: "",
        type: "detected",
        status: "active",
        is_global: true,
      });
      expect(status).toBe(200);
      expect(body).toMatchObject({ skill_name: "Renamed", skill_description: null, type: "detected", is_global: true });
      expect(Date.parse(body.updated_at)).toBeGreaterThan(Date.parse(before.updated_at));
      const [, edit] = await auditOf(skill.skill_id);
      expect(edit.action).toBe("update");
      expect(Object.keys(edit.changes.after!).sort()).toEqual([
        "is_global",
        "skill_description",
        "skill_name",
        "type",
        "updated_at",
      ]);
    });

    it("archives and unarchives; archiving an inactive skill writes nothing", async () => {
      const skill = await newSkill();
      expect((await send("PATCH", `/api/skills/${skill.skill_id}`, { status: "inactive" })).body.status).toBe(
        "inactive",
      );
      const once = (await get(`/api/skills/${skill.skill_id}`)).body.updated_at;
      const again = await send("PATCH", `/api/skills/${skill.skill_id}`, { status: "inactive" });
      expect(again.status).toBe(200);
      expect(again.body.updated_at).toBe(once);
      expect((await send("PATCH", `/api/skills/${skill.skill_id}`, { status: "active" })).body.status).toBe("active");
      expect((await auditOf(skill.skill_id)).map((a) => a.action)).toEqual(["create", "update", "update"]);
    });

    it("keeps the cards exact through create, archive, scope change and delete", async () => {
      const cards = async () => (await get("/api/skills?limit=1")).body.summary;
      const start = await cards();
      const skill = await newSkill({ is_global: true });
      expect(await cards()).toEqual({
        ...start,
        total: start.total + 1,
        active: start.active + 1,
        global: start.global + 1,
      });
      await send("PATCH", `/api/skills/${skill.skill_id}`, { status: "inactive", is_global: false });
      expect(await cards()).toEqual({ ...start, total: start.total + 1, inactive: start.inactive + 1 });
      await send("DELETE", `/api/skills/${skill.skill_id}`);
      expect(await cards()).toEqual(start);
    });
  });

  describe("detail", () => {
    it("gives the statistics, assignments with team and customer names, prompts and comments newest first", async () => {
      const [{ skill_id }] = await rows<{ skill_id: string }>(sql`
        select skill_id from teams_skills group by skill_id having count(*) filter (where status = 'inactive') > 0
        order by count(*) desc, skill_id limit 1`);
      const { status, body } = await get(`/api/skills/${skill_id}`);
      expect(status).toBe(200);
      const [stats] = await rows<Record<string, number>>(sql`
        select count(*)::int as total_teams, count(*) filter (where status = 'active')::int as active_assignments,
          count(*) filter (where status = 'inactive')::int as inactive_assignments,
          (select count(*) from pedal_prompts where skill_id = ${skill_id})::int as prompts,
          (select count(*) from skill_comments where skill_id = ${skill_id})::int as comments
        from teams_skills where skill_id = ${skill_id}`);
      expect(body.stats).toEqual(stats);

      const teams = (await get(`/api/skills/${skill_id}/teams?limit=200`)).body;
      expect(teams.total).toBe(stats.total_teams);
      const names = await rows<{ team_id: string; team_name: string; customer_name: string }>(sql`
        select ts.team_id, t.team_name, c.customer_name from teams_skills ts join teams t on t.team_id = ts.team_id
        join customers c on c.customer_id = ts.customer_id where ts.skill_id = ${skill_id}`);
      for (const row of teams.items) {
        const want = names.find((n) => n.team_id === row.team_id)!;
        expect(row).toMatchObject({ team_name: want.team_name, customer_name: want.customer_name });
      }
      const times = teams.items.map((r: { assigned_at: string }) => Date.parse(r.assigned_at));
      expect(times).toEqual([...times].sort((a, b) => b - a));

      const prompts = (await get(`/api/skills/${skill_id}/prompts?limit=200`)).body;
      expect(prompts.total).toBe(stats.prompts);
      const promptTimes = prompts.items.map((p: { created_at: string }) => Date.parse(p.created_at));
      expect(promptTimes).toEqual([...promptTimes].sort((a, b) => b - a));

      const comments = (await get(`/api/skills/${skill_id}/comments?limit=200`)).body;
      expect(comments.total).toBe(stats.comments);
      const commenters = await rows<{ comment_id: string; first_name: string | null; last_name: string | null }>(sql`
        select sc.comment_id, u.first_name, u.last_name from skill_comments sc join users_data u on u.user_id = sc.user_id where sc.skill_id = ${skill_id}`);
      for (const c of comments.items) {
        const want = commenters.find((x) => x.comment_id === c.comment_id)!;
        expect(c).toMatchObject({ first_name: want.first_name, last_name: want.last_name });
      }
    });

    it("answers 404 Skill not found for an unknown skill, on the detail and its tables", async () => {
      for (const path of ["", "/teams", "/prompts", "/comments", "/assignable-teams"]) {
        const { status, body } = await get(`/api/skills/${randomUUID()}${path}`);
        expect(status, path).toBe(404);
        expect(body.error.message).toBe(msg.skills.notFound);
      }
    });
  });

  describe("assignments", () => {
    it("assigns (customer from the team), unassigns and reassigns, keeping one row per team and skill", async () => {
      const skill = await newSkill();
      const team = await newTeam();
      const first = await send("POST", `/api/skills/${skill.skill_id}/teams`, { team_id: team.team_id });
      expect(first.status).toBe(201);
      expect(await assignmentRows(skill.skill_id)).toEqual([
        { team_id: team.team_id, status: "active", customer_id: team.customer_id },
      ]);
      expect(await teamCount(skill.skill_id)).toBe(1);

      const unassign = await send("PATCH", `/api/skills/${skill.skill_id}/teams/${team.team_id}`, {
        status: "inactive",
      });
      expect(unassign.status).toBe(200);
      expect(await assignmentRows(skill.skill_id)).toEqual([
        { team_id: team.team_id, status: "inactive", customer_id: team.customer_id },
      ]);
      expect(await teamCount(skill.skill_id)).toBe(0);
      // The team's own views count only active assignments.
      expect((await get(`/api/teams/${team.team_id}`)).body.skills_count).toBe(0);

      const reassign = await send("PATCH", `/api/skills/${skill.skill_id}/teams/${team.team_id}`, { status: "active" });
      expect(reassign.status).toBe(200);
      const again = await send("POST", `/api/skills/${skill.skill_id}/teams`, { team_id: team.team_id });
      expect(again.status).toBe(200);
      expect(await assignmentRows(skill.skill_id)).toEqual([
        { team_id: team.team_id, status: "active", customer_id: team.customer_id },
      ]);
      expect(await teamCount(skill.skill_id)).toBe(1);
      expect((await get(`/api/teams/${team.team_id}`)).body.skills_count).toBe(1);

      // Unchanged status: no write, no audit row.
      await send("PATCH", `/api/skills/${skill.skill_id}/teams/${team.team_id}`, { status: "active" });
      expect((await auditOf(skill.skill_id)).map((a) => a.action)).toEqual([
        "create",
        "assign_skill",
        "unassign_skill",
        "reassign_skill",
      ]);
      const stats = (await get(`/api/skills/${skill.skill_id}`)).body.stats;
      expect(stats).toMatchObject({ total_teams: 1, active_assignments: 1, inactive_assignments: 0 });
    });

    it("refuses unknown and inactive teams, inactive skills, and unknown assignments", async () => {
      const skill = await newSkill();
      const inactiveTeam = await newTeam({ status: "inactive" });
      const unknown = await send("POST", `/api/skills/${skill.skill_id}/teams`, { team_id: randomUUID() });
      expect(unknown.status).toBe(404);
      expect(unknown.body.error.message).toBe(msg.teams.notFound);
      const inactive = await send("POST", `/api/skills/${skill.skill_id}/teams`, { team_id: inactiveTeam.team_id });
      expect(inactive.status).toBe(422);
      expect(inactive.body.error.message).toBe(msg.skills.teamNotActive);
      const missing = await send("POST", `/api/skills/${skill.skill_id}/teams`, {});
      expect(missing.body.error.fields.team_id).toBe(msg.skills.chooseTeam);
      const archived = await newSkill({ status: "inactive" });
      const team = await newTeam();
      const refused = await send("POST", `/api/skills/${archived.skill_id}/teams`, { team_id: team.team_id });
      expect(refused.status).toBe(422);
      expect(refused.body.error.message).toBe(msg.skills.notActive);
      const none = await send("PATCH", `/api/skills/${skill.skill_id}/teams/${team.team_id}`, { status: "inactive" });
      expect(none.status).toBe(404);
      expect(none.body.error.message).toBe(msg.skills.notAssigned);
      const badStatus = await send("PATCH", `/api/skills/${skill.skill_id}/teams/${team.team_id}`, { status: "gone" });
      expect(badStatus.body.error.fields.status).toBe(msg.skills.assignmentStatusInvalid);
      expect(await assignmentRows(skill.skill_id)).toEqual([]);
    });

    it("offers as candidates only active teams with no record for the skill, filtered by customer and search", async () => {
      const skill = await newSkill();
      const a = await newTeam();
      const b = await newTeam({ customerId: a.customer_id });
      const c = await newTeam({ customerId: a.customer_id });
      await newTeam({ customerId: a.customer_id, status: "inactive" });
      await send("POST", `/api/skills/${skill.skill_id}/teams`, { team_id: b.team_id });
      await send("POST", `/api/skills/${skill.skill_id}/teams`, { team_id: c.team_id });
      await send("PATCH", `/api/skills/${skill.skill_id}/teams/${c.team_id}`, { status: "inactive" });
      const { body } = await get(
        `/api/skills/${skill.skill_id}/assignable-teams?customer_id=${a.customer_id}&limit=200`,
      );
      expect(body.items.map((t: { team_id: string }) => t.team_id)).toEqual([a.team_id]);

      const all = await get(`/api/skills/${skill.skill_id}/assignable-teams?limit=200`);
      const [{ n }] = await rows<{ n: number }>(sql`
        select count(*)::int as n from teams t where t.status = 'active'
        and not exists (select 1 from teams_skills ts where ts.team_id = t.team_id and ts.skill_id = ${skill.skill_id})`);
      expect(all.body.total).toBe(n);
      const searched = await get(`/api/skills/${skill.skill_id}/assignable-teams?q=${encodeURIComponent(a.team_name)}`);
      expect(searched.body.items.map((t: { team_id: string }) => t.team_id)).toEqual([a.team_id]);
    });

    it("bulk-assigns in one transaction with one audit row per team, or nothing when one team is bad", async () => {
      const skill = await newSkill();
      const a = await newTeam();
      const b = await newTeam({ customerId: a.customer_id });
      const inactive = await newTeam({ customerId: a.customer_id, status: "inactive" });
      const assigned = await newTeam({ customerId: a.customer_id });
      await send("POST", `/api/skills/${skill.skill_id}/teams`, { team_id: assigned.team_id });
      const before = await assignmentRows(skill.skill_id);
      const auditBefore = (await auditOf(skill.skill_id)).length;

      for (const [bad, message] of [
        [randomUUID(), msg.teams.notFound],
        [inactive.team_id, msg.skills.teamNotActive],
        [assigned.team_id, msg.skills.alreadyAssigned],
      ] as const) {
        const { status, body } = await send("POST", `/api/skills/${skill.skill_id}/teams/bulk`, {
          team_ids: [a.team_id, b.team_id, bad],
        });
        expect(status).toBe(422);
        expect(body.error.message).toBe(msg.skills.bulkInvalid);
        expect(body.error.fields["team_ids.2"]).toBe(message);
        expect(await assignmentRows(skill.skill_id)).toEqual(before);
        expect((await auditOf(skill.skill_id)).length).toBe(auditBefore);
      }
      for (const [input, message] of [
        [{ team_ids: [] }, msg.skills.chooseTeams],
        [{ team_ids: [a.team_id, a.team_id] }, msg.skills.duplicateTeams],
      ] as const) {
        const { status, body } = await send("POST", `/api/skills/${skill.skill_id}/teams/bulk`, input);
        expect(status).toBe(422);
        expect(body.error.fields.team_ids).toBe(message);
      }

      const ok = await send("POST", `/api/skills/${skill.skill_id}/teams/bulk`, { team_ids: [a.team_id, b.team_id] });
      expect(ok.status).toBe(201);
      expect(ok.body).toEqual({ created: 2 });
      expect((await assignmentRows(skill.skill_id)).filter((r) => r.status === "active")).toHaveLength(3);
      const audit = (await auditOf(skill.skill_id)).slice(auditBefore);
      expect(audit.map((r) => [r.action, r.changes.after?.team_id]).sort()).toEqual(
        [
          ["assign_skill", a.team_id],
          ["assign_skill", b.team_id],
        ].sort(),
      );
      expect(await teamCount(skill.skill_id)).toBe(3);
    });
  });

  describe("delete", () => {
    it("deletes the skill with its team assignments in one transaction", async () => {
      const skill = await newSkill();
      const team = await newTeam();
      await send("POST", `/api/skills/${skill.skill_id}/teams`, { team_id: team.team_id });
      const { status, body } = await send("DELETE", `/api/skills/${skill.skill_id}`);
      expect(status).toBe(200);
      expect(body).toEqual({ ok: true, deletion_id: expect.any(String) });
      expect(await assignmentRows(skill.skill_id)).toEqual([]);
      expect((await get(`/api/skills/${skill.skill_id}`)).status).toBe(404);
      expect((await get(`/api/teams/${team.team_id}`)).body.skills_count).toBe(0);
      const [deleted] = (await auditOf(skill.skill_id)).slice(-1);
      expect(deleted.action).toBe("delete");
      expect(deleted.changes.before).toMatchObject({ assignment_count: 1 });
      expect((await send("DELETE", `/api/skills/${skill.skill_id}`)).status).toBe(404);
    });

    it("refuses with 409 naming the prompts and comments that refer to the skill, and changes nothing", async () => {
      const skill = await newSkill();
      const team = await newTeam();
      await send("POST", `/api/skills/${skill.skill_id}/teams`, { team_id: team.team_id });
      await send("POST", `/api/skills/${skill.skill_id}/prompts`, { prompt_title: "One" });
      await send("POST", `/api/skills/${skill.skill_id}/prompts`, { prompt_title: "Two" });
      const refused = await send("DELETE", `/api/skills/${skill.skill_id}`);
      expect(refused.status).toBe(409);
      expect(refused.body.error).toEqual({ code: "conflict", message: msg.skills.deleteBlocked(2, 0) });
      expect(refused.body.error.message).toBe(
        "This skill cannot be deleted: 2 prompts use it. Delete those first, or archive the skill instead.",
      );
      expect(await assignmentRows(skill.skill_id)).toHaveLength(1);

      const [user] = await rows<{ user_id: string; customer_id: string }>(
        sql`select user_id, customer_id from users_data order by user_id limit 1`,
      );
      await rows(
        sql`insert into skill_comments (customer_id, skill_id, user_id, comment_value) values (${user.customer_id}, ${skill.skill_id}, ${user.user_id}, 'Nice')`,
      );
      const both = await send("DELETE", `/api/skills/${skill.skill_id}`);
      expect(both.body.error.message).toBe(
        "This skill cannot be deleted: 2 prompts use it and 1 comment is about it. Delete those first, or archive the skill instead.",
      );
      expect((await get(`/api/skills/${skill.skill_id}`)).status).toBe(200);
    });
  });

  describe("prompts from the skill page", () => {
    it("adds a prompt with a trimmed title and value (empty saved null), default active, and audits it", async () => {
      const skill = await newSkill();
      const { status, body } = await send("POST", `/api/skills/${skill.skill_id}/prompts`, {
        prompt_title: "  Summarise  ",
        prompt_value: "   ",
      });
      expect(status).toBe(201);
      expect(body).toMatchObject({
        prompt_title: "Summarise",
        prompt_value: null,
        status: "active",
        skill_id: skill.skill_id,
      });
      const withValue = await send("POST", `/api/skills/${skill.skill_id}/prompts`, {
        prompt_title: "Second",
        prompt_value: "  Say hi  ",
        status: "draft",
      });
      expect(withValue.body).toMatchObject({ prompt_value: "Say hi", status: "draft" });
      const list = (await get(`/api/skills/${skill.skill_id}/prompts`)).body;
      expect(list.items.map((p: { prompt_title: string }) => p.prompt_title)).toEqual(["Second", "Summarise"]);
      const [audit] = await rows<{ n: number }>(
        sql`select count(*)::int as n from audit_log where entity = 'prompt' and entity_id = ${body.prompt_id} and action = 'create'`,
      );
      expect(audit.n).toBe(1);
    });

    it("answers the prompt form's validation messages", async () => {
      const skill = await newSkill();
      for (const [input, field, message] of [
        [{}, "prompt_title", msg.prompts.titleRequired],
        [{ prompt_title: "  " }, "prompt_title", msg.prompts.titleRequired],
        [{ prompt_title: "x".repeat(501) }, "prompt_title", msg.text.tooLong("Prompt title", 500)],
        [{ prompt_title: "Ok", status: "gone" }, "status", msg.prompts.statusInvalid],
      ] as const) {
        const { status, body } = await send("POST", `/api/skills/${skill.skill_id}/prompts`, input);
        expect(status).toBe(422);
        expect(body.error.fields[field]).toBe(message);
      }
      const unknown = await send("POST", `/api/skills/${randomUUID()}/prompts`, { prompt_title: "Ok" });
      expect(unknown.status).toBe(404);
      expect(unknown.body.error.message).toBe(msg.skills.notFound);
    });
  });

  describe("skill picker", () => {
    it("answers at most 20 matches by name, active only on request, and one option by id", async () => {
      const { body } = await get("/api/skills/options");
      expect(body.items.length).toBeLessThanOrEqual(20);
      const names = body.items.map((s: { skill_name: string }) => s.skill_name.toLowerCase());
      expect(names).toEqual([...names].sort());
      const archived = await newSkill({ skill_name: `Zzpicker ${uid()}`, status: "inactive" });
      expect(
        (await get(`/api/skills/options?q=Zzpicker`)).body.items.map((s: { skill_id: string }) => s.skill_id),
      ).toContain(archived.skill_id);
      expect(
        (await get(`/api/skills/options?q=Zzpicker&active=true`)).body.items.map(
          (s: { skill_id: string }) => s.skill_id,
        ),
      ).not.toContain(archived.skill_id);
      expect((await get(`/api/skills/${archived.skill_id}/option`)).body).toMatchObject({
        skill_id: archived.skill_id,
        status: "inactive",
      });
      expect((await get(`/api/skills/options?limit=51`)).status).toBe(422);
      expect((await get(`/api/skills/${randomUUID()}/option`)).status).toBe(404);
    });

    it("pages through every skill by name with its cursor, same names included, and refuses a cursor it did not make", async () => {
      const tag = uid();
      for (let i = 0; i < 7; i++) await newSkill({ skill_name: `Zzpaged ${tag} ${i % 3}` });
      const seen: string[] = [];
      let after: string | null = null;
      let pages = 0;
      do {
        const query: string = `/api/skills/options?q=${encodeURIComponent(`Zzpaged ${tag}`)}&limit=2${after ? `&after=${after}` : ""}`;
        const { status, body } = await get(query);
        expect(status).toBe(200);
        seen.push(...body.items.map((s: { skill_id: string }) => s.skill_id));
        expect(body.more).toBe(body.next !== null);
        after = body.next;
        pages++;
      } while (after && pages < 10);
      expect(pages).toBe(4);
      expect(new Set(seen).size).toBe(7);
      const all = (await get(`/api/skills/options?q=${encodeURIComponent(`Zzpaged ${tag}`)}&limit=50`)).body.items.map(
        (s: { skill_id: string }) => s.skill_id,
      );
      expect(seen).toEqual(all);
      for (const forged of [
        "nonsense",
        Buffer.from(JSON.stringify(["a", "not-a-uuid"])).toString("base64url"),
        Buffer.from("{}").toString("base64url"),
      ]) {
        const bad = await get(`/api/skills/options?after=${forged}`);
        expect(bad.status).toBe(422);
        expect(bad.body.error.fields.after).toBe(msg.api.badCursor);
      }
    });
  });

  it("lets a viewer read but not change skills", async () => {
    const skill = await newSkill();
    const res = await app.write("PATCH", `/api/skills/${skill.skill_id}`, { status: "inactive" }, "viewer");
    expect(res.status).toBe(403);
    expect((await get(`/api/skills/${skill.skill_id}`)).body.status).toBe("active");
  });
});
