/**
 * Saved views and list preferences (docs/saved-views.md): saving, names unique per owner and list
 * whatever their case, sharing by editors and up, who sees and who changes which view, stale
 * versions, defaults and columns kept per operator across sessions, and views whose filters no
 * longer apply opening without them ("Stale filters"), every change audited. On PGlite and
 * PostgreSQL, over real HTTP requests.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { msg } from "../../src/domain/messages";
import { cookiesOf, startConsole, testPassword, type TestConsole } from "../support/app";
import { targets } from "../support/databases";

describe.each(targets)("saved views on %s", (target) => {
  let app: TestConsole;
  /** A second editor's session cookie: another operator of the same role. */
  let otherEditor: string;

  beforeAll(async () => {
    app = await startConsole(target, { demo: true });
    for (const role of ["admin", "editor", "viewer"] as const) await app.cookie(role);
    const made = await app.write(
      "POST",
      "/api/operators",
      { email: "second-editor@test.example", name: "Second Editor", role: "editor", password: testPassword },
      "admin",
    );
    expect(made.status).toBe(201);
    otherEditor = await signIn("second-editor@test.example");
  });
  afterAll(() => app.close());

  /** A new session of `email`: its cookie. */
  async function signIn(email: string) {
    const res = await app.request("/api/auth/sign-in/email", {
      method: "POST",
      json: { email, password: testPassword },
    });
    expect(res.status).toBe(200);
    return cookiesOf(res);
  }

  /** A request with the session `cookie`: status and parsed body. */
  async function withCookie(cookie: string, method: string, path: string, json?: unknown) {
    const res = await app.request(path, { method, headers: { cookie }, json });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  }

  /** Saves a view as `role` and expects it saved. */
  async function save(
    role: "admin" | "editor" | "viewer",
    view: { list: string; name: string; shared?: boolean; state?: Record<string, unknown> },
  ) {
    const res = await app.write("POST", "/api/views", { state: {}, ...view }, role);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body;
  }

  it("saves a view and lists it with its owner, as the caller's own and editable", async () => {
    const view = await save("editor", {
      list: "customers",
      name: "Trial customers",
      state: { q: "acme", filters: { status: "trial" }, sort: "customer_name", order: "asc", columns: ["name"] },
    });
    expect(view).toMatchObject({
      list: "customers",
      name: "Trial customers",
      shared: false,
      mine: true,
      can_edit: true,
      is_default: false,
      owner_email: "editor@test.example",
      version: 1,
      state: { q: "acme", filters: { status: "trial" }, sort: "customer_name", order: "asc", columns: ["name"] },
    });
    const { status, body } = await app.read("/api/views?list=customers&q=trial", "editor");
    expect(status).toBe(200);
    expect(body.items.map((v: { view_id: string }) => v.view_id)).toContain(view.view_id);
    expect(body.total).toBeGreaterThanOrEqual(1);
    const opened = await app.read(`/api/views/${view.view_id}`, "editor");
    expect(opened.status).toBe(200);
    expect(opened.body.dropped).toEqual([]);
    expect(opened.body.state).toEqual(view.state);
  });

  it("refuses a name already used by the owner on that list whatever its case, an empty one and one of 101 characters", async () => {
    await save("editor", { list: "teams", name: "Big teams" });
    const dup = await app.write("POST", "/api/views", { list: "teams", name: "BIG TEAMS", state: {} });
    expect(dup.status).toBe(422);
    expect(dup.body.error.fields.name).toBe(msg.views.nameTaken);
    // Another list, or another owner, may use it.
    await save("editor", { list: "users", name: "Big teams" });
    await save("admin", { list: "teams", name: "Big teams" });
    const empty = await app.write("POST", "/api/views", { list: "teams", name: "  ", state: {} });
    expect(empty.status).toBe(422);
    expect(empty.body.error.fields.name).toBe(msg.views.nameRequired);
    const long = await app.write("POST", "/api/views", { list: "teams", name: "x".repeat(101), state: {} });
    expect(long.status).toBe(422);
    expect(long.body.error.fields.name).toBe(msg.text.tooLong("Name", 100));
    await save("editor", { list: "teams", name: "y".repeat(100) });
  });

  it("refuses filters, values and sorts the list does not take", async () => {
    const res = await app.write("POST", "/api/views", {
      list: "customers",
      name: "Bad",
      state: { filters: { colour: "red", status: "archived" }, sort: "shoe_size" },
    });
    expect(res.status).toBe(422);
    expect(res.body.error.fields).toEqual({
      "state.filters.colour": msg.views.unknownFilter("colour"),
      "state.filters.status": msg.views.unknownValue("status"),
      "state.sort": msg.views.unknownSort("shoe_size"),
    });
    const list = await app.write("POST", "/api/views", { list: "nowhere", name: "Bad", state: {} });
    expect(list.status).toBe(422);
    expect(list.body.error.fields.list).toBeDefined();
  });

  it("lets a viewer save personal views but not share them", async () => {
    const mine = await save("viewer", { list: "skills", name: "Agents", state: { filters: { type: "agent" } } });
    expect(mine.shared).toBe(false);
    const shared = await app.write(
      "POST",
      "/api/views",
      { list: "skills", name: "Shared", shared: true, state: {} },
      "viewer",
    );
    expect(shared.status).toBe(403);
    expect(shared.body.error.message).toBe(msg.views.shareForbidden);
    const patch = await app.write("PATCH", `/api/views/${mine.view_id}`, { version: 1, shared: true }, "viewer");
    expect(patch.status).toBe(403);
    const renamed = await app.write(
      "PATCH",
      `/api/views/${mine.view_id}`,
      { version: 1, name: "Agent skills" },
      "viewer",
    );
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: "Agent skills", version: 2 });
  });

  it("keeps views and columns only for lists the operator's role can open", async () => {
    // The audit log is for admins: a viewer can neither save a view of it nor keep its columns.
    const view = await app.write("POST", "/api/views", { list: "audit", name: "Mine", state: {} }, "viewer");
    expect(view.status).toBe(403);
    expect(view.body.error.message).toBe(msg.views.listForbidden);
    const columns = await app.write("PUT", "/api/list-preferences/audit", { columns: ["action"] }, "viewer");
    expect(columns.status).toBe(403);
    expect((await app.write("PUT", "/api/list-preferences/audit", { columns: ["action"] }, "admin")).status).toBe(200);
    // An admin's shared view of it is not the viewer's either: absent from their list, 404 by id.
    const shared = await save("admin", { list: "audit", name: "Shared audit", shared: true });
    expect((await app.read(`/api/views/${shared.view_id}`, "admin")).status).toBe(200);
    expect((await app.read(`/api/views/${shared.view_id}`, "viewer")).status).toBe(404);
    const listed = await app.read("/api/views?limit=100", "viewer");
    expect(listed.status).toBe(200);
    expect(listed.body.items.map((v: { view_id: string }) => v.view_id)).not.toContain(shared.view_id);
    expect(listed.body.items.every((v: { list: string }) => v.list !== "audit")).toBe(true);
    expect((await app.read("/api/views?list=audit", "viewer")).body.total).toBe(0);
    expect((await app.read("/api/views?list=audit", "admin")).body.total).toBeGreaterThanOrEqual(1);
  });

  it("shows another operator's shared views but never their personal ones, admins included", async () => {
    const personal = await save("editor", { list: "comments", name: "Mine only" });
    const shared = await save("editor", { list: "comments", name: "For everyone", shared: true });
    const seen = await app.read("/api/views?list=comments", "viewer");
    const ids = seen.body.items.map((v: { view_id: string }) => v.view_id);
    expect(ids).toContain(shared.view_id);
    expect(ids).not.toContain(personal.view_id);
    const item = seen.body.items.find((v: { view_id: string }) => v.view_id === shared.view_id);
    expect(item).toMatchObject({ mine: false, can_edit: false, owner_email: "editor@test.example" });
    expect((await app.read("/api/views?list=comments&shared=false", "viewer")).body.items).toEqual([]);
    // Without `list`: every list's views (the command palette).
    const all = await app.read("/api/views?limit=200", "viewer");
    expect(all.body.items.map((v: { view_id: string }) => v.view_id)).toContain(shared.view_id);
    for (const role of ["viewer", "admin"] as const) {
      const res = await app.read(`/api/views/${personal.view_id}`, role);
      expect(res.status, role).toBe(404);
      expect(res.body.error.message).toBe(msg.views.notFound);
    }
    expect((await app.read(`/api/views/${shared.view_id}`, "viewer")).status).toBe(200);
    const adminSees = await app.read("/api/views?list=comments", "admin");
    expect(adminSees.body.items.find((v: { view_id: string }) => v.view_id === shared.view_id).can_edit).toBe(true);
    expect(
      (await app.write("PATCH", `/api/views/${personal.view_id}`, { version: 1, name: "x" }, "admin")).status,
    ).toBe(404);
    expect((await app.write("DELETE", `/api/views/${personal.view_id}`, undefined, "admin")).status).toBe(404);
  });

  it("lets only the owner or an admin change a shared view, and refuses a stale version", async () => {
    const shared = await save("editor", {
      list: "prompts",
      name: "Drafts",
      shared: true,
      state: { filters: { status: "draft" } },
    });
    const other = await withCookie(otherEditor, "PATCH", `/api/views/${shared.view_id}`, {
      version: 1,
      name: "Mine now",
    });
    expect(other.status).toBe(403);
    expect(other.body.error.message).toBe(msg.views.editForbidden);
    expect((await withCookie(otherEditor, "DELETE", `/api/views/${shared.view_id}`)).status).toBe(403);
    const byAdmin = await app.write(
      "PATCH",
      `/api/views/${shared.view_id}`,
      { version: 1, name: "Draft prompts" },
      "admin",
    );
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.body).toMatchObject({ name: "Draft prompts", version: 2, mine: false, can_edit: true });
    const stale = await app.write("PATCH", `/api/views/${shared.view_id}`, { version: 1, name: "Old" });
    expect(stale.status).toBe(409);
    expect(stale.body.error.code).toBe("stale");
    expect(stale.body.error.current).toMatchObject({ name: "Draft prompts", version: 2 });
    const owner = await app.write("PATCH", `/api/views/${shared.view_id}`, {
      version: 2,
      shared: false,
      state: { filters: { status: "active" }, sort: "prompt_title" },
    });
    expect(owner.status).toBe(200);
    expect(owner.body).toMatchObject({ shared: false, version: 3, state: { filters: { status: "active" } } });
  });

  it("keeps a default view per operator and list: visible, of the same list, cleared when the view is deleted", async () => {
    const view = await save("editor", { list: "platforms", name: "Live platforms", shared: true });
    const otherList = await save("editor", { list: "teams", name: "Not platforms" });
    const hidden = await withCookie(otherEditor, "POST", "/api/views", {
      list: "platforms",
      name: "Hidden",
      state: {},
    });
    expect(hidden.status).toBe(201);
    expect(await app.read("/api/list-preferences/platforms", "editor")).toEqual({
      status: 200,
      body: { list: "platforms", columns: null, hidden_columns: null, default_view_id: null },
    });
    for (const id of [otherList.view_id, hidden.body.view_id, "00000000-0000-4000-8000-000000000000"]) {
      const res = await app.write("PUT", "/api/list-preferences/platforms", { default_view_id: id });
      expect(res.status, id).toBe(422);
      expect(res.body.error.fields.default_view_id).toBe(msg.views.defaultNotVisible);
    }
    const set = await app.write("PUT", "/api/list-preferences/platforms", { default_view_id: view.view_id });
    expect(set).toEqual({
      status: 200,
      body: { list: "platforms", columns: null, hidden_columns: null, default_view_id: view.view_id },
    });
    // Another operator may take a shared view as their default too.
    const viewerSet = await app.write(
      "PUT",
      "/api/list-preferences/platforms",
      { default_view_id: view.view_id },
      "viewer",
    );
    expect(viewerSet.status).toBe(200);
    const listed = await app.read("/api/views?list=platforms", "editor");
    expect(listed.body.items.find((v: { view_id: string }) => v.view_id === view.view_id).is_default).toBe(true);
    expect((await app.read(`/api/views/${view.view_id}`, "viewer")).body.is_default).toBe(true);
    // Made personal again, it is no longer the viewer's to open: their default reads as null.
    await app.write("PATCH", `/api/views/${view.view_id}`, { version: 1, shared: false });
    expect((await app.read("/api/list-preferences/platforms", "viewer")).body.default_view_id).toBeNull();
    const gone = await app.request(`/api/views/${view.view_id}`, { as: "editor", method: "DELETE" });
    expect(gone.status).toBe(204);
    expect((await app.read("/api/list-preferences/platforms", "editor")).body.default_view_id).toBeNull();
    expect((await app.read(`/api/views/${view.view_id}`, "editor")).status).toBe(404);
    expect(await app.rows(sql`select 1 from saved_views where view_id = ${view.view_id}`)).toEqual([]);
  });

  it("keeps column choices across sessions: put, get, keep the other part, clear", async () => {
    const cookie = await signIn("second-editor@test.example");
    const put = await withCookie(cookie, "PUT", "/api/list-preferences/users", {
      columns: ["email", "name", "status"],
      hidden_columns: ["customer"],
    });
    expect(put).toEqual({
      status: 200,
      body: {
        list: "users",
        columns: ["email", "name", "status"],
        hidden_columns: ["customer"],
        default_view_id: null,
      },
    });
    const out = await app.request("/api/auth/sign-out", { method: "POST", headers: { cookie }, json: {} });
    expect(out.status).toBe(200);
    expect((await withCookie(cookie, "GET", "/api/list-preferences/users")).status).toBe(401);
    const again = await signIn("second-editor@test.example");
    expect((await withCookie(again, "GET", "/api/list-preferences/users")).body.columns).toEqual([
      "email",
      "name",
      "status",
    ]);
    // Another operator's choices are their own.
    expect((await app.read("/api/list-preferences/users", "editor")).body.columns).toBeNull();
    const view = await withCookie(again, "POST", "/api/views", { list: "users", name: "Everyone", state: {} });
    const both = await withCookie(again, "PUT", "/api/list-preferences/users", { default_view_id: view.body.view_id });
    expect(both.body).toEqual({
      list: "users",
      columns: ["email", "name", "status"],
      hidden_columns: ["customer"],
      default_view_id: view.body.view_id,
    });
    const cleared = await withCookie(again, "PUT", "/api/list-preferences/users", {
      columns: null,
      hidden_columns: null,
    });
    expect(cleared.body).toEqual({
      list: "users",
      columns: null,
      hidden_columns: null,
      default_view_id: view.body.view_id,
    });
    // A body with no part is refused, not taken as nothing to do.
    expect((await withCookie(again, "PUT", "/api/list-preferences/users", {})).status).toBe(422);
    const unknown = await withCookie(again, "GET", "/api/list-preferences/nowhere");
    expect(unknown.status).toBe(422);
    expect(unknown.body.error.fields.list).toBe(msg.views.unknownList);
    expect((await withCookie(again, "PUT", "/api/list-preferences/nowhere", { columns: ["a"] })).status).toBe(422);
  });

  it("opens a view whose team was deleted without that filter (not_found)", async () => {
    const [{ customer_id }] = await app.rows<{ customer_id: string }>(
      sql`select customer_id from customers order by customer_name limit 1`,
    );
    const team = await app.write("POST", "/api/teams", { customer_id, team_name: "Short-lived team" });
    expect(team.status).toBe(201);
    const view = await save("editor", {
      list: "users",
      name: "Short-lived team's users",
      state: { filters: { team_id: team.body.team_id, customer_id, status: "active" } },
    });
    expect((await app.read(`/api/views/${view.view_id}`, "editor")).body.dropped).toEqual([]);
    expect((await app.write("DELETE", `/api/teams/${team.body.team_id}`)).status).toBe(200);
    const opened = await app.read(`/api/views/${view.view_id}`, "editor");
    expect(opened.status).toBe(200);
    expect(opened.body.dropped).toEqual([{ part: "filters.team_id", value: team.body.team_id, reason: "not_found" }]);
    expect(opened.body.state.filters).toEqual({ customer_id, status: "active" });
    // The stored view is left as saved: the record may be restored (Undo).
    expect(
      (
        await app.rows<{ state: { filters: Record<string, string> } }>(
          sql`select state from saved_views where view_id = ${view.view_id}`,
        )
      )[0].state.filters.team_id,
    ).toBe(team.body.team_id);
  });

  it("opens a stored view with an unknown value, an unknown filter and an unknown sort, dropping each", async () => {
    const [{ view_id }] = await app.rows<{ view_id: string }>(sql`
      insert into saved_views (operator_id, list, name, shared, state)
      values ((select id from operator where email = 'editor@test.example'), 'customers', 'From an older console', false,
        ${JSON.stringify({ q: "co", filters: { status: "archived", region: "emea" }, sort: "revenue", order: "desc", limit: 50 })}::jsonb)
      returning view_id`);
    const opened = await app.read(`/api/views/${view_id}`, "editor");
    expect(opened.status).toBe(200);
    // jsonb keeps an object's keys in its own order: the filters' order is the database's.
    expect(opened.body.dropped).toHaveLength(3);
    expect(opened.body.dropped).toEqual(
      expect.arrayContaining([
        { part: "filters.status", value: "archived", reason: "unknown_value" },
        { part: "filters.region", value: "emea", reason: "unknown_filter" },
        { part: "sort", value: "revenue", reason: "unknown_sort" },
      ]),
    );
    expect(opened.body.state).toEqual({ q: "co", filters: {}, limit: 50 });
  });

  it("audits every change: views created, changed, deleted; preferences updated", async () => {
    const view = await save("editor", { list: "deleted", name: "Audited", state: { filters: { entity: "team" } } });
    await app.write("PATCH", `/api/views/${view.view_id}`, { version: 1, name: "Audited again" });
    await app.write("PUT", "/api/list-preferences/deleted", { columns: ["label"] });
    await app.request(`/api/views/${view.view_id}`, { as: "editor", method: "DELETE" });
    const rows = await app.rows<{
      action: string;
      entity: string;
      entity_id: string;
      changes: any;
      operator_email: string;
    }>(sql`
      select action, entity, entity_id, changes, operator_email from audit_log
      where (entity = 'saved_view' and entity_id = ${view.view_id}) or (entity = 'list_preference' and entity_id = 'deleted')
      order by created_at`);
    expect(rows.map((r) => [r.action, r.entity])).toEqual([
      ["create", "saved_view"],
      ["update", "saved_view"],
      ["update", "list_preference"],
      ["delete", "saved_view"],
    ]);
    expect(rows.every((r) => r.operator_email === "editor@test.example")).toBe(true);
    expect(rows[0].changes.after).toMatchObject({ list: "deleted", name: "Audited", shared: false });
    expect(rows[1].changes).toEqual({ before: { name: "Audited" }, after: { name: "Audited again" } });
    expect(rows[2].changes).toEqual({ before: { columns: null }, after: { columns: ["label"] } });
    expect(rows[3].changes.before).toMatchObject({ name: "Audited again", state: { filters: { entity: "team" } } });
  });
});
