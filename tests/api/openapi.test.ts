/**
 * The OpenAPI document describes the API's security, generated from the route table: it is a
 * valid OpenAPI 3.1 document (checked with a maintained validator), declares the session cookie
 * and the personal API token (bearer) as security schemes, and every operation (but sign-in's,
 * which need none, and /healthz, which is not in it) carries both as alternatives (the cookie alone where tokens
 * are refused), its required role (`x-required-role` and in the description, equal to the
 * route table's) and its 401/403/413/429 answers (422 when it takes input) in the error schema. Its
 * patterns compile as JSON Schema reads them, and the API suite's own traffic is held to it by a
 * maintained validator (tests/support/contract.ts), which is shown here to find drift. Every case
 * comes from the document or the route table: every search, every body that takes an e-mail (with
 * a body made from its schema, tests/support/derive-document.ts), a list to show drift on.
 */
import { createConfig, lintFromString } from "@redocly/openapi-core";
import { Validator } from "@seriousme/openapi-schema-validator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { customerStatuses } from "../../src/domain/enums";
import { routeTable } from "../../src/server/http/route";
import { startConsole, type TestConsole } from "../support/app";
import { contractOf, operationMatcher, validatorOf } from "../support/contract";
import {
  bodySchemaOf,
  filledPath,
  operationsOf,
  sampleBodyReferencing,
  uniqueTag,
  type ConsoleCalls,
} from "../support/derive-document";

describe("OpenAPI document", () => {
  let app: TestConsole;
  let doc: any;
  beforeAll(async () => {
    app = await startConsole("pglite");
    doc = await (await app.request("/api/openapi.json", { as: "viewer" })).json();
  });
  afterAll(() => app.close());

  it("is a valid OpenAPI 3.1 document", async () => {
    const result = await new Validator().validate(doc);
    expect(result.errors ?? [], JSON.stringify(result.errors ?? []).slice(0, 2000)).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toBe("3.1.0");
  });

  it("declares the session cookie as a security scheme, required by default", () => {
    expect(doc.components.securitySchemes.session).toEqual(
      expect.objectContaining({ type: "apiKey", in: "cookie", name: "pedal.session_token" }),
    );
    expect(doc.components.securitySchemes.bearer).toEqual(expect.objectContaining({ type: "http", scheme: "bearer" }));
    expect(doc.security).toEqual([{ session: [] }, { bearer: [] }]);
  });

  it("gives every operation the scheme, its role from the route table and its error answers", () => {
    const access = new Map(routeTable.map((r) => [`${r.method} ${r.path}`, r.access]));
    const sessionOnly = new Set(routeTable.filter((r) => r.sessionOnly).map((r) => `${r.method} ${r.path}`));
    // The sign-in routes come before a session (their own test below).
    const operations = Object.entries(doc.paths as Record<string, Record<string, any>>)
      .filter(([path]) => !path.startsWith("/api/auth/"))
      .flatMap(([path, ops]) =>
        Object.entries(ops).map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, op })),
      );
    expect(operations.length).toBeGreaterThan(25);
    const problems: string[] = [];
    for (const { key, op } of operations) {
      const role = access.get(key);
      if (!role || role === "public") {
        problems.push(`${key}: not a role-checked route of the route table (${role})`);
        continue;
      }
      const security = sessionOnly.has(key) ? [{ session: [] }] : [{ session: [] }, { bearer: [] }];
      if (JSON.stringify(op.security) !== JSON.stringify(security))
        problems.push(`${key}: security ${JSON.stringify(op.security)}`);
      if (op["x-required-role"] !== role)
        problems.push(`${key}: x-required-role ${op["x-required-role"]}, route table ${role}`);
      if (!String(op.description ?? "").includes(role === "viewer" ? "any role" : `role ${role}`))
        problems.push(`${key}: description does not name the role`);
      const takesInput = Boolean(op.requestBody || (op.parameters ?? []).length);
      for (const status of ["401", "403", "413", "429", ...(takesInput ? ["422"] : [])]) {
        const schema = op.responses?.[status]?.content?.["application/json"]?.schema;
        if (schema?.$ref !== "#/components/schemas/Error")
          problems.push(`${key}: ${status} answer ${JSON.stringify(schema)}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("has patterns that compile as JSON Schema reads them (Unicode expressions), with no flags leaked into them", () => {
    const patterns: string[] = [];
    JSON.stringify(
      doc,
      (key, value) => (key === "pattern" && typeof value === "string" ? void patterns.push(value) : undefined) ?? value,
    );
    expect(patterns.length).toBeGreaterThan(20);
    for (const p of new Set(patterns)) {
      expect(() => new RegExp(p, "u"), p).not.toThrow();
      expect(p, "a pattern ends with its anchor, not with regular expression flags").toMatch(/\$$/);
    }
  });

  it("holds real traffic to the document: every search and every body's email pass a validating client", async () => {
    // TestConsole.request checks each exchange (tests/support/contract.ts): these would fail there.
    const lists = Object.entries(
      doc.paths as Record<string, { get?: { parameters?: Array<{ name: string; in: string }> } }>,
    )
      .filter(
        ([path, ops]) => !path.includes("{") && ops.get?.parameters?.some((p) => p.in === "query" && p.name === "q"),
      )
      .map(([path]) => path);
    expect(lists.length).toBeGreaterThanOrEqual(10);
    for (const path of lists)
      expect((await app.request(`${path}?q=${encodeURIComponent("  an ")}`, { as: "admin" })).status, path).toBe(200);
    // Every operation whose body takes an e-mail, with a valid body (its required fields, uuids
    // naming real rows) and the e-mail as people type it: spaces around, capitals.
    const api: ConsoleCalls = {
      rows: app.rows,
      post: (path, body) => app.write("POST", path, body, "admin"),
    };
    const withEmail = operationsOf(doc).filter(({ op }) => bodySchemaOf(op)?.properties?.email);
    expect(withEmail.length).toBeGreaterThan(0);
    for (const { method, path, op } of withEmail) {
      const email = ` New.Staff.${uniqueTag()}@Example.com `;
      const body = await sampleBodyReferencing(doc, bodySchemaOf(op)!, api, { email });
      const res = await app.request(await filledPath(doc, path, api), { as: "admin", method, json: body });
      expect([200, 201], `${method} ${path} ${JSON.stringify(body)}: ${res.status}`).toContain(res.status);
    }
  });

  it("matches each request to the operation openapi-backend's own router finds", async () => {
    const api = await validatorOf(doc);
    const match = operationMatcher(api);
    const filled = (path: string, value: string) => path.replace(/\{[^}]+\}/g, value);
    const paths = Object.keys(doc.paths ?? {}).flatMap((path) => [
      filled(path, "0b7c4d52-3f8e-4c1a-9d2b-6e5f4a3b2c1d"),
      filled(path, "options"),
      `${filled(path, "x")}/`,
    ]);
    const requests = [...paths, "/api/no-such-thing", "/healthz", "/api"].flatMap((path) =>
      ["get", "post", "put", "patch", "delete"].map((method) => ({ method, path })),
    );
    expect(requests.length).toBeGreaterThan(1000);
    const differ = requests.filter((r) => match(r)?.operationId !== api.matchOperation(r as never)?.operationId);
    expect(differ).toEqual([]);
    expect(requests.filter((r) => match(r)).length).toBeGreaterThan(300);
  });

  it("finds drift: an answer or an accepted request the document does not describe is reported", async () => {
    const contract = await contractOf(doc);
    // A list of the document: a GET without path parameters that pages with an integer `limit`.
    const list = operationsOf(doc).find(
      ({ method, path, op }) =>
        method === "GET" &&
        !path.includes("{") &&
        (op.parameters ?? []).some((p) => p.in === "query" && p.name === "limit" && p.schema?.type === "integer"),
    )!.path;
    const x = {
      method: "GET",
      url: `${list}?limit=5`,
      requestHeaders: new Headers(),
      responseType: "application/json",
    };
    expect(contract({ ...x, status: 200, responseBody: JSON.stringify({ items: [{ id: 1 }] }) })).toHaveLength(1);
    expect(contract({ ...x, status: 418, responseBody: "{}" })[0]).toContain("status 418 is not declared");
    expect(contract({ ...x, url: `${list}?limit=abc`, status: 200, responseBody: "{}" }).join()).toContain(
      "the server accepted a request the document refuses",
    );
  });

  it("describes the sign-in routes, with no security, so that a client generated from it can sign in; /healthz is not in it", () => {
    const signIn = doc.paths["/api/auth/sign-in/email"]?.post;
    expect(signIn?.security).toEqual([]);
    expect(signIn?.requestBody?.content?.["application/json"]?.schema).toBeDefined();
    for (const path of ["/api/auth/get-session", "/api/auth/providers"])
      expect(doc.paths[path]?.get, path).toBeDefined();
    for (const path of ["/api/auth/sign-out", "/api/auth/two-factor/verify-totp"])
      expect(doc.paths[path]?.post, path).toBeDefined();
    expect(doc.paths["/healthz"]).toBeUndefined();
  });

  it("gives every operation a unique operationId from its method and path, and names the console as its server", () => {
    const ids = Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => ({ key: `${method} ${path}`, id: op.operationId as string })),
    );
    expect(ids.filter((o) => !/^[a-z][A-Za-z0-9]*$/.test(o.id ?? ""))).toEqual([]);
    expect(new Set(ids.map((o) => o.id)).size).toBe(ids.length);
    expect(ids.find((o) => o.key === "get /api/teams/{teamId}/skills")?.id).toBe("getTeamsByTeamIdSkills");
    expect(doc.servers).toEqual([expect.objectContaining({ url: expect.stringMatching(/^http/) })]);
  });

  it("declares stored statuses and types as enums, so that a generated client types them, and cascade as a boolean", () => {
    const text = JSON.stringify(doc);
    // The old open form, `anyOf: [enum, any text]`, typed every status as a plain string.
    expect(text).not.toMatch(/"anyOf":\[\{"type":"string","enum":\[[^\]]*\]\},\{"type":"string","minLength":1\}\]/);
    const resolve = (schema: any): any =>
      schema.$ref ? resolve(doc.components.schemas[schema.$ref.split("/").pop()]) : schema;
    const customer = resolve(
      doc.paths["/api/customers/{customerId}"].get.responses["200"].content["application/json"].schema,
    );
    expect(resolve(customer.properties.status)).toMatchObject({
      type: "string",
      enum: [...customerStatuses],
      "x-extensible-enum": true,
    });
    const remove = doc.paths["/api/platforms/{platformId}"].delete;
    expect(remove.parameters.find((p: { name: string }) => p.name === "cascade").schema).toEqual({ type: "boolean" });
  });
});

describe("OpenAPI document, linted", () => {
  it("passes Redocly's recommended rules with no error and no warning", async () => {
    const app = await startConsole("pglite");
    try {
      const doc = await (await app.request("/api/openapi.json", { as: "viewer" })).text();
      const config = await createConfig({
        extends: ["recommended"],
        rules: {
          // The console is not published under a licence: the document names none.
          "info-license": "off",
          // `servers` is the console's own PUBLIC_URL, which is localhost on a developer's machine.
          "no-server-example.com": "off",
        },
      });
      const problems = await lintFromString({ source: doc, config });
      expect(problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} ${p.location?.[0]?.pointer ?? ""}`)).toEqual(
        [],
      );
    } finally {
      await app.close();
    }
  });
});
