/**
 * SCIM 2.0 directory sync (RFC 7643 resources, RFC 7644 protocol; docs/onboarding.md) at
 * `{PUBLIC_URL}/scim/v2`: a customer's identity provider (Okta, Microsoft Entra ID, …) creates,
 * updates and deactivates the customer's users (`/Users`) and teams (`/Groups`) with a directory
 * token (`Authorization: Bearer scim_…`, directory/tokens.ts) bound to that customer. A token
 * reaches its customer's records only: another customer's are 404 as if they did not exist.
 *
 * - Users map to users_data: `userName` (and the primary e-mail) is the e-mail, lower-cased;
 *   `name.givenName`/`familyName` the first and last name; `title` the job title; `active` the
 *   status (active/inactive); `externalId` is kept in directory_users. Every rule of the console's
 *   Add user holds (db/user-writes.ts): valid domains, an e-mail unique across customers, an
 *   active customer. DELETE deactivates the user and removes their memberships (each restorable
 *   from Recently deleted), as a leaver's offboarding; the user stays, inactive.
 * - Groups map to the customer's teams; members to teams_users. DELETE archives the team
 *   (status inactive) and leaves its members.
 * - Refusals are SCIM's error body (`urn:ietf:params:scim:api:messages:2.0:Error`, `status`,
 *   `scimType`, `detail`) as `application/scim+json`.
 * - Every change is audited as the directory (operator `directory:<token_id>`), and every request
 *   is logged in directory_requests for the customer page's state. The request rate is bounded per
 *   customer (429 with Retry-After).
 * - The clients' known deviations are accepted: Entra's PascalCase ops ("Replace"), booleans as
 *   strings ("False"), PATCH without a path carrying dotted keys ("name.givenName"), and
 *   `?aadOptscim062020` on any URL.
 */
import { directoryMsg } from "../../domain/directory-messages";
import type { Context, MiddlewareHandler } from "hono";
import { Hono } from "hono";
import { and, eq, sql, type SQL } from "drizzle-orm";
import { parse as parseFilter, type Filter } from "scim2-parse-filter";
import { scimPatch, type ScimPatchOperation } from "scim-patch";
import { z } from "zod";
import { msg } from "../../domain/messages";
import { mutate, type AuditEntry, type AuditRequest, type Tx } from "../audit";
import { queryRows, type Database } from "../db/client";
import { directory_groups, directory_requests, directory_users, teams, teams_users, users_data } from "../db/schema";
import { checkEmailDomain, insertUser } from "../db/user-writes";
import { databaseErrorAnswer, HttpError } from "../http/errors";
import type { AppEnv } from "../http/env";
import { toJson } from "../http/list";
import { addMember, removeMember } from "../links";
import { countTokenRequest } from "../tokens";
import { resolveDirectoryToken, type Directory } from "./tokens";

const userSchema = "urn:ietf:params:scim:schemas:core:2.0:User";
const groupSchema = "urn:ietf:params:scim:schemas:core:2.0:Group";
const listSchema = "urn:ietf:params:scim:api:messages:2.0:ListResponse";
const errorSchema = "urn:ietf:params:scim:api:messages:2.0:Error";
const patchSchema = "urn:ietf:params:scim:api:messages:2.0:PatchOp";
const scimType = "application/scim+json";
/** The most resources one list page gives (`count` above it is lowered to it, RFC 7644 §3.4.2.4). */
const maxPage = 200;

type ScimEnv = AppEnv & {
  Variables: AppEnv["Variables"] & { directory: Directory; outcome?: Outcome; scimError?: string };
};
type Outcome = "created" | "updated" | "deactivated" | "deleted";
type ScimContext = Context<ScimEnv>;

/** A refusal in SCIM's own shape (RFC 7644 §3.12). */
class ScimError extends Error {
  constructor(
    readonly status: number,
    detail: string,
    readonly scimType?: string,
  ) {
    super(detail);
  }
}

const scimJson = (c: ScimContext, body: unknown, status = 200) =>
  c.body(JSON.stringify(body), status as 200, { "content-type": scimType });

function errorBody(status: number, detail: string, type?: string) {
  return { schemas: [errorSchema], status: String(status), ...(type ? { scimType: type } : {}), detail };
}

/** The console's own refusals (HttpError from the shared writes) in SCIM's words. */
function toScimError(err: HttpError): ScimError {
  if (err.code === "domain_mismatch") return new ScimError(400, err.message, "invalidValue");
  if (err.status === 409) return new ScimError(409, err.message, "uniqueness");
  if (err.status === 404) return new ScimError(404, err.message);
  return new ScimError(400, err.message, "invalidValue");
}

/** The body as JSON, or 400 `invalidSyntax`. */
async function bodyOf(c: ScimContext): Promise<Record<string, unknown>> {
  const value: unknown = await c.req.json().catch(() => undefined);
  if (!value || typeof value !== "object" || Array.isArray(value))
    throw new ScimError(400, directoryMsg.notJson, "invalidSyntax");
  return value as Record<string, unknown>;
}

/** Entra sends booleans as "True"/"False". */
function asBoolean(value: unknown): boolean | undefined {
  if (typeof value === "boolean") return value;
  if (typeof value === "string" && /^(true|false)$/i.test(value)) return value.toLowerCase() === "true";
  return undefined;
}

const text = (value: unknown, max = 200) =>
  typeof value === "string" && value.trim() !== "" ? value.trim().slice(0, max) : null;
const emailSchema = z.email();

// ---------------------------------------------------------------------------------------------
// Users

type UserRow = {
  user_id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  job_title: string | null;
  status: string;
  external_id: string | null;
  created_at: string;
  updated_at: string;
};

const userColumns = sql`u.user_id, u.email, u.first_name, u.last_name, u.job_title, u.status, d.external_id,
  u.created_at, u.updated_at`;
const userFrom = sql`users_data u left join directory_users d on d.user_id = u.user_id`;

/** The fields of users_data (and directory_users) a SCIM User carries. */
type UserFields = {
  email: string;
  first_name: string | null;
  last_name: string | null;
  job_title: string | null;
  active: boolean;
  external_id: string | null;
};

function scimUser(row: UserRow, base: string, groups: Reference[] = []) {
  const name = [row.first_name, row.last_name].filter(Boolean).join(" ");
  return {
    schemas: [userSchema],
    id: row.user_id,
    ...(row.external_id ? { externalId: row.external_id } : {}),
    userName: row.email,
    name: {
      ...(name ? { formatted: name } : {}),
      ...(row.first_name ? { givenName: row.first_name } : {}),
      ...(row.last_name ? { familyName: row.last_name } : {}),
    },
    ...(name ? { displayName: name } : {}),
    ...(row.job_title ? { title: row.job_title } : {}),
    active: row.status === "active",
    emails: [{ value: row.email, type: "work", primary: true }],
    groups: groups.map((g) => ({ ...g, $ref: `${base}/Groups/${g.value}` })),
    meta: {
      resourceType: "User",
      created: new Date(row.created_at).toISOString(),
      lastModified: new Date(row.updated_at).toISOString(),
      location: `${base}/Users/${row.user_id}`,
      version: `W/"${new Date(row.updated_at).getTime()}"`,
    },
  };
}

/** The console's fields from a SCIM User body (POST, PUT, or the result of a PATCH). */
function userFieldsOf(body: Record<string, unknown>): UserFields {
  const emails = Array.isArray(body.emails) ? (body.emails as Array<Record<string, unknown>>) : [];
  const primary =
    emails.find((e) => asBoolean(e?.primary) === true) ?? emails.find((e) => e?.type === "work") ?? emails[0];
  const raw = text(body.userName, 320) ?? text(primary?.value, 320);
  if (!raw) throw new ScimError(400, directoryMsg.userNameRequired, "invalidValue");
  const email = raw.toLowerCase();
  if (!emailSchema.safeParse(email).success) throw new ScimError(400, directoryMsg.emailInvalid(raw), "invalidValue");
  const name = (body.name ?? {}) as Record<string, unknown>;
  const active = body.active === undefined ? true : asBoolean(body.active);
  if (active === undefined) throw new ScimError(400, "active must be true or false", "invalidValue");
  return {
    email,
    first_name: text(name.givenName, 100),
    last_name: text(name.familyName, 100),
    job_title: text(body.title, 200),
    active,
    external_id: text(body.externalId, 500),
  };
}

/** A resource type's table: its columns, FROM and alias, whose customer_id scopes it and whose (created_at, key) pages it. */
type ResourceTable = { columns: SQL; from: SQL; alias: "u" | "t"; key: "user_id" | "team_id" };

/** The resources of `table` of the customer matching `where`, oldest first, one page of them or all. */
async function resourceRows<T>(
  db: Database | Tx,
  table: ResourceTable,
  customerId: string,
  where: SQL,
  page?: { offset: number; limit: number },
) {
  const a = sql.raw(table.alias);
  return queryRows<T>(
    db,
    sql`select ${table.columns} from ${table.from} where ${a}.customer_id = ${customerId} and ${where}
      order by ${a}.created_at, ${a}.${sql.raw(table.key)} ${page ? sql`offset ${page.offset} limit ${page.limit}` : sql``}`,
  );
}

/** How many resources of `table` of the customer match `where` (a list's totalResults). */
async function resourceCount(db: Database, table: ResourceTable, customerId: string, where: SQL) {
  const a = sql.raw(table.alias);
  const [{ total }] = await queryRows<{ total: number }>(
    db,
    sql`select count(*)::int as total from ${table.from} where ${a}.customer_id = ${customerId} and ${where}`,
  );
  return total;
}

type Reference = { value: string; display: string };

/** References by owner, from rows `{ owner, value, display }` (a page's groups of users, or members of groups): one query for the page. */
async function referencesBy(db: Database, owners: string[], rows: (ids: string) => SQL) {
  const map = new Map<string, Reference[]>();
  if (owners.length === 0) return map;
  const found = await queryRows<Reference & { owner: string }>(db, rows(`{${owners.join(",")}}`));
  for (const r of found) map.set(r.owner, [...(map.get(r.owner) ?? []), { value: r.value, display: r.display }]);
  return map;
}

const userTable: ResourceTable = { columns: userColumns, from: userFrom, alias: "u", key: "user_id" };
const userRows = (db: Database | Tx, customerId: string, where: SQL, page?: { offset: number; limit: number }) =>
  resourceRows<UserRow>(db, userTable, customerId, where, page);

/** The teams of each user, by user id. */
const groupsOfUsers = (db: Database, userIds: string[]) =>
  referencesBy(
    db,
    userIds,
    (ids) => sql`select tu.user_id as owner, t.team_id as value, t.team_name as display
      from teams_users tu join teams t on t.team_id = tu.team_id
      where tu.user_id = any(${ids}::uuid[]) order by t.team_name`,
  );

/** The user `id` of the directory's customer, or 404. */
async function oneUser(db: Database | Tx, directory: Directory, id: string): Promise<UserRow> {
  if (!z.guid().safeParse(id).success) throw new ScimError(404, directoryMsg.userNotFound(id));
  const [row] = await userRows(db, directory.customerId, sql`u.user_id = ${id}`);
  if (!row) throw new ScimError(404, directoryMsg.userNotFound(id));
  return row;
}

/**
 * Writes `fields` over the user `before` (PUT, PATCH): the changed columns, updated_at, the
 * externalId, and the audit entry. The e-mail's domain must be the customer's; a taken e-mail is 409.
 */
async function writeUser(tx: Tx, directory: Directory, before: UserRow, fields: UserFields): Promise<AuditEntry[]> {
  const status = fields.active ? "active" : "inactive";
  const next = {
    email: fields.email,
    first_name: fields.first_name,
    last_name: fields.last_name,
    job_title: fields.job_title,
    status,
  };
  const changed = Object.fromEntries(
    Object.entries(next).filter(([k, v]) => (before as Record<string, unknown>)[k] !== v),
  ) as Partial<typeof next>;
  const audit: AuditEntry[] = [];
  if (Object.keys(changed).length > 0) {
    if (changed.email !== undefined) {
      const [customer] = await queryRows<{ valid_domains: string | null }>(
        tx,
        sql`select valid_domains from customers where customer_id = ${directory.customerId}`,
      );
      checkEmailDomain(fields.email, customer?.valid_domains ?? null);
      const [taken] = await queryRows<{ user_id: string }>(
        tx,
        sql`select user_id from users_data where lower(email) = ${fields.email} and user_id <> ${before.user_id} limit 1`,
      );
      if (taken) throw new ScimError(409, directoryMsg.emailTaken(fields.email), "uniqueness");
    }
    await tx
      .update(users_data)
      .set({ ...changed, status: changed.status as "active" | "inactive" | undefined, updated_at: new Date() })
      .where(eq(users_data.user_id, before.user_id));
    audit.push({
      action: "update",
      entity: "user",
      entity_id: before.user_id,
      before: Object.fromEntries(Object.keys(changed).map((k) => [k, (before as Record<string, unknown>)[k]])),
      after: changed,
    });
  }
  await tx
    .insert(directory_users)
    .values({ user_id: before.user_id, customer_id: directory.customerId, external_id: fields.external_id })
    .onConflictDoUpdate({ target: directory_users.user_id, set: { external_id: fields.external_id } });
  return audit;
}

// ---------------------------------------------------------------------------------------------
// Filters (RFC 7644 §3.4.2.2): the attributes each resource is found by, with `eq`, joined by `and`.

type FilterColumns = Record<string, (value: string) => SQL>;

const userFilterColumns: FilterColumns = {
  username: (v) => sql`lower(u.email) = ${v.toLowerCase()}`,
  "emails.value": (v) => sql`lower(u.email) = ${v.toLowerCase()}`,
  emails: (v) => sql`lower(u.email) = ${v.toLowerCase()}`,
  externalid: (v) => sql`d.external_id = ${v}`,
  id: (v) => (z.guid().safeParse(v).success ? sql`u.user_id = ${v}` : sql`false`),
};
const groupFilterColumns: FilterColumns = {
  displayname: (v) => sql`lower(t.team_name) = ${v.toLowerCase()}`,
  externalid: (v) => sql`g.external_id = ${v}`,
  id: (v) => (z.guid().safeParse(v).success ? sql`t.team_id = ${v}` : sql`false`),
};

/** The SQL of a filter, or 400 `invalidFilter` for one that cannot be read or is not supported. */
function filterSql(filter: string | undefined, columns: FilterColumns): SQL {
  if (!filter) return sql`true`;
  let ast: Filter;
  try {
    ast = parseFilter(filter);
  } catch {
    throw new ScimError(400, directoryMsg.invalidFilter(filter), "invalidFilter");
  }
  const unsupported = () => new ScimError(400, directoryMsg.unsupportedFilter(filter), "invalidFilter");
  const walk = (f: Filter): SQL => {
    if (f.op === "and")
      return sql.join(
        (f as { filters: Filter[] }).filters.map((x) => sql`(${walk(x)})`),
        sql` and `,
      );
    if (f.op === "[]") {
      // emails[type eq "work" and value eq "x"]: the value test is what finds the user.
      const vp = f as { attrPath: string; valFilter: Filter };
      const inner = vp.valFilter as { op: string; attrPath?: string; compValue?: unknown; filters?: Filter[] };
      const tests =
        inner.op === "and" ? (inner.filters as Array<{ op: string; attrPath: string; compValue: unknown }>) : [inner];
      const value = tests.find((t) => t.op === "eq" && t.attrPath?.toLowerCase() === "value");
      if (!value) throw unsupported();
      return walk({ op: "eq", attrPath: `${vp.attrPath}.value`, compValue: value.compValue } as Filter);
    }
    if (f.op !== "eq") throw unsupported();
    const { attrPath, compValue } = f as { attrPath: string; compValue: unknown };
    const path = attrPath.replace(/^urn:ietf:params:scim:schemas:core:2\.0:(User|Group):/i, "").toLowerCase();
    const column = columns[path];
    if (!column || typeof compValue !== "string") throw unsupported();
    return column(compValue);
  };
  return walk(ast);
}

/** `startIndex` (1-based) and `count` of a list request (RFC 7644 §3.4.2.4). */
function pageOf(c: ScimContext) {
  const start = Math.max(1, Number.parseInt(c.req.query("startIndex") ?? "1", 10) || 1);
  const countText = c.req.query("count");
  const count = countText === undefined ? 100 : Math.max(0, Math.min(maxPage, Number.parseInt(countText, 10) || 0));
  return { start, count, offset: start - 1 };
}

// ---------------------------------------------------------------------------------------------
// Groups

type GroupRow = {
  team_id: string;
  team_name: string;
  status: string;
  external_id: string | null;
  created_at: string;
  updated_at: string;
};
const groupColumns = sql`t.team_id, t.team_name, t.status, g.external_id, t.created_at, t.updated_at`;
const groupFrom = sql`teams t left join directory_groups g on g.team_id = t.team_id`;

const groupTable: ResourceTable = { columns: groupColumns, from: groupFrom, alias: "t", key: "team_id" };
const groupRows = (db: Database | Tx, customerId: string, where: SQL, page?: { offset: number; limit: number }) =>
  resourceRows<GroupRow>(db, groupTable, customerId, where, page);

/** The members of each team, by team id. */
const membersOf = (db: Database, teamIds: string[]) =>
  referencesBy(
    db,
    teamIds,
    (ids) => sql`select tu.team_id as owner, tu.user_id as value, u.email as display
      from teams_users tu join users_data u on u.user_id = tu.user_id
      where tu.team_id = any(${ids}::uuid[]) order by u.email`,
  );

function scimGroup(row: GroupRow, base: string, members?: Reference[]) {
  return {
    schemas: [groupSchema],
    id: row.team_id,
    ...(row.external_id ? { externalId: row.external_id } : {}),
    displayName: row.team_name,
    ...(members ? { members: members.map((m) => ({ ...m, $ref: `${base}/Users/${m.value}` })) } : {}),
    meta: {
      resourceType: "Group",
      created: new Date(row.created_at).toISOString(),
      lastModified: new Date(row.updated_at).toISOString(),
      location: `${base}/Groups/${row.team_id}`,
      version: `W/"${new Date(row.updated_at).getTime()}"`,
    },
  };
}

async function oneGroup(db: Database | Tx, directory: Directory, id: string): Promise<GroupRow> {
  if (!z.guid().safeParse(id).success) throw new ScimError(404, directoryMsg.groupNotFound(id));
  const [row] = await groupRows(db, directory.customerId, sql`t.team_id = ${id}`);
  if (!row) throw new ScimError(404, directoryMsg.groupNotFound(id));
  return row;
}

const excludesMembers = (c: ScimContext) =>
  (c.req.query("excludedAttributes") ?? "")
    .split(",")
    .map((a) => a.trim().toLowerCase())
    .includes("members");

/** The user ids of a members value (`[{ value }]`), each a user of the directory's customer, or 400. */
async function memberIds(tx: Tx, directory: Directory, value: unknown): Promise<string[]> {
  const list = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
  const ids = list.map((m) => {
    const v: unknown = typeof m === "object" && m !== null ? (m as { value?: unknown }).value : m;
    return typeof v === "string" ? v : typeof v === "number" ? String(v) : "";
  });
  for (const id of ids)
    if (!z.guid().safeParse(id).success) throw new ScimError(400, directoryMsg.memberNotFound(id), "invalidValue");
  if (ids.length === 0) return [];
  const found = await queryRows<{ user_id: string }>(
    tx,
    sql`select user_id from users_data where customer_id = ${directory.customerId}
      and user_id = any(${`{${ids.join(",")}}`}::uuid[])`,
  );
  const known = new Set(found.map((r) => r.user_id));
  const missing = ids.find((id) => !known.has(id));
  if (missing) throw new ScimError(400, directoryMsg.memberNotFound(missing), "invalidValue");
  return [...new Set(ids)];
}

/** Sets the team's members to `wanted` exactly (adds and removals audited, removals restorable). */
async function setMembers(tx: Tx, audit: AuditRequest, teamId: string, wanted: string[]) {
  const current = await queryRows<{ user_id: string }>(
    tx,
    sql`select user_id from teams_users where team_id = ${teamId}`,
  );
  const have = new Set(current.map((r) => r.user_id));
  const want = new Set(wanted);
  const entries: AuditEntry[] = [];
  for (const id of wanted)
    if (!have.has(id)) entries.push(...(await addMember(tx, teamId, id, { field: "user_id" })).audit);
  for (const id of have)
    if (!want.has(id)) entries.push(...(await removeMember(tx, audit, teamId, id, msg.users.notMember)).audit);
  return entries;
}

// ---------------------------------------------------------------------------------------------
// The router

/** The audit's view of a SCIM request: the directory acts, as `directory:<token_id>`. */
function auditRequestOf(c: ScimContext): AuditRequest {
  const d = c.var.directory;
  return {
    var: {
      db: c.var.db,
      session: {
        user: { id: `directory:${d.directoryTokenId}`, email: `${directoryMsg.tokenName}: ${d.tokenName} (SCIM)` },
      },
      requestId: c.var.requestId,
      clientIp: c.var.clientIp,
      apiToken: null,
    },
  };
}

/** Runs `work` in one transaction with its audit rows, SCIM errors passed through, the console's translated. */
async function change<T>(c: ScimContext, work: (tx: Tx) => Promise<{ result: T; audit: AuditEntry[] }>): Promise<T> {
  try {
    return await mutate(auditRequestOf(c), work);
  } catch (err) {
    if (err instanceof HttpError) throw toScimError(err);
    throw err;
  }
}

/**
 * The SCIM router, mounted at /scim/v2: the directory token, the per-customer rate, the request
 * log, and SCIM's error body for every refusal. `ratePerMinute` bounds each customer's requests.
 */
export function scimRouter(options: { ratePerMinute: number }) {
  const app = new Hono<ScimEnv>();
  const base = (c: ScimContext) => `${c.var.publicUrl}/scim/v2`;

  const authenticate: MiddlewareHandler<ScimEnv> = async (c, next) => {
    const header = c.req.header("authorization") ?? "";
    const match = /^\s*bearer\s+(\S+)\s*$/i.exec(header);
    const refuse = (detail: string) => {
      c.header("www-authenticate", 'Bearer realm="scim"');
      return scimJson(c, errorBody(401, detail), 401);
    };
    if (!match) return refuse(directoryMsg.unauthorized);
    const directory = await resolveDirectoryToken(c.var.db, match[1], c.var.clock());
    if (!directory) return refuse(directoryMsg.invalidToken);
    c.set("directory", directory);
    const admission = await countTokenRequest(
      c.var.db,
      directory.customerId,
      options.ratePerMinute,
      c.var.clock(),
      "directory",
    );
    if (!admission.admitted) {
      c.header("retry-after", String(admission.retryAfterSeconds));
      return scimJson(c, errorBody(429, directoryMsg.rateLimited(admission.retryAfterSeconds)), 429);
    }
    await next();
  };

  // Refusals in SCIM's shape: its own, the console's shared rules', the database's (503 when it
  // is unreachable, recovering by itself); anything else is logged and answered 500.
  app.onError((err, c) => {
    let e = err instanceof ScimError ? err : err instanceof HttpError ? toScimError(err) : null;
    if (!e) {
      const refused = databaseErrorAnswer(err);
      if (refused?.status === 503) c.header("retry-after", "1");
      if (refused) e = refused.status >= 500 ? new ScimError(refused.status, refused.message) : toScimError(refused);
    }
    if (!e) {
      c.var.logger.error({ requestId: c.var.requestId, err }, "unhandled error");
      e = new ScimError(500, `Something went wrong on our side (request ${c.var.requestId})`);
    }
    c.set("scimError", e.message);
    return scimJson(c as ScimContext, errorBody(e.status, e.message, e.scimType), e.status);
  });
  // Every authenticated request logged for the customer page's directory state.
  app.use("*", async (c, next) => {
    await next();
    const directory = c.var.directory;
    if (!directory) return;
    const failed = c.res.status >= 400;
    await c.var.db
      .insert(directory_requests)
      .values({
        customer_id: directory.customerId,
        directory_token_id: directory.directoryTokenId,
        method: c.req.method,
        path: c.req.path.slice(0, 500),
        status: c.res.status,
        outcome: failed ? null : (c.var.outcome ?? null),
        error: failed ? (c.var.scimError ?? null) : null,
      })
      .catch((err: unknown) => c.var.logger.warn({ err }, "directory request not logged"));
  });
  app.use("*", authenticate);

  // Discovery (RFC 7644 §4).
  app.get("/ServiceProviderConfig", (c) =>
    scimJson(c, {
      schemas: ["urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig"],
      documentationUri: `${c.var.publicUrl}/docs/onboarding.md`,
      patch: { supported: true },
      bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
      filter: { supported: true, maxResults: maxPage },
      changePassword: { supported: false },
      sort: { supported: false },
      etag: { supported: false },
      authenticationSchemes: [
        {
          type: "oauthbearertoken",
          name: "Directory token",
          description: "Authorization: Bearer scim_…",
          primary: true,
        },
      ],
      meta: { resourceType: "ServiceProviderConfig", location: `${base(c)}/ServiceProviderConfig` },
    }),
  );
  app.get("/ResourceTypes", (c) =>
    scimJson(c, {
      schemas: [listSchema],
      totalResults: 2,
      startIndex: 1,
      itemsPerPage: 2,
      Resources: [
        {
          schemas: ["urn:ietf:params:scim:schemas:core:2.0:ResourceType"],
          id: "User",
          name: "User",
          endpoint: "/Users",
          schema: userSchema,
          meta: { resourceType: "ResourceType", location: `${base(c)}/ResourceTypes/User` },
        },
        {
          schemas: ["urn:ietf:params:scim:schemas:core:2.0:ResourceType"],
          id: "Group",
          name: "Group",
          endpoint: "/Groups",
          schema: groupSchema,
          meta: { resourceType: "ResourceType", location: `${base(c)}/ResourceTypes/Group` },
        },
      ],
    }),
  );
  app.get("/Schemas", (c) => {
    const attribute = (name: string, type = "string", extra: Record<string, unknown> = {}) => ({
      name,
      type,
      multiValued: false,
      required: false,
      caseExact: false,
      mutability: "readWrite",
      returned: "default",
      uniqueness: "none",
      ...extra,
    });
    const schemas = [
      {
        id: userSchema,
        name: "User",
        attributes: [
          attribute("userName", "string", { required: true, uniqueness: "server" }),
          attribute("name", "complex", {
            subAttributes: [
              attribute("givenName"),
              attribute("familyName"),
              attribute("formatted", "string", { mutability: "readOnly" }),
            ],
          }),
          attribute("title"),
          attribute("active", "boolean"),
          attribute("externalId", "string", { caseExact: true }),
          attribute("emails", "complex", {
            multiValued: true,
            subAttributes: [attribute("value"), attribute("type"), attribute("primary", "boolean")],
          }),
          attribute("groups", "complex", { multiValued: true, mutability: "readOnly" }),
        ],
      },
      {
        id: groupSchema,
        name: "Group",
        attributes: [
          attribute("displayName", "string", { required: true }),
          attribute("externalId", "string", { caseExact: true }),
          attribute("members", "complex", {
            multiValued: true,
            subAttributes: [attribute("value"), attribute("display", "string", { mutability: "readOnly" })],
          }),
        ],
      },
    ].map((s) => ({
      schemas: ["urn:ietf:params:scim:schemas:core:2.0:Schema"],
      ...s,
      meta: { resourceType: "Schema", location: `${base(c)}/Schemas/${s.id}` },
    }));
    return scimJson(c, {
      schemas: [listSchema],
      totalResults: schemas.length,
      startIndex: 1,
      itemsPerPage: schemas.length,
      Resources: schemas,
    });
  });

  // Users
  app.get("/Users", async (c) => {
    const d = c.var.directory;
    const where = filterSql(c.req.query("filter"), userFilterColumns);
    const { start, count, offset } = pageOf(c);
    const total = await resourceCount(c.var.db, userTable, d.customerId, where);
    const rows = count === 0 ? [] : await userRows(c.var.db, d.customerId, where, { offset, limit: count });
    const groups = await groupsOfUsers(
      c.var.db,
      rows.map((r) => r.user_id),
    );
    return scimJson(c, {
      schemas: [listSchema],
      totalResults: total,
      startIndex: start,
      itemsPerPage: rows.length,
      Resources: rows.map((r) => scimUser(r, base(c), groups.get(r.user_id))),
    });
  });
  app.get("/Users/:id", async (c) => {
    const row = await oneUser(c.var.db, c.var.directory, c.req.param("id"));
    const groups = await groupsOfUsers(c.var.db, [row.user_id]);
    return scimJson(c, scimUser(row, base(c), groups.get(row.user_id)));
  });
  app.post("/Users", async (c) => {
    const d = c.var.directory;
    const fields = userFieldsOf(await bodyOf(c));
    const id = await change(c, async (tx) => {
      const [existing] = await queryRows<{ customer_id: string }>(
        tx,
        sql`select customer_id from users_data where lower(email) = ${fields.email} limit 1`,
      );
      if (existing)
        throw new ScimError(
          409,
          existing.customer_id === d.customerId
            ? directoryMsg.emailTaken(fields.email)
            : directoryMsg.emailOfOtherCustomer(fields.email),
          "uniqueness",
        );
      const { row, audit } = await insertUser(tx, {
        email: fields.email,
        customer_id: d.customerId,
        first_name: fields.first_name,
        last_name: fields.last_name,
        job_title: fields.job_title,
        status: fields.active ? "active" : "inactive",
      });
      await tx
        .insert(directory_users)
        .values({ user_id: row.user_id, customer_id: d.customerId, external_id: fields.external_id });
      return { result: row.user_id, audit };
    });
    c.set("outcome", "created");
    const row = await oneUser(c.var.db, d, id);
    c.header("location", `${base(c)}/Users/${id}`);
    return scimJson(c, scimUser(row, base(c)), 201);
  });
  app.put("/Users/:id", async (c) => {
    const d = c.var.directory;
    const fields = userFieldsOf(await bodyOf(c));
    const deactivated = await change(c, async (tx) => {
      const before = await oneUser(tx, d, c.req.param("id"));
      return { result: before.status === "active" && !fields.active, audit: await writeUser(tx, d, before, fields) };
    });
    c.set("outcome", deactivated ? "deactivated" : "updated");
    const row = await oneUser(c.var.db, d, c.req.param("id"));
    const groups = await groupsOfUsers(c.var.db, [row.user_id]);
    return scimJson(c, scimUser(row, base(c), groups.get(row.user_id)));
  });
  app.patch("/Users/:id", async (c) => {
    const d = c.var.directory;
    const operations = patchOperations(await bodyOf(c));
    const deactivated = await change(c, async (tx) => {
      const before = await oneUser(tx, d, c.req.param("id"));
      const current = scimUser(before, base(c));
      let patched: Record<string, unknown>;
      try {
        patched = scimPatch(
          {
            ...current,
            meta: {
              ...current.meta,
              created: new Date(current.meta.created),
              lastModified: new Date(current.meta.lastModified),
            },
          },
          operations,
          { treatMissingAsAdd: true },
        );
      } catch (err) {
        throw new ScimError(
          400,
          directoryMsg.invalidPatch((err as Error).message),
          (err as { scimCode?: string }).scimCode ?? "invalidValue",
        );
      }
      // A PATCH that replaces the e-mail alone (Entra's emails[type eq "work"].value) moves userName with it.
      const emailChanged =
        (patched.emails as Array<{ value?: string }> | undefined)?.[0]?.value !== current.emails[0].value;
      if (emailChanged && patched.userName === current.userName) patched.userName = undefined;
      if (patched.id !== current.id) throw new ScimError(400, directoryMsg.immutable("id"), "mutability");
      const fields = userFieldsOf(patched);
      return { result: before.status === "active" && !fields.active, audit: await writeUser(tx, d, before, fields) };
    });
    c.set("outcome", deactivated ? "deactivated" : "updated");
    const row = await oneUser(c.var.db, d, c.req.param("id"));
    const groups = await groupsOfUsers(c.var.db, [row.user_id]);
    return scimJson(c, scimUser(row, base(c), groups.get(row.user_id)));
  });
  app.delete("/Users/:id", async (c) => {
    const d = c.var.directory;
    await change(c, async (tx) => {
      const before = await oneUser(tx, d, c.req.param("id"));
      const audit = await writeUser(tx, d, before, {
        email: before.email,
        first_name: before.first_name,
        last_name: before.last_name,
        job_title: before.job_title,
        active: false,
        external_id: before.external_id,
      });
      const memberships = await queryRows<{ team_id: string }>(
        tx,
        sql`select team_id from teams_users where user_id = ${before.user_id}`,
      );
      for (const m of memberships)
        audit.push(
          ...(await removeMember(tx, auditRequestOf(c), m.team_id, before.user_id, msg.users.notMember)).audit,
        );
      return { result: null, audit };
    });
    c.set("outcome", "deactivated");
    return c.body(null, 204);
  });

  // Groups
  app.get("/Groups", async (c) => {
    const d = c.var.directory;
    const where = filterSql(c.req.query("filter"), groupFilterColumns);
    const { start, count, offset } = pageOf(c);
    const total = await resourceCount(c.var.db, groupTable, d.customerId, where);
    const rows = count === 0 ? [] : await groupRows(c.var.db, d.customerId, where, { offset, limit: count });
    const members = excludesMembers(c)
      ? undefined
      : await membersOf(
          c.var.db,
          rows.map((r) => r.team_id),
        );
    return scimJson(c, {
      schemas: [listSchema],
      totalResults: total,
      startIndex: start,
      itemsPerPage: rows.length,
      Resources: rows.map((r) => scimGroup(r, base(c), members ? (members.get(r.team_id) ?? []) : undefined)),
    });
  });
  app.get("/Groups/:id", async (c) => {
    const row = await oneGroup(c.var.db, c.var.directory, c.req.param("id"));
    const members = excludesMembers(c)
      ? undefined
      : ((await membersOf(c.var.db, [row.team_id])).get(row.team_id) ?? []);
    return scimJson(c, scimGroup(row, base(c), members));
  });
  app.post("/Groups", async (c) => {
    const d = c.var.directory;
    const body = await bodyOf(c);
    const name = text(body.displayName, 200);
    if (!name) throw new ScimError(400, directoryMsg.displayNameRequired, "invalidValue");
    const externalId = text(body.externalId, 500);
    const id = await change(c, async (tx) => {
      await uniqueTeamName(tx, d, name);
      const [row] = await tx
        .insert(teams)
        .values({ customer_id: d.customerId, team_name: name, status: "active" })
        .returning();
      await tx
        .insert(directory_groups)
        .values({ team_id: row.team_id, customer_id: d.customerId, external_id: externalId });
      const audit: AuditEntry[] = [{ action: "create", entity: "team", entity_id: row.team_id, after: toJson(row) }];
      audit.push(...(await setMembers(tx, auditRequestOf(c), row.team_id, await memberIds(tx, d, body.members))));
      return { result: row.team_id, audit };
    });
    c.set("outcome", "created");
    const row = await oneGroup(c.var.db, d, id);
    c.header("location", `${base(c)}/Groups/${id}`);
    return scimJson(c, scimGroup(row, base(c), (await membersOf(c.var.db, [id])).get(id) ?? []), 201);
  });
  app.put("/Groups/:id", async (c) => {
    const d = c.var.directory;
    const body = await bodyOf(c);
    const name = text(body.displayName, 200);
    if (!name) throw new ScimError(400, directoryMsg.displayNameRequired, "invalidValue");
    await change(c, async (tx) => {
      const before = await oneGroup(tx, d, c.req.param("id"));
      const audit = await renameGroup(tx, d, before, name, text(body.externalId, 500) ?? before.external_id);
      if (body.members !== undefined)
        audit.push(...(await setMembers(tx, auditRequestOf(c), before.team_id, await memberIds(tx, d, body.members))));
      return { result: null, audit };
    });
    c.set("outcome", "updated");
    const row = await oneGroup(c.var.db, d, c.req.param("id"));
    return scimJson(c, scimGroup(row, base(c), (await membersOf(c.var.db, [row.team_id])).get(row.team_id) ?? []));
  });
  app.patch("/Groups/:id", async (c) => {
    const d = c.var.directory;
    const operations = patchOperations(await bodyOf(c));
    await change(c, async (tx) => {
      const before = await oneGroup(tx, d, c.req.param("id"));
      const audit: AuditEntry[] = [];
      const request = auditRequestOf(c);
      for (const op of operations) audit.push(...(await groupOperation(tx, d, request, before, op)));
      return { result: null, audit };
    });
    c.set("outcome", "updated");
    if (c.req.query("excludedAttributes") === undefined && c.req.header("prefer") === undefined) {
      const row = await oneGroup(c.var.db, d, c.req.param("id"));
      return scimJson(c, scimGroup(row, base(c), (await membersOf(c.var.db, [row.team_id])).get(row.team_id) ?? []));
    }
    return c.body(null, 204);
  });
  app.delete("/Groups/:id", async (c) => {
    const d = c.var.directory;
    await change(c, async (tx) => {
      const before = await oneGroup(tx, d, c.req.param("id"));
      if (before.status === "inactive") return { result: null, audit: [] };
      await tx
        .update(teams)
        .set({ status: "inactive", updated_at: new Date() })
        .where(eq(teams.team_id, before.team_id));
      return {
        result: null,
        audit: [
          {
            action: "update" as const,
            entity: "team" as const,
            entity_id: before.team_id,
            before: { status: before.status },
            after: { status: "inactive" },
          },
        ],
      };
    });
    c.set("outcome", "deleted");
    return c.body(null, 204);
  });

  app.all("*", (c) => scimJson(c, errorBody(404, directoryMsg.notImplemented), 404));
  return app;
}

/** A PATCH body's operations, ops lower-cased (Entra sends "Replace"), or 400 `invalidSyntax`. */
function patchOperations(body: Record<string, unknown>): ScimPatchOperation[] {
  const schemas = body.schemas;
  const ops = body.Operations ?? body.operations;
  if (!Array.isArray(ops) || (Array.isArray(schemas) && !schemas.includes(patchSchema)))
    throw new ScimError(400, directoryMsg.invalidPatch("Operations is required"), "invalidSyntax");
  const out: ScimPatchOperation[] = [];
  for (const raw of ops as Array<Record<string, unknown>>) {
    const op = typeof raw?.op === "string" ? raw.op.toLowerCase() : "";
    if (!["add", "replace", "remove"].includes(op))
      throw new ScimError(400, directoryMsg.invalidPatch(`op ${JSON.stringify(raw?.op)}`), "invalidSyntax");
    const path = typeof raw.path === "string" ? raw.path : undefined;
    let value = raw.value;
    // Entra: "active": "False" as a string, and a value object whose keys are paths ("name.givenName").
    if (!path && value && typeof value === "object" && !Array.isArray(value)) {
      const plain: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
        if (k.includes(".") || k.includes("[")) out.push({ op: op as "replace", path: k, value: normalise(k, v) });
        else plain[k] = normalise(k, v);
      }
      if (Object.keys(plain).length === 0) continue;
      value = plain;
    } else if (path) value = normalise(path, value);
    if (op === "remove" && !path)
      throw new ScimError(400, directoryMsg.invalidPatch("remove needs a path"), "noTarget");
    out.push({ op, ...(path ? { path } : {}), ...(value !== undefined ? { value } : {}) } as ScimPatchOperation);
  }
  return out;
}

function normalise(path: string, value: unknown) {
  return path.toLowerCase() === "active" ? (asBoolean(value) ?? value) : value;
}

async function uniqueTeamName(tx: Tx, d: Directory, name: string, except?: string) {
  const [taken] = await queryRows<{ team_id: string }>(
    tx,
    sql`select team_id from teams where customer_id = ${d.customerId} and lower(team_name) = ${name.toLowerCase()}
      ${except ? sql`and team_id <> ${except}` : sql``} limit 1`,
  );
  if (taken) throw new ScimError(409, directoryMsg.groupNameTaken(name), "uniqueness");
}

/** Renames a group's team (and keeps its externalId), audited when the name changes. */
async function renameGroup(tx: Tx, d: Directory, before: GroupRow, name: string, externalId: string | null) {
  const audit: AuditEntry[] = [];
  if (name !== before.team_name) {
    await uniqueTeamName(tx, d, name, before.team_id);
    await tx.update(teams).set({ team_name: name, updated_at: new Date() }).where(eq(teams.team_id, before.team_id));
    audit.push({
      action: "update",
      entity: "team",
      entity_id: before.team_id,
      before: { team_name: before.team_name },
      after: { team_name: name },
    });
  }
  await tx
    .insert(directory_groups)
    .values({ team_id: before.team_id, customer_id: d.customerId, external_id: externalId })
    .onConflictDoUpdate({ target: directory_groups.team_id, set: { external_id: externalId } });
  return audit;
}

/**
 * One PATCH operation on a group: members add / remove (by value, or by a `members[value eq "…"]`
 * path) / replace, displayName and externalId (with or without a path). Anything else 400 `invalidPath`.
 */
async function groupOperation(
  tx: Tx,
  d: Directory,
  request: AuditRequest,
  before: GroupRow,
  op: ScimPatchOperation,
): Promise<AuditEntry[]> {
  const path = op.path?.trim();
  const value = (op as { value?: unknown }).value;
  if (!path) {
    const object = (value ?? {}) as Record<string, unknown>;
    const entries: AuditEntry[] = [];
    const name = text(object.displayName, 200);
    if (name || object.externalId !== undefined)
      entries.push(
        ...(await renameGroup(
          tx,
          d,
          before,
          name ?? before.team_name,
          text(object.externalId, 500) ?? before.external_id,
        )),
      );
    if (object.members !== undefined)
      entries.push(
        ...(await groupOperation(tx, d, request, before, {
          op: op.op,
          path: "members",
          value: object.members,
        })),
      );
    return entries;
  }
  const filtered = /^members\[\s*value\s+eq\s+"([^"]+)"\s*\]$/i.exec(path);
  if (filtered) {
    if (op.op !== "remove") throw new ScimError(400, directoryMsg.invalidPatch(path), "invalidPath");
    return groupOperation(tx, d, request, before, {
      op: "remove",
      path: "members",
      value: [{ value: filtered[1] }],
    });
  }
  const lower = path.toLowerCase();
  if (lower === "members") {
    if (op.op === "replace") return setMembers(tx, request, before.team_id, await memberIds(tx, d, value));
    if (op.op === "remove" && value === undefined) return setMembers(tx, request, before.team_id, []);
    const ids = await memberIds(tx, d, value);
    const entries: AuditEntry[] = [];
    for (const id of ids) {
      if (op.op === "add") entries.push(...(await addMember(tx, before.team_id, id, { field: "user_id" })).audit);
      else {
        const [member] = await tx
          .select({ id: teams_users.user_id })
          .from(teams_users)
          .where(and(eq(teams_users.team_id, before.team_id), eq(teams_users.user_id, id)));
        if (member) entries.push(...(await removeMember(tx, request, before.team_id, id, msg.users.notMember)).audit);
      }
    }
    return entries;
  }
  if (lower === "displayname") {
    const name = text(value, 200);
    if (!name) throw new ScimError(400, directoryMsg.displayNameRequired, "invalidValue");
    return renameGroup(tx, d, before, name, before.external_id);
  }
  if (lower === "externalid")
    return renameGroup(tx, d, before, before.team_name, op.op === "remove" ? null : text(value, 500));
  throw new ScimError(400, directoryMsg.invalidPatch(path), "invalidPath");
}
