/**
 * SCIM Users (RFC 7643 §4.1) as the customer's users (docs/onboarding.md "How SCIM maps onto the
 * console"): users_data, with the identity provider's externalId in directory_users.
 */
import { directoryMsg } from "../../domain/directory-messages";
import { Hono } from "hono";
import { eq, sql, type SQL } from "drizzle-orm";
import { scimPatch } from "scim-patch";
import { z } from "zod";
import { msg } from "../../domain/messages";
import { updateUserSchema } from "../../domain/users";
import { type AuditEntry, type Tx } from "../audit";
import { queryRows, type Database } from "../db/client";
import { directory_users, users_data } from "../db/schema";
import { checkEmailDomain, insertUser } from "../db/user-writes";
import { removeMember } from "../links";
import { type Directory } from "./tokens";
import {
  asBoolean,
  auditRequestOf,
  baseOf,
  bodyOf,
  change,
  emailSchema,
  type FilterColumns,
  listResources,
  type ScimContext,
  patchOperations,
  type Reference,
  referencesBy,
  resourceRows,
  type ResourceTable,
  type ScimEnv,
  ScimError,
  scimJson,
  text,
  valid,
  userSchema,
} from "./scim-protocol";

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
  if (active === undefined) throw new ScimError(400, directoryMsg.activeInvalid, "invalidValue");
  // The console's own field rules, as on Edit user (an empty value is saved as null).
  const field = (schema: (typeof updateUserSchema.shape)["first_name"], value: unknown) =>
    valid(schema, typeof value === "string" ? value : undefined) ?? null;
  return {
    email,
    first_name: field(updateUserSchema.shape.first_name, name.givenName),
    last_name: field(updateUserSchema.shape.last_name, name.familyName),
    job_title: field(updateUserSchema.shape.job_title, body.title),
    active,
    external_id: text(body.externalId, 500),
  };
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

const userFilterColumns: FilterColumns = {
  username: (v) => sql`lower(u.email) = ${v.toLowerCase()}`,
  "emails.value": (v) => sql`lower(u.email) = ${v.toLowerCase()}`,
  emails: (v) => sql`lower(u.email) = ${v.toLowerCase()}`,
  externalid: (v) => sql`d.external_id = ${v}`,
  id: (v) => (z.guid().safeParse(v).success ? sql`u.user_id = ${v}` : sql`false`),
};

/** The user `id` of the request's directory as SCIM answers it, with their teams. */
async function userAnswer(c: ScimContext, id: string) {
  const row = await oneUser(c.get("db"), c.get("directory"), id);
  const groups = await groupsOfUsers(c.get("db"), [row.user_id]);
  return scimUser(row, baseOf(c), groups.get(row.user_id));
}

/** Mounts /Users on the SCIM router. */
export function mountUsers(app: Hono<ScimEnv>) {
  app.get("/Users", (c) =>
    listResources<UserRow>(c, userTable, userFilterColumns, async (rows) => {
      const groups = await groupsOfUsers(
        c.get("db"),
        rows.map((r) => r.user_id),
      );
      return rows.map((r) => scimUser(r, baseOf(c), groups.get(r.user_id)));
    }),
  );
  app.get("/Users/:id", async (c) => {
    return scimJson(c, await userAnswer(c, c.req.param("id")));
  });
  app.post("/Users", async (c) => {
    const d = c.get("directory");
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
    c.header("location", `${baseOf(c)}/Users/${id}`);
    return scimJson(c, await userAnswer(c, id), 201);
  });
  app.put("/Users/:id", async (c) => {
    const d = c.get("directory");
    const fields = userFieldsOf(await bodyOf(c));
    const deactivated = await change(c, async (tx) => {
      const before = await oneUser(tx, d, c.req.param("id"));
      return { result: before.status === "active" && !fields.active, audit: await writeUser(tx, d, before, fields) };
    });
    c.set("outcome", deactivated ? "deactivated" : "updated");
    return scimJson(c, await userAnswer(c, c.req.param("id")));
  });
  app.patch("/Users/:id", async (c) => {
    const d = c.get("directory");
    const operations = patchOperations(await bodyOf(c));
    const deactivated = await change(c, async (tx) => {
      const before = await oneUser(tx, d, c.req.param("id"));
      const current = scimUser(before, baseOf(c));
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
    return scimJson(c, await userAnswer(c, c.req.param("id")));
  });
  app.delete("/Users/:id", async (c) => {
    const d = c.get("directory");
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
}
