/**
 * Directory sync (SCIM 2.0, docs/onboarding.md): a customer's directory token (admin, session
 * only, shown once, revocable, two live at once for a rotation), the request sequences Okta and
 * Microsoft Entra ID really send, SCIM's error body for each refusal, a token reaching only its own
 * customer, and the customer page's directory state. On PGlite and PostgreSQL.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { purgeDeletedRecords } from "../../src/server/deleted";
import { startConsole, type TestConsole } from "../support/app";
import { targets } from "../support/databases";

const errorSchema = "urn:ietf:params:scim:api:messages:2.0:Error";
const patchOp = "urn:ietf:params:scim:api:messages:2.0:PatchOp";
const userSchema = "urn:ietf:params:scim:schemas:core:2.0:User";
const groupSchema = "urn:ietf:params:scim:schemas:core:2.0:Group";

describe.each(targets)("SCIM directory sync on %s", (target) => {
  let app: TestConsole;
  let acme: string;
  let globex: string;
  let token: string;
  let directoryTokenId: string;
  let globexToken: string;

  /** A SCIM request with `bearer` (the Acme directory's token by default). */
  async function scim(method: string, path: string, body?: unknown, bearer: string | null = token) {
    const headers: Record<string, string> = {
      "content-type": "application/scim+json",
      accept: "application/scim+json",
    };
    if (bearer) headers.authorization = `Bearer ${bearer}`;
    const res = await app.request(`/scim/v2${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      noOrigin: true,
    });
    const text = await res.text();
    return {
      status: res.status,
      type: res.headers.get("content-type"),
      headers: res.headers,
      body: text ? JSON.parse(text) : null,
    };
  }

  async function customer(name: string, domains: string) {
    const res = await app.write(
      "POST",
      "/api/customers",
      { customer_name: name, valid_domains: domains, status: "active" },
      "admin",
    );
    expect(res.status).toBe(201);
    return res.body.customer_id as string;
  }

  async function newToken(customerId: string, name: string) {
    const res = await app.write("POST", `/api/customers/${customerId}/directory-tokens`, { name }, "admin");
    expect(res.status).toBe(201);
    return res.body as { token: string; directory_token_id: string; base_url: string; prefix: string };
  }

  beforeAll(async () => {
    app = await startConsole(target);
    acme = await customer("Acme SCIM", "acme.example");
    globex = await customer("Globex SCIM", "globex.example");
    const created = await newToken(acme, "Okta");
    token = created.token;
    directoryTokenId = created.directory_token_id;
    globexToken = (await newToken(globex, "Entra")).token;
  });
  afterAll(() => app.close());

  describe("directory tokens", () => {
    it("are made by an admin from a session: shown once with the base URL, stored hashed, refused to API tokens and editors", async () => {
      const made = await newToken(acme, "Rotation");
      expect(made.token).toMatch(/^scim_[A-Za-z0-9_-]{43}$/);
      expect(made.base_url).toMatch(/\/scim\/v2$/);
      const [row] = await app.rows<{ token_hash: string }>(
        sql`select token_hash from directory_tokens where directory_token_id = ${made.directory_token_id}`,
      );
      expect(row.token_hash).not.toContain(made.token);
      // Two live tokens: both work during a rotation.
      expect((await scim("GET", "/Users?count=1", undefined, made.token)).status).toBe(200);
      expect((await scim("GET", "/Users?count=1")).status).toBe(200);
      const state = await app.read(`/api/customers/${acme}/directory`);
      expect(state.body).toMatchObject({ enabled: true, base_url: made.base_url });
      expect(state.body.tokens.map((t: { name: string }) => t.name)).toEqual(
        expect.arrayContaining(["Okta", "Rotation"]),
      );
      expect(JSON.stringify(state.body)).not.toContain(made.token);

      expect((await app.write("POST", `/api/customers/${acme}/directory-tokens`, { name: "x" }, "editor")).status).toBe(
        403,
      );
      const withApiToken = await app.request(`/api/customers/${acme}/directory-tokens`, {
        as: "admin",
        credential: "bearer",
        method: "POST",
        json: { name: "x" },
      });
      expect(withApiToken.status).toBe(403);
      expect((await app.write("POST", `/api/customers/${acme}/directory-tokens`, { name: " " }, "admin")).status).toBe(
        422,
      );

      // Revoked: 401 at once, audited.
      expect(
        (
          await app.write(
            "DELETE",
            `/api/customers/${acme}/directory-tokens/${made.directory_token_id}`,
            undefined,
            "admin",
          )
        ).status,
      ).toBe(200);
      const refused = await scim("GET", "/Users", undefined, made.token);
      expect(refused.status).toBe(401);
      expect(refused.body).toMatchObject({ schemas: [errorSchema], status: "401" });
      const audit = await app.rows<{ action: string }>(
        sql`select action from audit_log where entity = 'directory_token' and entity_id = ${made.directory_token_id} order by created_at`,
      );
      expect(audit.map((a) => a.action)).toEqual(["directory_token_created", "directory_token_revoked"]);
    });

    it("answers 401 in SCIM's shape without a token or with a malformed one, and a console API token is not one", async () => {
      for (const bearer of [null, "nope", `scim_${"A".repeat(43)}`, await app.token("admin")]) {
        const res = await scim("GET", "/Users", undefined, bearer);
        expect(res.status).toBe(401);
        expect(res.type).toContain("application/scim+json");
        expect(res.body).toMatchObject({ schemas: [errorSchema], status: "401", detail: expect.any(String) });
      }
    });

    it("describes the service: ServiceProviderConfig, ResourceTypes, Schemas", async () => {
      const config = await scim("GET", "/ServiceProviderConfig");
      expect(config.body).toMatchObject({
        patch: { supported: true },
        filter: { supported: true },
        bulk: { supported: false },
      });
      const types = await scim("GET", "/ResourceTypes");
      expect(types.body.Resources.map((r: { id: string }) => r.id)).toEqual(["User", "Group"]);
      const schemas = await scim("GET", "/Schemas");
      expect(schemas.body.Resources.map((r: { id: string }) => r.id)).toEqual([userSchema, groupSchema]);
    });
  });

  it("replays Okta: a lookup before each create, PUT updates, PATCH active false, group push with members added and removed", async () => {
    const email = "ada.okta@acme.example";
    const lookup = await scim(
      "GET",
      `/Users?filter=${encodeURIComponent(`userName eq "${email}"`)}&startIndex=1&count=100`,
    );
    expect(lookup.body).toMatchObject({
      schemas: ["urn:ietf:params:scim:api:messages:2.0:ListResponse"],
      totalResults: 0,
      Resources: [],
    });
    const user = {
      schemas: [userSchema],
      userName: email,
      name: { givenName: "Ada", familyName: "Lovelace" },
      emails: [{ primary: true, value: email, type: "work" }],
      displayName: "Ada Lovelace",
      locale: "en-US",
      externalId: "00u1okta",
      groups: [],
      password: "ignored-by-the-console",
      active: true,
    };
    const created = await scim("POST", "/Users", user);
    expect(created.status).toBe(201);
    expect(created.type).toContain("application/scim+json");
    expect(created.body).toMatchObject({
      userName: email,
      active: true,
      externalId: "00u1okta",
      name: { givenName: "Ada", familyName: "Lovelace" },
    });
    const id = created.body.id as string;
    const [row] = await app.rows<Record<string, unknown>>(
      sql`select email, first_name, last_name, status, customer_id from users_data where user_id = ${id}`,
    );
    expect(row).toEqual({ email, first_name: "Ada", last_name: "Lovelace", status: "active", customer_id: acme });
    // The console marks the user as the directory's; a user added in the console is not.
    expect((await app.read(`/api/users/${id}`)).body.directory_managed).toBe(true);
    const added = await app.write(
      "POST",
      "/api/users",
      { email: "console.added@acme.example", customer_id: acme },
      "admin",
    );
    expect((await app.read(`/api/users/${added.body.user_id}`)).body.directory_managed).toBe(false);
    expect(
      (await scim("GET", `/Users?filter=${encodeURIComponent(`userName eq "${email.toUpperCase()}"`)}`)).body
        .totalResults,
    ).toBe(1);
    // The same user again: 409 uniqueness (Okta then links to the one it finds).
    expect((await scim("POST", "/Users", user)).body).toMatchObject({ status: "409", scimType: "uniqueness" });

    const put = await scim("PUT", `/Users/${id}`, {
      ...user,
      id,
      title: "Analyst",
      name: { givenName: "Ada", familyName: "King" },
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ title: "Analyst", name: { familyName: "King" } });

    const deactivate = await scim("PATCH", `/Users/${id}`, {
      schemas: [patchOp],
      Operations: [{ op: "replace", value: { active: false } }],
    });
    expect(deactivate.status).toBe(200);
    expect(deactivate.body.active).toBe(false);
    expect(
      (await app.rows<{ status: string }>(sql`select status from users_data where user_id = ${id}`))[0].status,
    ).toBe("inactive");
    await scim("PATCH", `/Users/${id}`, {
      schemas: [patchOp],
      Operations: [{ op: "replace", value: { active: true } }],
    });

    // Group push.
    const group = await scim("POST", "/Groups", {
      schemas: [groupSchema],
      displayName: "Okta Engineering",
      members: [],
    });
    expect(group.status).toBe(201);
    const groupId = group.body.id as string;
    expect((await app.read(`/api/teams/${groupId}`)).body.directory_managed).toBe(true);
    // The users and teams lists mark each row: the directory's, not the console's.
    const marks = async (path: string, key: string) => {
      const res = await app.read(`${path}?customer_id=${acme}`);
      expect(res.status).toBe(200);
      return new Map((res.body.items as Record<string, unknown>[]).map((r) => [r[key], r.directory_managed]));
    };
    const userMarks = await marks("/api/users", "user_id");
    expect(userMarks.get(id)).toBe(true);
    expect(userMarks.get(added.body.user_id)).toBe(false);
    const consoleTeam = await app.write(
      "POST",
      "/api/teams",
      { customer_id: acme, team_name: "Console Team" },
      "admin",
    );
    expect(consoleTeam.status).toBe(201);
    const teamMarks = await marks("/api/teams", "team_id");
    expect(teamMarks.get(groupId)).toBe(true);
    expect(teamMarks.get(consoleTeam.body.team_id)).toBe(false);
    const add = await scim("PATCH", `/Groups/${groupId}`, {
      schemas: [patchOp],
      Operations: [{ op: "add", path: "members", value: [{ value: id, display: email }] }],
    });
    expect(add.status).toBe(200);
    expect(add.body.members).toEqual([expect.objectContaining({ value: id })]);
    expect((await scim("GET", `/Users/${id}`)).body.groups).toEqual([
      expect.objectContaining({ value: groupId, display: "Okta Engineering" }),
    ]);
    expect((await scim("GET", `/Groups/${groupId}?excludedAttributes=members`)).body.members).toBeUndefined();
    await scim("PATCH", `/Groups/${groupId}`, {
      schemas: [patchOp],
      Operations: [{ op: "replace", path: "displayName", value: "Okta Eng" }],
    });
    const removed = await scim("PATCH", `/Groups/${groupId}`, {
      schemas: [patchOp],
      Operations: [{ op: "remove", path: `members[value eq "${id}"]` }],
    });
    expect(removed.body).toMatchObject({ displayName: "Okta Eng", members: [] });
    expect(
      (await scim("GET", `/Groups?filter=${encodeURIComponent('displayName eq "okta eng"')}`)).body.totalResults,
    ).toBe(1);

    // Every change audited as the directory's token.
    const audit = await app.rows<{ operator_id: string }>(
      sql`select distinct operator_id from audit_log where entity_id = ${id}`,
    );
    expect(audit).toEqual([{ operator_id: `directory:${directoryTokenId}` }]);
  });

  it("replays Microsoft Entra ID: externalId lookups, PascalCase ops, booleans as strings, PATCH without a path, ?aadOptscim062020", async () => {
    const email = "grace.entra@acme.example";
    const q = "?aadOptscim062020";
    expect(
      (await scim("GET", `/Users${q}&filter=${encodeURIComponent('externalId eq "entra-77"')}`)).body.totalResults,
    ).toBe(0);
    const created = await scim("POST", `/Users${q}`, {
      schemas: [userSchema, "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User"],
      externalId: "entra-77",
      userName: email,
      active: "True",
      emails: [{ primary: true, type: "work", value: email }],
      name: { formatted: "Grace Hopper", familyName: "Hopper", givenName: "Grace" },
      meta: { resourceType: "User" },
      roles: [],
    });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    expect(
      (await scim("GET", `/Users?filter=${encodeURIComponent('externalId eq "entra-77"')}`)).body.Resources[0].id,
    ).toBe(id);

    const patched = await scim("PATCH", `/Users/${id}${q}`, {
      schemas: [patchOp],
      Operations: [
        { op: "Replace", path: "title", value: "Rear Admiral" },
        { op: "Replace", value: { "name.givenName": "Amazing Grace", "name.familyName": "Hopper" } },
        { op: "Replace", path: 'emails[type eq "work"].value', value: "grace.hopper@acme.example" },
      ],
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      title: "Rear Admiral",
      userName: "grace.hopper@acme.example",
      name: { givenName: "Amazing Grace" },
    });

    const off = await scim("PATCH", `/Users/${id}`, {
      schemas: [patchOp],
      Operations: [{ op: "Replace", path: "active", value: "False" }],
    });
    expect(off.body.active).toBe(false);

    const group = await scim("POST", "/Groups", {
      schemas: [groupSchema],
      externalId: "entra-g1",
      displayName: "Entra Ops",
    });
    const groupId = group.body.id as string;
    await scim("PATCH", `/Users/${id}`, {
      schemas: [patchOp],
      Operations: [{ op: "Replace", path: "active", value: "True" }],
    });
    const added = await scim("PATCH", `/Groups/${groupId}`, {
      schemas: [patchOp],
      Operations: [{ op: "Add", path: "members", value: [{ value: id }] }],
    });
    expect(added.status).toBe(200);
    expect(
      (await scim("GET", `/Groups?filter=${encodeURIComponent('externalId eq "entra-g1"')}`)).body.Resources[0].members,
    ).toHaveLength(1);
    await scim("PATCH", `/Groups/${groupId}`, {
      schemas: [patchOp],
      Operations: [{ op: "Remove", path: "members", value: [{ value: id }] }],
    });
    expect((await scim("GET", `/Groups/${groupId}`)).body.members).toEqual([]);

    // A deleted group archives its team.
    expect((await scim("DELETE", `/Groups/${groupId}`)).status).toBe(204);
    expect(
      (await app.rows<{ status: string }>(sql`select status from teams where team_id = ${groupId}`))[0].status,
    ).toBe("inactive");
  });

  it("deactivates a deleted user and removes their memberships, each restorable from Recently deleted", async () => {
    const created = await scim("POST", "/Users", {
      schemas: [userSchema],
      userName: "leaver@acme.example",
      active: true,
    });
    const id = created.body.id as string;
    const group = await scim("POST", "/Groups", {
      schemas: [groupSchema],
      displayName: "Leavers' team",
      members: [{ value: id }],
    });
    expect(group.body.members).toHaveLength(1);
    expect((await scim("DELETE", `/Users/${id}`)).status).toBe(204);
    expect(
      (await app.rows<{ status: string }>(sql`select status from users_data where user_id = ${id}`))[0].status,
    ).toBe("inactive");
    expect(await app.count(sql`select 1 from teams_users where user_id = ${id}`)).toBe(0);
    const deleted = await app.rows<{ deletion_id: string }>(
      sql`select deletion_id from deleted_records where entity = 'team_member' and snapshot->'row'->>'user_id' = ${id}`,
    );
    expect(deleted).toHaveLength(1);
    const restored = await app.write("POST", `/api/deleted/${deleted[0].deletion_id}/restore`, undefined, "editor");
    expect(restored.status).toBe(200);
    expect(await app.count(sql`select 1 from teams_users where user_id = ${id}`)).toBe(1);
  });

  describe("refusals, in SCIM's error body", () => {
    it("an e-mail outside the customer's domains is 400 invalidValue; another customer's user is 409 uniqueness", async () => {
      const outside = await scim("POST", "/Users", { schemas: [userSchema], userName: "someone@elsewhere.example" });
      expect(outside.status).toBe(400);
      expect(outside.body).toMatchObject({ schemas: [errorSchema], status: "400", scimType: "invalidValue" });
      expect(outside.type).toContain("application/scim+json");
      const globexUser = await scim(
        "POST",
        "/Users",
        { schemas: [userSchema], userName: "twin@globex.example" },
        globexToken,
      );
      expect(globexUser.status).toBe(201);
      await app.write("PATCH", `/api/customers/${acme}`, { valid_domains: "acme.example, globex.example" }, "admin");
      const taken = await scim("POST", "/Users", { schemas: [userSchema], userName: "twin@globex.example" });
      expect(taken.body).toMatchObject({ status: "409", scimType: "uniqueness" });
      expect((await scim("POST", "/Users", { schemas: [userSchema] })).body).toMatchObject({
        status: "400",
        scimType: "invalidValue",
      });
      expect((await scim("POST", "/Users", "not an object")).body).toMatchObject({
        status: "400",
        scimType: "invalidSyntax",
      });
      // The console's own field rules hold: a first name over 100 characters, a group without a name.
      const long = await scim("POST", "/Users", {
        schemas: [userSchema],
        userName: "long@acme.example",
        name: { givenName: "x".repeat(101) },
      });
      expect(long.body).toMatchObject({
        status: "400",
        scimType: "invalidValue",
        detail: expect.stringContaining("100"),
      });
      expect((await scim("POST", "/Groups", { schemas: [groupSchema], displayName: "  " })).body).toMatchObject({
        status: "400",
        scimType: "invalidValue",
      });
    });

    it("a token of one customer cannot see or change another's users or groups: 404 as if they did not exist", async () => {
      const globexUser = await scim(
        "POST",
        "/Users",
        { schemas: [userSchema], userName: "only.globex@globex.example" },
        globexToken,
      );
      const id = globexUser.body.id as string;
      expect((await scim("GET", `/Users/${id}`)).status).toBe(404);
      expect(
        (
          await scim("PATCH", `/Users/${id}`, {
            schemas: [patchOp],
            Operations: [{ op: "replace", value: { active: false } }],
          })
        ).status,
      ).toBe(404);
      expect((await scim("DELETE", `/Users/${id}`)).status).toBe(404);
      expect(
        (await scim("GET", `/Users?filter=${encodeURIComponent('userName eq "only.globex@globex.example"')}`)).body
          .totalResults,
      ).toBe(0);
      const globexGroup = await scim(
        "POST",
        "/Groups",
        { schemas: [groupSchema], displayName: "Globex only" },
        globexToken,
      );
      expect((await scim("GET", `/Groups/${globexGroup.body.id}`)).status).toBe(404);
      // Nor add another customer's user to its own group.
      const own = await scim("POST", "/Groups", { schemas: [groupSchema], displayName: "Acme own" });
      const cross = await scim("PATCH", `/Groups/${own.body.id}`, {
        schemas: [patchOp],
        Operations: [{ op: "add", path: "members", value: [{ value: id }] }],
      });
      expect(cross.body).toMatchObject({ status: "400", scimType: "invalidValue" });
      expect(
        (await app.rows<{ status: string }>(sql`select status from users_data where user_id = ${id}`))[0].status,
      ).toBe("active");
    });

    it("a filter on an attribute it does not take, or one that cannot be read, is 400 invalidFilter", async () => {
      for (const filter of ['title eq "x"', 'userName co "a"', "userName eq", 'nickName eq "x"']) {
        const res = await scim("GET", `/Users?filter=${encodeURIComponent(filter)}`);
        expect(res.status, filter).toBe(400);
        expect(res.body).toMatchObject({ schemas: [errorSchema], scimType: "invalidFilter" });
      }
      expect((await scim("GET", `/Groups?filter=${encodeURIComponent('members eq "x"')}`)).body.scimType).toBe(
        "invalidFilter",
      );
    });

    it("an unknown id is 404, a PATCH without Operations 400, a group name held twice 409", async () => {
      expect((await scim("GET", "/Users/not-a-uuid")).status).toBe(404);
      expect((await scim("GET", "/Groups/00000000-0000-4000-8000-000000000000")).body).toMatchObject({ status: "404" });
      const created = await scim("POST", "/Users", { schemas: [userSchema], userName: "patchy@acme.example" });
      expect((await scim("PATCH", `/Users/${created.body.id}`, { schemas: [patchOp] })).body).toMatchObject({
        status: "400",
        scimType: "invalidSyntax",
      });
      await scim("POST", "/Groups", { schemas: [groupSchema], displayName: "Twice" });
      expect((await scim("POST", "/Groups", { schemas: [groupSchema], displayName: "twice" })).body).toMatchObject({
        status: "409",
        scimType: "uniqueness",
      });
    });
  });

  it("shows on the customer's page: last request, today's changes, users and teams it manages, its last refusals", async () => {
    const state = await app.read(`/api/customers/${acme}/directory`);
    expect(state.status).toBe(200);
    expect(state.body.last_request_at).not.toBeNull();
    expect(state.body.today.created).toBeGreaterThanOrEqual(3);
    expect(state.body.today.deactivated).toBeGreaterThanOrEqual(1);
    expect(state.body.managed.users).toBeGreaterThanOrEqual(3);
    expect(state.body.errors[0]).toMatchObject({
      status: expect.any(Number),
      error: expect.any(String),
      method: expect.any(String),
    });
    expect((await app.read("/api/customers/00000000-0000-4000-8000-000000000000/directory")).status).toBe(404);
  });

  it("purges its request log and its revoked tokens after DELETED_RETENTION_DAYS, keeping the live ones", async () => {
    const later = (days: number) => new Date(Date.now() + days * 86_400_000);
    const requests = sql`select 1 from directory_requests where customer_id = ${acme}`;
    const revoked = sql`select 1 from directory_tokens where customer_id = ${acme} and revoked_at is not null`;
    expect(await app.count(requests)).toBeGreaterThan(0);
    expect(await app.count(revoked)).toBe(1);
    await purgeDeletedRecords(app.handle.db, { retentionDays: 30, now: later(29) });
    expect(await app.count(revoked)).toBe(1);
    await purgeDeletedRecords(app.handle.db, { retentionDays: 30, now: later(31) });
    expect(await app.count(requests)).toBe(0);
    expect(await app.count(revoked)).toBe(0);
    expect((await scim("GET", "/Users?count=1")).status).toBe(200);
  });
});

describe("SCIM request rate", () => {
  it("bounds each customer's requests: 429 with Retry-After in SCIM's body", async () => {
    const app = await startConsole("pglite", { identity: { apiTokenRatePerMinute: 3 } });
    try {
      const customer = await app.write(
        "POST",
        "/api/customers",
        { customer_name: "Rate", valid_domains: "rate.example" },
        "admin",
      );
      const made = await app.write(
        "POST",
        `/api/customers/${customer.body.customer_id}/directory-tokens`,
        { name: "Okta" },
        "admin",
      );
      const statuses: number[] = [];
      let last: Response | undefined;
      for (let i = 0; i < 5; i++) {
        last = await app.request("/scim/v2/Users", {
          headers: { authorization: `Bearer ${made.body.token}` },
          noOrigin: true,
        });
        statuses.push(last.status);
      }
      expect(statuses).toEqual([200, 200, 200, 429, 429]);
      expect(Number(last!.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(await last!.json()).toMatchObject({ schemas: [errorSchema], status: "429" });
    } finally {
      await app.close();
    }
  });
});
