/**
 * Prompts and platforms API (SPEC.md §2 "/prompts", "/platforms" screens, §3–§5, §8): the lists'
 * filters, search and cards against direct SQL (skill and platform names joined); create and edit
 * with every validation message; Activate/Archive from each status; assignment uniqueness under
 * 20 parallel assigns; unassign; delete leaving no orphan assignments or versions; versions written
 * only on real changes, and restore round-tripping content byte for byte; platform create, edit,
 * delete (refused while assigned, or cascading); 404s. On PGlite and PostgreSQL.
 */
import { randomUUID } from "node:crypto";
import { sql, type SQL } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { platformStatuses, promptStatuses } from "../../src/domain/enums";
import { msg } from "../../src/domain/messages";
import { startConsole, type TestConsole } from "../support/app";
import { targets } from "../support/databases";

const uid = () => randomUUID().slice(0, 8);

describe.each(targets)("prompts and platforms API on %s", (target) => {
  let app: TestConsole;
  let skillId: string;
  beforeAll(async () => {
    app = await startConsole(target, { demo: true });
    const skill = await app.write("POST", "/api/skills", { skill_name: `Prompt Skill ${uid()}` });
    skillId = skill.body.skill_id;
  });
  afterAll(() => app.close());

  const rows = <T>(query: SQL) => app.rows<T>(query);
  const get = (path: string) => app.read(path);
  const send = (method: string, path: string, json?: unknown) => app.write(method, path, json);

  async function newPrompt(
    body: Record<string, unknown> = {},
  ): Promise<{ prompt_id: string; prompt_title: string; status: string; prompt_value: string | null }> {
    const { status, body: created } = await send("POST", "/api/prompts", {
      prompt_title: `Test Prompt ${uid()}`,
      skill_id: skillId,
      ...body,
    });
    expect(status, JSON.stringify(created)).toBe(201);
    return created;
  }
  async function newPlatform(
    body: Record<string, unknown> = {},
  ): Promise<{ platform_id: string; platform_name: string }> {
    const { status, body: created } = await send("POST", "/api/platforms", {
      platform_name: `Test Platform ${uid()}`,
      ...body,
    });
    expect(status, JSON.stringify(created)).toBe(201);
    return created;
  }
  const auditOf = (entity: string, id: string) =>
    rows<{ action: string; changes: { before?: Record<string, unknown>; after?: Record<string, unknown> } }>(sql`
      select action, changes from audit_log where entity = ${entity} and entity_id = ${id} order by created_at, audit_id`);
  const versionsOf = (promptId: string) =>
    rows<{ version: number; prompt_title: string; prompt_value: string | null; restored_from: number | null }>(sql`
      select version, prompt_title, prompt_value, restored_from from prompt_versions where prompt_id = ${promptId} order by version`);

  describe("GET /api/prompts", () => {
    it("gives every filter and search the total of a direct SQL count, with cards over all prompts", async () => {
      const [cards] = await rows<{ total: number; active: number; inactive: number; draft: number }>(sql`
        select count(*)::int as total, count(*) filter (where status = 'active')::int as active,
          count(*) filter (where status = 'inactive')::int as inactive, count(*) filter (where status = 'draft')::int as draft from pedal_prompts`);
      expect(cards.draft).toBeGreaterThan(0);
      const [{ name: skillName }] = await rows<{ name: string }>(
        sql`select s.skill_name as name from skills s join pedal_prompts p on p.skill_id = s.skill_id limit 1`,
      );
      for (const status of [undefined, ...promptStatuses]) {
        for (const q of [undefined, "the", "an", skillName.slice(0, 6)]) {
          const params = new URLSearchParams({ limit: "200" });
          if (status) params.set("status", status);
          if (q) params.set("q", q);
          const { status: code, body } = await get(`/api/prompts?${params}`);
          expect(code).toBe(200);
          const pattern = q ? (q.length >= 3 ? `%${q}%` : `${q}%`) : undefined;
          const [{ n }] = await rows<{ n: number }>(sql`
            select count(*)::int as n from pedal_prompts p left join skills s on s.skill_id = p.skill_id where true
            ${status ? sql`and p.status = ${status}` : sql``}
            ${pattern ? sql`and (p.prompt_title ilike ${pattern} or p.prompt_value ilike ${pattern} or s.skill_name ilike ${pattern} or p.status ilike ${pattern})` : sql``}`);
          expect(body.total, `${params}`).toBe(n);
          expect(body.items.length).toBe(Math.min(n, 200));
          expect(body.summary).toEqual(cards);
          for (const item of body.items) if (status) expect(item.status).toBe(status);
        }
      }
    });

    it("joins the skill name and the platform names (by name) of every row, against direct SQL", async () => {
      const { body } = await get("/api/prompts?limit=200");
      const expected = await rows<{ prompt_id: string; skill_name: string; names: string[] }>(sql`
        select p.prompt_id, s.skill_name,
          array(select pl.platform_name from platform_prompts pp join platforms pl on pl.platform_id = pp.platform_id
            where pp.prompt_id = p.prompt_id order by lower(pl.platform_name), pl.platform_id) as names
        from pedal_prompts p join skills s on s.skill_id = p.skill_id`);
      const byId = new Map(expected.map((r) => [r.prompt_id, r]));
      let withPlatforms = 0;
      for (const item of body.items) {
        const row = byId.get(item.prompt_id)!;
        expect(item.skill_name).toBe(row.skill_name);
        expect(item.platform_names).toEqual(row.names);
        if (row.names.length > 0) withPlatforms++;
      }
      expect(withPlatforms).toBeGreaterThan(0);
    });

    it("keeps the cards exact through create, status change and delete", async () => {
      const before = (await get("/api/prompts?limit=1")).body.summary;
      const p = await newPrompt({ status: "draft" });
      expect((await get("/api/prompts?limit=1")).body.summary).toEqual({
        ...before,
        total: before.total + 1,
        draft: before.draft + 1,
      });
      await send("PATCH", `/api/prompts/${p.prompt_id}`, { status: "inactive" });
      expect((await get("/api/prompts?limit=1")).body.summary).toEqual({
        ...before,
        total: before.total + 1,
        inactive: before.inactive + 1,
      });
      await send("DELETE", `/api/prompts/${p.prompt_id}`);
      expect((await get("/api/prompts?limit=1")).body.summary).toEqual(before);
    });

    it("refuses unknown filter values with 422", async () => {
      for (const bad of ["status=archived", "skill_id=nope", "sort=nope"]) {
        const { status, body } = await get(`/api/prompts?${bad}`);
        expect(status, bad).toBe(422);
        expect(body.error.code).toBe("validation_failed");
      }
    });
  });

  describe("create, edit and status", () => {
    it("creates with the spec's default, trims title and content, saves empty content as null, writes version 1, and audits", async () => {
      const { status, body } = await send("POST", "/api/prompts", {
        prompt_title: "  Trimmed  ",
        prompt_value: "   ",
        skill_id: skillId,
      });
      expect(status).toBe(201);
      expect(body).toMatchObject({ prompt_title: "Trimmed", prompt_value: null, status: "active", skill_id: skillId });
      expect(await versionsOf(body.prompt_id)).toEqual([
        { version: 1, prompt_title: "Trimmed", prompt_value: null, restored_from: null },
      ]);
      expect((await auditOf("prompt", body.prompt_id)).map((a) => a.action)).toEqual(["create"]);
      const detail = await get(`/api/prompts/${body.prompt_id}`);
      expect(detail.body).toMatchObject({
        prompt_id: body.prompt_id,
        skill_name: expect.any(String),
        version_count: 1,
      });
    });

    it("answers every validation message of the prompt forms", async () => {
      const inactive = await send("POST", "/api/skills", { skill_name: `Inactive ${uid()}`, status: "inactive" });
      const cases: Array<[unknown, string, string]> = [
        [{ skill_id: skillId }, "prompt_title", msg.prompts.titleRequired],
        [{ prompt_title: "   ", skill_id: skillId }, "prompt_title", msg.prompts.titleRequired],
        [{ prompt_title: "x".repeat(501), skill_id: skillId }, "prompt_title", msg.text.tooLong("Prompt title", 500)],
        [{ prompt_title: "Ok" }, "skill_id", msg.prompts.skillRequired],
        [{ prompt_title: "Ok", skill_id: "" }, "skill_id", msg.prompts.skillRequired],
        [{ prompt_title: "Ok", skill_id: randomUUID() }, "skill_id", msg.skills.notFound],
        [{ prompt_title: "Ok", skill_id: inactive.body.skill_id }, "skill_id", msg.prompts.skillNotActive],
        [{ prompt_title: "Ok", skill_id: skillId, prompt_value: 5 }, "prompt_value", msg.prompts.valueInvalid],
        [
          { prompt_title: "Ok", skill_id: skillId, prompt_value: "x".repeat(50_001) },
          "prompt_value",
          msg.text.tooLong("Prompt content", 50_000),
        ],
        [{ prompt_title: "Ok", skill_id: skillId, status: "archived" }, "status", msg.prompts.statusInvalid],
      ];
      for (const [input, field, message] of cases) {
        const { status, body } = await send("POST", "/api/prompts", input);
        expect(status, JSON.stringify(input).slice(0, 100)).toBe(422);
        expect(body.error.fields[field]).toBe(message);
      }
      const p = await newPrompt();
      const empty = await send("PATCH", `/api/prompts/${p.prompt_id}`, {});
      expect(empty.status).toBe(422);
      expect(empty.body.error.message).toBe(msg.prompts.nothingToUpdate);
      expect(
        (await send("PATCH", `/api/prompts/${p.prompt_id}`, { prompt_title: " " })).body.error.fields.prompt_title,
      ).toBe(msg.prompts.titleRequired);
      expect(
        (await send("PATCH", `/api/prompts/${p.prompt_id}`, { skill_id: inactive.body.skill_id })).body.error.fields
          .skill_id,
      ).toBe(msg.prompts.skillNotActive);
    });

    it("answers 404 'Prompt not found' for unknown and malformed ids on every prompt route", async () => {
      const id = randomUUID();
      for (const [method, path, body] of [
        ["GET", `/api/prompts/${id}`],
        ["GET", "/api/prompts/not-a-uuid"],
        ["PATCH", `/api/prompts/${id}`, { status: "inactive" }],
        ["DELETE", `/api/prompts/${id}`],
        ["GET", `/api/prompts/${id}/platforms`],
        ["GET", `/api/prompts/${id}/assignable-platforms`],
        ["GET", `/api/prompts/${id}/versions`],
        ["POST", `/api/prompts/${id}/platforms`, { platform_id: randomUUID() }],
        ["POST", `/api/prompts/${id}/restore`, { version: 1 }],
      ] as Array<[string, string, unknown?]>) {
        const res = method === "GET" ? await get(path) : await send(method, path, body);
        expect(res.status, `${method} ${path}`).toBe(404);
        expect(res.body.error.message, `${method} ${path}`).toBe(msg.prompts.notFound);
      }
      const p = await newPrompt();
      expect((await get(`/api/prompts/${p.prompt_id}/versions/9`)).body.error.message).toBe(
        msg.prompts.versionNotFound,
      );
      expect((await send("DELETE", `/api/prompts/${p.prompt_id}/platforms/${randomUUID()}`)).status).toBe(404);
      for (const path of [`/api/platforms/${id}`, "/api/platforms/nope", `/api/platforms/${id}/prompts`]) {
        const res = await get(path);
        expect(res.status, path).toBe(404);
        expect(res.body.error.message).toBe(msg.platforms.notFound);
      }
    });

    it("Activate / Archive from each status: active and draft become inactive, inactive becomes active; unchanged writes nothing", async () => {
      for (const from of promptStatuses) {
        const p = await newPrompt({ status: from });
        const target = from === "inactive" ? "active" : "inactive";
        const { status, body } = await send("PATCH", `/api/prompts/${p.prompt_id}`, { status: target });
        expect(status).toBe(200);
        expect(body.status).toBe(target);
        expect(new Date(body.updated_at).getTime()).toBeGreaterThanOrEqual(new Date(body.created_at).getTime());
        const again = await send("PATCH", `/api/prompts/${p.prompt_id}`, { status: target });
        expect(again.body.updated_at).toBe(body.updated_at);
        expect((await auditOf("prompt", p.prompt_id)).map((a) => a.action)).toEqual(["create", "update"]);
        // Status changes keep no version.
        expect((await versionsOf(p.prompt_id)).length).toBe(1);
      }
    });
  });

  describe("versions", () => {
    it("writes a version only when title or content really change, and restore round-trips content byte for byte", async () => {
      const original = 'Line one\r\n\tindented — ünïcødé 🚀\n\nTrailing spaces inside  "quotes" <b>&amp;</b>';
      const p = await newPrompt({ prompt_value: original });
      expect((await versionsOf(p.prompt_id)).map((v) => v.version)).toEqual([1]);
      // Same values (after trimming), status or skill only: no version.
      await send("PATCH", `/api/prompts/${p.prompt_id}`, {
        prompt_title: ` ${p.prompt_title} `,
        prompt_value: original,
      });
      await send("PATCH", `/api/prompts/${p.prompt_id}`, { status: "draft" });
      expect((await versionsOf(p.prompt_id)).length).toBe(1);
      await send("PATCH", `/api/prompts/${p.prompt_id}`, { prompt_value: "Second content" });
      await send("PATCH", `/api/prompts/${p.prompt_id}`, { prompt_title: "Third title" });
      const versions = await versionsOf(p.prompt_id);
      expect(versions.map((v) => [v.version, v.prompt_title, v.prompt_value])).toEqual([
        [1, p.prompt_title, original],
        [2, p.prompt_title, "Second content"],
        [3, "Third title", "Second content"],
      ]);
      const list = await get(`/api/prompts/${p.prompt_id}/versions`);
      expect(list.body.items.map((v: { version: number }) => v.version)).toEqual([3, 2, 1]);
      expect(list.body.items[0].operator_email).toBe("editor@test.example");
      expect((await get(`/api/prompts/${p.prompt_id}/versions/1`)).body.prompt_value).toBe(original);

      const restored = await send("POST", `/api/prompts/${p.prompt_id}/restore`, { version: 1 });
      expect(restored.status).toBe(200);
      expect(restored.body.prompt_value).toBe(original);
      expect(restored.body.prompt_title).toBe(p.prompt_title);
      const [row] = await rows<{ prompt_value: string }>(
        sql`select prompt_value from pedal_prompts where prompt_id = ${p.prompt_id}`,
      );
      expect(Buffer.from(row.prompt_value).equals(Buffer.from(original))).toBe(true);
      const after = await versionsOf(p.prompt_id);
      expect(after.at(-1)).toEqual({
        version: 4,
        prompt_title: p.prompt_title,
        prompt_value: original,
        restored_from: 1,
      });
      // Restoring what is already current writes nothing.
      await send("POST", `/api/prompts/${p.prompt_id}/restore`, { version: 4 });
      expect((await versionsOf(p.prompt_id)).length).toBe(4);
      const actions = (await auditOf("prompt", p.prompt_id)).map((a) => a.action);
      expect(actions[0]).toBe("create");
      expect(actions.at(-1)).toBe("restore_version");
      expect(actions.filter((a) => a === "restore_version").length).toBe(1);
      expect((await send("POST", `/api/prompts/${p.prompt_id}/restore`, { version: 99 })).body.error.message).toBe(
        msg.prompts.versionNotFound,
      );
    });

    it("keeps the state before the first change as version 1 for a prompt created without versions", async () => {
      const added = await send("POST", `/api/skills/${skillId}/prompts`, {
        prompt_title: "From the skill page",
        prompt_value: "Before",
      });
      await rows(sql`delete from prompt_versions where prompt_id = ${added.body.prompt_id}`);
      await send("PATCH", `/api/prompts/${added.body.prompt_id}`, { prompt_value: "After" });
      const versions = await versionsOf(added.body.prompt_id);
      expect(versions.map((v) => v.prompt_value)).toEqual(["Before", "After"]);
    });
  });

  describe("platform assignments", () => {
    it("assigns with is_active true, one row per pair under 20 parallel assigns (one 201, the rest 409), and unassigns", async () => {
      const p = await newPrompt();
      const pl = await newPlatform();
      const results = await Promise.all(
        Array.from({ length: 20 }, () =>
          send("POST", `/api/prompts/${p.prompt_id}/platforms`, { platform_id: pl.platform_id }),
        ),
      );
      const codes = results.map((r) => r.status).sort();
      expect(codes.filter((c) => c === 201).length).toBe(1);
      expect(codes.filter((c) => c === 409).length).toBe(19);
      expect(results.find((r) => r.status === 409)!.body.error.message).toBe(msg.prompts.alreadyAssigned);
      const assigned = await rows<{ is_active: boolean }>(
        sql`select is_active from platform_prompts where prompt_id = ${p.prompt_id}`,
      );
      expect(assigned).toEqual([{ is_active: true }]);
      expect((await auditOf("prompt", p.prompt_id)).filter((a) => a.action === "assign_platform").length).toBe(1);
      // The platform's history shows the same assignment.
      expect((await auditOf("platform", pl.platform_id)).filter((a) => a.action === "assign_platform").length).toBe(1);

      const list = await get(`/api/prompts/${p.prompt_id}/platforms`);
      expect(list.body.items).toMatchObject([
        { platform_id: pl.platform_id, platform_name: pl.platform_name, is_active: true },
      ]);
      expect(
        (await get(`/api/prompts/${p.prompt_id}/assignable-platforms?limit=200`)).body.items.map(
          (x: { platform_id: string }) => x.platform_id,
        ),
      ).not.toContain(pl.platform_id);
      expect((await get(`/api/prompts?q=${encodeURIComponent(p.prompt_title)}`)).body.items[0].platform_names).toEqual([
        pl.platform_name,
      ]);
      expect((await get(`/api/platforms/${pl.platform_id}/prompts`)).body.items).toMatchObject([
        { prompt_id: p.prompt_id },
      ]);

      expect((await send("DELETE", `/api/prompts/${p.prompt_id}/platforms/${pl.platform_id}`)).status).toBe(200);
      expect(await app.count(sql`select 1 from platform_prompts where prompt_id = ${p.prompt_id}`)).toBe(0);
      const again = await send("DELETE", `/api/prompts/${p.prompt_id}/platforms/${pl.platform_id}`);
      expect(again.status).toBe(404);
      expect(again.body.error.message).toBe(msg.prompts.notAssigned);
    });

    it("refuses unknown and inactive platforms, and offers only active unassigned ones, searched by name or description", async () => {
      const p = await newPrompt();
      const draft = await newPlatform({ status: "draft" });
      const tag = uid();
      const described = await newPlatform({ platform_description: `Reaches the ZEBRA-${tag} audience` });
      const unknown = await send("POST", `/api/prompts/${p.prompt_id}/platforms`, { platform_id: randomUUID() });
      expect(unknown.status).toBe(422);
      expect(unknown.body.error.fields.platform_id).toBe(msg.platforms.notFound);
      const inactive = await send("POST", `/api/prompts/${p.prompt_id}/platforms`, { platform_id: draft.platform_id });
      expect(inactive.body.error.fields.platform_id).toBe(msg.platforms.notActive);
      expect((await send("POST", `/api/prompts/${p.prompt_id}/platforms`, {})).body.error.fields.platform_id).toBe(
        msg.platforms.choosePlatform,
      );
      const found = await get(
        `/api/prompts/${p.prompt_id}/assignable-platforms?q=${encodeURIComponent(`zebra-${tag}`)}`,
      );
      expect(found.body.items.map((x: { platform_id: string }) => x.platform_id)).toEqual([described.platform_id]);
      const all = await get(`/api/prompts/${p.prompt_id}/assignable-platforms?limit=200`);
      for (const x of all.body.items) expect(x.status).toBe("active");
    });

    it("deletes a prompt with its assignments and versions in one transaction, leaving no orphans", async () => {
      const p = await newPrompt({ prompt_value: "v1" });
      await send("PATCH", `/api/prompts/${p.prompt_id}`, { prompt_value: "v2" });
      for (let i = 0; i < 2; i++) {
        const pl = await newPlatform();
        expect(
          (await send("POST", `/api/prompts/${p.prompt_id}/platforms`, { platform_id: pl.platform_id })).status,
        ).toBe(201);
      }
      expect((await send("DELETE", `/api/prompts/${p.prompt_id}`)).status).toBe(200);
      expect(await app.count(sql`select 1 from platform_prompts where prompt_id = ${p.prompt_id}`)).toBe(0);
      expect(await app.count(sql`select 1 from prompt_versions where prompt_id = ${p.prompt_id}`)).toBe(0);
      expect(
        await app.count(
          sql`select 1 from platform_prompts pp where not exists (select 1 from pedal_prompts x where x.prompt_id = pp.prompt_id)`,
        ),
      ).toBe(0);
      expect(
        await app.count(
          sql`select 1 from prompt_versions v where not exists (select 1 from pedal_prompts x where x.prompt_id = v.prompt_id)`,
        ),
      ).toBe(0);
      const audit = await auditOf("prompt", p.prompt_id);
      expect(audit.at(-1)!.action).toBe("delete");
      expect((audit.at(-1)!.changes.before!.platform_ids as string[]).length).toBe(2);
      expect((await get(`/api/prompts/${p.prompt_id}`)).status).toBe(404);
    });
  });

  describe("platforms", () => {
    it("gives every filter and search the total of a direct SQL count, with cards over all platforms", async () => {
      const [cards] = await rows<{ total: number; active: number; inactive: number; draft: number }>(sql`
        select count(*)::int as total, count(*) filter (where status = 'active')::int as active,
          count(*) filter (where status = 'inactive')::int as inactive, count(*) filter (where status = 'draft')::int as draft from platforms`);
      for (const status of [undefined, ...platformStatuses]) {
        for (const q of [undefined, "pla", "a"]) {
          const params = new URLSearchParams({ limit: "200" });
          if (status) params.set("status", status);
          if (q) params.set("q", q);
          const { body } = await get(`/api/platforms?${params}`);
          const pattern = q ? (q.length >= 3 ? `%${q}%` : `${q}%`) : undefined;
          const [{ n }] = await rows<{ n: number }>(sql`
            select count(*)::int as n from platforms pl where true ${status ? sql`and pl.status = ${status}` : sql``}
            ${pattern ? sql`and (pl.platform_name ilike ${pattern} or pl.platform_description ilike ${pattern} or pl.status ilike ${pattern})` : sql``}`);
          expect(body.total, `${params}`).toBe(n);
          expect(body.summary).toEqual(cards);
        }
      }
    });

    it("creates, edits, archives and activates with validation messages and audit rows", async () => {
      const cases: Array<[unknown, string, string]> = [
        [{}, "platform_name", msg.platforms.nameRequired],
        [{ platform_name: "  " }, "platform_name", msg.platforms.nameRequired],
        [{ platform_name: "x".repeat(201) }, "platform_name", msg.text.tooLong("Platform name", 200)],
        [
          { platform_name: "Ok", platform_description: "x".repeat(5001) },
          "platform_description",
          msg.text.tooLong("Description", 5000),
        ],
        [{ platform_name: "Ok", status: "gone" }, "status", msg.platforms.statusInvalid],
      ];
      for (const [input, field, message] of cases) {
        const { status, body } = await send("POST", "/api/platforms", input);
        expect(status).toBe(422);
        expect(body.error.fields[field]).toBe(message);
      }
      const { body: pl } = await send("POST", "/api/platforms", {
        platform_name: "  Slack  ",
        platform_description: "  ",
      });
      expect(pl).toMatchObject({ platform_name: "Slack", platform_description: null, status: "active" });
      const edited = await send("PATCH", `/api/platforms/${pl.platform_id}`, {
        platform_name: "Slack Bot",
        platform_description: "Chat",
      });
      expect(edited.body).toMatchObject({ platform_name: "Slack Bot", platform_description: "Chat" });
      await send("PATCH", `/api/platforms/${pl.platform_id}`, { status: "inactive" });
      await send("PATCH", `/api/platforms/${pl.platform_id}`, { status: "active" });
      expect((await auditOf("platform", pl.platform_id)).map((a) => a.action)).toEqual([
        "create",
        "update",
        "update",
        "update",
      ]);
      expect((await get(`/api/platforms/${pl.platform_id}`)).body).toMatchObject({
        platform_name: "Slack Bot",
        prompt_count: 0,
      });
    });

    it("refuses to delete a platform with assignments unless asked to cascade, then removes them in one transaction", async () => {
      const pl = await newPlatform();
      const prompts = [await newPrompt(), await newPrompt()];
      for (const p of prompts)
        await send("POST", `/api/prompts/${p.prompt_id}/platforms`, { platform_id: pl.platform_id });
      const refused = await send("DELETE", `/api/platforms/${pl.platform_id}`);
      expect(refused.status).toBe(409);
      expect(refused.body.error.message).toBe(msg.platforms.deleteBlocked(2));
      const done = await send("DELETE", `/api/platforms/${pl.platform_id}?cascade=true`);
      expect(done.body).toEqual({ ok: true, removed_assignments: 2, deletion_id: expect.any(String) });
      expect(await app.count(sql`select 1 from platform_prompts where platform_id = ${pl.platform_id}`)).toBe(0);
      expect((await get(`/api/prompts/${prompts[0].prompt_id}`)).status).toBe(200);
      const plain = await newPlatform();
      expect((await send("DELETE", `/api/platforms/${plain.platform_id}`)).body).toEqual({
        ok: true,
        removed_assignments: 0,
        deletion_id: expect.any(String),
      });
    });

    it("lets a viewer read but not change prompts and platforms", async () => {
      const p = await newPrompt();
      expect((await app.write("PATCH", `/api/prompts/${p.prompt_id}`, { status: "inactive" }, "viewer")).status).toBe(
        403,
      );
      expect((await app.write("POST", "/api/platforms", { platform_name: "No" }, "viewer")).status).toBe(403);
      expect((await get(`/api/prompts/${p.prompt_id}`)).status).toBe(200);
    });
  });
});
