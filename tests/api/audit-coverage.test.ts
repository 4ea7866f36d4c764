/**
 * The audit log covers every change, generated from the route table: every mutation route (POST,
 * PATCH, DELETE of `routeTable`) is called with a valid request, the rows it changed are found by
 * comparing the tables before and after, and it must have written exactly one audit row per
 * changed record, each with an action and entity from src/domain/audit.ts. A team membership is a
 * change of both the team and the user. Every listed action and entity can be filtered on. It runs
 * once with session cookies and once with personal API tokens (`Authorization: Bearer`), whose
 * rows must name the token (`api_token_id`); a cookie's name none.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditActions, auditEntities } from "../../src/domain/audit";
import { routeTable } from "../../src/server/http/route";
import { bulkIdle } from "../../src/server/bulk/engine";
import { credentials, startConsole, testPassword, type TestConsole } from "../support/app";
import { targets } from "../support/databases";

/**
 * The tables whose rows are records of the audit log: each row's key, the columns whose change is
 * a change of record, and the records it names.
 */
const tracked: Array<{
  table: string;
  key: string;
  hashed: string;
  select: string;
  records: (row: Record<string, string>) => string[];
}> = [
  {
    table: "customers",
    key: "customer_id::text",
    hashed: "t.*",
    select: "customer_id",
    records: (r) => [`customer:${r.customer_id}`],
  },
  { table: "teams", key: "team_id::text", hashed: "t.*", select: "team_id", records: (r) => [`team:${r.team_id}`] },
  {
    table: "users_data",
    key: "user_id::text",
    hashed: "t.*",
    select: "user_id",
    records: (r) => [`user:${r.user_id}`],
  },
  { table: "operator", key: "id", hashed: "t.*", select: "id", records: (r) => [`operator:${r.id}`] },
  { table: "operator_account", key: "id", hashed: "t.*", select: "user_id", records: (r) => [`operator:${r.user_id}`] },
  {
    table: "teams_users",
    key: "team_id::text || user_id::text",
    hashed: "t.*",
    select: "team_id, user_id",
    records: (r) => [`team:${r.team_id}`, `user:${r.user_id}`],
  },
  {
    table: "teams_skills",
    key: "team_id::text || skill_id::text",
    hashed: "t.*",
    select: "team_id, skill_id",
    records: (r) => [`team:${r.team_id}`, `skill:${r.skill_id}`],
  },
  {
    table: "skills",
    key: "skill_id::text",
    hashed: "t.*",
    select: "skill_id",
    records: (r) => [`skill:${r.skill_id}`],
  },
  {
    table: "pedal_prompts",
    key: "prompt_id::text",
    hashed: "t.*",
    select: "prompt_id",
    records: (r) => [`prompt:${r.prompt_id}`],
  },
  {
    table: "prompt_versions",
    key: "prompt_id::text || '/' || version",
    hashed: "t.*",
    select: "prompt_id",
    records: (r) => [`prompt:${r.prompt_id}`],
  },
  {
    table: "platforms",
    key: "platform_id::text",
    hashed: "t.*",
    select: "platform_id",
    records: (r) => [`platform:${r.platform_id}`],
  },
  // A proposed prompt change is a record of its own (docs/prompt-review.md).
  {
    table: "prompt_changes",
    key: "change_id::text",
    hashed: "t.*",
    select: "change_id",
    records: (r) => [`prompt_change:${r.change_id}`],
  },
  // A user's roles are part of the user.
  {
    table: "users_roles",
    key: "user_id::text || '/' || role",
    hashed: "t.*",
    select: "user_id",
    records: (r) => [`user:${r.user_id}`],
  },
  // A bulk action is a record of its own: its audit rows (started, cancelled) name its list and id.
  {
    table: "bulk_actions",
    key: "bulk_id::text",
    hashed: "t.*",
    select: "entity, bulk_id",
    records: (r) => [`${r.entity}:${r.bulk_id}`],
  },
  {
    table: "platform_prompts",
    key: "prompt_id::text || platform_id::text",
    hashed: "t.*",
    select: "prompt_id, platform_id",
    records: (r) => [`prompt:${r.prompt_id}`, `platform:${r.platform_id}`],
  },
  {
    table: "customer_settings",
    key: "customer_id::text",
    hashed: "t.*",
    select: "customer_id",
    records: (r) => [`customer_config:${r.customer_id}`],
  },
  {
    table: "customer_settings_changes",
    key: "change_id::text",
    hashed: "t.*",
    select: "customer_id",
    records: (r) => [`customer_config:${r.customer_id}`],
  },
  {
    table: "skill_comments",
    key: "comment_id::text",
    hashed: "t.*",
    select: "comment_id",
    records: (r) => [`comment:${r.comment_id}`],
  },
  // API tokens: not their last use (a use is no change of record).
  {
    table: "operator_api_token",
    key: "token_id::text",
    hashed: "t.token_id, t.name, t.role, t.expires_at",
    select: "token_id",
    records: (r) => [`api_token:${r.token_id}`],
  },
  // Saved views, and an operator's choices per list (the record: the list, as audited).
  {
    table: "saved_views",
    key: "view_id::text",
    hashed: "t.*",
    select: "view_id",
    records: (r) => [`saved_view:${r.view_id}`],
  },
  {
    table: "list_preferences",
    key: "operator_id || '/' || list",
    hashed: "t.*",
    select: "list",
    records: (r) => [`list_preference:${r.list}`],
  },
  // Sessions: only their existence (use slides the expiry, which is no change of record).
  {
    table: "operator_session",
    key: "token",
    hashed: "t.token",
    select: "user_id",
    records: (r) => [`operator:${r.user_id}`],
  },
  // Counters of addresses name no record; an account's lock is its operator's.
  {
    table: "auth_throttle",
    key: "key",
    hashed: "t.key, t.locked_until",
    select: "(select o.id from operator o where 'account:' || o.email = t.key) as id",
    records: (r) => (r.id ? [`operator:${r.id}`] : []),
  },
];

type Snapshot = Map<string, { hash: string; records: string[] }>;

const cases = targets.flatMap((target) => credentials.map((credential) => [target, credential] as const));

describe.each(cases)("audit coverage on %s with %s", (target, credential) => {
  let app: TestConsole;
  /** The console's API tokens, by id (their creation is not a step's change). */
  const tokenIds = new Set<string>();
  beforeAll(async () => {
    app = await startConsole(target, { demo: true, credential });
    await app.cookie("admin");
    await app.cookie("editor");
    await app.cookie("viewer");
    tokenIds.add(await app.tokenId("admin"));
    tokenIds.add(await app.tokenId("editor"));
  });
  afterAll(() => app.close());

  /** A pending change of the `nth` prompt's title by the operator `email`, as review saves one; its id. */
  async function proposal(email: string, nth: number): Promise<string> {
    const [row] = await app.rows<{ change_id: string }>(sql`
      insert into prompt_changes (prompt_id, kind, base_title, base_value, base_status, base_skill_id,
        prompt_title, prompt_value, prompt_status, skill_id, proposed_by, proposed_by_email)
      select p.prompt_id, 'update', p.prompt_title, p.prompt_value, p.status, p.skill_id,
        p.prompt_title || ' (reviewed)', p.prompt_value, p.status, p.skill_id, o.id, o.email
      from pedal_prompts p, operator o where o.email = ${email}
      order by p.prompt_id offset ${nth} limit 1
      returning change_id::text`);
    return row.change_id;
  }

  async function snapshot(): Promise<Snapshot> {
    const result: Snapshot = new Map();
    for (const t of tracked) {
      const rows = await app.rows<Record<string, string>>(
        sql.raw(`select ${t.select}, ${t.key} as _key, md5(row(${t.hashed})::text) as _hash from ${t.table} t`),
      );
      for (const row of rows) result.set(`${t.table}:${row._key}`, { hash: row._hash, records: t.records(row) });
    }
    return result;
  }

  /** Records changed between two snapshots (a link row of a deleted team counts for the team only). */
  function changed(before: Snapshot, after: Snapshot): string[] {
    const records = new Set<string>();
    const deletedTeams = new Set(
      [...before.keys()].filter((k) => k.startsWith("teams:") && !after.has(k)).map((k) => before.get(k)!.records[0]),
    );
    const deletedSkills = new Set(
      [...before.keys()].filter((k) => k.startsWith("skills:") && !after.has(k)).map((k) => before.get(k)!.records[0]),
    );
    const deleted = new Set(
      [...before.keys()]
        .filter((k) => /^(pedal_prompts|platforms):/.test(k) && !after.has(k))
        .map((k) => before.get(k)!.records[0]),
    );
    for (const [key, row] of before) {
      const now = after.get(key);
      if (now && now.hash === row.hash) continue;
      // A link row removed with its team (or skill) is that record's change only.
      const link = key.startsWith("teams_users:") || key.startsWith("teams_skills:");
      let names =
        link && deletedTeams.has(row.records[0])
          ? [row.records[0]]
          : link && deletedSkills.has(row.records[1]!)
            ? [row.records[1]!]
            : row.records;
      // Likewise a prompt's assignments and versions removed with the prompt, or with a platform.
      if (key.startsWith("platform_prompts:") || key.startsWith("prompt_versions:")) {
        const gone = row.records.filter((n) => deleted.has(n));
        if (gone.length > 0) names = gone;
      }
      names.forEach((n) => records.add(n));
    }
    for (const [key, row] of after) if (!before.has(key)) row.records.forEach((n) => records.add(n));
    return [...records].sort();
  }

  it("every mutation route writes exactly one audit row per changed record, with a listed action and entity", async () => {
    const [pick] = await app.rows<{ customer_id: string; skill_id: string }>(sql`
      select c.customer_id, (select s.skill_id from skills s where s.status = 'active' order by s.skill_id limit 1) as skill_id
      from customers c where c.status = 'active' order by c.customer_id limit 1`);
    const ids: Record<string, string> = { customerId: pick.customer_id };
    const [viewer] = await app.rows<{ id: string }>(sql`select id from operator where email = 'viewer@test.example'`);
    const as = { admin: "admin", editor: "editor" } as const;

    // One valid request per mutation route, in an order that builds what the next needs.
    // sessionOnly: the step is made with the cookie whatever the run's credential (tokens cannot create tokens).
    const steps: Array<{
      route: string;
      sessionOnly?: boolean;
      prepare?: () => Promise<unknown>;
      run: () => Promise<Response>;
    }> = [
      {
        route: "POST /api/customers",
        run: () =>
          app.request("/api/customers", { as: as.editor, method: "POST", json: { customer_name: "Audited Co" } }),
      },
      {
        route: "PATCH /api/customers/{customerId}",
        run: () =>
          app.request(`/api/customers/${ids.customerId}`, {
            as: as.editor,
            method: "PATCH",
            json: { status: "trial" },
          }),
      },
      {
        route: "PATCH /api/config/{customerId}",
        run: async () => {
          const { values, version } = await (
            await app.request(`/api/config/${ids.customerId}`, { as: as.editor })
          ).json();
          return app.request(`/api/config/${ids.customerId}`, {
            as: as.editor,
            method: "PATCH",
            json: { ...values, max_teams: values.max_teams + 1, version },
          });
        },
      },
      {
        route: "POST /api/teams",
        run: async () => {
          const res = await app.request("/api/teams", {
            as: as.editor,
            method: "POST",
            json: { customer_id: ids.customerId, team_name: "Audited team" },
          });
          ids.teamId = (await res.clone().json()).team_id;
          return res;
        },
      },
      {
        route: "PATCH /api/teams/{teamId}",
        run: () =>
          app.request(`/api/teams/${ids.teamId}`, { as: as.editor, method: "PATCH", json: { status: "inactive" } }),
      },
      {
        route: "POST /api/users",
        prepare: async () => {
          await app.request(`/api/customers/${ids.customerId}`, {
            as: as.editor,
            method: "PATCH",
            json: { status: "active" },
          });
          await app.request(`/api/teams/${ids.teamId}`, { as: as.editor, method: "PATCH", json: { status: "active" } });
        },
        run: async () => {
          const res = await app.request("/api/users", {
            as: as.editor,
            method: "POST",
            json: { email: "audited.user@example.com", customer_id: ids.customerId, confirm_domain: true },
          });
          ids.userId = (await res.clone().json()).user_id;
          return res;
        },
      },
      {
        route: "POST /api/users/{userId}/teams",
        run: () =>
          app.request(`/api/users/${ids.userId}/teams`, {
            as: as.editor,
            method: "POST",
            json: { team_id: ids.teamId },
          }),
      },
      {
        route: "DELETE /api/users/{userId}/teams/{teamId}",
        run: () => app.request(`/api/users/${ids.userId}/teams/${ids.teamId}`, { as: as.editor, method: "DELETE" }),
      },
      {
        route: "DELETE /api/teams/{teamId}/members/{userId}",
        prepare: () =>
          app.request(`/api/users/${ids.userId}/teams`, {
            as: as.editor,
            method: "POST",
            json: { team_id: ids.teamId },
          }),
        run: () => app.request(`/api/teams/${ids.teamId}/members/${ids.userId}`, { as: as.editor, method: "DELETE" }),
      },
      {
        route: "POST /api/teams/{teamId}/members",
        run: () =>
          app.request(`/api/teams/${ids.teamId}/members`, {
            as: as.editor,
            method: "POST",
            json: { user_id: ids.userId },
          }),
      },
      {
        route: "PATCH /api/users/{userId}",
        run: () =>
          app.request(`/api/users/${ids.userId}`, {
            as: as.editor,
            method: "PATCH",
            json: { job_title: "Audited", roles: ["manager"], confirm_domain: true },
          }),
      },
      {
        route: "POST /api/teams/{teamId}/skills",
        run: () =>
          app.request(`/api/teams/${ids.teamId}/skills`, {
            as: as.editor,
            method: "POST",
            json: { skill_id: pick.skill_id },
          }),
      },
      {
        route: "POST /api/skills",
        run: async () => {
          const res = await app.request("/api/skills", {
            as: as.editor,
            method: "POST",
            json: { skill_name: "Audited skill" },
          });
          ids.skillId = (await res.clone().json()).skill_id;
          return res;
        },
      },
      {
        route: "PATCH /api/skills/{skillId}",
        run: () =>
          app.request(`/api/skills/${ids.skillId}`, {
            as: as.editor,
            method: "PATCH",
            json: { skill_description: "Audited" },
          }),
      },
      {
        route: "POST /api/skills/{skillId}/teams",
        run: () =>
          app.request(`/api/skills/${ids.skillId}/teams`, {
            as: as.editor,
            method: "POST",
            json: { team_id: ids.teamId },
          }),
      },
      {
        route: "PATCH /api/skills/{skillId}/teams/{teamId}",
        run: () =>
          app.request(`/api/skills/${ids.skillId}/teams/${ids.teamId}`, {
            as: as.editor,
            method: "PATCH",
            json: { status: "inactive" },
          }),
      },
      {
        route: "POST /api/skills/{skillId}/teams/bulk",
        prepare: async () => {
          const res = await app.request("/api/teams", {
            as: as.editor,
            method: "POST",
            json: { customer_id: ids.customerId, team_name: "Audited team 2" },
          });
          ids.team2Id = (await res.json()).team_id;
        },
        run: () =>
          app.request(`/api/skills/${ids.skillId}/teams/bulk`, {
            as: as.editor,
            method: "POST",
            json: { team_ids: [ids.team2Id] },
          }),
      },
      {
        route: "DELETE /api/skills/{skillId}",
        run: () => app.request(`/api/skills/${ids.skillId}`, { as: as.editor, method: "DELETE" }),
      },
      {
        route: "POST /api/skills/{skillId}/prompts",
        run: () =>
          app.request(`/api/skills/${pick.skill_id}/prompts`, {
            as: as.editor,
            method: "POST",
            json: { prompt_title: "Audited prompt" },
          }),
      },
      {
        route: "POST /api/prompts",
        run: async () => {
          const res = await app.request("/api/prompts", {
            as: as.editor,
            method: "POST",
            json: { prompt_title: "Audited prompt 2", skill_id: pick.skill_id, prompt_value: "v1" },
          });
          ids.promptId = (await res.clone().json()).prompt_id;
          return res;
        },
      },
      {
        route: "PATCH /api/prompts/{promptId}",
        run: () =>
          app.request(`/api/prompts/${ids.promptId}`, { as: as.editor, method: "PATCH", json: { prompt_value: "v2" } }),
      },
      {
        route: "POST /api/prompts/{promptId}/restore",
        run: () =>
          app.request(`/api/prompts/${ids.promptId}/restore`, { as: as.editor, method: "POST", json: { version: 1 } }),
      },
      {
        route: "POST /api/platforms",
        run: async () => {
          const res = await app.request("/api/platforms", {
            as: as.editor,
            method: "POST",
            json: { platform_name: "Audited platform" },
          });
          ids.platformId = (await res.clone().json()).platform_id;
          return res;
        },
      },
      {
        route: "PATCH /api/platforms/{platformId}",
        run: () =>
          app.request(`/api/platforms/${ids.platformId}`, {
            as: as.editor,
            method: "PATCH",
            json: { platform_description: "Audited" },
          }),
      },
      {
        route: "POST /api/prompts/{promptId}/platforms",
        run: () =>
          app.request(`/api/prompts/${ids.promptId}/platforms`, {
            as: as.editor,
            method: "POST",
            json: { platform_id: ids.platformId },
          }),
      },
      {
        route: "DELETE /api/prompts/{promptId}/platforms/{platformId}",
        run: () =>
          app.request(`/api/prompts/${ids.promptId}/platforms/${ids.platformId}`, { as: as.editor, method: "DELETE" }),
      },
      {
        route: "DELETE /api/platforms/{platformId}",
        prepare: () =>
          app.request(`/api/prompts/${ids.promptId}/platforms`, {
            as: as.editor,
            method: "POST",
            json: { platform_id: ids.platformId },
          }),
        run: () => app.request(`/api/platforms/${ids.platformId}?cascade=true`, { as: as.editor, method: "DELETE" }),
      },
      {
        route: "DELETE /api/prompts/{promptId}",
        run: () => app.request(`/api/prompts/${ids.promptId}`, { as: as.editor, method: "DELETE" }),
      },
      // Proposed changes (docs/prompt-review.md), made by the viewer's operator as PROMPT_REVIEW would
      // have saved them; the approvals apply them: the change's row and the prompt's.
      {
        route: "POST /api/prompt-changes/{changeId}/approve",
        prepare: async () => void (ids.changeId = await proposal("viewer@test.example", 0)),
        run: () =>
          app.request(`/api/prompt-changes/${ids.changeId}/approve`, {
            as: as.editor,
            method: "POST",
            json: { comment: "Audited" },
          }),
      },
      {
        route: "POST /api/prompt-changes/{changeId}/reject",
        prepare: async () => void (ids.changeId = await proposal("viewer@test.example", 1)),
        run: () =>
          app.request(`/api/prompt-changes/${ids.changeId}/reject`, {
            as: as.editor,
            method: "POST",
            json: { reason: "Audited" },
          }),
      },
      {
        route: "POST /api/prompt-changes/{changeId}/withdraw",
        prepare: async () => void (ids.changeId = await proposal("editor@test.example", 2)),
        run: () => app.request(`/api/prompt-changes/${ids.changeId}/withdraw`, { as: as.editor, method: "POST" }),
      },
      {
        route: "POST /api/prompt-changes/approve",
        prepare: async () => void (ids.changeId = await proposal("viewer@test.example", 3)),
        run: () =>
          app.request("/api/prompt-changes/approve", {
            as: as.editor,
            method: "POST",
            json: { change_ids: [ids.changeId] },
          }),
      },
      {
        route: "PATCH /api/comments/{commentId}",
        prepare: async () => {
          const [c] = await app.rows<{ comment_id: string }>(
            sql`select comment_id from skill_comments where status = 'pending' order by comment_id limit 2`,
          );
          ids.commentId = c!.comment_id;
        },
        run: () =>
          app.request(`/api/comments/${ids.commentId}`, {
            as: as.editor,
            method: "PATCH",
            json: { status: "active", expected_status: "pending" },
          }),
      },
      {
        route: "POST /api/comments/bulk",
        prepare: async () => {
          const rows = await app.rows<{ comment_id: string }>(
            sql`select comment_id from skill_comments where status = 'pending' order by comment_id limit 2`,
          );
          ids.bulk = rows.map((r) => r.comment_id).join(",");
        },
        run: () =>
          app.request("/api/comments/bulk", {
            as: as.editor,
            method: "POST",
            json: { status: "rejected", ids: ids.bulk!.split(",") },
          }),
      },
      {
        route: "DELETE /api/teams/{teamId}",
        prepare: () =>
          app.request(`/api/users/${ids.userId}/teams`, {
            as: as.editor,
            method: "POST",
            json: { team_id: ids.teamId },
          }),
        run: async () => {
          const res = await app.request(`/api/teams/${ids.teamId}`, { as: as.editor, method: "DELETE" });
          ids.deletionId = (await res.clone().json()).deletion_id;
          return res;
        },
      },
      {
        // The team back with its member: the team's row and the user's (the membership names both).
        route: "POST /api/deleted/{deletionId}/restore",
        run: () => app.request(`/api/deleted/${ids.deletionId}/restore`, { as: as.editor, method: "POST" }),
      },
      {
        route: "POST /api/views",
        run: async () => {
          const res = await app.request("/api/views", {
            as: as.editor,
            method: "POST",
            json: { list: "customers", name: "Audited view", shared: true, state: { filters: { status: "trial" } } },
          });
          ids.viewId = (await res.clone().json()).view_id;
          return res;
        },
      },
      {
        route: "PATCH /api/views/{viewId}",
        run: () =>
          app.request(`/api/views/${ids.viewId}`, {
            as: as.editor,
            method: "PATCH",
            json: { version: 1, name: "Audited view, renamed" },
          }),
      },
      {
        // The default is another view: deleting the one above then changes no preference.
        route: "PUT /api/list-preferences/{list}",
        prepare: async () => {
          const res = await app.request("/api/views", {
            as: as.editor,
            method: "POST",
            json: { list: "customers", name: "Default view", state: {} },
          });
          ids.defaultViewId = (await res.json()).view_id;
        },
        run: () =>
          app.request("/api/list-preferences/customers", {
            as: as.editor,
            method: "PUT",
            json: { columns: ["name", "status"], default_view_id: ids.defaultViewId },
          }),
      },
      {
        route: "DELETE /api/views/{viewId}",
        run: () => app.request(`/api/views/${ids.viewId}`, { as: as.editor, method: "DELETE" }),
      },
      {
        route: "POST /api/account/tokens",
        sessionOnly: true,
        run: async () => {
          const res = await app.request("/api/account/tokens", {
            as: as.editor,
            credential: "cookie",
            method: "POST",
            json: { name: "Audited token", role: "viewer" },
          });
          ids.tokenId = (await res.clone().json()).token_id;
          return res;
        },
      },
      {
        route: "DELETE /api/account/tokens/{tokenId}",
        run: () => app.request(`/api/account/tokens/${ids.tokenId}`, { as: as.editor, method: "DELETE" }),
      },
      {
        route: "DELETE /api/api-tokens/{tokenId}",
        prepare: async () => {
          const res = await app.request("/api/account/tokens", {
            as: as.editor,
            credential: "cookie",
            method: "POST",
            json: { name: "Audited token 2", role: "editor", expires_in_days: 7 },
          });
          ids.token2Id = (await res.json()).token_id;
        },
        run: () => app.request(`/api/api-tokens/${ids.token2Id}`, { as: as.admin, method: "DELETE" }),
      },
      {
        route: "POST /api/operators",
        run: async () => {
          const res = await app.request("/api/operators", {
            as: as.admin,
            method: "POST",
            json: { email: "audited.op@test.example", name: "Audited", role: "viewer", password: testPassword },
          });
          ids.operatorId = (await res.clone().json()).id;
          return res;
        },
      },
      {
        route: "PATCH /api/operators/{operatorId}",
        run: () =>
          app.request(`/api/operators/${ids.operatorId}`, {
            as: as.admin,
            method: "PATCH",
            json: { name: "Audited again" },
          }),
      },
      {
        route: "POST /api/operators/{operatorId}/reset-password",
        run: () =>
          app.request(`/api/operators/${viewer.id}/reset-password`, {
            as: as.admin,
            method: "POST",
            json: { password: "another-password-1" },
          }),
      },
      {
        route: "POST /api/operators/{operatorId}/revoke-sessions",
        prepare: () =>
          app.request("/api/auth/sign-in/email", {
            method: "POST",
            json: { email: "audited.op@test.example", password: testPassword },
          }),
        run: () => app.request(`/api/operators/${ids.operatorId}/revoke-sessions`, { as: as.admin, method: "POST" }),
      },
      {
        route: "POST /api/operators/{operatorId}/unlock",
        prepare: () =>
          app.handle.db.execute(
            sql`insert into auth_throttle (key, failures, consecutive_failures, locked_until) values ('account:audited.op@test.example', 10, 10, now() + interval '1 hour')`,
          ),
        run: () => app.request(`/api/operators/${ids.operatorId}/unlock`, { as: as.admin, method: "POST" }),
      },
      {
        route: "DELETE /api/operators/{operatorId}/sessions/{sessionId}",
        prepare: () =>
          app.request("/api/auth/sign-in/email", {
            method: "POST",
            json: { email: "audited.op@test.example", password: testPassword },
          }),
        run: async () => {
          const [s] = await app.rows<{ id: string }>(
            sql`select id from operator_session where user_id = ${ids.operatorId} order by created_at desc limit 1`,
          );
          return app.request(`/api/operators/${ids.operatorId}/sessions/${s.id}`, { as: as.admin, method: "DELETE" });
        },
      },
      {
        route: "DELETE /api/account/sessions/{sessionId}",
        prepare: () =>
          app.request("/api/auth/sign-in/email", {
            method: "POST",
            json: { email: "editor@test.example", password: testPassword },
          }),
        run: async () => {
          const [s] = await app.rows<{ id: string }>(
            sql`select s.id from operator_session s join operator o on o.id = s.user_id
                where o.email = 'editor@test.example' order by s.created_at desc limit 1`,
          );
          return app.request(`/api/account/sessions/${s.id}`, { as: as.editor, method: "DELETE" });
        },
      },
      {
        // The operator's second factor (none here) and their sessions: one record, the operator.
        route: "POST /api/operators/{operatorId}/reset-two-factor",
        prepare: () =>
          app.request("/api/auth/sign-in/email", {
            method: "POST",
            json: { email: "audited.op@test.example", password: testPassword },
          }),
        run: () => app.request(`/api/operators/${ids.operatorId}/reset-two-factor`, { as: as.admin, method: "POST" }),
      },
      {
        route: "POST /api/account/revoke-sessions",
        run: () => app.request("/api/account/revoke-sessions", { as: as.editor, method: "POST" }),
      },
    ];

    // Every declared bulk action (docs/bulk-actions.md): its preview writes nothing; its start, once
    // its run has ended, one audit row per changed record and one for the action. The records are
    // the first of their table (an active one where the action needs it) and parameters the single
    // rules accept; then the cancel of a running action.
    const bulkTables: Record<string, [string, string]> = {
      customers: ["customers", "customer_id"],
      teams: ["teams", "team_id"],
      users: ["users_data", "user_id"],
      skills: ["skills", "skill_id"],
      prompts: ["pedal_prompts", "prompt_id"],
      platforms: ["platforms", "platform_id"],
    };
    const first = async (table: string, key: string, where = "true") =>
      (
        await app.rows<{ id: string }>(
          sql.raw(`select ${key}::text as id from ${table} where ${where} order by ${key} limit 1`),
        )
      )[0]?.id;
    // One record per entity for all its actions (the last active one: not a record other steps
    // pick), so that Unarchive brings back what Archive took and Remove Role what Add Role gave.
    const bulkRows = new Map<string, string>();
    async function bulkBody(entity: string, action: string) {
      const [table, key] = bulkTables[entity];
      if (!bulkRows.has(entity))
        bulkRows.set(
          entity,
          (
            await app.rows<{ id: string }>(
              sql.raw(`select ${key}::text as id from ${table} where status = 'active' order by ${key} desc limit 1`),
            )
          )[0].id,
        );
      const row = bulkRows.get(entity)!;
      const customerOf = `customer_id = (select customer_id from users_data where user_id = '${row}')`;
      const params: Record<string, unknown> = {
        "teams/assign_skill": { skill_id: await first("skills", "skill_id", "status = 'active'") },
        "users/set_status": { status: "active" },
        "users/add_to_team": { team_id: await first("teams", "team_id", `status = 'active' and ${customerOf}`) },
        "users/add_role": { role: "member" },
        "users/remove_role": { role: "member" },
        "skills/assign_to_teams": { team_ids: [await first("teams", "team_id", "status = 'active'")] },
        "prompts/assign_platform": { platform_id: await first("platforms", "platform_id", "status = 'active'") },
      };
      return { selection: { ids: [row] }, params: params[`${entity}/${action}`] ?? {} };
    }
    // Run first: later steps end the editor's sessions.
    const bulkSteps: typeof steps = [];
    for (const r of routeTable.filter((r) => r.method === "POST" && r.path.startsWith("/api/bulk/"))) {
      const m = /^\/api\/bulk\/([a-z]+)\/([a-z_]+)(\/preview)?$/.exec(r.path);
      if (!m) continue;
      const [, entity, action] = m;
      bulkSteps.push({
        route: `POST ${r.path}`,
        run: async () => {
          const res = await app.request(r.path, {
            as: as.editor,
            method: "POST",
            json: await bulkBody(entity, action),
          });
          await bulkIdle();
          return res;
        },
      });
    }
    bulkSteps.push({
      route: "POST /api/bulk/{bulkId}/cancel",
      prepare: async () => {
        const [run] = await app.rows<{ bulk_id: string }>(sql`
          insert into bulk_actions (entity, action, selection, total) values ('customers', 'archive', '{}'::jsonb, 0) returning bulk_id::text`);
        ids.bulkId = run.bulk_id;
      },
      run: () => app.request(`/api/bulk/${ids.bulkId}/cancel`, { as: as.editor, method: "POST", json: {} }),
    });
    // The undo of the editor's own action (a customer archived): the record put back and the undo's own row.
    bulkSteps.push({
      route: "POST /api/bulk/{bulkId}/undo",
      prepare: async () => {
        const customer = await first("customers", "customer_id", "status = 'active'");
        const res = await app.request("/api/bulk/customers/archive", {
          as: as.editor,
          method: "POST",
          json: { selection: { ids: [customer] }, params: {} },
        });
        ids.undoOf = (await res.json()).bulk_id;
        await bulkIdle();
      },
      run: async () => {
        const res = await app.request(`/api/bulk/${ids.undoOf}/undo`, { as: as.editor, method: "POST", json: {} });
        await bulkIdle();
        return res;
      },
    });
    steps.unshift(...bulkSteps);

    const mutations = [
      ...new Set(
        routeTable
          .filter((r) => ["POST", "PATCH", "DELETE", "PUT"].includes(r.method))
          .map((r) => `${r.method} ${r.path}`),
      ),
    ].sort();
    expect(steps.map((s) => s.route).sort(), "a step for every mutation route of the route table").toEqual(mutations);

    for (const step of steps) {
      await step.prepare?.();
      const seen = new Set(
        (await app.rows<{ audit_id: string }>(sql`select audit_id from audit_log`)).map((r) => r.audit_id),
      );
      const before = await snapshot();
      const res = await step.run();
      expect(res.status, step.route).toBeLessThan(300);
      const after = await snapshot();
      const rows = (
        await app.rows<{ audit_id: string; action: string; entity: string; entity_id: string; token: string | null }>(
          sql`select audit_id, action, entity, entity_id, api_token_id::text as token from audit_log`,
        )
      ).filter((r) => !seen.has(r.audit_id));
      // Made with a token, each row names it; with a cookie, none does.
      const byToken = credential === "bearer" && !step.sessionOnly;
      for (const row of rows)
        if (byToken) expect(tokenIds, `${step.route}: ${row.action} names its token`).toContain(row.token);
        else expect(row.token, `${step.route}: ${row.action} names no token`).toBeNull();
      for (const row of rows) {
        expect(auditActions, `${step.route}: action ${row.action}`).toContain(row.action);
        expect(auditEntities, `${step.route}: entity ${row.entity}`).toContain(row.entity);
      }
      const written = rows.map((r) => `${r.entity}:${r.entity_id}`).sort();
      expect(new Set(written).size, `${step.route}: one row per record ${written}`).toBe(written.length);
      expect(written, step.route).toEqual(changed(before, after));
    }
  }, 600_000);

  it("every listed action and entity can be filtered on, and the screen offers exactly these", async () => {
    for (const action of auditActions) {
      const res = await app.request(`/api/audit?action=${action}&limit=1`, { as: "admin" });
      expect(res.status, action).toBe(200);
      for (const item of (await res.json()).items) expect(item.action).toBe(action);
    }
    for (const entity of auditEntities)
      expect((await app.request(`/api/audit?entity=${entity}&limit=1`, { as: "admin" })).status, entity).toBe(200);
    expect((await app.request("/api/audit?action=join_team", { as: "admin" })).status).toBe(422);
    const rows = await app.rows<{ action: string }>(sql`select distinct action from audit_log`);
    for (const { action } of rows) expect(auditActions).toContain(action);
  });
});
