/**
 * Hostile input, property-based (fast-check): every mutation route of `routeTable` (POST, PATCH,
 * PUT, DELETE), called as admin with bodies and ids that are invalid for it — wrong types, 100k-char
 * strings, SQL and HTML metacharacters in ids and enum fields, unknown fields on otherwise valid
 * bodies, malformed uuids, non-JSON bodies, wrong content types, JSON arrays, numbers and null as
 * the body — must answer a 4xx JSON error `{ error: { code, message, fields? } }`, never a success
 * and never a 5xx, and leave every table of the database exactly as it was (checksums, audit_log
 * included).
 *
 * Nothing here names a route or an entity: the routes are those of the route table, each attacked
 * as soon as it is declared. Each attack corrupts a valid request of its route in one way, so that
 * only the corruption stands between the request and a write; the valid requests are derived from
 * the route's own schemas and the database's (tests/support/route-requests.ts: real rows, unique
 * names, the route's OpenAPI example where it declares one), found by sending one first. A final
 * control test sends the uncorrupted requests again and expects them to succeed.
 *
 * It runs once with a session cookie and once with a personal API token (`Authorization: Bearer`);
 * routes refused to tokens (`sessionOnly`: creating tokens) are attacked with the cookie in both.
 * Property runs: a fixed seed and a bounded number of runs (FC_RUNS_SCALE, FC_SEED to change them).
 */
import fc from "fast-check";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operatorRoles } from "../../src/domain/enums";
import { createApp } from "../../src/server/app";
import { bulkIdle } from "../../src/server/bulk/engine";
import { defaultSecurity } from "../../src/server/config";
import { createLogger } from "../../src/server/logger";
import { credentials, publicUrl, startConsole, type TestConsole } from "../support/app";
import { targets } from "../support/databases";
import { fillPath, paramsOf } from "../support/derive-rows";
import {
  bodySchemaOf,
  Callers,
  declaredRoutes,
  fcParams,
  mutationRoutes,
  operationOf,
  RequestMaker,
  reservedRows,
  resolveSchema,
  routeKey,
  servedParamValue,
  typesOf,
  type JsonSchema,
  type OpenApiDocument,
  type ValidRequest,
} from "../support/route-requests";
import { checksumWatch } from "../support/schema-model";

type MutationRoute = (typeof routes)[number];

/** One request: values of the path parameters and the raw body with its content type. */
type Attack = { kind: string; params: Record<string, string>; body?: string; contentType?: string };

/** Runs of each route's body property and of its path-id property. */
const BODY_RUNS = 30;
const PATH_RUNS = 20;
const HUGE = 100_000;

/** Strings that are never a valid enum value or uuid: SQL, HTML, template and path metacharacters. */
const hostileStrings = [
  "' OR '1'='1",
  "'; DROP TABLE customers; --",
  '"; DELETE FROM audit_log; --',
  "1' UNION SELECT password FROM operator_account --",
  "active' --",
  "active'; UPDATE teams SET status = 'inactive'; --",
  "<script>alert(1)</script>",
  "<img src=x onerror=alert(1)>",
  '"><svg onload=alert(1)>',
  "${7*7}",
  "{{7*7}}",
  "%00",
  "\u0000",
  "\\",
  "%",
  "_",
  "*",
  "..",
  ".",
  "../../etc/passwd",
  "%2e%2e%2f",
  "null",
  "undefined",
  "NaN",
  "-1",
  "0",
  "true",
  "[]",
  "{}",
  "ACTIVE",
  "Active",
  " active",
  "active ",
  "inactive\n",
  "\u0430ctive",
  "active\u0000",
  "\u{1F600}",
  "\u202eevitca",
  "admin\u200b",
  "' || pg_sleep(5) --",
];
const looseUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Malformed uuids: near misses of a random uuid, and hostile strings. */
const malformedUuid: fc.Arbitrary<string> = fc
  .oneof(
    fc
      .uuid()
      .chain((u) =>
        fc.constantFrom(
          u.slice(0, -1),
          `${u}0`,
          `${u}'`,
          u.replace(/-/g, ""),
          `{${u}}`,
          u.replace(/^./, "g"),
          `${u} `,
          ` ${u}`,
          `${u}; DROP TABLE teams`,
          u.replace(/-/g, "_"),
          `${u}/..`,
        ),
      ),
    fc.constantFrom(...hostileStrings),
    fc.string({ unit: "grapheme", maxLength: 60 }),
    fc.integer({ min: 1, max: HUGE }).map((n) => "9".repeat(n)),
  )
  .filter((s) => !looseUuid.test(s.trim()));

/**
 * A string of more than `min` characters (counted in code points, as zod counts them), none of
 * them whitespace, so that trimming cannot shorten it; up to 100k.
 */
const longString = (min: number) =>
  fc
    .tuple(
      fc.integer({ min: min + 1, max: Math.max(HUGE, min + 1_000) }),
      fc.constantFrom("x", "<script>", "';--", "\u00e9", "%00", "\u{1F600}", "a'b\"c"),
    )
    .map(([length, unit]) => unit.repeat(Math.ceil(length / Array.from(unit).length)));

const jsonValue = fc.jsonValue({ maxDepth: 3 });
const finite = fc.double({ noNaN: true, noDefaultInfinity: true });

const types = typesOf;
/** A free-text property stored as it is (a password is only hashed, so any character is fine in it). */
const isStoredText = (name: string, s: JsonSchema) =>
  types(s).includes("string") && !s.enum && !s.format && !name.includes("password");

/** Values whose JSON type the property does not accept. */
function wrongTypeFor(s: JsonSchema): fc.Arbitrary<unknown> {
  const allowed = new Set(types(s));
  const options: fc.Arbitrary<unknown>[] = [];
  if (!allowed.has("number") && !allowed.has("integer")) options.push(fc.integer(), finite);
  if (!allowed.has("boolean")) options.push(fc.boolean());
  if (!allowed.has("string")) options.push(fc.string());
  if (!allowed.has("array")) options.push(fc.array(jsonValue, { maxLength: 3 }));
  if (!allowed.has("object")) options.push(fc.dictionary(fc.string({ maxLength: 8 }), jsonValue, { maxKeys: 3 }));
  if (!allowed.has("null")) options.push(fc.constant(null));
  return fc.oneof(...options);
}

/** Keys a body must refuse: mass-assignment and prototype-pollution attempts, and random names. */
const extraKeys = (known: string[]) =>
  fc
    .oneof(
      fc.constantFrom(
        "__proto__",
        "constructor",
        "prototype",
        "customer_id",
        "team_id",
        "user_id",
        "created_at",
        "updated_at",
        "audit_id",
        "role",
        "id",
        "banned",
        "status ",
        "password_hash",
        "",
      ),
      fc.string({ maxLength: 20 }),
    )
    .filter((k) => !known.includes(k));

/** A JSON text of `base` plus one more key (written by hand, so that "__proto__" stays a plain key). */
const withKey = (base: Record<string, unknown>, key: string, value: unknown) => {
  const text = JSON.stringify(base);
  return `${text.slice(0, -1)}${text.length > 2 ? "," : ""}${JSON.stringify(key)}:${JSON.stringify(value) ?? "null"}}`;
};

/** Raw texts that are not JSON. */
const nonJson = fc
  .oneof(
    fc.constantFrom(
      "",
      "{",
      "}",
      "{'status':'active'}",
      "{status: active}",
      "<xml/>",
      "NaN",
      "undefined",
      "\u0000",
      "[1,]",
      '{"a":1,}',
      "--",
      "' OR 1=1 --",
      "\uFEFF{}x",
    ),
    fc.string({ unit: "grapheme", maxLength: 50 }),
  )
  .filter((text) => {
    try {
      JSON.parse(text);
      return false;
    } catch {
      return true;
    }
  });

const cases = targets.flatMap((target) => credentials.map((credential) => [target, credential] as const));

/** The mutation routes of the route table, each once, with the names of their path parameters. */
const routes = mutationRoutes().map((r) => ({ ...r, paramNames: paramsOf(r.path) }));
/** Those that take a body (their zod schema in the route table). */
const bodyRoutes = routes.filter((r) => r.body !== undefined);
/** Those with a path parameter. */
const paramRoutes = routes.filter((r) => r.paramNames.length > 0);

describe.each(cases)("hostile input on %s with %s", (target, credential) => {
  let app: TestConsole;
  let doc: OpenApiDocument;
  let maker: RequestMaker;
  let callers: Callers;
  /** The valid request each attack of a route corrupts, by "METHOD /path". */
  const valid = new Map<string, ValidRequest>();
  /** Routes with a body for which no valid request was found. */
  const unfound: string[] = [];
  let baseline: Record<string, string> = {};
  /** The checksums after the last test that compared them: each test compares with the one before. */
  let last: Record<string, string> = {};
  let tables: () => Promise<Record<string, string>>;

  /** Every line the console logged (at info: one per request). */
  const logLines: string[] = [];

  beforeAll(async () => {
    const logStream = { write: (line: string) => void logLines.push(line) };
    app = await startConsole(target, { demo: true, logger: createLogger("info", logStream), credential });
    callers = new Callers(app, credential);
    for (const role of operatorRoles) await callers.idOf(role);
    doc = (await (
      await app.request("/api/openapi.json", { headers: await callers.headers("admin") })
    ).json()) as OpenApiDocument;
    // Requests here only have to be accepted, not to change anything (the attacks are refused).
    maker = new RequestMaker(app, doc, callers, await reservedRows(app, callers), false);
    // A valid request of each route with a body, found by sending one (which may write: this is
    // before the baseline), then a new one of the same kind for the attacks and the control.
    for (const route of bodyRoutes) {
      let refusal = "";
      const found = await maker.find(
        route,
        async (r) => {
          const answer = await maker.send(r);
          refusal = `${answer.status} ${answer.text.slice(0, 200)} (body ${JSON.stringify(r.body).slice(0, 300)})`;
          return answer.status < 300;
        },
        { role: "admin" },
      );
      if (!found) unfound.push(`${routeKey(route)}: ${refusal}`);
      const request = await maker.build(route, found?.plan ?? 0, { role: "admin" });
      valid.set(routeKey(route), request!);
    }
    // Real ids for the routes without a body (never sent uncorrupted).
    for (const route of paramRoutes.filter((r) => !r.body))
      valid.set(routeKey(route), (await maker.build(route, 0, { role: "admin" }))!);
    await bulkIdle();
    tables = checksumWatch(app.rows);
    baseline = await tables();
    last = baseline;
  }, 600_000);
  afterAll(async () => {
    await bulkIdle();
    await app.close();
  });

  /** Every table is as the last comparison left it; the next compares with now (a change is the test's own). */
  async function expectUnchanged(where: string) {
    await bulkIdle(); // a bulk action an attack would have started writes in the background
    const before = last;
    last = await tables();
    expect(last, `${where}: tables changed`).toEqual(before);
  }

  const request = (route: MutationRoute) => valid.get(routeKey(route))!;
  /** The route's own zod schema accepts an empty object (nothing in it is required). */
  const emptyIsValid = (route: MutationRoute) => route.body?.safeParse({}).success === true;
  const validParams = (route: MutationRoute) => ({ ...request(route).params });
  const validBody = (route: MutationRoute) => structuredClone(request(route).body ?? {});
  const bodySchema = (route: MutationRoute) => bodySchemaOf(doc, route);
  const propsOf = (route: MutationRoute) =>
    Object.entries(bodySchema(route)?.properties ?? {}).map(([n, s]) => [n, resolveSchema(doc, s)!] as const);
  /** A valid text for a field: the valid body's, else a new one. */
  const validText = (route: MutationRoute, name: string, s: JsonSchema) => {
    const given = request(route).body?.[name];
    return typeof given === "string" ? given : maker.text(name, s);
  };

  /** Attacks on the body of a route that takes one; the path holds real ids. */
  function bodyAttacks(route: MutationRoute): fc.Arbitrary<Attack> {
    const schema = bodySchema(route)!;
    const props = propsOf(route).map(([n, s]) => [n, s] as [string, JsonSchema]);
    const known = props.map(([name]) => name);
    const params = () => validParams(route);
    const json = (kind: string, value: unknown): Attack => ({
      kind,
      params: params(),
      body: JSON.stringify(value),
      contentType: "application/json",
    });
    const corrupt = (
      kind: string,
      pickable: Array<[string, JsonSchema]>,
      bad: (s: JsonSchema) => fc.Arbitrary<unknown>,
    ) =>
      pickable.length === 0
        ? []
        : [
            fc
              .constantFrom(...pickable)
              .chain(([name, s]) =>
                bad(s).map((value) => json(`${kind} ${name}`, { ...validBody(route), [name]: value })),
              ),
          ];
    const arbitraries: fc.Arbitrary<Attack>[] = [
      // An unknown field on an otherwise valid body.
      fc.tuple(extraKeys(known), fc.oneof(jsonValue, longString(0))).map(([key, value]) => ({
        kind: `extra field ${JSON.stringify(key)}`,
        params: params(),
        body: withKey(validBody(route), key, value),
        contentType: "application/json",
      })),
      ...corrupt("wrong type", props, wrongTypeFor),
      ...corrupt(
        "hostile enum",
        props.filter(([, s]) => s.enum),
        (s) =>
          fc
            .oneof(fc.constantFrom(...hostileStrings), fc.string({ unit: "binary", maxLength: 30 }), longString(0))
            .filter((v) => !s.enum!.includes(v)),
      ),
      ...corrupt(
        "malformed uuid",
        props.filter(([, s]) => s.format === "uuid"),
        () => malformedUuid,
      ),
      ...corrupt(
        "too long",
        props.filter(([, s]) => s.maxLength !== undefined),
        (s) => longString(s.maxLength!),
      ),
      // PostgreSQL text cannot hold a NUL character: a free-text field with one must be refused, not fail.
      ...(() => {
        const text = props.filter(([name, s]) => isStoredText(name, s));
        return text.length === 0
          ? []
          : [
              fc.tuple(fc.constantFrom(...text), fc.nat()).map(([[name, s], at]) => {
                const valid = validText(route, name, s);
                const i = at % (valid.length + 1);
                return json(`NUL in ${name}`, {
                  ...validBody(route),
                  [name]: `${valid.slice(0, i)}\u0000${valid.slice(i, -1)}`,
                });
              }),
            ];
      })(),
      // A required field left out (or, when nothing is required, no field at all: unless the
      // route's schema accepts an empty body, as an approval with no comment does).
      ...(schema.required?.length || !emptyIsValid(route)
        ? [
            (schema.required?.length ? fc.constantFrom(...schema.required) : fc.constant(null)).map((name) => {
              const body = validBody(route);
              if (name === null) for (const k of known) delete body[k];
              else delete body[name];
              return json(`missing ${name ?? "every field"}`, body);
            }),
          ]
        : []),
      // JSON that is not an object.
      fc
        .oneof(
          fc.array(jsonValue, { maxLength: 4 }),
          fc.integer(),
          finite,
          fc.string(),
          fc.boolean(),
          fc.constant(null),
          fc.constant([validBody(route)]),
        )
        .map((value) => json("not an object", value)),
      fc.integer({ min: 100, max: 5000 }).map((depth) => ({
        kind: "deeply nested array",
        params: params(),
        body: "[".repeat(depth) + "]".repeat(depth),
        contentType: "application/json",
      })),
      // Not JSON at all.
      nonJson.map((text) => ({ kind: "not JSON", params: params(), body: text, contentType: "application/json" })),
      // A valid JSON body, but not declared as JSON.
      fc
        .constantFrom(
          "text/plain",
          "application/x-www-form-urlencoded",
          "multipart/form-data; boundary=x",
          "text/html",
          "application/xml",
          undefined,
        )
        .map((contentType) => ({
          kind: `content type ${contentType}`,
          params: params(),
          body: JSON.stringify(validBody(route)),
          contentType,
        })),
    ];
    return fc.oneof(...arbitraries);
  }

  /** Attacks on the path ids: one id malformed, hostile or unknown, the others real; a valid or hostile body. */
  function pathAttacks(route: MutationRoute): fc.Arbitrary<Attack> {
    // "." and ".." are dot segments: the URL itself then names another route (DELETE
    // /api/teams/T/members/.. is DELETE /api/teams/T), so they do not attack this one.
    const badId = fc
      .oneof(malformedUuid, fc.uuid({ version: 4 }), longString(0))
      .filter((id) => id !== "." && id !== "..");
    const body: fc.Arbitrary<{ body?: string; contentType?: string }> = route.body
      ? fc.constant(null).map(() => ({ body: JSON.stringify(validBody(route)), contentType: "application/json" }))
      : fc.oneof(
          fc.constant({}),
          jsonValue.map((v) => ({ body: JSON.stringify(v), contentType: "application/json" })),
          nonJson.map((text) => ({ body: text, contentType: "application/json" })),
        );
    return fc.tuple(fc.constantFrom(...route.paramNames), badId, body).map(([param, id, b]) => ({
      kind: `bad ${param}`,
      params: { ...validParams(route), [param]: id },
      ...b,
    }));
  }

  async function send(route: MutationRoute, attack: Attack) {
    const headers: Record<string, string> = {
      ...(await callers.headers("admin", route.sessionOnly)),
      ...request(route).headers,
    };
    if (attack.contentType) headers["content-type"] = attack.contentType;
    const res = await app.request(fillPath(route.path, attack.params), {
      method: route.method,
      headers,
      body: attack.body,
    });
    const text = await res.text();
    return { status: res.status, type: res.headers.get("content-type") ?? "", text };
  }

  /** The attack must be refused with a 4xx JSON error body. */
  async function expectRefused(route: MutationRoute, attack: Attack) {
    const { status, type, text } = await send(route, attack);
    const where = `${route.method} ${route.path} [${attack.kind}] params=${JSON.stringify(attack.params).slice(0, 200)} body=${JSON.stringify(attack.body?.slice(0, 200))}: ${status} ${text.slice(0, 300)}`;
    expect(status >= 400 && status < 500, where).toBe(true);
    expect(type, where).toContain("application/json");
    const body = JSON.parse(text);
    expect(body, where).toEqual({
      error: expect.objectContaining({ code: expect.any(String), message: expect.any(String) }),
    });
    expect(
      Object.keys(body.error).filter((k) => !["code", "message", "fields"].includes(k)),
      where,
    ).toEqual([]);
  }

  it("finds the mutation routes, a valid request of each that takes a body, and the records to aim at", () => {
    expect(routes.length).toBeGreaterThanOrEqual(12);
    expect(paramRoutes.length).toBeGreaterThanOrEqual(10);
    expect(unfound, "routes with a body and no valid request derived for them").toEqual([]);
    // The route table and the API's description agree on which routes take a body.
    expect(
      routes.filter((r) => bodySchema(r) !== undefined).map(routeKey),
      "routes whose OpenAPI operation declares a JSON body",
    ).toEqual(bodyRoutes.map(routeKey));
    // A route without a body acts on what its path names: every PATCH and PUT takes a body, and so
    // does every POST to a list (a path that is also a GET: creating in it). A route that takes no
    // input at all is an action of the caller's own (sign out everywhere).
    const lists = new Set(
      declaredRoutes()
        .filter((r) => r.method === "GET")
        .map((r) => r.path),
    );
    for (const r of routes.filter((r) => !r.body)) {
      expect(["PATCH", "PUT"], `${routeKey(r)} declares a JSON body`).not.toContain(r.method);
      if (r.method === "POST") expect(lists.has(r.path), `${routeKey(r)} declares a JSON body`).toBe(false);
      if (r.paramNames.length === 0) expect(r.method, `${routeKey(r)} takes no input`).toBe("POST");
    }
  });

  it("declares every JSON body closed to unknown fields", () => {
    const open = bodyRoutes
      .filter((r) => bodySchema(r)?.additionalProperties !== false)
      .map((r) => `${r.method} ${r.path}`);
    expect(open, "body schemas that accept unknown fields (z.object instead of z.strictObject)").toEqual([]);
  });

  describe("bodies", () => {
    it.each(bodyRoutes.map(routeKey))("%s refuses invalid bodies and changes nothing", async (name) => {
      const route = bodyRoutes.find((r) => routeKey(r) === name)!;
      expect(bodySchema(route), `${name} declares its body in /api/openapi.json`).toBeDefined();
      const examples: Array<[Attack]> = [
        [{ kind: "empty object", params: validParams(route), body: "{}", contentType: "application/json" }],
        [{ kind: "null", params: validParams(route), body: "null", contentType: "application/json" }],
        [{ kind: "empty body", params: validParams(route), body: "", contentType: "application/json" }],
        [
          {
            kind: "prototype pollution",
            params: validParams(route),
            body: withKey(validBody(route), "__proto__", { polluted: true }),
            contentType: "application/json",
          },
        ],
        [
          {
            kind: "constructor pollution",
            params: validParams(route),
            body: withKey(validBody(route), "constructor", { prototype: { polluted: true } }),
            contentType: "application/json",
          },
        ],
        [
          {
            kind: "huge extra field",
            params: validParams(route),
            body: withKey(validBody(route), "x".repeat(HUGE), "y".repeat(HUGE)),
            contentType: "application/json",
          },
        ],
        ...propsOf(route)
          .filter(([name, s]) => isStoredText(name, s))
          .map(([name, s]): [Attack] => [
            {
              kind: `NUL in ${name}`,
              params: validParams(route),
              contentType: "application/json",
              body: JSON.stringify({ ...validBody(route), [name]: `${validText(route, name, s).slice(0, -1)}\u0000` }),
            },
          ]),
      ];
      // A body schema with nothing required (a cancel's `{}`, an approval's optional comment)
      // accepts "{}": that example is no attack there.
      const attacks = examples.filter(([a]) => !(a.kind === "empty object" && emptyIsValid(route)));
      await fc.assert(
        fc.asyncProperty(bodyAttacks(route), (attack) => expectRefused(route, attack)),
        { ...fcParams(BODY_RUNS), examples: attacks },
      );
      await expectUnchanged(name);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });
  });

  describe("path ids", () => {
    it.each(paramRoutes.map(routeKey))(
      "%s refuses malformed, hostile and unknown ids and changes nothing",
      async (name) => {
        const route = paramRoutes.find((r) => routeKey(r) === name)!;
        const examples: Array<[Attack]> = route.paramNames.flatMap((p) =>
          [
            "' OR '1'='1",
            "...",
            "%",
            "\u0000",
            "x".repeat(HUGE),
            "00000000-0000-0000-0000-000000000000",
            "<script>alert(1)</script>",
          ].map((id): [Attack] => [
            {
              kind: `bad ${p}`,
              params: { ...validParams(route), [p]: id },
              ...(route.body ? { body: JSON.stringify(validBody(route)), contentType: "application/json" } : {}),
            },
          ]),
        );
        await fc.assert(
          fc.asyncProperty(pathAttacks(route), (attack) => expectRefused(route, attack)),
          { ...fcParams(PATH_RUNS), examples },
        );
        await expectUnchanged(name);
      },
    );
  });

  describe("query parameters of reads", () => {
    /** Values at and past the edges of dates and numbers, which the database may refuse (SQLSTATE class 22). */
    const edgeValues = [
      "0000-01-01",
      "0000-01-01T00:00:00Z",
      "0000-12-31T23:59:59+14:00",
      "-0001-01-01",
      "294277-01-01",
      "9999-12-31T23:59:59.999999999Z",
      "2024-02-30",
      "2024-13-01",
      "1970-01-01T00:00:00+99:00",
      "infinity",
      "-infinity",
      "epoch",
      "now",
      "allballs",
      "99999999999999999999",
      "-9223372036854775809",
      "1e309",
      "-0",
      "0x10",
      "1.5",
      "NaN",
    ];

    it("answers every GET route's query parameters, hostile or out of range, with 200 or a 4xx JSON error, never 5xx", async () => {
      // Every GET of the route table, each with its declared query parameters; a route that declares
      // none gets undeclared ones, which it must ignore or refuse.
      const undeclared = ["q", "from", "limit", "cursor", "x"];
      const gets = declaredRoutes().filter((r) => r.method === "GET");
      // Real records in the path (rows already there), so that the handler gets as far as its query;
      // a parameter that names no row takes what the served route accepts (the docs' asset names).
      const served = createApp({
        db: app.handle.db,
        config: { authSecret: "test-secret-test-secret-test-secret-0123", publicUrl, security: defaultSecurity },
        logger: pino({ level: "silent" }),
      }).app.routes;
      const reads: Array<{ path: string; url: string; query: string[] }> = [];
      for (const r of gets) {
        const declared = (operationOf(doc, r)?.parameters ?? []).filter((p) => p.in === "query").map((p) => p.name);
        const { params } = (await maker.build(r, 0, { role: "admin", create: false }))!;
        for (const p of paramsOf(r.path)) params[p] = servedParamValue(served, r.path, p) ?? params[p];
        reads.push({ path: r.path, url: fillPath(r.path, params), query: declared.length > 0 ? declared : undeclared });
      }
      expect(reads.length, "GET routes in the route table").toBeGreaterThanOrEqual(20);
      expect(
        reads.filter((r) => r.query !== undeclared).length,
        "GET routes that take query parameters",
      ).toBeGreaterThanOrEqual(8);
      const value = fc.oneof(
        fc.constantFrom(...hostileStrings),
        fc.constantFrom(...edgeValues),
        fc.string({ unit: "grapheme", maxLength: 40 }),
        longString(0),
      );
      type Read = [(typeof reads)[number], string, string];
      // Every parameter of every route gets a NUL and one edge value (in turn); every parameter name
      // gets each edge value on the first route that takes it.
      const examples: Array<[Read]> = [];
      const named = new Set<string>();
      let turn = 0;
      for (const r of reads) {
        for (const name of r.query) {
          examples.push([[r, name, "a\u0000b"]], [[r, name, edgeValues[turn++ % edgeValues.length]]]);
          if (!named.has(name)) for (const v of edgeValues) examples.push([[r, name, v]]);
          named.add(name);
        }
      }
      const headers = await callers.headers("admin");
      const check = async ([read, name, v]: Read) => {
        const url = `${read.url}?${new URLSearchParams({ [name]: v })}`;
        const res = await app.request(url, { headers });
        const text = await res.text();
        const where = `GET ${url.slice(0, 200)}: ${res.status} ${text.slice(0, 200)}`;
        expect(res.status === 200 || (res.status >= 400 && res.status < 500), where).toBe(true);
        // Refusals answer JSON; a success answers the route's own type (JSON, CSV, the docs' HTML, script and style).
        if (res.status !== 200) {
          expect(res.headers.get("content-type"), where).toContain("application/json");
          expect(JSON.parse(text).error, where).toEqual(
            expect.objectContaining({ code: expect.any(String), message: expect.any(String) }),
          );
        } else if (read.path.startsWith("/api/docs")) {
          expect(res.headers.get("content-type"), where).toMatch(/^text\/(html|css|javascript)/);
        } else {
          expect(res.headers.get("content-type"), where).toContain(
            read.path.endsWith(".csv") ? "text/csv" : "application/json",
          );
        }
      };
      // fast-check counts examples within numRuns: they run here, each one, before the random ones.
      for (const [example] of examples) await check(example);
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...reads).chain((r) => fc.tuple(fc.constant(r), fc.constantFrom(...r.query), value)),
          check,
        ),
        fcParams(150),
      );
      await expectUnchanged("the reads");
    }, 300_000);
  });

  it("refuses invisible and text-direction characters in every name and title field of every body", async () => {
    const nameFields = bodyRoutes.flatMap((r) =>
      Object.keys(bodySchema(r)?.properties ?? {})
        .filter((k) => /(^|_)(name|title)$/.test(k))
        .map((field) => ({ route: r, field })),
    );
    expect(nameFields.length, "name and title fields of the write routes").toBeGreaterThanOrEqual(11);
    for (const { route, field } of nameFields) {
      for (const value of ["\u202egpj.exe", "\u200b\u200b", "\u2066x\u2069", "a\u200fb"]) {
        const res = await send(route, {
          kind: "invisible name",
          params: validParams(route),
          body: JSON.stringify({ ...validBody(route), [field]: value }),
          contentType: "application/json",
        });
        expect(
          res.status,
          `${route.method} ${route.path} ${field}=${JSON.stringify(value)}: ${res.text.slice(0, 200)}`,
        ).toBe(422);
      }
    }
    await expectUnchanged("the invisible names");
  });

  describe("oversized text", () => {
    const TEN_K = 10_000;
    const stringFields = (route: MutationRoute) =>
      propsOf(route).filter(([, s]) => types(s).includes("string") || s.items?.type === "string");

    it("declares a maximum length for every string field of every body", () => {
      const unbounded = bodyRoutes.flatMap((r) =>
        stringFields(r)
          .filter(
            ([, s]) =>
              (s.maxLength ?? s.items?.maxLength) === undefined &&
              !s.enum &&
              !s.items?.enum &&
              s.format !== "uuid" &&
              s.items?.format !== "uuid",
          )
          .map(([name]) => `${r.method} ${r.path} ${name}`),
      );
      expect(unbounded).toEqual([]);
    });

    it("answers a 10,000-character value (or one over the field's bound) in every string field of every write route and of sign-in with a 4xx, never 5xx, and logs no line over 4 KB", async () => {
      let sent = 0;
      for (const route of bodyRoutes) {
        for (const [name, s] of stringFields(route)) {
          // 10,000 characters, or one more than the field's bound where that is longer (prompt content).
          const length = Math.max(TEN_K, (s.maxLength ?? s.items?.maxLength ?? 0) + 1);
          const huge = "x".repeat(length);
          const value = s.items ? [huge] : name.includes("email") ? `${"a".repeat(length)}@example.com` : huge;
          const res = await send(route, {
            kind: "10k",
            params: validParams(route),
            body: JSON.stringify({ ...validBody(route), [name]: value }),
            contentType: "application/json",
          });
          sent++;
          const where = `${route.method} ${route.path} ${name}: ${res.status} ${res.text.slice(0, 200)}`;
          expect(res.status >= 400 && res.status < 500, where).toBe(true);
        }
      }
      for (const [field, value] of [
        ["email", `${"a".repeat(TEN_K)}@example.com`],
        ["password", "p".repeat(TEN_K)],
        ["email", "a".repeat(900_000)],
      ] as const) {
        const body = { email: "admin@test.example", password: "wrong-password", [field]: value };
        const res = await app.request("/api/auth/sign-in/email", { method: "POST", json: body });
        const text = await res.text();
        expect(res.status, `sign-in with a long ${field}: ${text.slice(0, 200)}`).toBe(422);
        expect(JSON.parse(text).error.fields[field]).toBeDefined();
        sent++;
      }
      expect(sent).toBeGreaterThanOrEqual(40);
      const long = logLines.filter((line) => Buffer.byteLength(line) >= 4096).map((line) => line.slice(0, 300));
      expect(long).toEqual([]);
      expect(logLines.length).toBeGreaterThan(sent);
      await expectUnchanged("the 10,000-character values");
    });
  });

  it("leaves every table as it was after all the attacks", async () => {
    expect(await tables()).toEqual(baseline);
    expect(Object.keys(Object.prototype)).toEqual([]);
  });

  // Control, last because it writes: the uncorrupted requests are accepted, so each attack above was
  // refused because of its corruption and not because the base request was wrong.
  it("accepts the uncorrupted requests the attacks were made from", async () => {
    const refused: string[] = [];
    for (const route of bodyRoutes) {
      // Read again first: an earlier request of this loop may have changed the same record.
      const answer = await maker.send(await maker.refreshed(request(route)));
      if (answer.status >= 300) refused.push(`${routeKey(route)}: ${answer.status} ${answer.text.slice(0, 300)}`);
    }
    expect(refused).toEqual([]);
  });
});
