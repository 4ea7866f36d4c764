/**
 * The SCIM routes' own table (docs/onboarding.md "Directory sync"), generated from the routes the
 * SCIM router really serves: every one must have a sample request here (a route added tomorrow
 * fails until it has one), and for every one, on PGlite and PostgreSQL:
 * - **who may call it**: nobody without a directory token, nor with a console session or a console
 *   API token of any role, nor with a revoked token (401 in SCIM's shape); another customer's token
 *   never reaches this customer's records (404); the customer's own token is answered; each
 *   refusal and answer carries the API's security headers;
 * - **hostile input**: every body encoding but JSON, malformed and deeply nested JSON, a body over
 *   the size bound, and a 10,000-character value in every string field of the body are refused
 *   with a 4xx in SCIM's error shape, never a 5xx, and change nothing; odd query parameters are
 *   answered without a 5xx;
 * - **audit**: each accepted write writes exactly one audit row per record it changed (found by
 *   comparing the tables before and after, tests/support/schema-model.ts), each naming the token.
 */
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditRecordEntities } from "../../src/domain/audit";
import { scimRouter } from "../../src/server/directory/scim";
import { apiHeaders } from "../../src/server/http/answer-headers";
import { startConsole, type TestConsole } from "../support/app";
import { targets } from "../support/databases";
import { changedRecords, recordWatch } from "../support/schema-model";

const errorSchema = "urn:ietf:params:scim:api:messages:2.0:Error";
const userSchema = "urn:ietf:params:scim:schemas:core:2.0:User";
const groupSchema = "urn:ietf:params:scim:schemas:core:2.0:Group";
const patchOp = "urn:ietf:params:scim:api:messages:2.0:PatchOp";

/** The routes the SCIM router serves ("GET /Users/:id"), its catch-all and middleware left out. */
const servedRoutes = [
  ...new Set(
    scimRouter({ ratePerMinute: 1 })
      .routes.filter((r) => r.method !== "ALL" && !r.path.includes("*"))
      .map((r) => `${r.method} ${r.path}`),
  ),
].sort();

/** What a sample request may need: fresh records of the customer, made through SCIM itself. */
type Seeds = { user(): Promise<string>; group(): Promise<string>; email(): string };
type Sample = { path: string; body?: Record<string, unknown>; writes: boolean };

const userBody = (email: string) => ({
  schemas: [userSchema],
  userName: email,
  name: { givenName: "Route", familyName: "Table" },
  title: "Tester",
  emails: [{ value: email, type: "work", primary: true }],
  active: true,
});

/** A valid request of each route, keyed as `servedRoutes` names them. */
const samples: Record<string, (s: Seeds) => Promise<Sample>> = {
  "GET /ServiceProviderConfig": async () => ({ path: "/ServiceProviderConfig", writes: false }),
  "GET /ResourceTypes": async () => ({ path: "/ResourceTypes", writes: false }),
  "GET /Schemas": async () => ({ path: "/Schemas", writes: false }),
  "GET /Users": async () => ({
    path: `/Users?filter=${encodeURIComponent('userName eq "nobody@routes.example"')}&startIndex=1&count=10`,
    writes: false,
  }),
  "GET /Users/:id": async (s) => ({ path: `/Users/${await s.user()}`, writes: false }),
  "POST /Users": async (s) => ({ path: "/Users", body: userBody(s.email()), writes: true }),
  "PUT /Users/:id": async (s) => ({ path: `/Users/${await s.user()}`, body: userBody(s.email()), writes: true }),
  "PATCH /Users/:id": async (s) => ({
    path: `/Users/${await s.user()}`,
    body: { schemas: [patchOp], Operations: [{ op: "replace", path: "title", value: "Lead" }] },
    writes: true,
  }),
  "DELETE /Users/:id": async (s) => ({ path: `/Users/${await s.user()}`, writes: true }),
  "GET /Groups": async () => ({
    path: `/Groups?filter=${encodeURIComponent('displayName eq "Nobody"')}`,
    writes: false,
  }),
  "GET /Groups/:id": async (s) => ({ path: `/Groups/${await s.group()}`, writes: false }),
  "POST /Groups": async () => ({
    path: "/Groups",
    body: { schemas: [groupSchema], displayName: `Routes ${randomUUID().slice(0, 8)}`, members: [] },
    writes: true,
  }),
  "PUT /Groups/:id": async (s) => ({
    path: `/Groups/${await s.group()}`,
    body: { schemas: [groupSchema], displayName: `Routes ${randomUUID().slice(0, 8)}`, members: [] },
    writes: true,
  }),
  "PATCH /Groups/:id": async (s) => ({
    path: `/Groups/${await s.group()}`,
    body: { schemas: [patchOp], Operations: [{ op: "add", path: "members", value: [{ value: await s.user() }] }] },
    writes: true,
  }),
  "DELETE /Groups/:id": async (s) => ({ path: `/Groups/${await s.group()}`, writes: true }),
};

describe.each(targets)("SCIM route table on %s", (target) => {
  let app: TestConsole;
  let token: string;
  let tokenId: string;
  let otherToken: string;
  let revoked: string;

  /** A SCIM request; `bearer` null sends no Authorization, `cookie` a console session's. */
  async function scim(
    method: string,
    path: string,
    options: { bearer?: string | null; body?: string; type?: string; cookie?: string } = {},
  ) {
    const headers: Record<string, string> = { accept: "application/scim+json" };
    const bearer = options.bearer === undefined ? token : options.bearer;
    if (bearer) headers.authorization = `Bearer ${bearer}`;
    if (options.cookie) headers.cookie = options.cookie;
    if (options.body !== undefined) headers["content-type"] = options.type ?? "application/scim+json";
    const res = await app.request(`/scim/v2${path}`, { method, headers, body: options.body, noOrigin: true });
    const text = await res.text();
    let body: Record<string, unknown> | null = null;
    try {
      body = text ? (JSON.parse(text) as Record<string, unknown>) : null;
    } catch {
      body = null;
    }
    // Every answer, a refusal too, carries the API's security headers (http/answer-headers.ts).
    const wrongHeaders = apiHeaders.filter(([name, value]) => res.headers.get(name) !== value).map(([name]) => name);
    return { status: res.status, type: res.headers.get("content-type") ?? "", body, text, wrongHeaders };
  }

  const seeds = (bearer: () => string): Seeds => ({
    email: () => `route.${randomUUID().slice(0, 8)}@routes.example`,
    user: async () => {
      const email = `route.${randomUUID().slice(0, 8)}@routes.example`;
      const res = await scim("POST", "/Users", { bearer: bearer(), body: JSON.stringify(userBody(email)) });
      expect(res.status, res.text).toBe(201);
      return String(res.body?.id);
    },
    group: async () => {
      const res = await scim("POST", "/Groups", {
        bearer: bearer(),
        body: JSON.stringify({ schemas: [groupSchema], displayName: `Seed ${randomUUID().slice(0, 8)}` }),
      });
      expect(res.status, res.text).toBe(201);
      return String(res.body?.id);
    },
  });

  const own = () => seeds(() => token);
  /** Sends a sample with `bearer` (the customer's own token by default). */
  const send = (method: string, sample: Sample, bearer?: string | null, cookie?: string) =>
    scim(method, sample.path, {
      bearer,
      cookie,
      body: sample.body === undefined ? undefined : JSON.stringify(sample.body),
    });

  beforeAll(async () => {
    app = await startConsole(target);
    const customer = async (name: string, domains: string) => {
      const res = await app.write(
        "POST",
        "/api/customers",
        { customer_name: name, valid_domains: domains, status: "active" },
        "admin",
      );
      expect(res.status).toBe(201);
      return res.body.customer_id as string;
    };
    const mint = async (customerId: string) => {
      const res = await app.write("POST", `/api/customers/${customerId}/directory-tokens`, { name: "Routes" }, "admin");
      expect(res.status).toBe(201);
      return res.body as { token: string; directory_token_id: string };
    };
    const mine = await customer("SCIM Routes", "routes.example");
    const theirs = await customer("SCIM Routes Other", "other-routes.example");
    ({ token, directory_token_id: tokenId } = await mint(mine));
    otherToken = (await mint(theirs)).token;
    const gone = await mint(mine);
    revoked = gone.token;
    expect(
      (
        await app.write(
          "DELETE",
          `/api/customers/${mine}/directory-tokens/${gone.directory_token_id}`,
          undefined,
          "admin",
        )
      ).status,
    ).toBe(200);
  });
  afterAll(() => app.close());

  it("has a sample request for every route the SCIM router serves", () => {
    expect(servedRoutes.length).toBeGreaterThanOrEqual(15);
    expect(Object.keys(samples).sort()).toEqual(servedRoutes);
  });

  it("answers only the customer's own live directory token, and keeps each customer's records from the other's", async () => {
    const cookie = await app.cookie("admin");
    const consoleToken = await app.token("admin");
    for (const route of servedRoutes) {
      const [method] = route.split(" ");
      const sample = await samples[route](own());
      for (const [who, bearer, withCookie] of [
        ["no credential", null, undefined],
        ["an admin's session", null, cookie],
        ["an admin's console API token", consoleToken, undefined],
        ["a revoked directory token", revoked, undefined],
        ["a malformed token", "scim_short", undefined],
      ] as const) {
        const res = await send(method, sample, bearer, withCookie);
        expect(res.status, `${route} with ${who}: ${res.text.slice(0, 200)}`).toBe(401);
        expect(res.type, route).toContain("application/scim+json");
        expect(res.body?.schemas, route).toEqual([errorSchema]);
        expect(res.wrongHeaders, `${route} with ${who}`).toEqual([]);
      }
      if (sample.path.match(/\/(Users|Groups)\/[0-9a-f-]{36}/)) {
        const res = await send(method, sample, otherToken);
        expect(res.status, `${route} with another customer's token: ${res.text.slice(0, 200)}`).toBe(404);
      }
      const ok = await send(method, await samples[route](own()));
      expect(ok.status, `${route}: ${ok.text.slice(0, 200)}`).toBeLessThan(300);
      expect(ok.wrongHeaders, route).toEqual([]);
    }
  });

  it("refuses hostile bodies and parameters with a 4xx in SCIM's shape, never a 5xx, and changes nothing", async () => {
    const snapshot = recordWatch(app.rows, auditRecordEntities);
    const deep = `${"[".repeat(5_000)}${"]".repeat(5_000)}`;
    for (const route of servedRoutes) {
      const [method] = route.split(" ");
      const sample = await samples[route](own());
      const before = await snapshot();
      const tries: Array<{ what: string; body?: string; type?: string; path?: string }> = [];
      if (sample.body) {
        const json = JSON.stringify(sample.body);
        tries.push(
          { what: "text/plain", body: json, type: "text/plain" },
          { what: "a form", body: "userName=a%40b.example", type: "application/x-www-form-urlencoded" },
          { what: "multipart", body: "--x\r\n\r\na\r\n--x--", type: "multipart/form-data; boundary=x" },
          { what: "XML", body: "<User/>", type: "application/xml" },
          { what: "malformed JSON", body: json.slice(0, -2) },
          { what: "a JSON array", body: "[]" },
          { what: "JSON null", body: "null" },

          { what: "deep nesting", body: deep },
          { what: "a body over the bound", body: JSON.stringify({ ...sample.body, pad: "x".repeat(1_100_000) }) },
        );
        const withNul = json.replace(/"Table"|"Lead"|"Routes [^"]*"/, '"a\\u0000b"');
        if (withNul !== json) tries.push({ what: "a NUL byte", body: withNul });
        for (const [field, value] of Object.entries(sample.body))
          if (typeof value === "string")
            tries.push({
              what: `10,000 characters in ${field}`,
              body: JSON.stringify({ ...sample.body, [field]: "x".repeat(10_000) }),
            });
      }
      const [path] = sample.path.split("?");
      if (method === "GET")
        tries.push(
          {
            what: "a filter that is not one",
            path: `${path}?filter=${encodeURIComponent('userName eq "a" or 1=1; drop table users_data')}`,
          },
          { what: "odd paging", path: `${path}?startIndex=-5&count=99999999999` },
        );
      if (/[0-9a-f-]{36}$/.test(path))
        tries.push({
          what: "a path id that is not one",
          path: path.replace(/[0-9a-f-]{36}$/, "1%27%20or%20%271%27%3D%271"),
        });
      for (const t of tries) {
        const res = await scim(method, t.path ?? sample.path, { body: t.body, type: t.type });
        const where = `${route} with ${t.what}: ${res.status} ${res.text.slice(0, 200)}`;
        expect(res.status, where).toBeLessThan(500);
        if (t.body !== undefined) {
          expect(res.status, where).toBeGreaterThanOrEqual(400);
          expect(res.body?.schemas, where).toEqual([errorSchema]);
        }
      }
      expect(changedRecords(before, await snapshot()), `${route}: hostile requests changed records`).toEqual([]);
    }
  });

  it("writes exactly one audit row per record each accepted write changed, each naming the directory token", async () => {
    const snapshot = recordWatch(app.rows, auditRecordEntities);
    for (const route of servedRoutes) {
      const [method] = route.split(" ");
      const sample = await samples[route](own());
      const before = await snapshot();
      const [{ mark }] = await app.rows<{ mark: string }>(
        sql`select coalesce(max(created_at), '-infinity')::text as mark from audit_log`,
      );
      const res = await send(method, sample);
      expect(res.status, `${route}: ${res.text.slice(0, 200)}`).toBeLessThan(300);
      const changed = changedRecords(before, await snapshot());
      const rows = await app.rows<{ entity: string; entity_id: string; operator_id: string }>(
        sql`select entity, entity_id, operator_id from audit_log where created_at > ${mark}::timestamptz`,
      );
      const written = rows.map((r) => `${r.entity}:${r.entity_id}`).sort();
      if (!sample.writes) {
        expect(changed, `${route} reads only`).toEqual([]);
        continue;
      }
      expect(changed.length, `${route} changed a record`).toBeGreaterThan(0);
      expect(written, `${route}: one audit row per changed record`).toEqual(changed);
      for (const r of rows) expect(r.operator_id, route).toBe(`directory:${tokenId}`);
    }
  });
});
