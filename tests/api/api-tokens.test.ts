/**
 * Personal API tokens (docs/identity.md "API tokens"): creation from a session (shown once,
 * stored hashed, role no higher than the creator's, expiry 1–365 days), `Authorization: Bearer`
 * on the /api routes with the lower of the token's and the operator's role, no CSRF check without
 * a cookie, the per-token rate limit, refusal in the query string, expiry, revocation by the
 * operator and by an admin, demotion and deactivation, audit rows naming the token, and the
 * bearer scheme in the OpenAPI document. On PGlite and PostgreSQL.
 */
import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { msg } from "../../src/domain/messages";
import { purgeDeletedRecords } from "../../src/server/deleted";
import { routeTable } from "../../src/server/http/route";
import { startConsole, testClock, testPassword, type TestConsole } from "../support/app";
import { targets } from "../support/databases";

const invalidBody = { error: { code: "unauthorized", message: msg.apiTokens.invalid } };

describe.each(targets)("API tokens on %s", (target) => {
  let app: TestConsole;
  const clock = testClock();

  beforeAll(async () => {
    app = await startConsole(target, { demo: true, clock, identity: { apiTokenRatePerMinute: 10 } });
    for (const role of ["admin", "editor", "viewer"] as const) await app.cookie(role);
  });
  afterAll(() => app.close());

  /** Creates a token as `role` (cookie) and returns the answer. */
  async function create(role: "admin" | "editor" | "viewer", json: Record<string, unknown>) {
    const res = await app.request("/api/account/tokens", { as: role, credential: "cookie", method: "POST", json });
    return { status: res.status, body: await res.json() };
  }

  /** A request with `token` as its only credential (no cookie, no Origin). */
  async function withToken(token: string, path: string, init: { method?: string; json?: unknown } = {}) {
    const res = await app.request(path, {
      method: init.method ?? "GET",
      json: init.json,
      noOrigin: true,
      headers: { authorization: `Bearer ${token}` },
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
  }

  /** A new operator of `role` with a session cookie (a fresh account for tests that change it). */
  async function operatorWith(role: "admin" | "editor" | "viewer", email: string) {
    const res = await app.request("/api/operators", {
      as: "admin",
      credential: "cookie",
      method: "POST",
      json: { email, name: email, role, password: testPassword },
    });
    expect(res.status).toBe(201);
    const id = (await res.json()).id as string;
    const signIn = await app.request("/api/auth/sign-in/email", {
      method: "POST",
      json: { email, password: testPassword },
    });
    expect(signIn.status).toBe(200);
    const cookie = signIn.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    const made = await app.request("/api/account/tokens", {
      method: "POST",
      headers: { cookie },
      json: { name: "script", role },
    });
    expect(made.status).toBe(201);
    const token = (await made.json()) as { token: string; token_id: string };
    return { id, cookie, ...token };
  }

  it("creates a token shown once, stored as its SHA-256, listed with its prefix, role, creation, expiry and last use", async () => {
    const { status, body } = await create("editor", { name: "Nightly export", role: "viewer" });
    expect(status).toBe(201);
    expect(body.token).toMatch(/^pedal_[A-Za-z0-9_-]{43}$/);
    expect(body.prefix).toBe(body.token.slice(0, 12));
    expect(body.role).toBe("viewer");
    expect(body.name).toBe("Nightly export");
    expect(body.last_used_at).toBeNull();
    // 90 days by default.
    expect(new Date(body.expires_at).getTime() - new Date(body.created_at).getTime()).toBe(90 * 86_400_000);

    const [row] = await app.rows<Record<string, unknown>>(
      sql`select * from operator_api_token where token_id = ${body.token_id}`,
    );
    expect(row.token_hash).toBe(createHash("sha256").update(body.token).digest("hex"));
    expect(Object.values(row).map(String)).not.toContain(body.token);

    // Listed without the token; never readable again.
    const list = await app.read("/api/account/tokens", "editor");
    expect(list.status).toBe(200);
    const listed = list.body.items.find((t: { token_id: string }) => t.token_id === body.token_id);
    expect(listed).toEqual({
      token_id: body.token_id,
      name: "Nightly export",
      prefix: body.prefix,
      role: "viewer",
      created_at: body.created_at,
      expires_at: body.expires_at,
      last_used_at: null,
      revoked_at: null,
      platform_id: null,
      platform_name: null,
    });
    expect(JSON.stringify(list.body)).not.toContain(body.token);

    // Audited with its prefix, name and role, never the token.
    const audit = await app.rows<{ action: string; entity: string; changes: { after: Record<string, unknown> } }>(
      sql`select action, entity, changes from audit_log where entity_id = ${body.token_id}`,
    );
    expect(audit).toHaveLength(1);
    expect(audit[0].action).toBe("api_token_created");
    expect(audit[0].entity).toBe("api_token");
    expect(audit[0].changes.after).toMatchObject({ name: "Nightly export", prefix: body.prefix, role: "viewer" });
    const everything = await app.rows<{ t: string }>(sql`select string_agg(a::text, '|') as t from audit_log a`);
    expect(everything[0].t).not.toContain(body.token);
  });

  it("refuses a role above the creator's, a bad name and an expiry outside 1–365 days (422)", async () => {
    const above = await create("editor", { name: "x", role: "admin" });
    expect(above.status).toBe(422);
    expect(above.body.error.fields.role).toBe(msg.apiTokens.roleTooHigh);
    expect((await create("viewer", { name: "x", role: "editor" })).status).toBe(422);
    expect((await create("viewer", { name: "", role: "viewer" })).body.error.fields.name).toBe(
      msg.apiTokens.nameRequired,
    );
    expect((await create("viewer", { name: "x".repeat(101), role: "viewer" })).status).toBe(422);
    for (const days of [0, 366, 1.5, "30"])
      expect((await create("viewer", { name: "x", role: "viewer", expires_in_days: days })).status, `${days}`).toBe(
        422,
      );
    const year = await create("viewer", { name: "A year", role: "viewer", expires_in_days: 365 });
    expect(year.status).toBe(201);
    expect(new Date(year.body.expires_at).getTime() - new Date(year.body.created_at).getTime()).toBe(365 * 86_400_000);
  });

  it("gives a token its role on the /api routes, and the role matrix applies unchanged", async () => {
    const viewer = (await create("admin", { name: "read only", role: "viewer" })).body.token;
    const editor = (await create("admin", { name: "writer", role: "editor" })).body.token;
    const admin = (await create("admin", { name: "all", role: "admin" })).body.token;
    expect((await withToken(viewer, "/api/customers?limit=1")).status).toBe(200);
    expect((await withToken(viewer, "/api/operators")).status).toBe(403);
    const refused = await withToken(viewer, "/api/customers", { method: "POST", json: { customer_name: "No" } });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("forbidden");
    expect((await withToken(editor, "/api/operators")).status).toBe(403);
    expect((await withToken(admin, "/api/operators")).status).toBe(200);
    // A token may read its own list but not create tokens (a leaked token cannot mint others).
    expect((await withToken(viewer, "/api/account/tokens")).status).toBe(200);
    const mint = await withToken(admin, "/api/account/tokens", { method: "POST", json: { name: "m", role: "viewer" } });
    expect(mint.status).toBe(403);
    expect(mint.body.error.message).toBe(msg.apiTokens.sessionOnly);
  });

  it("needs no Origin with a bearer token alone, and audit rows name the operator and the token", async () => {
    const made = (await create("editor", { name: "ci", role: "editor" })).body;
    const res = await withToken(made.token, "/api/customers", { method: "POST", json: { customer_name: "Token Co" } });
    expect(res.status).toBe(201);
    const [row] = await app.rows<{ operator_email: string; api_token_id: string; action: string }>(
      sql`select operator_email, api_token_id::text as api_token_id, action from audit_log
        where entity = 'customer' and entity_id = ${res.body.customer_id}`,
    );
    expect(row).toEqual({ operator_email: "editor@test.example", api_token_id: made.token_id, action: "create" });
    const audit = await app.read(`/api/audit?entity=customer&entity_id=${res.body.customer_id}`, "admin");
    expect(audit.body.items[0].api_token_id).toBe(made.token_id);
    // A cookie request's rows name no token.
    const byCookie = await app.write("POST", "/api/customers", { customer_name: "Cookie Co" });
    const [plain] = await app.rows<{ api_token_id: string | null }>(
      sql`select api_token_id from audit_log where entity_id = ${byCookie.body.customer_id}`,
    );
    expect(plain.api_token_id).toBeNull();
  });

  it("keeps the CSRF check for cookies, with or without a bearer token beside it, and lets the bearer token win", async () => {
    const viewerToken = (await create("admin", { name: "mix", role: "viewer" })).body.token;
    const adminCookie = await app.cookie("admin");
    // A cookie without Origin: refused as before.
    const cookieOnly = await app.request("/api/customers", {
      method: "POST",
      noOrigin: true,
      headers: { cookie: adminCookie },
      json: { customer_name: "Forged" },
    });
    expect(cookieOnly.status).toBe(403);
    expect((await cookieOnly.json()).error.message).toBe(msg.api.crossOrigin);
    // Cookie and bearer without Origin: still the CSRF check (a browser sends the cookie by itself).
    const mixed = await app.request("/api/customers", {
      method: "POST",
      noOrigin: true,
      headers: { cookie: adminCookie, authorization: `Bearer ${viewerToken}` },
      json: { customer_name: "Forged" },
    });
    expect(mixed.status).toBe(403);
    expect((await mixed.json()).error.message).toBe(msg.api.crossOrigin);
    // With Origin, the bearer token decides: a viewer token beside an admin cookie acts as viewer.
    const read = await app.request("/api/operators", {
      headers: { cookie: adminCookie, authorization: `Bearer ${viewerToken}` },
    });
    expect(read.status).toBe(403);
  });

  it("answers a malformed, unknown or expired token 401 with the standard error body", async () => {
    for (const header of [
      "Bearer",
      "Bearer ",
      "Bearer not-a-token",
      "Bearer pedal_short",
      `Bearer pedal_${"a".repeat(43)} extra`,
      `Bearer pedal_${"a".repeat(43)}`, // well-formed, unknown
    ]) {
      const res = await app.request("/api/customers", { headers: { authorization: header } });
      expect(res.status, header).toBe(401);
      expect(await res.json(), header).toEqual(invalidBody);
      expect(res.headers.get("www-authenticate"), header).toContain("Bearer");
      // A write without Origin is answered the same: the credential decides, not the missing Origin.
      const write = await app.request("/api/customers", {
        method: "POST",
        headers: { authorization: header, "content-type": "application/json" },
        body: JSON.stringify({ customer_name: "Never written" }),
        noOrigin: true,
      });
      expect(write.status, `POST ${header}`).toBe(401);
      expect(await write.json(), `POST ${header}`).toEqual(invalidBody);
    }
    const made = (await create("viewer", { name: "short lived", role: "viewer", expires_in_days: 1 })).body;
    expect((await withToken(made.token, "/api/customers?limit=1")).status).toBe(200);
    clock.advance(86_400);
    try {
      const expired = await withToken(made.token, "/api/customers?limit=1");
      expect(expired.status).toBe(401);
      expect(expired.body).toEqual(invalidBody);
    } finally {
      clock.reset();
    }
  });

  it("ends a token at once when its operator or an admin revokes it", async () => {
    const mine = (await create("editor", { name: "to revoke", role: "editor" })).body;
    expect((await withToken(mine.token, "/api/customers?limit=1")).status).toBe(200);
    // Another operator cannot revoke it through their own list.
    expect((await app.request(`/api/account/tokens/${mine.token_id}`, { as: "viewer", method: "DELETE" })).status).toBe(
      404,
    );
    const revoked = await app.request(`/api/account/tokens/${mine.token_id}`, { as: "editor", method: "DELETE" });
    expect(revoked.status).toBe(200);
    expect(await withToken(mine.token, "/api/customers?limit=1")).toMatchObject({ status: 401, body: invalidBody });
    // Kept, marked revoked, after the live ones of its owner's list.
    const listed = (await app.read("/api/account/tokens", "editor")).body.items as {
      token_id: string;
      revoked_at: string | null;
    }[];
    expect(listed.find((t) => t.token_id === mine.token_id)?.revoked_at).toBe(clock().toISOString());
    expect(listed.findIndex((t) => t.revoked_at !== null)).toBeGreaterThan(
      listed.findLastIndex((t) => t.revoked_at === null),
    );
    const [row] = await app.rows<{ action: string; changes: { before: Record<string, unknown> } }>(
      sql`select action, changes from audit_log where entity_id = ${mine.token_id} and action = 'api_token_revoked'`,
    );
    expect(row.changes.before).toMatchObject({ name: "to revoke", prefix: mine.prefix, role: "editor" });
    expect((await app.request(`/api/account/tokens/${mine.token_id}`, { as: "editor", method: "DELETE" })).status).toBe(
      404,
    );

    // Admins see every operator's tokens, with the operator's email, and revoke any of them.
    const other = (await create("viewer", { name: "viewer's script", role: "viewer" })).body;
    expect((await app.read("/api/api-tokens", "editor")).status).toBe(403);
    const all = await app.read(`/api/api-tokens?q=${encodeURIComponent("viewer's")}`, "admin");
    expect(all.status).toBe(200);
    expect(all.body.items.find((t: { token_id: string }) => t.token_id === other.token_id)).toMatchObject({
      operator_email: "viewer@test.example",
      name: "viewer's script",
      prefix: other.prefix,
      role: "viewer",
    });
    expect(JSON.stringify(all.body)).not.toContain(other.token);
    expect((await app.request(`/api/api-tokens/${other.token_id}`, { as: "editor", method: "DELETE" })).status).toBe(
      403,
    );
    expect((await app.request(`/api/api-tokens/${other.token_id}`, { as: "admin", method: "DELETE" })).status).toBe(
      200,
    );
    expect((await withToken(other.token, "/api/customers?limit=1")).status).toBe(401);
    expect((await app.request(`/api/api-tokens/${other.token_id}`, { as: "admin", method: "DELETE" })).status).toBe(
      404,
    );
    const marked = await app.read(`/api/api-tokens?q=${encodeURIComponent("viewer's")}`, "admin");
    expect(marked.body.items.find((t: { token_id: string }) => t.token_id === other.token_id).revoked_at).toEqual(
      expect.any(String),
    );
    // Purged with Recently deleted's snapshots once DELETED_RETENTION_DAYS (30) have passed.
    const purge = (days: number) =>
      purgeDeletedRecords(app.handle.db, { retentionDays: 30, now: new Date(clock().getTime() + days * 86_400_000) });
    await purge(29);
    expect(await app.count(sql`select 1 from operator_api_token where token_id = ${mine.token_id}`)).toBe(1);
    await purge(31);
    expect(
      await app.count(sql`select 1 from operator_api_token where token_id in (${mine.token_id}, ${other.token_id})`),
    ).toBe(0);
  });

  it("lowers a demoted operator's tokens at once, and never acts above the operator's current role", async () => {
    const op = await operatorWith("admin", "demoted.admin@test.example");
    expect((await withToken(op.token, "/api/operators")).status).toBe(200);
    // Even with the stored role untouched, the operator's current role is the ceiling.
    await app.rows(sql`update operator set role = 'editor' where id = ${op.id}`);
    expect((await withToken(op.token, "/api/operators")).status).toBe(403);
    expect((await withToken(op.token, "/api/customers", { method: "POST", json: { customer_name: "E" } })).status).toBe(
      201,
    );
    await app.rows(sql`update operator set role = 'admin' where id = ${op.id}`);
    // Demoted through the Operators screen: the token's stored role follows, audited.
    const demote = await app.request(`/api/operators/${op.id}`, {
      as: "admin",
      method: "PATCH",
      json: { role: "viewer" },
    });
    expect(demote.status).toBe(200);
    const [stored] = await app.rows<{ role: string }>(
      sql`select role from operator_api_token where token_id = ${op.token_id}`,
    );
    expect(stored.role).toBe("viewer");
    expect((await withToken(op.token, "/api/customers", { method: "POST", json: { customer_name: "V" } })).status).toBe(
      403,
    );
    expect((await withToken(op.token, "/api/customers?limit=1")).status).toBe(200);
    const [lowered] = await app.rows<{ changes: { before: { role: string }; after: { role: string } } }>(
      sql`select changes from audit_log where entity_id = ${op.token_id} and action = 'api_token_lowered'`,
    );
    expect(lowered.changes).toMatchObject({ before: { role: "admin" }, after: { role: "viewer" } });
    // Promoted again: the token stays at what it was lowered to.
    await app.request(`/api/operators/${op.id}`, { as: "admin", method: "PATCH", json: { role: "admin" } });
    expect((await withToken(op.token, "/api/operators")).status).toBe(403);
  });

  it("ends a deactivated operator's tokens at once", async () => {
    const op = await operatorWith("editor", "deactivated.editor@test.example");
    expect((await withToken(op.token, "/api/customers?limit=1")).status).toBe(200);
    const res = await app.request(`/api/operators/${op.id}`, { as: "admin", method: "PATCH", json: { banned: true } });
    expect(res.status).toBe(200);
    expect(await withToken(op.token, "/api/customers?limit=1")).toMatchObject({ status: 401, body: invalidBody });
    expect(
      await app.count(sql`select 1 from operator_api_token where operator_id = ${op.id} and revoked_at is null`),
    ).toBe(0);
    const [row] = await app.rows<{ changes: { after: { reason: string } } }>(
      sql`select changes from audit_log where entity_id = ${op.token_id} and action = 'api_token_revoked'`,
    );
    expect(row.changes.after.reason).toBe("operator_deactivated");
    // A token of a deactivated operator is refused even if one was left behind.
    await app.request(`/api/operators/${op.id}`, { as: "admin", method: "PATCH", json: { banned: false } });
    const again = await app.request("/api/auth/sign-in/email", {
      method: "POST",
      json: { email: "deactivated.editor@test.example", password: testPassword },
    });
    const cookie = again.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    const made = await app.request("/api/account/tokens", {
      method: "POST",
      headers: { cookie },
      json: { name: "again", role: "editor" },
    });
    const token = (await made.json()).token as string;
    await app.rows(sql`update operator set banned = true where id = ${op.id}`);
    expect((await withToken(token, "/api/customers?limit=1")).status).toBe(401);
  });

  it("cannot create, reset or revoke credentials with a token, whatever its role: every write under /api/operators, /api/account and /api/api-tokens is session-only", async () => {
    const target = await operatorWith("editor", "credential.target@test.example");
    // Fresh tokens: the limit here is 10 requests a minute per token.
    const admin = (await create("admin", { name: "credentials", role: "admin" })).body.token as string;
    const viewer = (await create("viewer", { name: "credentials", role: "viewer" })).body.token as string;
    const refused = [
      {
        token: admin,
        method: "POST",
        path: "/api/operators",
        json: { email: "minted.admin@test.example", name: "M", role: "admin", password: testPassword },
      },
      { token: admin, method: "PATCH", path: `/api/operators/${target.id}`, json: { role: "admin" } },
      {
        token: admin,
        method: "POST",
        path: `/api/operators/${target.id}/reset-password`,
        json: { password: testPassword },
      },
      { token: admin, method: "POST", path: `/api/operators/${target.id}/reset-two-factor` },
      { token: admin, method: "POST", path: `/api/operators/${target.id}/revoke-sessions` },
      { token: admin, method: "DELETE", path: `/api/api-tokens/${target.token_id}` },
      { token: admin, method: "POST", path: "/api/account/tokens", json: { name: "minted", role: "admin" } },
      { token: viewer, method: "POST", path: "/api/account/revoke-sessions" },
    ];
    for (const r of refused) {
      const res = await withToken(r.token, r.path, { method: r.method, json: r.json });
      expect(res, `${r.method} ${r.path}`).toMatchObject({
        status: 403,
        body: { error: { code: "forbidden", message: msg.apiTokens.sessionOnly } },
      });
    }
    expect(await app.count(sql`select 1 from operator where email = 'minted.admin@test.example'`)).toBe(0);
    expect((await withToken(target.token, "/api/customers?limit=1")).status).toBe(200);
    // Every such route says so in the route table, today's and tomorrow's.
    const writes = routeTable.filter(
      (r) => r.method !== "GET" && /^\/api\/(operators|account|api-tokens)(\/|$)/.test(r.path),
    );
    expect(writes.length).toBeGreaterThanOrEqual(12);
    expect(writes.filter((r) => !r.sessionOnly).map((r) => `${r.method} ${r.path}`)).toEqual([]);
  });

  it("ends an operator's tokens when an admin resets their password or ends their sessions", async () => {
    for (const [route, reason] of [
      ["reset-password", "password_reset"],
      ["revoke-sessions", "sessions_revoked"],
    ] as const) {
      const op = await operatorWith("editor", `ended.by.${route}@test.example`);
      expect((await withToken(op.token, "/api/customers?limit=1")).status).toBe(200);
      const res = await app.request(`/api/operators/${op.id}/${route}`, {
        as: "admin",
        method: "POST",
        json: route === "reset-password" ? { password: `${testPassword}!` } : undefined,
      });
      expect(res.status, route).toBe(200);
      expect(await withToken(op.token, "/api/customers?limit=1")).toMatchObject({ status: 401, body: invalidBody });
      const [row] = await app.rows<{ changes: { after: { reason: string } } }>(
        sql`select changes from audit_log where entity_id = ${op.token_id} and action = 'api_token_revoked'`,
      );
      expect(row.changes.after.reason, route).toBe(reason);
    }
  });

  it("refuses a token in the query string (400), whoever asks", async () => {
    const token = await app.token("viewer");
    for (const query of [
      `access_token=${token}`,
      `api_key=${token}`,
      `q=${token}`,
      "access_token=anything",
      `token=x&q=${encodeURIComponent(` ${token} `)}`,
    ]) {
      const variants: Array<Record<string, string>> = [
        {},
        { authorization: `Bearer ${token}` },
        { cookie: await app.cookie("viewer") },
      ];
      for (const headers of variants) {
        const res = await app.request(`/api/customers?${query}`, { headers });
        expect(res.status, query).toBe(400);
        expect((await res.json()).error).toEqual({ code: "bad_request", message: msg.apiTokens.inQuery });
      }
    }
  });

  it("limits each token's requests per minute (429 with Retry-After), apart from other tokens and cookies", async () => {
    const a = (await create("viewer", { name: "busy", role: "viewer" })).body;
    const b = (await create("viewer", { name: "quiet", role: "viewer" })).body;
    try {
      for (let i = 0; i < 10; i++)
        expect((await withToken(a.token, "/api/customers?limit=1")).status, `${i}`).toBe(200);
      const limited = await withToken(a.token, "/api/customers?limit=1");
      expect(limited.status).toBe(429);
      expect(limited.body.error.code).toBe("rate_limited");
      const retry = Number(limited.headers.get("retry-after"));
      expect(retry).toBeGreaterThanOrEqual(1);
      expect(retry).toBeLessThanOrEqual(60);
      expect((await withToken(b.token, "/api/customers?limit=1")).status).toBe(200);
      expect((await app.read("/api/customers?limit=1")).status).toBe(200);
      clock.advance(retry);
      expect((await withToken(a.token, "/api/customers?limit=1")).status).toBe(200);
    } finally {
      clock.reset();
    }
  });

  it("records the last use at most once a minute", async () => {
    const made = (await create("viewer", { name: "used", role: "viewer" })).body;
    const lastUsed = async () =>
      (
        await app.rows<{ t: Date | null }>(
          sql`select last_used_at as t from operator_api_token where token_id = ${made.token_id}`,
        )
      )[0].t?.getTime();
    try {
      expect(await lastUsed()).toBeUndefined();
      await withToken(made.token, "/api/customers?limit=1");
      const first = await lastUsed();
      expect(first).toBe(clock().getTime());
      clock.advance(30);
      await withToken(made.token, "/api/customers?limit=1");
      expect(await lastUsed()).toBe(first);
      clock.advance(31);
      await withToken(made.token, "/api/customers?limit=1");
      expect(await lastUsed()).toBe(clock().getTime());
      const listed = await app.read("/api/account/tokens", "viewer");
      const item = listed.body.items.find((t: { token_id: string }) => t.token_id === made.token_id);
      expect(new Date(item.last_used_at).getTime()).toBe(clock().getTime());
    } finally {
      clock.reset();
    }
  });

  it("never applies a bearer token to /api/auth", async () => {
    const token = await app.token("admin");
    const res = await app.request("/api/auth/get-session", { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    expect(await res.json()).toBeNull();
    const out = await app.request("/api/auth/change-password", {
      method: "POST",
      noOrigin: true,
      headers: { authorization: `Bearer ${token}` },
      json: { currentPassword: testPassword, newPassword: "another-password-9" },
    });
    expect(out.status).toBe(403); // the Origin check of /api/auth is not waived for a bearer header
  });

  it("declares the bearer scheme beside the cookie in the OpenAPI document, and Swagger UI takes a token", async () => {
    const token = await app.token("viewer");
    const res = await app.request("/api/openapi.json", { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    const doc = await res.json();
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: "http", scheme: "bearer" });
    expect(doc.components.securitySchemes.session).toMatchObject({ type: "apiKey", in: "cookie" });
    expect(doc.paths["/api/customers"].get.security).toEqual([{ session: [] }, { bearer: [] }]);
    expect(doc.paths["/api/account/tokens"].post.security).toEqual([{ session: [] }]);
    expect(doc.paths["/api/customers"].get.responses["429"]).toBeDefined();
    const page = await app.request("/api/docs", { headers: { authorization: `Bearer ${token}` } });
    expect(page.status).toBe(200);
    const init = await (
      await app.request("/api/docs/init.js", { headers: { authorization: `Bearer ${token}` } })
    ).text();
    expect(init).toContain("persistAuthorization: false");
  });
});
