/**
 * A client generated from /api/openapi.json, as an integrator would make one (openapi-typescript
 * for the types, openapi-fetch for the calls): generated from the running console at test time,
 * tests/client/flow.ts type-checked against it with strict options, then run against the console.
 * A document that drifts from the server fails here twice: the flow does not compile, or a call
 * answers what the document did not promise (the suite's contract check sees every call).
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import openapiTS, { astToString } from "openapi-typescript";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startConsole, testPassword, type TestConsole } from "../support/app";

const root = path.resolve(import.meta.dirname, "../..");
const generated = path.join(root, "test-results/generated-client/openapi.d.ts");
const flow = path.join(root, "tests/client/flow.ts");

/** What tests/client/flow.ts exports (imported by path at run time: `npm run typecheck` runs before the types it needs exist). */
type Flow = {
  runFlow(
    fetcher: (request: Request) => Promise<Response>,
    email: string,
    password: string,
  ): Promise<{
    operator: string;
    found: number;
    renamed: string;
    staleStatus: number;
    staleCurrentName: string;
    deleted: boolean;
  }>;
};

/** The TypeScript errors of `file` (flow.ts by default) against the generated types, one line each. */
function typeErrors(file = flow): string[] {
  const program = ts.createProgram([file], {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ["lib.es2023.d.ts", "lib.dom.d.ts", "lib.dom.iterable.d.ts"],
    types: [],
    skipLibCheck: true,
  });
  return ts
    .getPreEmitDiagnostics(program)
    .map(
      (d) =>
        `${d.file ? path.relative(root, d.file.fileName) : ""} ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`,
    );
}

describe("a client generated from /api/openapi.json", () => {
  let app: TestConsole;
  let document: Record<string, unknown>;
  beforeAll(async () => {
    app = await startConsole("pglite");
    await app.cookie("editor"); // creates editor@test.example, who signs in through the client
    document = (await (await app.request("/api/openapi.json", { as: "viewer" })).json()) as Record<string, unknown>;
    mkdirSync(path.dirname(generated), { recursive: true });
    writeFileSync(generated, astToString(await openapiTS(document as never)));
  });
  afterAll(() => app.close());

  it("compiles an integrator's flow with strict types: sign-in, CRUD, If-Match and the typed stale answer", () => {
    expect(typeErrors()).toEqual([]);
  });

  it("catches a call the document does not describe: the same flow with a misspelt path does not compile", () => {
    const original = readFileSync(flow, "utf8");
    const misspelt = original
      .replace('"../../test-results/generated-client/openapi"', '"./openapi"')
      .replace('client.GET("/api/customers/{customerId}"', 'client.GET("/api/customer/{customerId}"');
    expect(misspelt.split("/api/customer/").length).toBe(2);
    const copy = path.join(path.dirname(generated), "flow-misspelt.ts");
    writeFileSync(copy, misspelt);
    expect(typeErrors(copy).join("\n")).toContain('"/api/customer/{customerId}"');
  });

  it("runs the flow against the console: each step answers as the document says", async () => {
    const { runFlow } = (await import(flow)) as Flow;
    const report = await runFlow(
      async (request) => {
        const url = new URL(request.url);
        const body = request.body ? await request.text() : undefined;
        return app.request(url.pathname + url.search, { method: request.method, headers: request.headers, body });
      },
      "editor@test.example",
      testPassword,
    );
    expect(report).toMatchObject({
      operator: "editor@test.example",
      found: 1,
      staleStatus: 409,
      deleted: true,
    });
    expect(report.renamed).toMatch(/ renamed$/);
    expect(report.staleCurrentName).toBe(report.renamed);
  });
});
