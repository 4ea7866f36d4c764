/**
 * The OpenAPI document describes the API's security, generated from the route table: it is a
 * valid OpenAPI 3.1 document (checked with a maintained validator), declares the session cookie
 * as a security scheme, and every operation (all but sign-in and /healthz, which are not in it)
 * carries that scheme, its required role (`x-required-role` and in the description, equal to the
 * route table's) and its 401/403/413 answers (422 when it takes input) in the error schema.
 */
import { Validator } from "@seriousme/openapi-schema-validator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { routeTable } from "../../src/server/http/route";
import { startConsole, type TestConsole } from "../support/app";

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
    expect(doc.components.securitySchemes.session).toEqual(expect.objectContaining({ type: "apiKey", in: "cookie", name: "pedal.session_token" }));
    expect(doc.security).toEqual([{ session: [] }]);
  });

  it("gives every operation the scheme, its role from the route table and its error answers", () => {
    const access = new Map(routeTable.map((r) => [`${r.method} ${r.path}`, r.access]));
    const operations = Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, op })));
    expect(operations.length).toBeGreaterThan(25);
    const problems: string[] = [];
    for (const { key, op } of operations) {
      const role = access.get(key);
      if (!role || role === "public") {
        problems.push(`${key}: not a role-checked route of the route table (${role})`);
        continue;
      }
      if (JSON.stringify(op.security) !== JSON.stringify([{ session: [] }])) problems.push(`${key}: security ${JSON.stringify(op.security)}`);
      if (op["x-required-role"] !== role) problems.push(`${key}: x-required-role ${op["x-required-role"]}, route table ${role}`);
      if (!String(op.description ?? "").includes(role === "viewer" ? "any role" : `role ${role}`)) problems.push(`${key}: description does not name the role`);
      const takesInput = Boolean(op.requestBody || (op.parameters ?? []).length);
      for (const status of ["401", "403", "413", ...(takesInput ? ["422"] : [])]) {
        const schema = op.responses?.[status]?.content?.["application/json"]?.schema;
        if (schema?.$ref !== "#/components/schemas/Error") problems.push(`${key}: ${status} answer ${JSON.stringify(schema)}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("has no operation for sign-in or /healthz, which need no session", () => {
    expect(Object.keys(doc.paths).filter((p) => p.startsWith("/api/auth") || p === "/healthz")).toEqual([]);
  });
});
