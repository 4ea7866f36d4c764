/**
 * Hostile input, property-based (fast-check): every mutation route of `routeTable` (POST, PATCH,
 * PUT, DELETE), called as admin with bodies and ids that are invalid for it — wrong types, 100k-char
 * strings, SQL and HTML metacharacters in ids and enum fields, unknown fields on otherwise valid
 * bodies, malformed uuids, non-JSON bodies, wrong content types, JSON arrays, numbers and null as
 * the body — must answer a 4xx JSON error `{ error: { code, message } }`, never a success and never
 * a 5xx, and leave every table of the database exactly as it was (checksums, audit_log included).
 *
 * Request bodies are derived from the route's JSON schema in /api/openapi.json, so a new route is
 * attacked as soon as it is declared. Each attack corrupts a valid request (real ids of records
 * that exist) in one way, so that only the corruption stands between the request and a write; a
 * final control test sends the uncorrupted requests and expects them to succeed.
 *
 * It runs once with a session cookie and once with a personal API token (`Authorization: Bearer`);
 * routes refused to tokens (`sessionOnly`: creating tokens) are attacked with the cookie in both.
 */
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bulkIdle } from "../../src/server/bulk/engine";
import { queryRows } from "../../src/server/db/client";
import { routeTable } from "../../src/server/http/route";
import { createLogger } from "../../src/server/logger";
import { credentials, startConsole, type TestConsole } from "../support/app";
import { targets } from "../support/databases";

type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  pattern?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean;
  $ref?: string;
  items?: JsonSchema;
};

type MutationRoute = { method: string; path: string; params: string[]; body?: JsonSchema };

/** One request: values of the path parameters and the raw body with its content type. */
type Attack = { kind: string; params: Record<string, string>; body?: string; contentType?: string };

const NUM_RUNS = 30;
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
      fc.integer({ min: min + 1, max: HUGE }),
      fc.constantFrom("x", "<script>", "';--", "\u00e9", "%00", "\u{1F600}", "a'b\"c"),
    )
    .map(([length, unit]) => unit.repeat(Math.ceil(length / Array.from(unit).length)));

const jsonValue = fc.jsonValue({ maxDepth: 3 });
const finite = fc.double({ noNaN: true, noDefaultInfinity: true });

const types = (s: JsonSchema) => (Array.isArray(s.type) ? s.type : s.type ? [s.type] : []);
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
const sessionOnly = new Set(routeTable.filter((r) => r.sessionOnly).map((r) => `${r.method} ${r.path}`));

describe.each(cases)("hostile input on %s with %s", (target, credential) => {
  let app: TestConsole;
  const routes: MutationRoute[] = [];
  const skipped: string[] = [];
  /** Ids of real records that make the uncorrupted requests valid. */
  let ids: Record<string, string> = {};
  let configVersion = 0;
  let undoBulkId = "";
  let baseline: Record<string, string> = {};

  const rows = <T>(query: ReturnType<typeof sql>) => queryRows<T>(app.handle.db, query);

  /**
   * md5 of every row of every table of schema public (operator_session without its sliding expiry,
   * API tokens without their last use, and no per-token request counters: using is not changing).
   */
  async function checksums(): Promise<Record<string, string>> {
    const tables = await rows<{ table_name: string }>(sql`
      select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`);
    const result: Record<string, string> = {};
    for (const { table_name } of tables) {
      // A session's expires_at and updated_at slide forward on use; that is not a change made by the attacks.
      // A CSV export is a read that records who exported what: its audit rows are not a change made by the attacks.
      const source =
        table_name === "operator_session"
          ? sql`(select id, token, user_id, created_at, ip_address, user_agent, impersonated_by from operator_session)`
          : table_name === "audit_log"
            ? sql`(select * from audit_log where action <> 'export')`
            : table_name === "operator_api_token"
              ? sql`(select token_id, operator_id, name, prefix, token_hash, role, expires_at, created_at from operator_api_token)`
              : table_name === "auth_throttle"
                ? sql`(select * from auth_throttle where key not like 'api_token:%')`
                : sql.identifier(table_name);
      const [row] = await rows<{ sum: string; n: number }>(sql`
        select md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as sum, count(*)::int as n from ${source} t`);
      result[table_name] = `${row.n}:${row.sum}`;
    }
    return result;
  }

  /** Every line the console logged (at info: one per request). */
  const logLines: string[] = [];

  beforeAll(async () => {
    const logStream = { write: (line: string) => void logLines.push(line) };
    app = await startConsole(target, { demo: true, logger: createLogger("info", logStream), credential });
    await app.cookie("viewer"); // an operator to aim the operator routes at
    await app.cookie("admin");
    await app.token("admin");

    const doc = await (await app.request("/api/openapi.json", { as: "admin" })).json();
    const resolve = (s: JsonSchema | undefined): JsonSchema | undefined =>
      s?.$ref ? resolve(doc.components.schemas[s.$ref.replace("#/components/schemas/", "")]) : s;
    const seen = new Set<string>();
    for (const r of routeTable) {
      if (!["POST", "PATCH", "PUT", "DELETE"].includes(r.method) || seen.has(`${r.method} ${r.path}`)) continue;
      seen.add(`${r.method} ${r.path}`);
      const op = doc.paths[r.path]?.[r.method.toLowerCase()];
      expect(op, `${r.method} ${r.path} in /api/openapi.json`).toBeDefined();
      const body = resolve(op.requestBody?.content?.["application/json"]?.schema);
      const params = [...r.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      if (!body && params.length === 0)
        skipped.push(`${r.method} ${r.path}`); // takes no input at all: nothing can be invalid
      else routes.push({ method: r.method, path: r.path, params, body });
    }

    const [pick] = await rows<{ customer_id: string; team_id: string; user_id: string }>(sql`
      select t.customer_id, t.team_id, u.user_id from teams t
      join customers c on c.customer_id = t.customer_id and c.status = 'active'
      join users_data u on u.customer_id = t.customer_id and u.status = 'active'
      where t.status = 'active' and not exists (select 1 from teams_users m where m.team_id = t.team_id and m.user_id = u.user_id)
      order by t.team_id, u.user_id limit 1`);
    expect(pick, "an active team of an active customer, and a user of that customer not in it").toBeDefined();
    const [skill] = await rows<{ skill_id: string }>(sql`
      select s.skill_id from skills s where s.status = 'active'
      and not exists (select 1 from teams_skills a where a.team_id = ${pick.team_id} and a.skill_id = s.skill_id and a.status = 'active')
      order by s.skill_id limit 1`);
    expect(skill, "an active skill not assigned to the team").toBeDefined();
    // Bulk assign aims at another active team with no record at all for that skill.
    const [other] = await rows<{ team_id: string }>(sql`
      select t.team_id from teams t where t.status = 'active' and t.team_id <> ${pick.team_id}
      and not exists (select 1 from teams_skills a where a.team_id = t.team_id and a.skill_id = ${skill.skill_id})
      order by t.team_id limit 1`);
    expect(other, "a second active team without the skill").toBeDefined();
    // A pending comment: the valid PATCH body (status and expected status "pending") changes nothing.
    const [comment] = await rows<{ comment_id: string }>(
      sql`select comment_id from skill_comments where status = 'pending' order by comment_id limit 1`,
    );
    expect(comment, "a pending comment").toBeDefined();
    const [viewer] = await rows<{ id: string }>(sql`select id from operator where email = 'viewer@test.example'`);
    // A prompt and an active platform not yet assigned to it.
    const [promptPick] = await rows<{ prompt_id: string; platform_id: string }>(sql`
      select p.prompt_id, pl.platform_id from pedal_prompts p cross join platforms pl
      where pl.status = 'active' and not exists (select 1 from platform_prompts x where x.prompt_id = p.prompt_id and x.platform_id = pl.platform_id)
      order by p.prompt_id, pl.platform_id limit 1`);
    expect(promptPick, "a prompt and an active platform not assigned to it").toBeDefined();
    // Pending changes of three prompts' titles by the viewer's operator (docs/prompt-review.md): one
    // for each decision the admin makes (approve, reject, approve several); withdraw names one too.
    const changes = await rows<{ change_id: string }>(sql`
      insert into prompt_changes (prompt_id, kind, base_title, base_value, base_status, base_skill_id,
        prompt_title, prompt_value, prompt_status, skill_id, proposed_by, proposed_by_email)
      select p.prompt_id, 'update', p.prompt_title, p.prompt_value, p.status, p.skill_id,
        p.prompt_title, p.prompt_value, p.status, p.skill_id, ${viewer.id}, 'viewer@test.example'
      from (select * from pedal_prompts where prompt_id <> ${promptPick.prompt_id} order by prompt_id limit 3) p
      returning change_id::text`);
    expect(changes).toHaveLength(3);
    ids = {
      changeId: changes[0].change_id,
      rejectChangeId: changes[1].change_id,
      change_ids: changes[2].change_id,
      customerId: pick.customer_id,
      customer_id: pick.customer_id,
      teamId: pick.team_id,
      team_id: pick.team_id,
      userId: pick.user_id,
      user_id: pick.user_id,
      skill_id: skill.skill_id,
      skillId: skill.skill_id,
      operatorId: viewer.id,
      promptId: promptPick.prompt_id,
      platformId: promptPick.platform_id,
      platform_id: promptPick.platform_id,
      team_ids: other.team_id,
      commentId: comment.comment_id,
    };
    // A saved view of the admin's (the attacks are sent as the admin) on another list than the
    // valid POST's, so that the valid rename does not take that one's name; `list` names a list
    // of the console for /api/list-preferences/{list}.
    const [view] = await rows<{ view_id: string }>(sql`
      insert into saved_views (operator_id, list, name, state)
      values ((select id from operator where email = 'admin@test.example'), 'teams', 'Hostile input view', '{"filters":{}}'::jsonb)
      returning view_id::text`);
    ids.viewId = view.view_id;
    ids.list = "customers";
    // A running bulk action (as a server would leave it mid-run) for the cancel route to aim at.
    const [run] = await rows<{ bulk_id: string }>(sql`
      insert into bulk_actions (entity, action, selection, total) values ('customers', 'archive', '{}'::jsonb, 0) returning bulk_id::text`);
    ids.bulkId = run.bulk_id;
    // An ended action that changed one customer, for the undo route to aim at.
    const [ended] = await rows<{ bulk_id: string }>(sql`
      insert into bulk_actions (entity, action, selection, status, total, changed) values ('customers', 'archive', '{}'::jsonb, 'done', 1, 1)
      returning bulk_id::text`);
    await rows(
      sql`insert into bulk_action_rows (bulk_id, row_id, seq, outcome) values (${ended.bulk_id}, ${pick.customer_id}, 0, 'changed')`,
    );
    undoBulkId = ended.bulk_id;
    configVersion = (await app.read(`/api/config/${pick.customer_id}`)).body.version;
    baseline = await checksums();
  });
  afterAll(async () => {
    await bulkIdle();
    await app.close();
  });

  /** A valid value for a body property (ids of real records, unique emails). */
  function validValue(name: string, s: JsonSchema): unknown {
    if (s.enum) return s.enum[0];
    const t = types(s);
    // A warning the operator confirmed (a domain another customer lists, an e-mail outside the customer's).
    if (name.startsWith("confirm_")) return true;
    if (t.includes("boolean")) return false;
    if (name === "valid_domains") return `hostile-${randomUUID().slice(0, 8)}.example`;
    // A set of roles: the first one.
    if (t.includes("array") && s.items?.enum) return [s.items.enum[0]];
    // A configuration save names the version it read (the stale-save check).
    if (name === "version") return configVersion;
    if (t.includes("integer") || t.includes("number")) return s.minimum ?? 1;
    if (t.includes("object") && s.properties)
      return Object.fromEntries(Object.entries(s.properties).map(([k, p]) => [k, validValue(k, p)]));
    if (s.format === "uuid") return ids[name] ?? randomUUID();
    // A list of names (a platform's provided variables): none.
    if (t.includes("array") && s.items && types(s.items).includes("string") && !s.items.format) return [];
    // A list of ids ("team_ids"): the one real record of that kind.
    if (t.includes("array") && s.items?.format === "uuid") return [ids[name] ?? randomUUID()];
    if (name.includes("email")) return `hostile-${randomUUID().slice(0, 8)}@example.com`;
    const value = `Valid ${name}`.padEnd(s.minLength ?? 0, "v");
    return s.maxLength ? value.slice(0, s.maxLength) : value;
  }

  function validBody(route: MutationRoute): Record<string, unknown> {
    // Bulk moderation takes ids or a filter, not both: a dry run over the pending comment.
    if (route.method === "POST" && route.path === "/api/comments/bulk")
      return { status: "pending", ids: [ids.commentId], dry_run: true };
    // A bulk action's selection: ids or a filter, not both; a search matching nothing, so that a
    // valid start changes no record (its run is recorded, with its audit row).
    if (route.method === "POST" && route.path.startsWith("/api/bulk/") && route.body?.properties?.selection) {
      const params = route.body.properties.params;
      return {
        selection: { filter: {}, q: "no record is named this" },
        params: params ? validValue("params", params) : {},
      };
    }
    // A restore names a version of the prompt (its first); a configuration save, the version it read.
    if (route.path === "/api/prompts/{promptId}/restore") return { version: 1 };
    // A saved view's state names filters and a sort of its list (docs/saved-views.md); a change
    // names the version it read.
    if (route.method === "POST" && route.path === "/api/views")
      return {
        list: "customers",
        name: "Valid name",
        shared: false,
        state: { q: "Valid q", filters: { status: "active" }, sort: "customer_name", order: "asc" },
      };
    if (route.method === "PATCH" && route.path === "/api/views/{viewId}")
      return { version: 1, name: "Valid name", shared: false, state: { filters: {}, sort: "team_name" } };
    // An operator's columns of the list in the path (`ids.list`).
    if (route.method === "PUT" && route.path === "/api/list-preferences/{list}")
      return { columns: ["customer_name", "status"] };
    return Object.fromEntries(
      Object.entries(route.body?.properties ?? {}).map(([name, s]) => [name, validValue(name, s)]),
    );
  }

  const validParams = (route: MutationRoute) =>
    Object.fromEntries(
      route.params.map((p) => [
        p,
        (route.path.endsWith("/undo") ? undoBulkId : route.path.endsWith("/reject") ? ids.rejectChangeId : ids[p]) ??
          randomUUID(),
      ]),
    );

  /** Attacks on the body of a route that takes one; the path holds real ids. */
  function bodyAttacks(route: MutationRoute): fc.Arbitrary<Attack> {
    const schema = route.body!;
    const props = Object.entries(schema.properties ?? {});
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
                const valid = String(validValue(name, s));
                const i = at % (valid.length + 1);
                return json(`NUL in ${name}`, {
                  ...validBody(route),
                  [name]: `${valid.slice(0, i)}\u0000${valid.slice(i, -1)}`,
                });
              }),
            ];
      })(),
      // A required field left out (or, when nothing is required, no field at all).
      (schema.required?.length ? fc.constantFrom(...schema.required) : fc.constant(null)).map((name) => {
        const body = validBody(route);
        if (name === null) for (const k of known) delete body[k];
        else delete body[name];
        return json(`missing ${name ?? "every field"}`, body);
      }),
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
    return fc.tuple(fc.constantFrom(...route.params), badId, body).map(([param, id, b]) => ({
      kind: `bad ${param}`,
      params: { ...validParams(route), [param]: id },
      ...b,
    }));
  }

  async function send(route: MutationRoute, attack: Attack) {
    let path = route.path;
    for (const [name, value] of Object.entries(attack.params))
      path = path.replace(`{${name}}`, encodeURIComponent(value));
    const headers: Record<string, string> = {};
    if (attack.contentType) headers["content-type"] = attack.contentType;
    const res = await app.request(path, {
      method: route.method,
      as: "admin",
      headers,
      body: attack.body,
      ...(sessionOnly.has(`${route.method} ${route.path}`) ? { credential: "cookie" as const } : {}),
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

  it("finds the mutation routes and the records to aim at", () => {
    expect(routes.length).toBeGreaterThanOrEqual(12);
    expect(skipped).toEqual(["POST /api/account/revoke-sessions"]);
    for (const r of routes)
      // Restoring a deletion, like unlocking, names everything in its path: it takes no body.
      if (
        ["POST", "PATCH"].includes(r.method) &&
        !r.path.endsWith("/revoke-sessions") &&
        !r.path.endsWith("/unlock") &&
        !r.path.endsWith("/reset-two-factor") &&
        // Withdrawing a proposed change names it in its path.
        !r.path.endsWith("/withdraw") &&
        r.path !== "/api/deleted/{deletionId}/restore"
      ) {
        expect(r.body, `${r.method} ${r.path} declares a JSON body`).toBeDefined();
      }
  });

  it("declares every JSON body closed to unknown fields", () => {
    const open = routes
      .filter((r) => r.body && r.body.additionalProperties !== false)
      .map((r) => `${r.method} ${r.path}`);
    expect(open, "body schemas that accept unknown fields (z.object instead of z.strictObject)").toEqual([]);
  });

  describe("bodies", () => {
    it.each([
      "POST /api/customers",
      "PATCH /api/customers/{customerId}",
      "PATCH /api/config/{customerId}",
      "POST /api/teams",
      "PATCH /api/teams/{teamId}",
      "POST /api/teams/{teamId}/skills",
      "POST /api/users",
      "POST /api/users/{userId}/teams",
      "PATCH /api/users/{userId}",
      "POST /api/teams/{teamId}/members",
      "POST /api/operators",
      "PATCH /api/operators/{operatorId}",
      "POST /api/operators/{operatorId}/reset-password",
      "POST /api/skills",
      "PATCH /api/skills/{skillId}",
      "POST /api/skills/{skillId}/teams",
      "POST /api/skills/{skillId}/teams/bulk",
      "PATCH /api/skills/{skillId}/teams/{teamId}",
      "POST /api/skills/{skillId}/prompts",
      "PATCH /api/comments/{commentId}",
      "POST /api/comments/bulk",
      "POST /api/prompts",
      "PATCH /api/prompts/{promptId}",
      "POST /api/prompts/{promptId}/platforms",
      "POST /api/prompts/{promptId}/restore",
      "POST /api/platforms",
      "PATCH /api/platforms/{platformId}",
      "POST /api/account/tokens",
      "POST /api/prompt-changes/{changeId}/reject",
      "POST /api/prompt-changes/approve",
      "POST /api/views",
      "PATCH /api/views/{viewId}",
      "PUT /api/list-preferences/{list}",
      // The bulk routes share one body schema per kind: a status change, a parameter, and the cancel.
      "POST /api/bulk/customers/archive/preview",
      "POST /api/bulk/customers/archive",
      "POST /api/bulk/users/set_status",
      "POST /api/bulk/teams/assign_skill/preview",
    ])("%s refuses invalid bodies and changes nothing", async (name) => {
      const route = routes.find((r) => `${r.method} ${r.path}` === name);
      expect(route, `${name} is a declared mutation route with a body`).toBeDefined();
      expect(route!.body).toBeDefined();
      const examples: Array<[Attack]> = [
        [{ kind: "empty object", params: validParams(route!), body: "{}", contentType: "application/json" }],
        [{ kind: "null", params: validParams(route!), body: "null", contentType: "application/json" }],
        [{ kind: "empty body", params: validParams(route!), body: "", contentType: "application/json" }],
        [
          {
            kind: "prototype pollution",
            params: validParams(route!),
            body: withKey(validBody(route!), "__proto__", { polluted: true }),
            contentType: "application/json",
          },
        ],
        [
          {
            kind: "constructor pollution",
            params: validParams(route!),
            body: withKey(validBody(route!), "constructor", { prototype: { polluted: true } }),
            contentType: "application/json",
          },
        ],
        [
          {
            kind: "huge extra field",
            params: validParams(route!),
            body: withKey(validBody(route!), "x".repeat(HUGE), "y".repeat(HUGE)),
            contentType: "application/json",
          },
        ],
        ...Object.entries(route!.body!.properties ?? {})
          .filter(([name, s]) => isStoredText(name, s))
          .map(([name, s]): [Attack] => [
            {
              kind: `NUL in ${name}`,
              params: validParams(route!),
              contentType: "application/json",
              body: JSON.stringify({
                ...validBody(route!),
                [name]: `${String(validValue(name, s)).slice(0, -1)}\u0000`,
              }),
            },
          ]),
      ];
      const before = await checksums();
      await fc.assert(
        fc.asyncProperty(bodyAttacks(route!), (attack) => expectRefused(route!, attack)),
        { numRuns: NUM_RUNS, examples },
      );
      expect(await checksums()).toEqual(before);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });

    it("covers every mutation route that takes a body", () => {
      const withBody = routes
        .filter((r) => r.body)
        .map((r) => `${r.method} ${r.path}`)
        .sort();
      expect(withBody).toEqual(
        [
          "PATCH /api/config/{customerId}",
          "PATCH /api/customers/{customerId}",
          "PATCH /api/operators/{operatorId}",
          "PATCH /api/teams/{teamId}",
          "POST /api/customers",
          "POST /api/operators",
          "POST /api/operators/{operatorId}/reset-password",
          "POST /api/teams",
          "POST /api/teams/{teamId}/skills",
          "POST /api/users",
          "POST /api/users/{userId}/teams",
          "PATCH /api/users/{userId}",
          "POST /api/teams/{teamId}/members",
          "PATCH /api/skills/{skillId}",
          "PATCH /api/skills/{skillId}/teams/{teamId}",
          "POST /api/skills",
          "POST /api/skills/{skillId}/prompts",
          "POST /api/skills/{skillId}/teams",
          "POST /api/skills/{skillId}/teams/bulk",
          "PATCH /api/comments/{commentId}",
          "POST /api/comments/bulk",
          "POST /api/prompts",
          "PATCH /api/prompts/{promptId}",
          "POST /api/prompts/{promptId}/platforms",
          "POST /api/prompts/{promptId}/restore",
          "POST /api/platforms",
          "PATCH /api/platforms/{platformId}",
          "POST /api/account/tokens",
          "POST /api/prompt-changes/{changeId}/approve",
          "POST /api/prompt-changes/{changeId}/reject",
          "POST /api/prompt-changes/approve",
          "POST /api/views",
          "PATCH /api/views/{viewId}",
          "PUT /api/list-preferences/{list}",
          // Every declared bulk action's preview and start, and the cancel (docs/bulk-actions.md).
          ...new Set(routeTable.filter((r) => r.path.startsWith("/api/bulk/")).map((r) => `${r.method} ${r.path}`)),
        ]
          .filter((r) => !r.startsWith("GET "))
          .sort(),
      );
    });
  });

  describe("path ids", () => {
    it("attacks the ids of every mutation route with a path parameter and changes nothing", async () => {
      const before = await checksums();
      const withParams = routes.filter((r) => r.params.length > 0);
      expect(withParams.length).toBeGreaterThanOrEqual(10);
      for (const route of withParams) {
        const examples: Array<[Attack]> = route.params.flatMap((p) =>
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
          { numRuns: 20, examples },
        );
      }
      expect(await checksums()).toEqual(before);
    }, 240_000); // every mutation route with a path parameter: minutes on a busy machine
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
      const doc = await (await app.request("/api/openapi.json", { as: "admin" })).json();
      // Every GET of the route table, each with its declared query parameters; a route that declares
      // none gets undeclared ones, which it must ignore or refuse.
      const undeclared = ["q", "from", "limit", "cursor", "x"];
      const reads: Array<{ path: string; query: string[] }> = [];
      const seen = new Set<string>();
      for (const r of routeTable) {
        if (r.method !== "GET" || seen.has(r.path)) continue;
        seen.add(r.path);
        const declared = ((doc.paths[r.path]?.get?.parameters ?? []) as Array<{ in: string; name: string }>)
          .filter((p) => p.in === "query")
          .map((p) => p.name);
        reads.push({ path: r.path, query: declared.length > 0 ? declared : undeclared });
      }
      expect(reads.length, "GET routes in the route table").toBeGreaterThanOrEqual(20);
      expect(
        reads.filter((r) => r.query !== undeclared).length,
        "GET routes that take query parameters",
      ).toBeGreaterThanOrEqual(8);
      const before = await checksums();
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
      // Real records in the path, so that the handler gets as far as its query.
      const realPath = (path: string) =>
        path.replace(/\{(\w+)\}/g, (_, p: string) => (p === "file" ? "swagger-ui.css" : (ids[p] ?? randomUUID())));
      const check = async ([read, name, v]: Read) => {
        const url = `${realPath(read.path)}?${new URLSearchParams({ [name]: v })}`;
        const res = await app.request(url, { as: "admin" });
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
        { numRuns: 150 },
      );
      expect(await checksums()).toEqual(before);
    }, 300_000);
  });

  it("refuses invisible and text-direction characters in every name and title field of every body", async () => {
    const before = await checksums();
    const nameFields = routes.flatMap((r) =>
      Object.keys(r.body?.properties ?? {})
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
    expect(await checksums()).toEqual(before);
  });

  describe("oversized text", () => {
    const TEN_K = 10_000;
    const stringFields = (route: MutationRoute) =>
      Object.entries(route.body?.properties ?? {}).filter(
        ([, s]) => types(s).includes("string") || s.items?.type === "string",
      );

    it("declares a maximum length for every string field of every body", () => {
      const unbounded = routes.flatMap((r) =>
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
      for (const route of routes.filter((r) => r.body)) {
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
    });
  });

  it("leaves every table as it was after all the attacks", async () => {
    expect(await checksums()).toEqual(baseline);
    expect(Object.keys(Object.prototype)).toEqual([]);
  });

  // Control, last because it writes: the uncorrupted requests are accepted, so each attack above was
  // refused because of its corruption and not because the base request was wrong.
  it("accepts the uncorrupted requests the attacks were made from", async () => {
    for (const route of routes.filter((r) => r.body)) {
      const res = await send(route, {
        kind: "valid",
        params: validParams(route),
        body: JSON.stringify(validBody(route)),
        contentType: "application/json",
      });
      expect(res.status, `${route.method} ${route.path}: ${res.text.slice(0, 300)}`).toBeLessThan(300);
    }
  });
});
