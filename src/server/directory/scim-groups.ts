/**
 * SCIM Groups (RFC 7643 §4.2) as the customer's teams (docs/onboarding.md "How SCIM maps onto the
 * console"): teams and their memberships, with the identity provider's externalId in directory_groups.
 */
import { directoryMsg } from "../../domain/directory-messages";
import { Hono } from "hono";
import { and, eq, sql, type SQL } from "drizzle-orm";
import { type ScimPatchOperation } from "scim-patch";
import { z } from "zod";
import { msg } from "../../domain/messages";
import { createTeamSchema } from "../../domain/teams";
import { type AuditEntry, type AuditRequest, type Tx } from "../audit";
import { queryRows, type Database } from "../db/client";
import { directory_groups, teams, teams_users } from "../db/schema";
import { toJson } from "../http/list";
import { addMember, removeMember } from "../links";
import { type Directory } from "./tokens";
import {
  auditRequestOf,
  baseOf,
  bodyOf,
  change,
  type FilterColumns,
  listResources,
  groupSchema,
  patchOperations,
  type Reference,
  referencesBy,
  resourceRows,
  type ResourceTable,
  type ScimContext,
  type ScimEnv,
  ScimError,
  scimJson,
  text,
  valid,
} from "./scim-protocol";

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

const groupFilterColumns: FilterColumns = {
  displayname: (v) => sql`lower(t.team_name) = ${v.toLowerCase()}`,
  externalid: (v) => sql`g.external_id = ${v}`,
  id: (v) => (z.guid().safeParse(v).success ? sql`t.team_id = ${v}` : sql`false`),
};

/** The group `id` of the request's directory as SCIM answers it, with its members unless left out. */
async function groupAnswer(c: ScimContext, id: string, withMembers: boolean) {
  const row = await oneGroup(c.get("db"), c.get("directory"), id);
  const members = withMembers ? ((await membersOf(c.get("db"), [row.team_id])).get(row.team_id) ?? []) : undefined;
  return scimGroup(row, baseOf(c), members);
}

/** Mounts /Groups on the SCIM router. */
export function mountGroups(app: Hono<ScimEnv>) {
  app.get("/Groups", (c) =>
    listResources<GroupRow>(c, groupTable, groupFilterColumns, async (rows) => {
      const members = excludesMembers(c)
        ? undefined
        : await membersOf(
            c.get("db"),
            rows.map((r) => r.team_id),
          );
      return rows.map((r) => scimGroup(r, baseOf(c), members ? (members.get(r.team_id) ?? []) : undefined));
    }),
  );
  app.get("/Groups/:id", async (c) => {
    return scimJson(c, await groupAnswer(c, c.req.param("id"), !excludesMembers(c)));
  });
  app.post("/Groups", async (c) => {
    const d = c.get("directory");
    const body = await bodyOf(c);
    const name = groupName(body.displayName);
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
    c.header("location", `${baseOf(c)}/Groups/${id}`);
    return scimJson(c, await groupAnswer(c, id, true), 201);
  });
  app.put("/Groups/:id", async (c) => {
    const d = c.get("directory");
    const body = await bodyOf(c);
    const name = groupName(body.displayName);
    await change(c, async (tx) => {
      const before = await oneGroup(tx, d, c.req.param("id"));
      const audit = await renameGroup(tx, d, before, name, text(body.externalId, 500) ?? before.external_id);
      if (body.members !== undefined)
        audit.push(...(await setMembers(tx, auditRequestOf(c), before.team_id, await memberIds(tx, d, body.members))));
      return { result: null, audit };
    });
    c.set("outcome", "updated");
    return scimJson(c, await groupAnswer(c, c.req.param("id"), true));
  });
  app.patch("/Groups/:id", async (c) => {
    const d = c.get("directory");
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
      return scimJson(c, await groupAnswer(c, c.req.param("id"), true));
    }
    return c.body(null, 204);
  });
  app.delete("/Groups/:id", async (c) => {
    const d = c.get("directory");
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
    const name = object.displayName === undefined ? null : groupName(object.displayName);
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
    const name = groupName(value);
    return renameGroup(tx, d, before, name, before.external_id);
  }
  if (lower === "externalid")
    return renameGroup(tx, d, before, before.team_name, op.op === "remove" ? null : text(value, 500));
  throw new ScimError(400, directoryMsg.invalidPatch(path), "invalidPath");
}

/** A group's displayName as a team name: the console's rule for team names (required, trimmed, at most 200 characters). */
function groupName(value: unknown): string {
  return valid(createTeamSchema.shape.team_name, typeof value === "string" ? value : "");
}
