/**
 * The read API for platforms (docs/prompt-review.md, "Read API for platforms"):
 * GET /api/delivery/platforms/{platformId}/prompts serves a platform's active assignments of
 * active prompts, in assignment order, with versions, variables and skills; 404 for an unknown or
 * malformed platform; a viewer's cookie and token may read it. Its strong ETag is equal for equal
 * content and changes with an edit, an assign, an unassign, a skill's rename and a write outside
 * the console; If-None-Match (one tag, a list, `W/`, `*`) answers 304 without a body. Delivery
 * tokens (an API token with a platform) read their platform only (403 elsewhere), and one cannot
 * be made for a platform that does not exist (422). On PGlite and PostgreSQL.
 */
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { msg } from "../../src/domain/messages";
import { clientTags } from "../../src/server/delivery/routes";
import { startConsole, type TestConsole } from "../support/app";
import { targets } from "../support/databases";

const uid = () => randomUUID().slice(0, 8);
const forbidden = { error: { code: "forbidden", message: msg.delivery.platformOnly } };

describe("If-None-Match parsing", () => {
  const tag = "0123456789abcdef0123456789abcdef";
  it("reads one tag, a list, weak tags and *", () => {
    expect(clientTags(undefined)).toEqual([]);
    expect(clientTags(`"${tag}"`)).toEqual([tag]);
    expect(clientTags(`W/"${tag}"`)).toEqual([tag]);
    expect(clientTags(`"aaaa", W/"${tag}" ,"x"`)).toEqual([tag]);
    expect(clientTags(" * ")).toBe("*");
    expect(clientTags("garbage")).toEqual([]);
    expect(clientTags(Array.from({ length: 50 }, () => `"${tag}"`).join(","))).toHaveLength(20);
  });
});

describe.each(targets)("read API for platforms on %s", (target) => {
  let app: TestConsole;
  let skillId: string;
  let skillName: string;

  beforeAll(async () => {
    app = await startConsole(target, { demo: true });
    skillName = `Delivery Skill ${uid()}`;
    const skill = await app.write("POST", "/api/skills", { skill_name: skillName });
    expect(skill.status).toBe(201);
    skillId = skill.body.skill_id;
  });
  afterAll(() => app.close());

  const path = (platformId: string) => `/api/delivery/platforms/${platformId}/prompts`;

  async function newPlatform(): Promise<{ platform_id: string; platform_name: string }> {
    const { status, body } = await app.write("POST", "/api/platforms", { platform_name: `Delivery ${uid()}` });
    expect(status, JSON.stringify(body)).toBe(201);
    return body;
  }
  async function newPrompt(body: Record<string, unknown> = {}): Promise<{ prompt_id: string; prompt_title: string }> {
    const created = await app.write("POST", "/api/prompts", {
      prompt_title: `Delivery Prompt ${uid()}`,
      skill_id: skillId,
      ...body,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body;
  }
  async function assign(promptId: string, platformId: string) {
    const res = await app.write("POST", `/api/prompts/${promptId}/platforms`, { platform_id: platformId });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  }
  /** GET the route with optional headers and credential: status, ETag, Cache-Control and parsed body. */
  async function fetchDelivery(
    platformId: string,
    init: { ifNoneMatch?: string; as?: "viewer" | "editor" | "admin"; token?: string } = {},
  ) {
    const headers: Record<string, string> = {};
    if (init.ifNoneMatch !== undefined) headers["if-none-match"] = init.ifNoneMatch;
    if (init.token) headers.authorization = `Bearer ${init.token}`;
    const res = await app.request(path(platformId), {
      as: init.token ? undefined : (init.as ?? "viewer"),
      headers,
      noOrigin: Boolean(init.token),
    });
    const text = await res.text();
    return {
      status: res.status,
      etag: res.headers.get("etag"),
      cacheControl: res.headers.get("cache-control"),
      text,
      body: text ? JSON.parse(text) : undefined,
    };
  }

  it("serves the active assignments of active prompts, in assignment order, with versions, variables and skills", async () => {
    const platform = await newPlatform();
    await app.rows(
      sql`update platforms set provided_variables = array['name', 'city'] where platform_id = ${platform.platform_id}`,
    );
    const first = await newPrompt({ prompt_value: "Hello {{name}}, welcome to {{ city }}. Bye {{name}}." });
    const second = await newPrompt({ prompt_value: null });
    const inactiveAssignment = await newPrompt({ prompt_value: "not served" });
    const archived = await newPrompt({ prompt_value: "archived" });
    const elsewhere = await newPrompt({ prompt_value: "another platform's" });
    for (const p of [first, second, inactiveAssignment, archived]) await assign(p.prompt_id, platform.platform_id);
    await assign(elsewhere.prompt_id, (await newPlatform()).platform_id);
    // Assignment times set by hand: `second` first, then `first`.
    await app.rows(sql`update platform_prompts set assigned_at = '2026-01-02T03:04:05.678Z'
      where platform_id = ${platform.platform_id} and prompt_id = ${second.prompt_id}`);
    await app.rows(sql`update platform_prompts set assigned_at = '2026-02-01T00:00:00Z'
      where platform_id = ${platform.platform_id} and prompt_id = ${first.prompt_id}`);
    await app.rows(sql`update platform_prompts set is_active = false
      where platform_id = ${platform.platform_id} and prompt_id = ${inactiveAssignment.prompt_id}`);
    expect((await app.write("PATCH", `/api/prompts/${archived.prompt_id}`, { status: "inactive" })).status).toBe(200);
    // Two edits of `first`: version 3. `second` without versions (a prompt from before them): 1.
    for (const text of ["Hi {{name}}", "Hello {{name}}, welcome to {{ city }}. Bye {{name}}. {{x.y-z}}"])
      expect((await app.write("PATCH", `/api/prompts/${first.prompt_id}`, { prompt_value: text })).status).toBe(200);
    await app.rows(sql`delete from prompt_versions where prompt_id = ${second.prompt_id}`);

    const got = await fetchDelivery(platform.platform_id);
    expect(got.status).toBe(200);
    expect(got.cacheControl).toBe("private, no-cache");
    expect(got.etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect(got.body).toEqual({
      platform_id: platform.platform_id,
      platform_name: platform.platform_name,
      status: "active",
      provided_variables: ["name", "city"],
      prompts: [
        {
          prompt_id: second.prompt_id,
          prompt_title: second.prompt_title,
          prompt_value: null,
          version: 1,
          variables: [],
          skill_id: skillId,
          skill_name: skillName,
          assigned_at: "2026-01-02T03:04:05.678Z",
        },
        {
          prompt_id: first.prompt_id,
          prompt_title: first.prompt_title,
          prompt_value: "Hello {{name}}, welcome to {{ city }}. Bye {{name}}. {{x.y-z}}",
          version: 3,
          variables: ["name", "city", "x.y-z"],
          skill_id: skillId,
          skill_name: skillName,
          assigned_at: "2026-02-01T00:00:00.000Z",
        },
      ],
    });
  });

  it("orders equal assignment times by prompt id, and serves a platform without prompts", async () => {
    const platform = await newPlatform();
    const empty = await fetchDelivery(platform.platform_id);
    expect(empty.status).toBe(200);
    expect(empty.body).toMatchObject({ platform_id: platform.platform_id, provided_variables: null, prompts: [] });
    const prompts = [await newPrompt(), await newPrompt(), await newPrompt()];
    for (const p of prompts) await assign(p.prompt_id, platform.platform_id);
    await app.rows(sql`update platform_prompts set assigned_at = '2026-03-01T00:00:00Z'
      where platform_id = ${platform.platform_id}`);
    const got = await fetchDelivery(platform.platform_id);
    expect(got.body.prompts.map((p: { prompt_id: string }) => p.prompt_id)).toEqual(
      prompts.map((p) => p.prompt_id).sort(),
    );
  });

  it("serves nothing for an inactive platform (200, its status, no prompts, a new ETag), and its prompts again once active", async () => {
    const platform = await newPlatform();
    const prompt = await newPrompt();
    await assign(prompt.prompt_id, platform.platform_id);
    const live = await fetchDelivery(platform.platform_id);
    expect(live.body.prompts).toHaveLength(1);
    for (const status of ["inactive", "draft"]) {
      await app.rows(sql`update platforms set status = ${status} where platform_id = ${platform.platform_id}`);
      const idle = await fetchDelivery(platform.platform_id);
      expect(idle.status).toBe(200);
      expect(idle.body).toMatchObject({ platform_id: platform.platform_id, status, prompts: [] });
      expect(idle.etag).not.toBe(live.etag);
    }
    await app.rows(sql`update platforms set status = 'active' where platform_id = ${platform.platform_id}`);
    const again = await fetchDelivery(platform.platform_id);
    expect(again.body.prompts.map((p: { prompt_id: string }) => p.prompt_id)).toEqual([prompt.prompt_id]);
    expect(again.etag).toBe(live.etag);
  });

  it("answers 404 for an unknown or malformed platform id", async () => {
    for (const id of [randomUUID(), "not-a-uuid", "1"]) {
      const got = await fetchDelivery(id);
      expect(got.status, id).toBe(404);
      expect(got.body).toEqual({ error: { code: "not_found", message: msg.delivery.platformNotFound } });
    }
    // `*` matches only a platform that exists.
    expect((await fetchDelivery(randomUUID(), { ifNoneMatch: "*" })).status).toBe(404);
  });

  it("lets a viewer read it with a cookie and with an API token; without either, 401", async () => {
    const platform = await newPlatform();
    const byCookie = await fetchDelivery(platform.platform_id, { as: "viewer" });
    const byToken = await fetchDelivery(platform.platform_id, { token: await app.token("viewer") });
    expect(byCookie.status).toBe(200);
    expect(byToken.status).toBe(200);
    expect(byToken.body).toEqual(byCookie.body);
    expect(byToken.etag).toBe(byCookie.etag);
    const anonymous = await app.request(path(platform.platform_id));
    expect(anonymous.status).toBe(401);
  });

  it("keeps its ETag while nothing changes and changes it with every change of what is served", async () => {
    const platform = await newPlatform();
    const a = await newPrompt({ prompt_value: "A {{one}}" });
    const b = await newPrompt({ prompt_value: "B" });
    await assign(a.prompt_id, platform.platform_id);
    let last = await fetchDelivery(platform.platform_id);
    /** Reads again: the ETag equals a second read's and differs from the one before the change. */
    async function changed(what: string) {
      const now = await fetchDelivery(platform.platform_id);
      const again = await fetchDelivery(platform.platform_id);
      expect(again.etag, what).toBe(now.etag);
      expect(again.text, what).toBe(now.text);
      expect(now.text, what).not.toBe(last.text);
      expect(now.etag, what).not.toBe(last.etag);
      last = now;
    }
    // A read by another operator's credentials is the same answer.
    expect((await fetchDelivery(platform.platform_id, { as: "admin" })).etag).toBe(last.etag);

    expect((await app.write("PATCH", `/api/prompts/${a.prompt_id}`, { prompt_value: "A {{two}}" })).status).toBe(200);
    await changed("an edit of the content");
    expect((await app.write("PATCH", `/api/prompts/${a.prompt_id}`, { prompt_title: `${uid()}` })).status).toBe(200);
    await changed("an edit of the title");
    const beforeAssign = last.etag;
    await assign(b.prompt_id, platform.platform_id);
    await changed("an assign");
    const unassign = await app.write("DELETE", `/api/prompts/${b.prompt_id}/platforms/${platform.platform_id}`);
    expect(unassign.status).toBe(200);
    await changed("an unassign");
    // The same answer as before the assign: the same tag.
    expect(last.etag).toBe(beforeAssign);
    const rename = await app.write("PATCH", `/api/skills/${skillId}`, { skill_name: `Renamed ${uid()}` });
    expect(rename.status).toBe(200);
    await changed("a skill's rename");
    expect((await app.write("PATCH", `/api/platforms/${platform.platform_id}`, { status: "inactive" })).status).toBe(
      200,
    );
    await changed("the platform's status");
    expect((await app.write("PATCH", `/api/platforms/${platform.platform_id}`, { status: "active" })).status).toBe(200);
    await changed("the platform active again");
    expect((await app.write("PATCH", `/api/prompts/${a.prompt_id}`, { status: "inactive" })).status).toBe(200);
    await changed("the prompt archived");
    expect((await app.write("PATCH", `/api/prompts/${a.prompt_id}`, { status: "active" })).status).toBe(200);
    await changed("the prompt active again");
    // Another writer of the database (an adopted database's other application).
    await app.rows(sql`update pedal_prompts set prompt_value = 'written elsewhere' where prompt_id = ${a.prompt_id}`);
    await changed("a write outside the console");
    // Archived and active again with the same content: the same answer, the same tag as before.
    const before = last.etag;
    await app.rows(sql`update pedal_prompts set status = 'inactive' where prompt_id = ${a.prompt_id}`);
    await changed("archived outside the console");
    await app.rows(sql`update pedal_prompts set status = 'active' where prompt_id = ${a.prompt_id}`);
    expect((await fetchDelivery(platform.platform_id)).etag).toBe(before);
  });

  it("answers 304 without a body when If-None-Match holds the current tag (alone, in a list, weak or *)", async () => {
    const platform = await newPlatform();
    const p = await newPrompt({ prompt_value: "x".repeat(3000) });
    await assign(p.prompt_id, platform.platform_id);
    const current = await fetchDelivery(platform.platform_id);
    expect(current.status).toBe(200);
    const tag = current.etag!;
    const stale = `"${"0".repeat(32)}"`;
    for (const header of [tag, `${stale}, ${tag}`, `W/${tag}`, `${stale},W/${tag}`, "*"]) {
      const got = await fetchDelivery(platform.platform_id, { ifNoneMatch: header });
      expect(got.status, header).toBe(304);
      expect(got.text, header).toBe("");
      expect(got.etag, header).toBe(tag);
      expect(got.cacheControl, header).toBe("private, no-cache");
    }
    for (const header of [stale, "", "nonsense", tag.slice(1, -1)]) {
      const got = await fetchDelivery(platform.platform_id, { ifNoneMatch: header });
      expect(got.status, header).toBe(200);
      expect(got.etag, header).toBe(tag);
      expect(got.body, header).toEqual(current.body);
    }
    // With a token too; and after a change, the old tag gets the new answer.
    const viewerToken = await app.token("viewer");
    expect((await fetchDelivery(platform.platform_id, { ifNoneMatch: tag, token: viewerToken })).status).toBe(304);
    expect((await app.write("PATCH", `/api/prompts/${p.prompt_id}`, { prompt_value: "new" })).status).toBe(200);
    const after = await fetchDelivery(platform.platform_id, { ifNoneMatch: tag });
    expect(after.status).toBe(200);
    expect(after.etag).not.toBe(tag);
    expect(after.body.prompts[0].prompt_value).toBe("new");
  });

  describe("delivery tokens", () => {
    let platform: { platform_id: string; platform_name: string };
    let other: { platform_id: string; platform_name: string };
    let token: string;
    let tokenId: string;

    beforeAll(async () => {
      platform = await newPlatform();
      other = await newPlatform();
      const p = await newPrompt({ prompt_value: "{{v}}" });
      await assign(p.prompt_id, platform.platform_id);
      const res = await app.request("/api/account/tokens", {
        as: "editor",
        credential: "cookie",
        method: "POST",
        json: { name: "Delivery", role: "viewer", expires_in_days: 30, platform_id: platform.platform_id },
      });
      const body = await res.json();
      expect(res.status, JSON.stringify(body)).toBe(201);
      expect(body).toMatchObject({ platform_id: platform.platform_id, platform_name: platform.platform_name });
      token = body.token;
      tokenId = body.token_id;
    });

    async function withToken(path: string, method = "GET", json?: unknown) {
      const res = await app.request(path, {
        method,
        json,
        noOrigin: true,
        headers: { authorization: `Bearer ${token}` },
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined };
    }

    it("reads its own platform's prompts, with 304s", async () => {
      const got = await fetchDelivery(platform.platform_id, { token });
      expect(got.status).toBe(200);
      expect(got.body.prompts).toHaveLength(1);
      expect((await fetchDelivery(platform.platform_id, { token, ifNoneMatch: got.etag! })).status).toBe(304);
    });

    it("is refused (403) on another platform and on every other route", async () => {
      expect(await withToken(path(other.platform_id))).toEqual({ status: 403, body: forbidden });
      expect(await withToken(path(platform.platform_id.toUpperCase()))).toMatchObject({ status: 200 });
      expect(await withToken(path(randomUUID()))).toEqual({ status: 403, body: forbidden });
      for (const route of [
        "/api/prompts",
        `/api/platforms/${platform.platform_id}`,
        `/api/platforms/${platform.platform_id}/prompts`,
        "/api/account/tokens",
        "/api/dashboard",
        `${path(platform.platform_id)}/`,
        "/api/no-such-route",
      ])
        expect(await withToken(route), route).toEqual({ status: 403, body: forbidden });
      expect(await withToken(path(platform.platform_id), "POST", {})).toEqual({ status: 403, body: forbidden });
      expect(await withToken("/api/platforms", "POST", { platform_name: "No" })).toEqual({
        status: 403,
        body: forbidden,
      });
    });

    it("shows its platform in the token lists", async () => {
      const mine = await app.read("/api/account/tokens", "editor");
      const row = mine.body.items.find((t: { token_id: string }) => t.token_id === tokenId);
      expect(row).toMatchObject({ platform_id: platform.platform_id, platform_name: platform.platform_name });
      const ordinary = mine.body.items.find((t: { token_id: string }) => t.token_id !== tokenId);
      if (ordinary) expect(ordinary).toMatchObject({ platform_id: null, platform_name: null });
      const all = await app.read("/api/api-tokens?limit=200", "admin");
      const listed = all.body.items.find((t: { token_id: string }) => t.token_id === tokenId);
      expect(listed).toMatchObject({ platform_id: platform.platform_id, platform_name: platform.platform_name });
      const audit = await app.rows<{ changes: { after: Record<string, unknown> } }>(
        sql`select changes from audit_log where action = 'api_token_created' and entity_id = ${tokenId}`,
      );
      expect(audit[0].changes.after).toMatchObject({ platform_id: platform.platform_id });
    });

    it("cannot be made for a platform that does not exist (422)", async () => {
      for (const platform_id of [randomUUID(), "nope"]) {
        const res = await app.request("/api/account/tokens", {
          as: "viewer",
          credential: "cookie",
          method: "POST",
          json: { name: "Nowhere", role: "viewer", platform_id },
        });
        expect(res.status, platform_id).toBe(422);
        expect(await res.json()).toMatchObject({
          error: { code: "validation_failed", fields: { platform_id: msg.delivery.platformNotFound } },
        });
      }
    });

    it("goes with its platform when the platform is deleted", async () => {
      const doomed = await newPlatform();
      const res = await app.request("/api/account/tokens", {
        as: "viewer",
        credential: "cookie",
        method: "POST",
        json: { name: "Doomed", role: "viewer", platform_id: doomed.platform_id },
      });
      const created = await res.json();
      expect(res.status).toBe(201);
      expect((await app.write("DELETE", `/api/platforms/${doomed.platform_id}`)).status).toBe(200);
      const after = await app.request(path(doomed.platform_id), {
        noOrigin: true,
        headers: { authorization: `Bearer ${created.token}` },
      });
      expect(after.status).toBe(401);
    });
  });
});
