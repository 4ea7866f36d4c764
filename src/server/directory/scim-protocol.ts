/**
 * SCIM 2.0's protocol for directory sync (RFC 7644; docs/onboarding.md): its error body, its list
 * paging and filters, its PATCH operations as the clients send them, and the reads and the audited
 * transaction every resource type (scim-users.ts, scim-groups.ts) is built from.
 */
import { directoryMsg } from "../../domain/directory-messages";
import type { Context } from "hono";
import { sql, type SQL } from "drizzle-orm";
import { parse as parseFilter, type Filter } from "scim2-parse-filter";
import { type ScimPatchOperation } from "scim-patch";
import { z } from "zod";
import { mutate, type AuditEntry, type AuditRequest, type Tx } from "../audit";
import { queryRows, type Database } from "../db/client";
import { HttpError } from "../http/errors";
import type { AppEnv } from "../http/env";
import { type Directory } from "./tokens";

/** SCIM's schema URNs (RFC 7643 §8.7) and media type (RFC 7644 §3.1). */
export const userSchema = "urn:ietf:params:scim:schemas:core:2.0:User";
export const groupSchema = "urn:ietf:params:scim:schemas:core:2.0:Group";
export const listSchema = "urn:ietf:params:scim:api:messages:2.0:ListResponse";
export const errorSchema = "urn:ietf:params:scim:api:messages:2.0:Error";
export const patchSchema = "urn:ietf:params:scim:api:messages:2.0:PatchOp";
export const scimType = "application/scim+json";
/** The most resources one list page gives (`count` above it is lowered to it, RFC 7644 §3.4.2.4). */
export const maxPage = 200;

/** A SCIM request's variables: the app's, the directory its token acts for, and what the request did (for its log line). */
export type ScimEnv = AppEnv & {
  Variables: AppEnv["Variables"] & { directory: Directory; outcome?: Outcome; scimError?: string };
};
/** What a request did to a record, counted by the customer page's "Today". */
export type Outcome = "created" | "updated" | "deactivated" | "deleted";
/** The Hono context of a SCIM request. */
export type ScimContext = Context<ScimEnv>;

/** A refusal in SCIM's own shape (RFC 7644 §3.12). */
export class ScimError extends Error {
  constructor(
    readonly status: number,
    detail: string,
    readonly scimType?: string,
  ) {
    super(detail);
  }
}

/** An answer as `application/scim+json` with `status` (200 by default). */
export const scimJson = (c: ScimContext, body: unknown, status = 200) =>
  c.body(JSON.stringify(body), status as 200, { "content-type": scimType });

/** SCIM's error body (RFC 7644 §3.12): `status` as a string, `scimType` when one applies, `detail`. */
export function errorBody(status: number, detail: string, type?: string) {
  return { schemas: [errorSchema], status: String(status), ...(type ? { scimType: type } : {}), detail };
}

/** The console's own refusals (HttpError from the shared writes) in SCIM's words. */
export function toScimError(err: HttpError): ScimError {
  if (err.code === "domain_mismatch") return new ScimError(400, err.message, "invalidValue");
  if (err.status === 409) return new ScimError(409, err.message, "uniqueness");
  if (err.status === 404) return new ScimError(404, err.message);
  return new ScimError(400, err.message, "invalidValue");
}

/**
 * The body as JSON: 415 unless it is sent as `application/scim+json` or `application/json` (RFC
 * 7644 §3.1; a form or text/plain, which a browser may send to another site without asking, is
 * never read), else 400 `invalidSyntax` when it is not a JSON object.
 */
export async function bodyOf(c: ScimContext): Promise<Record<string, unknown>> {
  const type = (c.req.header("content-type") ?? "").split(";")[0].trim().toLowerCase();
  if (type !== "application/scim+json" && type !== "application/json")
    throw new ScimError(415, directoryMsg.notJson, "invalidSyntax");
  const value: unknown = await c.req.json().catch(() => undefined);
  if (!value || typeof value !== "object" || Array.isArray(value))
    throw new ScimError(400, directoryMsg.notJson, "invalidSyntax");
  return value as Record<string, unknown>;
}

/** Entra sends booleans as "True"/"False". */
export function asBoolean(value: unknown): boolean | undefined {
  if (typeof value === "boolean") return value;
  if (typeof value === "string" && /^(true|false)$/i.test(value)) return value.toLowerCase() === "true";
  return undefined;
}

/**
 * A text attribute as the console keeps it: trimmed, cut to `max` characters (the console's own
 * limits: names 100, a title 200), null when empty or not text.
 */
export const text = (value: unknown, max = 200) =>
  typeof value === "string" && value.trim() !== "" ? value.trim().slice(0, max) : null;
/**
 * `value` through the console's own field schema (the rule every path keeps: lengths, control and
 * direction characters, trimming), or 400 `invalidValue` with the schema's message.
 */
export function valid<T>(schema: z.ZodType<T>, value: unknown): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new ScimError(400, parsed.error.issues[0]?.message ?? "Invalid value", "invalidValue");
  return parsed.data;
}

/** What the console takes as an e-mail address (after lower-casing). */
export const emailSchema = z.email();

/** A resource type's table: its columns, FROM and alias, whose customer_id scopes it and whose (created_at, key) pages it. */
export type ResourceTable = { columns: SQL; from: SQL; alias: "u" | "t"; key: "user_id" | "team_id" };

/** The resources of `table` of the customer matching `where`, oldest first, one page of them or all. */
export async function resourceRows<T>(
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
export async function resourceCount(db: Database, table: ResourceTable, customerId: string, where: SQL) {
  const a = sql.raw(table.alias);
  const [{ total }] = await queryRows<{ total: number }>(
    db,
    sql`select count(*)::int as total from ${table.from} where ${a}.customer_id = ${customerId} and ${where}`,
  );
  return total;
}

export type Reference = { value: string; display: string };

/** References by owner, from rows `{ owner, value, display }` (a page's groups of users, or members of groups): one query for the page. */
export async function referencesBy(db: Database, owners: string[], rows: (ids: string) => SQL) {
  const map = new Map<string, Reference[]>();
  if (owners.length === 0) return map;
  const found = await queryRows<Reference & { owner: string }>(db, rows(`{${owners.join(",")}}`));
  for (const r of found) map.set(r.owner, [...(map.get(r.owner) ?? []), { value: r.value, display: r.display }]);
  return map;
}

/** The attributes a resource type is found by (lower-cased SCIM paths), each as the SQL test of `eq`. */
export type FilterColumns = Record<string, (value: string) => SQL>;

/** The SQL of a filter, or 400 `invalidFilter` for one that cannot be read or is not supported. */
export function filterSql(filter: string | undefined, columns: FilterColumns): SQL {
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
export function pageOf(c: ScimContext) {
  const start = Math.max(1, Number.parseInt(c.req.query("startIndex") ?? "1", 10) || 1);
  const countText = c.req.query("count");
  const count = countText === undefined ? 100 : Math.max(0, Math.min(maxPage, Number.parseInt(countText, 10) || 0));
  return { start, count, offset: start - 1 };
}

/** The audit's view of a SCIM request: the directory acts, as `directory:<token_id>`. */
export function auditRequestOf(c: ScimContext): AuditRequest {
  const d = c.get("directory");
  return {
    var: {
      db: c.get("db"),
      session: {
        user: { id: `directory:${d.directoryTokenId}`, email: directoryMsg.auditName(d.tokenName) },
      },
      requestId: c.get("requestId"),
      clientIp: c.get("clientIp"),
      apiToken: null,
    },
  };
}

/** Runs `work` in one transaction with its audit rows, SCIM errors passed through, the console's translated. */
export async function change<T>(
  c: ScimContext,
  work: (tx: Tx) => Promise<{ result: T; audit: AuditEntry[] }>,
): Promise<T> {
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

/** A PATCH body's operations, ops lower-cased (Entra sends "Replace"), or 400 `invalidSyntax`. */
export function patchOperations(body: Record<string, unknown>): ScimPatchOperation[] {
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

/** A value as the path's attribute takes it: Entra's "True"/"False" for `active` as booleans. */
function normalise(path: string, value: unknown) {
  return path.toLowerCase() === "active" ? (asBoolean(value) ?? value) : value;
}

/** A ListResponse (RFC 7644 §3.4.2): `resources`, the page of `total` that starts at 1-based `start`. */
export function listResponse(resources: unknown[], start = 1, total = resources.length) {
  return {
    schemas: [listSchema],
    totalResults: total,
    startIndex: start,
    itemsPerPage: resources.length,
    Resources: resources,
  };
}

/**
 * A resource type's list (GET /Users, /Groups): the request's filter (by `columns`) and page, the
 * total, and the page's rows as `render` answers them (with what they reference, one query).
 */
export async function listResources<T>(
  c: ScimContext,
  table: ResourceTable,
  columns: FilterColumns,
  render: (rows: T[]) => Promise<unknown[]>,
) {
  const where = filterSql(c.req.query("filter"), columns);
  const { start, count, offset } = pageOf(c);
  const customerId = c.get("directory").customerId;
  const total = await resourceCount(c.get("db"), table, customerId, where);
  const rows =
    count === 0 ? [] : await resourceRows<T>(c.get("db"), table, customerId, where, { offset, limit: count });
  return scimJson(c, listResponse(await render(rows), start, total));
}

/** The SCIM base URL of this console: `{PUBLIC_URL}/scim/v2`. */
export const baseOf = (c: ScimContext) => `${c.get("publicUrl")}/scim/v2`;
