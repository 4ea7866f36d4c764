/**
 * Valid requests for every route of `routeTable`, derived instead of written per route: the
 * route-table suites (hostile input, audit coverage) attack or run exactly these, so a route added
 * to the table is covered the day it is declared.
 *
 * - The body is generated from the route's JSON schema in /api/openapi.json (the route's own zod
 *   schema, as the API describes it) and must pass that zod schema (`route.body.safeParse`); where
 *   the route declares an `example` (jsonBody's second argument), the example says which fields a
 *   valid body carries and what values that are not ids look like. Every free-text value is made
 *   unique (names, titles, e-mails), so that no request collides with another.
 * - Ids, in the path or the body, name real rows by the conventions of `tableOf` (schema-model.ts),
 *   chosen so that the request can succeed: a row in its initial state (its `status` the column's
 *   default), consistent with the other rows the request names (a team and a user of the same
 *   customer: the foreign keys they share), not yet linked when the request creates the link (a
 *   user not in the team), the caller's own when the row belongs to an operator, and no row another
 *   request of the suite acts on. The record a route acts on is a fresh one where a route creates
 *   that table's rows (the route whose answer carries the key, e.g. POST /api/teams → team_id),
 *   made through that route.
 * - A PATCH sends back the `version` and, with If-Match, the `updated_at` that the GET of the same
 *   path answers.
 * - Where a request must change something (audit coverage: `effective`), a fresh record whose table
 *   keeps a history is edited once (a prompt's second version, for a restore), and a route with a
 *   dry run (`<path>/preview`, the bulk actions) gets a selection its dry run says will change.
 *
 * What the conventions cannot derive is kept in two small named sets below, each with its reason:
 * `seeders` (rows of tables that no route of the table creates) and `afterCreate`. A request is
 * found by trying a few plans (which rows to take) in order until one is accepted (`find`).
 */
import { randomUUID } from "node:crypto";
import { sql, type SQL } from "drizzle-orm";
import type { OperatorRole } from "../../src/domain/enums";
import { bulkIdle } from "../../src/server/bulk/engine";
import { routeTable, type RouteEntry } from "../../src/server/http/route";
import { testPassword, type Credential, type TestConsole } from "./app";
import { propertyRuns, propertySeed } from "./properties";
import { fillPath, paramsOf } from "./derive-rows";
import { columnOf, tableOf, tables, type TableInfo } from "./schema-model";

/* ---------- Property runs (fast-check) ---------- */

/**
 * fast-check's parameters of a property of `n` runs: `n` times FC_RUNS_SCALE (default 1, as in CI),
 * with the run's seed (FC_SEED, fixed by default): tests/support/properties.ts.
 */
export const fcParams = (n: number) => ({ numRuns: propertyRuns(n), seed: propertySeed });

/* ---------- The route table ---------- */

/** "METHOD /path" of a route. */
export const routeKey = (r: { method: string; path: string }) => `${r.method} ${r.path}`;

/** The declared routes, each once (method + path), in the table's order. */
export function declaredRoutes(): RouteEntry[] {
  const seen = new Map<string, RouteEntry>();
  for (const r of routeTable) if (!seen.has(routeKey(r))) seen.set(routeKey(r), r);
  return [...seen.values()];
}

/** The methods that change something. */
export const mutatingMethods = ["POST", "PATCH", "PUT", "DELETE"];

/** The declared routes that may change something (POST, PATCH, PUT, DELETE). */
export const mutationRoutes = () => declaredRoutes().filter((r) => mutatingMethods.includes(r.method));

/* ---------- The API's description ---------- */

/** The part of JSON Schema that the API's schemas use. */
export type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  pattern?: string;
  default?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  $ref?: string;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
};

type MediaType = { schema?: JsonSchema; example?: unknown };
/** One operation of the document. */
export type Operation = {
  parameters?: Array<{ in: string; name: string; schema?: JsonSchema }>;
  requestBody?: { content?: Record<string, MediaType> };
  responses?: Record<string, { content?: Record<string, MediaType> }>;
};
/** The parts of /api/openapi.json the suites read. */
export type OpenApiDocument = {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, JsonSchema> };
};

/** The schema `s` with its `$ref` followed and a nullable union (`anyOf: [x, null]`) reduced to `x`. */
export function resolveSchema(doc: OpenApiDocument, s: JsonSchema | undefined): JsonSchema | undefined {
  if (!s) return undefined;
  if (s.$ref) return resolveSchema(doc, doc.components.schemas[s.$ref.replace("#/components/schemas/", "")]);
  const union = s.anyOf ?? s.oneOf;
  if (union) return resolveSchema(doc, union.find((m) => m.type !== "null") ?? union[0]);
  return s;
}

/** The JSON types a schema allows. */
export const typesOf = (s: JsonSchema) => (Array.isArray(s.type) ? s.type : s.type ? [s.type] : []);

/** The route's operation in the document. */
export const operationOf = (doc: OpenApiDocument, route: RouteEntry): Operation | undefined =>
  doc.paths[route.path]?.[route.method.toLowerCase()];

/** The JSON schema of the route's body in the document, `$ref`s followed. */
export const bodySchemaOf = (doc: OpenApiDocument, route: RouteEntry) =>
  resolveSchema(doc, operationOf(doc, route)?.requestBody?.content?.["application/json"]?.schema);

/** The JSON schema of the route's first success answer (2xx, JSON), `$ref`s followed. */
function answerSchemaOf(doc: OpenApiDocument, route: RouteEntry) {
  const responses = operationOf(doc, route)?.responses ?? {};
  const status = Object.keys(responses).find((s) => s.startsWith("2"));
  return status ? resolveSchema(doc, responses[status].content?.["application/json"]?.schema) : undefined;
}

/* ---------- Who calls ---------- */

/** The console's test operator of a role (created by `TestConsole.cookie`). */
export const emailOf = (role: OperatorRole) => `${role}@test.example`;

/**
 * The credentials of the test operators for requests made without `TestConsole`'s `as`: with the
 * cookie, a session of our own, signed in again only when a request has ended it (sign out
 * everywhere, a password reset); with bearer, the console's API token of that role. Routes
 * refused to tokens (`sessionOnly`) always get the cookie.
 */
export class Callers {
  private readonly sessions = new Map<OperatorRole, string>();
  private readonly ids = new Map<OperatorRole, string>();
  constructor(
    private readonly app: TestConsole,
    readonly credential: Credential,
  ) {}

  /** The operator id of the test operator of `role`. */
  async idOf(role: OperatorRole): Promise<string> {
    let id = this.ids.get(role);
    if (!id) {
      await this.app.cookie(role); // creates the operator
      const [row] = await this.app.rows<{ id: string }>(sql`select id from operator where email = ${emailOf(role)}`);
      id = row.id;
      this.ids.set(role, id);
    }
    return id;
  }

  /** The session token in a Cookie header (better-auth's `…session_token=<token>.<signature>`). */
  private static tokenOf(cookie: string): string {
    const pair = cookie.split("; ").find((p) => p.split("=")[0].endsWith("session_token")) ?? "";
    return decodeURIComponent(pair.slice(pair.indexOf("=") + 1)).split(".")[0];
  }

  /** A Cookie header of a live session of `role`'s operator (signed in anew when the last one ended). */
  async cookie(role: OperatorRole): Promise<string> {
    await this.idOf(role);
    const known = this.sessions.get(role);
    if (known) {
      const live = await this.app.rows(
        sql`select 1 from operator_session where token = ${Callers.tokenOf(known)} and expires_at > now()`,
      );
      if (live.length > 0) return known;
    }
    const cookie = await signIn(this.app, emailOf(role), testPassword);
    this.sessions.set(role, cookie);
    return cookie;
  }

  /** The session tokens these callers use (rows a suite must not end by choice). */
  sessionTokens(): string[] {
    return [...this.sessions.values()].map(Callers.tokenOf);
  }

  /** Headers that authenticate a request of `role` (the cookie on `sessionOnly` routes). */
  async headers(role: OperatorRole, sessionOnly = false): Promise<Record<string, string>> {
    if (this.credential === "bearer" && !sessionOnly) return { authorization: `Bearer ${await this.app.token(role)}` };
    return { cookie: await this.cookie(role) };
  }
}

/** Signs in with a password; the Cookie header of the new session. @throws Error when refused. */
export async function signIn(app: TestConsole, email: string, password: string): Promise<string> {
  const res = await app.request("/api/auth/sign-in/email", { method: "POST", json: { email, password } });
  if (res.status !== 200) throw new Error(`sign-in as ${email}: ${res.status} ${await res.text()}`);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

/* ---------- Requests ---------- */

/** A request of a route, ready to send (or to corrupt). */
export type ValidRequest = {
  route: RouteEntry;
  /** Who sends it. */
  role: OperatorRole;
  /** The path parameters' values. */
  params: Record<string, string>;
  /** The JSON body, for a route that takes one. */
  body?: Record<string, unknown>;
  /** Headers beyond the credential (If-Match). */
  headers: Record<string, string>;
  /** The plan it was built with (`RequestMaker.build`). */
  plan: number;
};

/** An answer: its status, content type, text, and JSON when it is JSON. */
export type Answer = { status: number; type: string; text: string; json?: unknown };

/** Where a row comes from: made for the request, or already there (initial state, or any). */
type Source = { kind: "fresh"; variant: string } | { kind: "existing"; anyState: boolean };

/** One id the request needs: a path parameter or a body field, naming rows of `table` by `column`. */
type Slot = { name: string; pointer: string; table: TableInfo; column: string; inPath: boolean };
/** A row a request names. */
type Chosen = { table: TableInfo; column: string; value: string };

/** What a seeder gets: the maker, who the request is for, and the rows it names already. */
type SeedContext = { maker: RequestMaker; role: OperatorRole; chosen: Chosen[] };

/**
 * Rows of tables that no route of the table creates, made the way the console makes them
 * elsewhere. Each variant is a kind of fresh row a request may need.
 * - operator_session: a sign-in (better-auth's route, outside the route table), as the operator the
 *   request names, else the caller.
 * - prompt_changes: a proposal as PROMPT_REVIEW saves one (docs/prompt-review.md), by another
 *   operator (what a reviewer approves or rejects) or by the caller (what its author withdraws).
 * - bulk_actions: a run as a server leaves it between two batches (runs end within the request
 *   that starts them here, so no route leaves one running).
 */
const seeders: Record<string, Record<string, (ctx: SeedContext) => Promise<string | undefined>>> = {
  operator_session: {
    "sign-in": async ({ maker, role, chosen }) => {
      const owner = chosen.find((c) => c.table.name === "operator")?.value ?? (await maker.callers.idOf(role));
      const account = maker.passwords.get(owner);
      const [op] = await maker.app.rows<{ email: string }>(sql`select email from operator where id = ${owner}`);
      const password = account ?? testPassword;
      try {
        await signIn(maker.app, op.email, password);
      } catch {
        return undefined; // locked or deactivated: a session it already has will do
      }
      const [s] = await maker.app.rows<{ id: string }>(
        sql`select id from operator_session where user_id = ${owner} order by created_at desc limit 1`,
      );
      return s?.id;
    },
  },
  prompt_changes: Object.fromEntries(
    (["another", "own"] as const).map((who) => [
      who,
      async ({ maker, role, chosen }: SeedContext) => {
        const author =
          who === "own"
            ? { id: await maker.callers.idOf(role), email: emailOf(role) }
            : { id: `another-${randomUUID()}`, email: "another.reviewer@test.example" };
        const prompt = chosen.find((c) => c.table.name === "pedal_prompts")?.value;
        const [row] = await maker.app.rows<{ change_id: string }>(sql`
          insert into prompt_changes (prompt_id, kind, base_title, base_value, base_status, base_skill_id,
            prompt_title, prompt_value, prompt_status, skill_id, proposed_by, proposed_by_email)
          select p.prompt_id, 'update', p.prompt_title, p.prompt_value, p.status, p.skill_id,
            ${maker.unique("Proposed title")}, p.prompt_value, p.status, p.skill_id, ${author.id}, ${author.email}
          from pedal_prompts p
          where ${prompt ? sql`p.prompt_id = ${prompt}` : sql`not exists (select 1 from prompt_changes c where c.prompt_id = p.prompt_id)`}
          order by p.prompt_id limit 1
          returning change_id::text`);
        return row?.change_id;
      },
    ]),
  ),
  // An import at each step (docs/onboarding.md "Import"), of an active customer, its one row a
  // new user of the customer's first valid domain: its file sent, read, or previewed.
  imports: Object.fromEntries(
    (["uploading", "mapping", "previewed"] as const).map((step) => [
      step,
      async ({ maker, role }: SeedContext) => {
        const [customer] = await maker.app.rows<{ customer_id: string; domain: string }>(sql`
          select customer_id::text, coalesce(nullif((regexp_split_to_array(trim(coalesce(valid_domains, '')), '[\s,;]+'))[1], ''),
            'example.com') as domain from customers where status = 'active' order by created_at, customer_id limit 1`);
        if (!customer) return undefined;
        const email = `${maker
          .unique("import")
          .toLowerCase()
          .replace(/[^a-z0-9]+/g, ".")}@${customer.domain}`;
        const [row] = await maker.app.rows<{ import_id: string }>(sql`
          insert into imports (file_name, customer_id, status, bytes, parts, row_count, columns, mapping, counts, operator_id)
          values ('people.csv', ${customer.customer_id}, ${step}, 10, ${step === "uploading" ? 1 : 0},
            ${step === "uploading" ? 0 : 1}, ${step === "uploading" ? "[]" : '["email"]'}::jsonb,
            ${step === "uploading" ? null : '{"email":0}'}::jsonb,
            ${step === "previewed" ? '{"create":1,"update":0,"unchanged":0,"error":0}' : null}::jsonb,
            ${await maker.callers.idOf(role)})
          returning import_id::text`);
        if (step === "uploading")
          await maker.app.rows(sql`insert into import_parts (import_id, index, data)
            values (${row.import_id}, 0, ${Buffer.from(`email\n${email}\n`).toString("base64")})`);
        else
          await maker.app.rows(sql`insert into import_rows (import_id, seq, cells, email, resolved_customer_id, outcome)
            values (${row.import_id}, 1, ${JSON.stringify([email])}::jsonb, ${email}, ${customer.customer_id},
              ${step === "previewed" ? "create" : null})`);
        return row.import_id;
      },
    ]),
  ),
  bulk_actions: {
    running: async ({ maker, role }) => {
      const start = declaredRoutes().find((r) => /^\/api\/bulk\/[a-z_]+\/[a-z_]+$/.test(r.path));
      const [, , , entity, action] = (start?.path ?? "/api/bulk/customers/archive").split("/");
      const [row] = await maker.app.rows<{ bulk_id: string }>(sql`
        insert into bulk_actions (entity, action, selection, total, operator_id, operator_email)
        values (${entity}, ${action}, '{}'::jsonb, 0, ${await maker.callers.idOf(role)}, ${emailOf(role)})
        returning bulk_id::text`);
      return row.bulk_id;
    },
  },
};

/**
 * What a fresh record is given besides its row, where the rows hang off it by something other than
 * a route of the table: an operator signs in (a session, made by better-auth outside the route
 * table) and is then locked after failed sign-ins (auth_throttle is keyed by the account's e-mail,
 * not by a foreign key), so that ending its sessions, resetting it and unlocking it change something.
 */
const afterCreate: Record<string, (maker: RequestMaker, id: string) => Promise<void>> = {
  operator: async (maker, id) => {
    const [op] = await maker.app.rows<{ email: string }>(sql`select email from operator where id = ${id}`);
    const password = maker.passwords.get(id);
    if (!op || !password) return;
    await signIn(maker.app, op.email, password);
    await maker.app.rows(sql`insert into auth_throttle (key, failures, consecutive_failures, locked_until)
      values (${`account:${op.email.toLowerCase()}`}, 10, 10, now() + interval '1 hour')
      on conflict (key) do update set locked_until = excluded.locked_until`);
  },
};

/** How many plans `find` tries at most for one route. */
const maxPlans = 12;
/** How many rows a dry run is asked about before the first is taken anyway. */
const maxPreviews = 8;

/** The dotted pointer of field `name` inside the object at `pointer` ("selection" + "ids" → "selection.ids"). */
const pointerJoin = (pointer: string, name: string) => (pointer ? `${pointer}.${name}` : name);

/**
 * Builds and sends valid requests of the route table's routes on one console (see the file's
 * comment for how). One per suite permutation: it remembers the rows it made and used, so that
 * requests built later take other rows.
 */
export class RequestMaker {
  /** Passwords of the operators it created, by operator id (to sign them in). */
  readonly passwords = new Map<string, string>();
  /** Rows already named by a request ("table:key"): taken again only when no other fits, never to act on. */
  private readonly used = new Set<string>();
  /** Rows a request acts on (its path's, the ones its body lists): never taken by another. */
  private readonly held = new Set<string>();
  private counter = 0;
  private readonly routes = declaredRoutes();

  constructor(
    readonly app: TestConsole,
    readonly doc: OpenApiDocument,
    readonly callers: Callers,
    /** Rows no request may name, by table: the test operators, their tokens, sessions in use. */
    private readonly reserved: () => Promise<Record<string, { column: string; values: string[] }>>,
    /**
     * Requests must change something (audit coverage): fresh records get a history and what hangs
     * off them (`afterCreate`), and a route with a dry run gets a selection it says will change.
     * Without it (hostile input), a request only has to be accepted.
     */
    private readonly effective = true,
  ) {}

  /** A text unique in this run: `<label> <n>`. */
  unique(label: string): string {
    return `${label} ${++this.counter}-${randomUUID().slice(0, 6)}`;
  }

  /** The ids a route's path and body name, with the rows they name, in the order they are chosen. */
  private slotsOf(route: RouteEntry): Slot[] {
    const slots: Slot[] = [];
    for (const p of paramsOf(route.path)) {
      const found = isIdName(p) ? tableOf(p, route.path) : undefined;
      if (found) slots.push({ name: p, pointer: p, ...found, inPath: true });
    }
    const walk = (s: JsonSchema | undefined, pointer: string) => {
      for (const [name, raw] of Object.entries(s?.properties ?? {})) {
        const prop = resolveSchema(this.doc, raw)!;
        const item = prop.items ? resolveSchema(this.doc, prop.items) : undefined;
        const at = pointerJoin(pointer, name);
        if ((prop.format === "uuid" || item?.format === "uuid") && isIdName(name)) {
          const found = tableOf(name, route.path);
          if (found) slots.push({ name, pointer: at, ...found, inPath: false });
        } else if (prop.properties) walk(prop, at);
      }
    };
    walk(bodySchemaOf(this.doc, route), "");
    return slots;
  }

  /** The table whose key is exactly the columns the path's parameters name (a link: teams_skills). */
  private linkOfPath(slots: Slot[]): TableInfo | undefined {
    const path = slots.filter((s) => s.inPath);
    if (path.length < 2) return undefined;
    const columns = path.map((s) => s.column).sort();
    return tables.find((t) => t.key.length === columns.length && [...t.key].sort().join() === columns.join());
  }

  /**
   * The routes that create rows of `table` (their answer carries its key), best first: a path that
   * names the table, then fewer path parameters. A route whose own path needs such a row (an undo
   * of a bulk action) does not count.
   */
  private creatorsOf(table: TableInfo): RouteEntry[] {
    if (table.key.length !== 1) return [];
    const key = table.key[0];
    const names = (r: RouteEntry) => {
      const last = r.path
        .split("/")
        .filter((s) => s && !s.startsWith("{"))
        .pop()!
        .replace(/-/g, "_");
      const one = last.replace(/s$/, "");
      return (
        table.name === last ||
        table.name === one ||
        table.name.endsWith(`_${last}`) ||
        table.name.endsWith(`_${one}`) ||
        table.name.startsWith(`${last}_`)
      );
    };
    return this.routes
      .filter((r) => mutatingMethods.includes(r.method) && r.method !== "PATCH" && r.method !== "PUT")
      .filter((r) => answerSchemaOf(this.doc, r)?.properties?.[key] !== undefined)
      .filter((r) => key !== "id" || names(r))
      .filter((r) => !paramsOf(r.path).some((p) => tableOf(p, r.path)?.table.name === table.name))
      .sort((a, b) => Number(names(b)) - Number(names(a)) || paramsOf(a.path).length - paramsOf(b.path).length);
  }

  /** The kinds of fresh row available for `table`: its creator route, then its seeders. */
  private freshVariants(table: TableInfo): string[] {
    return [...(this.creatorsOf(table).length > 0 ? ["create"] : []), ...Object.keys(seeders[table.name] ?? {})];
  }

  /** Where the rows of a slot may come from, in the order plans try them. */
  private sourcesOf(slot: Slot): Source[] {
    const fresh: Source[] = this.freshVariants(slot.table).map((variant) => ({ kind: "fresh", variant }));
    const initial: Source = { kind: "existing", anyState: false };
    const any: Source = { kind: "existing", anyState: true };
    // The record a route acts on is best a fresh one (nothing else refers to it, nobody else owns
    // it); the records a body names are best ones already there; a row in another state than a
    // new one's comes last.
    return slot.inPath ? [...fresh, initial, any] : [initial, ...fresh, any];
  }

  /** The operator id of the role, as the owner of rows that belong to an operator. */
  private owner = (role: OperatorRole) => this.callers.idOf(role);

  /**
   * SQL conditions on rows of `table` (alias t, key column `column`) for a request that names
   * `chosen` already: the foreign keys they share agree; a link the request would create does not
   * exist yet; a row of an operator is the caller's; in its initial state unless `anyState`.
   */
  private async conditions(
    table: TableInfo,
    column: string,
    chosen: Chosen[],
    role: OperatorRole,
    anyState: boolean,
  ): Promise<SQL[]> {
    const t = sql.identifier(table.name);
    const me = sql`${t}.${sql.identifier(column)}`;
    const where: SQL[] = [];
    const status = columnOf(table, "status");
    if (!anyState && status?.default !== undefined) where.push(sql`${t}.status = ${status.default}`);
    const constrained = new Set<string>();
    for (const c of chosen) {
      const ct = sql.identifier(c.table.name);
      for (const fk of table.foreignKeys.filter((f) => f.columns.length === 1)) {
        const col = sql.identifier(fk.columns[0]);
        // This row refers to the chosen one.
        if (fk.table === c.table.name && fk.refColumns[0] === c.column) {
          where.push(sql`${t}.${col} = ${c.value}`);
          constrained.add(fk.columns[0]);
        }
        // Both refer to the same parent (a team and a user of one customer).
        for (const other of c.table.foreignKeys.filter((f) => f.columns.length === 1 && f.table === fk.table)) {
          if (fk.table === table.name || fk.table === c.table.name) continue;
          where.push(
            sql`${t}.${col} = (select x.${sql.identifier(other.columns[0])} from ${ct} x where x.${sql.identifier(c.column)} = ${c.value})`,
          );
          constrained.add(fk.columns[0]);
        }
      }
      // The chosen row refers to this one.
      for (const fk of c.table.foreignKeys.filter((f) => f.columns.length === 1 && f.table === table.name)) {
        if (fk.refColumns[0] !== column) continue;
        where.push(
          sql`${me} = (select x.${sql.identifier(fk.columns[0])} from ${ct} x where x.${sql.identifier(c.column)} = ${c.value})`,
        );
      }
      // A link between the two that the request would create must not exist yet.
      for (const link of tables) {
        if (link === table || link === c.table) continue;
        const toThis = link.foreignKeys.find(
          (f) => f.columns.length === 1 && f.table === table.name && f.refColumns[0] === column,
        );
        const toChosen = link.foreignKeys.find(
          (f) => f.columns.length === 1 && f.table === c.table.name && f.refColumns[0] === c.column,
        );
        if (!toThis || !toChosen || !link.key.includes(toThis.columns[0]) || !link.key.includes(toChosen.columns[0]))
          continue;
        where.push(sql`not exists (select 1 from ${sql.identifier(link.name)} l
          where l.${sql.identifier(toThis.columns[0])} = ${me} and l.${sql.identifier(toChosen.columns[0])} = ${c.value})`);
      }
    }
    // A row that belongs to an operator (a saved view, a token, a session) is the caller's.
    const ownerKey = table.foreignKeys.find((f) => f.table === "operator" && !constrained.has(f.columns[0]));
    if (!anyState && ownerKey) where.push(sql`${t}.${sql.identifier(ownerKey.columns[0])} = ${await this.owner(role)}`);
    const reserved = (await this.reserved())[table.name];
    if (reserved && reserved.values.length > 0)
      where.push(
        sql`${t}.${sql.identifier(reserved.column)}::text not in (${sql.join(
          reserved.values.map((v) => sql`${v}`),
          sql`, `,
        )})`,
      );
    return where;
  }

  /** Up to `limit` ids of existing rows for a slot, unused ones first. */
  private async existing(
    table: TableInfo,
    column: string,
    chosen: Chosen[],
    role: OperatorRole,
    anyState: boolean,
    pick: { limit: number; actedOn: boolean; readOnly: boolean },
  ): Promise<string[]> {
    const where = await this.conditions(table, column, chosen, role, anyState);
    const t = sql.identifier(table.name);
    const key = sql`${t}.${sql.identifier(column)}`;
    const among = (set: Set<string>) =>
      [...set].filter((u) => u.startsWith(`${table.name}:`)).map((u) => sql`${u.slice(table.name.length + 1)}`);
    const used = among(this.used);
    const held = among(this.held);
    // A row another request acts on is never taken; a row another request names is not acted on.
    if (!pick.readOnly && held.length) where.push(sql`${key}::text not in (${sql.join(held, sql`, `)})`);
    if (!pick.readOnly && pick.actedOn && used.length)
      where.push(sql`${key}::text not in (${sql.join(used, sql`, `)})`);
    const order = used.length ? sql`(${key}::text in (${sql.join(used, sql`, `)})), ${key}` : key;
    const status = columnOf(table, "status") ? sql`${t}.status::text` : sql`''`;
    const found = await this.app.rows<{ id: string; status: string }>(
      sql`select ${key}::text as id, ${status} as status from ${t} where ${where.length ? sql.join(where, sql` and `) : sql`true`} order by ${order} limit ${pick.limit === 1 ? 1 : pick.limit * 5}`,
    );
    // A pool for a dry run holds a row of each status first (an unarchive needs an archived one).
    const firsts = found.filter((r, i) => found.findIndex((x) => x.status === r.status) === i);
    return [...firsts, ...found.filter((r) => !firsts.includes(r))].slice(0, pick.limit).map((r) => r.id);
  }

  /**
   * The values a new row of `table` must give its foreign keys to agree with the rows a request
   * names already (`conditions`, for a row made rather than found): a user made for a team is of
   * the team's customer. By the foreign key's column name, which the creating route's body uses.
   */
  private async parentsOf(table: TableInfo, chosen: Chosen[]): Promise<Record<string, string>> {
    const fixed: Record<string, string> = {};
    for (const fk of table.foreignKeys.filter((f) => f.columns.length === 1 && f.table !== table.name)) {
      for (const c of chosen) {
        if (fk.table === c.table.name && fk.refColumns[0] === c.column) fixed[fk.columns[0]] = c.value;
        const shared = c.table.foreignKeys.find((f) => f.columns.length === 1 && f.table === fk.table);
        if (shared && c.table.name !== fk.table) {
          const [row] = await this.app.rows<{ v: string | null }>(
            sql`select ${sql.identifier(shared.columns[0])}::text as v from ${sql.identifier(c.table.name)} where ${sql.identifier(c.column)}::text = ${c.value}`,
          );
          if (row?.v) fixed[fk.columns[0]] = row.v;
        }
      }
    }
    return fixed;
  }

  /** A fresh row of `table` of the given kind, made for a request of `role`; undefined when it cannot be made. */
  private async fresh(table: TableInfo, variant: string, role: OperatorRole, chosen: Chosen[], depth: number) {
    if (variant !== "create") return seeders[table.name]?.[variant]?.({ maker: this, role, chosen });
    if (depth > 3) return undefined;
    const key = table.key[0];
    for (const creator of this.creatorsOf(table)) {
      const as = roleAtLeast(role, creator.access) ? role : roleOf(creator);
      for (let plan = 0; plan < 3; plan++) {
        const fixed = await this.parentsOf(table, chosen);
        const request = await this.build(creator, plan, { role: as, depth: depth + 1, fixed });
        if (!request) break;
        const answer = await this.send(request);
        const id = (answer.json as Record<string, unknown> | undefined)?.[key];
        if (answer.status >= 300 || typeof id !== "string") continue;
        // An account made with a password signs in with it (`afterCreate`, the session seeder).
        const password = request.body?.password;
        if (typeof password === "string") this.passwords.set(id, password);
        if (this.effective) {
          await afterCreate[table.name]?.(this, id);
          await this.liveIn(creator, table, id, as, depth);
        }
        return id;
      }
    }
    return undefined;
  }

  /**
   * Edits a fresh record once through the PATCH of its own path (`<creator path>/{id}`), changing
   * its free-text fields only, so that it has a history like a record in use, when its table keeps
   * one (a table keyed by the record's key and a `version`: a prompt's second version, for a
   * restore). Nothing is checked: a record that cannot be edited so stays as created.
   */
  private async liveIn(creator: RouteEntry, table: TableInfo, id: string, role: OperatorRole, depth: number) {
    const history = tables.some(
      (h) =>
        h.key.includes("version") &&
        h.foreignKeys.some((f) => f.table === table.name && f.columns.length === 1 && h.key.includes(f.columns[0])),
    );
    if (!history) return;
    const patch = this.routes.find(
      (r) =>
        r.method === "PATCH" &&
        r.path.startsWith(`${creator.path}/{`) &&
        paramsOf(r.path).length === 1 &&
        r.path.endsWith("}") &&
        tableOf(paramsOf(r.path)[0], r.path)?.table.name === table.name,
    );
    if (!patch || !patch.body || depth > 3) return;
    const param = paramsOf(patch.path)[0];
    const schema = bodySchemaOf(this.doc, patch);
    const read = await this.readBack(patch, { [param]: id }, role);
    const body: Record<string, unknown> = {};
    for (const [name, raw] of Object.entries(schema?.properties ?? {})) {
      const s = resolveSchema(this.doc, raw)!;
      if (name === "version" && typeof read.version === "number") body.version = read.version;
      else if (isFreeText(name, s)) body[name] = this.text(name, s);
      // A confirmation of a warning (an e-mail outside the customer's domains) changes nothing itself.
      else if (name.startsWith("confirm_") && typesOf(s).includes("boolean")) body[name] = true;
    }
    if (!patch.body.safeParse(body).success) return;
    await this.send({ route: patch, role, params: { [param]: id }, body, headers: read.headers, plan: 0 });
  }

  /**
   * `request` with its If-Match and body `version` read again: an earlier request of the same run
   * may have changed the record it names (an approval applies a change to a prompt), and the
   * request was built before that.
   */
  async refreshed(request: ValidRequest): Promise<ValidRequest> {
    const read = await this.readBack(request.route, request.params, request.role);
    const body =
      request.body && "version" in request.body && read.version !== undefined
        ? { ...request.body, version: read.version }
        : request.body;
    return { ...request, body, headers: { ...request.headers, ...read.headers } };
  }

  /**
   * What the GET of a PATCH's own path answers, for the PATCH to send back: `version` (a save
   * names the version it read) and, with If-Match, `updated_at`.
   */
  private async readBack(route: RouteEntry, params: Record<string, string>, role: OperatorRole) {
    const get = this.routes.find((r) => r.method === "GET" && r.path === route.path);
    if (route.method !== "PATCH" || !get) return { headers: {} as Record<string, string> };
    const res = await this.app.request(fillPath(route.path, params), { headers: await this.callers.headers(role) });
    const json = res.headers.get("content-type")?.includes("application/json")
      ? ((await res.json()) as Record<string, unknown>)
      : {};
    const headers: Record<string, string> =
      route.ifMatch && typeof json.updated_at === "string" ? { "if-match": json.updated_at } : {};
    return { version: json.version, headers };
  }

  /**
   * The columns of the row a request changes, whose values its enum fields change (a status) and
   * its `expected_<column>` fields repeat: for a PATCH or PUT the row its path names last (a link
   * row when the path names a link), else the row its body lists (`ids`, a bulk selection);
   * none for a request that creates a row.
   */
  private async targetRow(
    route: RouteEntry,
    chosen: Chosen[],
    slots: Slot[],
    link: TableInfo | undefined,
    params: Record<string, string>,
  ) {
    const one = async (table: TableInfo, where: SQL) =>
      (
        await this.app.rows<{ row: Record<string, unknown> }>(
          sql`select to_jsonb(t) as row from ${sql.identifier(table.name)} t where ${where} limit 1`,
        )
      )[0]?.row ?? {};
    if (link) {
      const conds = link.key.map((k) => {
        const c = chosen.find((x) => x.column === k);
        return sql`t.${sql.identifier(k)}::text = ${c?.value ?? params[k] ?? ""}`;
      });
      return one(link, sql.join(conds, sql` and `));
    }
    const update = route.method === "PATCH" || route.method === "PUT";
    const listed = slots.findIndex((s) => s.name === "ids");
    const at = update ? slots.map((s) => s.inPath).lastIndexOf(true) : listed;
    const target =
      at >= 0 ? chosen.find((c) => c.table === slots[at].table && c.column === slots[at].column) : undefined;
    return target ? one(target.table, sql`t.${sql.identifier(target.column)}::text = ${target.value}`) : {};
  }

  /**
   * A unique free text for a string field, within its bounds (an e-mail for an e-mail field); a
   * `current_password` is the caller's own (every test operator's password).
   */
  text(name: string, s: JsonSchema): string {
    if (name === "current_password") return testPassword;
    if (name.includes("email")) return `valid-${++this.counter}-${randomUUID().slice(0, 8)}@example.com`;
    const label = name.includes("password") ? "Valid-password" : `Valid ${name}`;
    const value = this.unique(label).padEnd(s.minLength ?? 0, "v");
    return s.maxLength ? value.slice(0, s.maxLength) : value;
  }

  /**
   * A value of `s` for the field `name` at `pointer`: ids from `ids`, an enum value that changes the
   * target row's column of that name (`expected_<column>`: its current value), `confirm_*` true, a
   * PATCH's `version` as read, unique texts. `mode`: every property of an object, or only the
   * required ones.
   */
  private value(
    name: string,
    raw: JsonSchema,
    pointer: string,
    ctx: { ids: Map<string, string[]>; target: Record<string, unknown>; version?: unknown; method: string },
    mode: "full" | "required",
  ): unknown {
    const s = resolveSchema(this.doc, raw)!;
    const t = typesOf(s);
    if (s.enum) {
      const expected = /^expected_(.+)$/.exec(name)?.[1];
      if (expected && expected in ctx.target) return ctx.target[expected];
      if (name in ctx.target) return s.enum.find((v) => v !== ctx.target[name]) ?? s.enum[0];
      return s.default ?? s.enum[0];
    }
    if (t.includes("boolean")) return name.startsWith("confirm_") ? true : (s.default ?? false);
    if (t.includes("integer") || t.includes("number")) {
      if (name === "version" && ctx.method === "PATCH" && typeof ctx.version === "number") return ctx.version;
      return s.default ?? s.minimum ?? 1;
    }
    if (s.format === "uuid") return ctx.ids.get(pointer)?.[0] ?? randomUUID();
    if (t.includes("array")) {
      const item = resolveSchema(this.doc, s.items) ?? {};
      if (item.format === "uuid") return ctx.ids.get(pointer) ?? [randomUUID()];
      if (item.enum) return [item.enum[0]];
      if (typesOf(item).includes("string"))
        return Array.from({ length: s.minItems ?? 0 }, () => this.text(name.replace(/s$/, ""), item));
      return [];
    }
    if (t.includes("object") || s.properties) return this.object(s, pointer, ctx, mode);
    if (t.includes("string")) return typeof s.default === "string" ? s.default : this.text(name, s);
    if (t.includes("null")) return null;
    return undefined;
  }

  /** An object of `s`'s properties (all, or the required ones). */
  private object(
    s: JsonSchema,
    pointer: string,
    ctx: Parameters<RequestMaker["value"]>[3],
    mode: "full" | "required",
  ): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [name, prop] of Object.entries(s.properties ?? {})) {
      if (mode === "required" && !s.required?.includes(name)) continue;
      out[name] = this.value(name, prop, pointerJoin(pointer, name), ctx, mode);
    }
    return out;
  }

  /**
   * Candidate bodies, best first: the route's example with real ids and unique names; every
   * field; the required fields only; the required ones with one optional field more (at the top,
   * then inside each object the body requires). The first its zod schema accepts is the body.
   */
  private bodies(route: RouteEntry, ctx: Parameters<RequestMaker["value"]>[3]): Record<string, unknown>[] {
    const schema = bodySchemaOf(this.doc, route)!;
    const out: Record<string, unknown>[] = [];
    if (route.example && typeof route.example === "object")
      out.push(this.fromExample(route.example as Record<string, unknown>, schema, "", ctx));
    out.push(this.object(schema, "", ctx, "full"));
    const required = this.object(schema, "", ctx, "required");
    out.push(required);
    for (const [name, prop] of Object.entries(schema.properties ?? {})) {
      if (!schema.required?.includes(name)) {
        out.push({ ...required, [name]: this.value(name, prop, name, ctx, "full") });
        continue;
      }
      const inner = resolveSchema(this.doc, prop)!;
      for (const [innerName, innerProp] of Object.entries(inner.properties ?? {}))
        if (!inner.required?.includes(innerName))
          out.push({
            ...required,
            [name]: {
              ...(required[name] as Record<string, unknown>),
              [innerName]: this.value(innerName, innerProp, `${name}.${innerName}`, ctx, "full"),
            },
          });
    }
    return out;
  }

  /** The example with its ids replaced by the request's rows and its names and titles made unique. */
  private fromExample(
    example: Record<string, unknown>,
    schema: JsonSchema,
    pointer: string,
    ctx: Parameters<RequestMaker["value"]>[3],
  ): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [name, given] of Object.entries(example)) {
      const s = resolveSchema(this.doc, schema.properties?.[name]) ?? {};
      const item = resolveSchema(this.doc, s.items);
      const at = pointerJoin(pointer, name);
      if (s.format === "uuid" || item?.format === "uuid" || name === "version" || name in ctx.target)
        out[name] = this.value(name, s, at, ctx, "full");
      else if (isFreeText(name, s) && /(^|_)(name|title)$/.test(name)) out[name] = this.text(name, s);
      else if (s.properties && given && typeof given === "object" && !Array.isArray(given))
        out[name] = this.fromExample(given as Record<string, unknown>, s, at, ctx);
      else out[name] = given;
    }
    return out;
  }

  /** The dry run of a route: its own path when it is one, else `<path>/preview` when declared. */
  private previewOf(route: RouteEntry): RouteEntry | undefined {
    if (route.path.endsWith("/preview")) return route;
    return this.routes.find((r) => r.method === route.method && r.path === `${route.path}/preview`);
  }

  /**
   * A request of `route` built with `plan` (0, 1, …: which source each id takes its row from, the
   * first slots varying fastest), as `role` (default the route's own role); undefined once
   * `plan` is past the last combination.
   */
  async build(
    route: RouteEntry,
    plan: number,
    options: {
      role?: OperatorRole;
      depth?: number;
      create?: boolean;
      /** Ids some body fields must take, by field name (a fresh user of the team's customer: `customer_id`). */
      fixed?: Record<string, string>;
    } = {},
  ): Promise<ValidRequest | undefined> {
    const role = options.role ?? roleOf(route);
    const depth = options.depth ?? 0;
    const slots = this.slotsOf(route);
    const link = this.linkOfPath(slots);
    const own = link ? slots.filter((s) => !s.inPath) : slots;
    const sources = own.map((s) =>
      this.sourcesOf(s).filter((src) => options.create !== false || src.kind === "existing"),
    );
    const linkSources = link ? 2 : 1;
    const combinations = sources.reduce((n, s) => n * Math.max(1, s.length), linkSources);
    if (plan >= Math.min(combinations, maxPlans)) return undefined;

    const chosen: Chosen[] = [];
    const params: Record<string, string> = {};
    const ids = new Map<string, string[]>();
    let rest = plan;
    if (link) {
      const anyState = rest % 2 === 1;
      rest = Math.floor(rest / 2);
      const [row] = await this.existingLink(link, role, anyState);
      for (const s of slots.filter((x) => x.inPath)) {
        const value = row?.[s.column] ?? randomUUID();
        params[s.name] = value;
        chosen.push({ table: s.table, column: s.column, value });
      }
    }
    const picks: number[] = sources.map((s) => {
      const n = Math.max(1, s.length);
      const i = rest % n;
      rest = Math.floor(rest / n);
      return i;
    });
    const preview = this.effective ? this.previewOf(route) : undefined;
    /** A read (GET) takes rows without keeping them from other requests. */
    const readOnly = options.create === false;
    /** The rows a request acts on: its path's, and those its body lists (`ids`). */
    const actsOn = (slot: Slot) => slot.inPath || slot.name === "ids";
    type State = { chosen: Chosen[]; params: Record<string, string>; ids: Map<string, string[]> };
    /** The state with `slot` holding `value`. */
    const holding = (state: State, slot: Slot, value: string): State => {
      return {
        chosen: [...state.chosen, { table: slot.table, column: slot.column, value }],
        params: slot.inPath ? { ...state.params, [slot.name]: value } : state.params,
        ids: slot.inPath ? state.ids : new Map(state.ids).set(slot.pointer, [value]),
      };
    };
    /** The slot's row from its planned source, or the next source that has one; with a dry run, a pool of rows. */
    const pick = async (i: number, chosen: Chosen[]): Promise<string[]> => {
      const slot = own[i];
      // A parent the new row must share with the request's other rows: a body field by its name, a
      // path parameter by its column (POST /api/customers/{customerId}/directory-tokens → customer_id).
      const given = options.fixed?.[slot.inPath ? slot.column : slot.name];
      if (given !== undefined) return [given];
      const list = sources[i];
      for (let k = 0; k < list.length; k++) {
        const src = list[(picks[i] + k) % list.length];
        if (src.kind === "fresh") {
          const value = await this.fresh(slot.table, src.variant, role, chosen, depth);
          if (value !== undefined) return [value];
          continue;
        }
        const many = preview && !slot.inPath && slot.name === "ids" ? maxPreviews : 1;
        // A dry run is asked about rows of every state (an unarchive needs an archived one).
        const pool = await this.existing(slot.table, slot.column, chosen, role, src.anyState || many > 1, {
          limit: many,
          actedOn: actsOn(slot),
          readOnly,
        });
        if (pool.length > 0) return pool;
      }
      return [randomUUID()];
    };
    /** The slots from `i` on filled; a selection its dry run says changes nothing is replaced by the next. */
    const fill = async (i: number, state: State): Promise<State> => {
      if (i >= own.length) return state;
      const pool = await pick(i, state.chosen);
      let first: State | undefined;
      for (const candidate of pool) {
        const next = await fill(i + 1, holding(state, own[i], candidate));
        if (pool.length === 1) return next;
        first ??= next;
        if (await this.changes(route, preview!, slots, next, role)) return next;
      }
      return first!;
    };
    const filled = await fill(0, { chosen, params, ids });
    // The rows taken are kept from later requests (see `existing`).
    if (!readOnly)
      for (const [i, c] of filled.chosen.slice(chosen.length).entries()) {
        this.used.add(`${c.table.name}:${c.value}`);
        if (actsOn(own[i])) this.held.add(`${c.table.name}:${c.value}`);
      }
    Object.assign(params, filled.params);
    for (const p of paramsOf(route.path)) params[p] ??= this.literalParam(route, p);
    const headersAndVersion = await this.readBack(route, params, role);
    const target = await this.targetRow(route, filled.chosen, slots, link, params);
    const body = route.body
      ? await this.bodyFor(route, {
          ids: filled.ids,
          target,
          version: headersAndVersion.version,
          method: route.method,
        })
      : undefined;
    return { route, role, params, ...(body ? { body } : {}), headers: headersAndVersion.headers, plan };
  }

  /** An existing row of a link table, in its initial state unless `anyState`, unused first. */
  private async existingLink(link: TableInfo, role: OperatorRole, anyState: boolean) {
    const where = await this.conditions(link, link.key[0], [], role, anyState);
    const t = sql.identifier(link.name);
    const keyText = sql.join(
      link.key.map((k) => sql`${t}.${sql.identifier(k)}::text`),
      sql` || ':' || `,
    );
    const used = [...this.used].filter((u) => u.startsWith(`${link.name}:`)).map((u) => u.slice(link.name.length + 1));
    // A link another request acts on is not taken again.
    if (used.length)
      where.push(
        sql`${keyText} not in (${sql.join(
          used.map((u) => sql`${u}`),
          sql`, `,
        )})`,
      );
    const rows = await this.app.rows<Record<string, string>>(sql`
      select ${sql.join(
        link.key.map((k) => sql`${t}.${sql.identifier(k)}::text as ${sql.identifier(k)}`),
        sql`, `,
      )} from ${t}
      where ${where.length ? sql.join(where, sql` and `) : sql`true`}
      order by ${
        used.length
          ? sql`(${keyText} in (${sql.join(
              used.map((u) => sql`${u}`),
              sql`, `,
            )})), `
          : sql``
      }${keyText}
      limit 1`);
    if (rows[0]) this.used.add(`${link.name}:${link.key.map((k) => rows[0][k]).join(":")}`);
    return rows;
  }

  /** Whether the route's dry run says the request of `state` will change something (`will_change` > 0). */
  private async changes(
    route: RouteEntry,
    preview: RouteEntry,
    slots: Slot[],
    state: { chosen: Chosen[]; params: Record<string, string>; ids: Map<string, string[]> },
    role: OperatorRole,
  ): Promise<boolean> {
    const target = await this.targetRow(route, state.chosen, slots, undefined, state.params);
    const body = await this.bodyFor(route, { ids: state.ids, target, method: route.method });
    const answer = await this.send({ route: preview, role, params: state.params, body, headers: {}, plan: 0 });
    const will = (answer.json as { will_change?: number } | undefined)?.will_change;
    return answer.status === 200 && typeof will === "number" && will > 0;
  }

  /**
   * The ids a body's other id fields need once the listed rows are known (a bulk action's
   * parameter: a team of the selected user's customer), then the first candidate body its zod
   * schema accepts (or the first, when none is).
   */
  private async bodyFor(route: RouteEntry, ctx: Parameters<RequestMaker["value"]>[3]) {
    const candidates = this.bodies(route, ctx);
    return candidates.find((b) => route.body!.safeParse(b).success) ?? candidates[0];
  }

  /** A path parameter that names no row: the first value its schema allows (a list's name), else a uuid. */
  private literalParam(route: RouteEntry, name: string): string {
    const p = operationOf(this.doc, route)?.parameters?.find((x) => x.in === "path" && x.name === name);
    const s = resolveSchema(this.doc, p?.schema);
    if (s?.enum) return String(s.enum[0]);
    if (s && (typesOf(s).includes("integer") || typesOf(s).includes("number"))) return String(s.minimum ?? 1);
    return randomUUID();
  }

  /** Sends a request with its role's credential; waits for any bulk run it started to end. */
  async send(request: ValidRequest): Promise<Answer> {
    const { route } = request;
    const res = await this.app.request(fillPath(route.path, request.params), {
      method: route.method,
      headers: { ...(await this.callers.headers(request.role, route.sessionOnly)), ...request.headers },
      ...(request.body !== undefined ? { json: request.body } : {}),
    });
    const text = await res.text();
    const type = res.headers.get("content-type") ?? "";
    await bulkIdle();
    let json: unknown;
    if (type.includes("application/json") && text) json = JSON.parse(text);
    return { status: res.status, type, text, json };
  }

  /**
   * The first plan whose request `route` accepts (2xx), trying at most `maxPlans`: `attempt`
   * sends each and says whether it was accepted (a suite checks what each did). The plan found
   * builds a new request of the same kind with `build(route, found.plan)`.
   * @returns the accepted request, or undefined when no plan is.
   */
  async find(
    route: RouteEntry,
    attempt: (request: ValidRequest) => Promise<boolean>,
    options: { role?: OperatorRole } = {},
  ): Promise<ValidRequest | undefined> {
    for (let plan = 0; plan < maxPlans; plan++) {
      const request = await this.build(route, plan, options);
      if (!request) return undefined;
      if (await attempt(request)) return request;
    }
    return undefined;
  }
}

/** Whether `role` is at least `access` (a public route: anyone). */
function roleAtLeast(role: OperatorRole, access: RouteEntry["access"]): boolean {
  const rank = { public: 0, viewer: 1, editor: 2, admin: 3 } as const;
  return rank[role] >= rank[access];
}

/** The role a route's request is sent as: the role it needs (a public route: viewer). */
export const roleOf = (route: RouteEntry): OperatorRole => (route.access === "public" ? "viewer" : route.access);

/** A name that holds ids: `teamId`, `team_id`, `team_ids`, `ids`. */
const isIdName = (name: string) => /(Id|_id|_ids|^ids|^id)$/.test(name);

/** A free-text property: a string stored as given (not an enum, a format, a pattern, an e-mail or a password). */
export const isFreeText = (name: string, s: JsonSchema) =>
  typesOf(s).includes("string") &&
  !s.enum &&
  !s.format &&
  !s.pattern &&
  !name.includes("email") &&
  !name.includes("password");

/**
 * A value the served route accepts for a path parameter that names no row, read from the route as
 * the app serves it (Hono's `/:file{swagger-ui\.css|swagger-ui-bundle\.js}`): the first alternative
 * of its pattern; undefined when the served route has none.
 */
export function servedParamValue(served: Array<{ path: string }>, path: string, param: string): string | undefined {
  const pattern = new RegExp(`^${path.replace(/\{[^}]+\}/g, "[^/]+").replace(/\//g, "\\/")}$`);
  for (const r of served) {
    const openapi = r.path.replace(/:([A-Za-z0-9_]+)(\{[^/]*\})?/g, "{$1}");
    if (!pattern.test(openapi)) continue;
    const m = new RegExp(`:${param}\\{([^/]*)\\}`).exec(r.path);
    if (m) return m[1].split("|")[0].replace(/\\(.)/g, "$1");
  }
  return undefined;
}

/**
 * Rows that no derived request may name, by table: the test operators (a request acting on the
 * caller itself is refused, and on another test operator would change who the suites sign in as),
 * their API tokens (the bearer credential) and the sessions the callers use. The tokens of every
 * role are made now, before any suite takes its first checksum.
 */
export async function reservedRows(app: TestConsole, callers: Callers) {
  const roles: OperatorRole[] = ["viewer", "editor", "admin"];
  const operators = await Promise.all(roles.map((r) => callers.idOf(r)));
  const tokens = await Promise.all(roles.map((r) => app.tokenId(r)));
  return async () => ({
    operator: { column: "id", values: operators },
    operator_api_token: { column: "token_id", values: tokens },
    operator_session: { column: "token", values: callers.sessionTokens() },
  });
}
