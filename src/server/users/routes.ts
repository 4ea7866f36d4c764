import { searchTextSchema } from "../../domain/text";
import { z } from "@hono/zod-openapi";
import { eq, sql } from "drizzle-orm";
import { msg } from "../../domain/messages";
import {
  availableTeamsSchema,
  createUserSchema,
  joinedTeamSchema,
  joinTeamSchema,
  updateUserSchema,
  userDetailSchema,
  userListItemSchema,
} from "../../domain/users";
import { userRoles, type UserRole } from "../../domain/enums";
import { mutate, type Tx } from "../audit";
import { addMember, removeMember } from "../links";
import { deletedResultSchema } from "../../domain/deleted";
import type { Database } from "../db/client";
import { recordsOf } from "../db/records";
import { checkEmailDomain, insertUser } from "../db/user-writes";
import { idParams, mountRecordRoutes } from "../http/record-routes";
import { customers, users_data, users_roles } from "../db/schema";
import { errorBodySchema, notFound } from "../http/errors";
import { createdOrExistingResponses } from "../http/link-responses";
import { offsetPagingSchema } from "../../domain/common";
import { apiRoute, createRouter, invalidResponse, jsonBody, jsonResponse, notFoundResponse } from "../http/route";
import { availableTeams, getUser, getUserItem, membershipList, userList } from "./queries";

export const usersBase = "/api/users";
const userNotFound = notFoundResponse(msg.users.notFound);
const emailConflict = {
  409: jsonResponse(
    errorBodySchema,
    `${msg.users.emailTaken}; domain_mismatch: the e-mail's domain is not the customer's`,
  ),
};
const params = idParams("userId", msg.users.notFound);
const paging = offsetPagingSchema;

/**
 * GET /api/users/{userId}/available-teams?q&limit&offset → `{ items, total }`: active teams of the
 * user's customer that the user is not in, by name (the Add Team modal); 404 "User not found".
 */
const available = apiRoute(usersBase, "viewer", {
  method: "get",
  path: "/{userId}/available-teams",
  tags: ["Users"],
  summary: "Teams a user can join",
  request: { params, query: paging.extend({ q: searchTextSchema.optional() }) },
  responses: {
    200: jsonResponse(availableTeamsSchema, "Teams the user can join"),
    ...userNotFound,
    ...invalidResponse,
  },
});

/**
 * POST /api/users/{userId}/teams `{ team_id }` → 201 membership created, 200 already a member
 * (idempotent). The membership's customer_id is the user's; a team of another customer or an
 * inactive team is refused with 422; unknown user or team 404.
 */
const join = apiRoute(usersBase, "editor", {
  method: "post",
  path: "/{userId}/teams",
  tags: ["Users"],
  summary: "Add a user to a team",
  request: { params, body: jsonBody(joinTeamSchema) },
  responses: {
    ...createdOrExistingResponses(joinedTeamSchema, "Already a member", "Added"),
    ...userNotFound,
    ...invalidResponse,
  },
});

/**
 * DELETE /api/users/{userId}/teams/{teamId} → `{ ok, deletion_id }`: removes the membership (Leave
 * Team), keeping its snapshot for Undo (docs/undo-and-restore.md); 404 when not a member.
 */
const leave = apiRoute(usersBase, "editor", {
  method: "delete",
  path: "/{userId}/teams/{teamId}",
  tags: ["Users"],
  summary: "Remove a user from a team",
  request: { params: params.extend({ teamId: z.guid({ error: msg.teams.notFound }) }) },
  responses: { 200: jsonResponse(deletedResultSchema, "Removed"), ...userNotFound },
});

const userRecords = recordsOf({
  table: users_data,
  id: users_data.user_id,
  entity: "user",
  notFound: msg.users.notFound,
  unique: { email: msg.users.emailTaken },
  present: async (tx, row) => (await getUserItem(tx, row.user_id)) ?? {},
});

/** The user's roles, ordered admin, manager, member. */
async function rolesOf(tx: Tx, userId: string): Promise<UserRole[]> {
  const rows = await tx.select({ role: users_roles.role }).from(users_roles).where(eq(users_roles.user_id, userId));
  const held = new Set(rows.map((r) => r.role));
  return userRoles.filter((r) => held.has(r));
}

/** The user's id and customer, or 404 "User not found". */
async function requireUser(db: Database, userId: string) {
  const [user] = await db
    .select({ user_id: users_data.user_id, customer_id: users_data.customer_id })
    .from(users_data)
    .where(eq(users_data.user_id, userId));
  if (!user) throw notFound(msg.users.notFound);
  return user;
}

export const usersRouter = createRouter();

/**
 * GET /api/users/{userId} → the user with customer name, roles and cards. POST /api/users `{ email,
 * customer_id, status?, confirm_domain? }` → 201 the user (SPEC.md §5 "Add user"): email trimmed
 * and lowercased; 404 unknown customer; 422 a customer that is not active; 409 when a user already
 * has the email (compared case-insensitively); 409 `domain_mismatch` (field email,
 * `customer_domains`) when the customer lists domains and the e-mail's is not one of them, unless
 * `confirm_domain: true`. PATCH /api/users/{userId} `{ first_name?, last_name?, job_title?,
 * status?, roles?, confirm_domain? }` → the user with customer name and roles: Edit
 * (docs/editing.md). `roles` is the whole set (any of admin, manager, member; [] for none), written
 * to users_roles; a change of roles alone moves updated_at too; 409 `domain_mismatch` as on add.
 */
mountRecordRoutes(usersRouter, {
  base: usersBase,
  tag: "Users",
  noun: "user",
  params,
  records: userRecords,
  detail: { schema: userDetailSchema, read: getUser },
  create: {
    body: createUserSchema,
    schema: userListItemSchema,
    responses: { ...notFoundResponse(msg.customers.notFound), ...emailConflict },
    write: async (tx, { confirm_domain, ...input }) => {
      const { row, audit } = await insertUser(tx, input, { confirmDomain: confirm_domain });
      return { result: row, audit };
    },
    answer: async (row, c) => getUserItem(c.get("db"), row.user_id),
  },
  update: {
    summary: "Edit a user",
    body: updateUserSchema,
    schema: userListItemSchema,
    conflict: "stale: the user changed since If-Match; domain_mismatch: the e-mail's domain is not the customer's",
    write: async (tx, before, { confirm_domain, roles, ...input }) => {
      const userId = before.user_id;
      const held = await rolesOf(tx, userId);
      const wanted = roles ? userRoles.filter((r) => roles.includes(r)) : held;
      const rolesChanged = wanted.join() !== held.join();
      const changes = Object.entries(input).some(([k, v]) => v !== undefined && before[k as keyof typeof before] !== v);
      if (!changes && !rolesChanged) return { result: null, audit: [] };
      const [customer] = await tx
        .select({ valid_domains: customers.valid_domains })
        .from(customers)
        .where(eq(customers.customer_id, before.customer_id));
      checkEmailDomain(before.email, customer?.valid_domains ?? null, confirm_domain);
      if (rolesChanged) {
        await tx.delete(users_roles).where(eq(users_roles.user_id, userId));
        if (wanted.length > 0) await tx.insert(users_roles).values(wanted.map((role) => ({ user_id: userId, role })));
      }
      const written = await userRecords.update(
        tx,
        before,
        input,
        rolesChanged ? { before: { roles: held }, after: { roles: wanted } } : undefined,
      );
      return { result: null, audit: written.audit };
    },
    answer: async (_row, c, userId) => getUserItem(c.get("db"), userId),
  },
  lists: [
    // (SPEC.md §2 "/users/{userId}" Team Memberships) and its CSV export; 404 "User not found".
    {
      path: "/teams",
      summary: "Teams of a user",
      description:
        "The user's team memberships joined to team and customer names; `q` searches team name, customer name and status.",
      list: membershipList,
      where: (id) => sql`tu.user_id = ${id}`,
    },
  ],
  list: {
    description:
      "Users with customer name and roles; `q` searches full name, email, job title, customer name and status; `signed_in=true` keeps users who have signed in at least once (the dashboard's Active Users), `false` those who never have; cards over the customer, team, status and signed_in filters.",
    list: userList,
  },
});

usersRouter
  .openapi(available, async (c) => {
    const user = await requireUser(c.get("db"), c.req.valid("param").userId);
    const { q, limit, offset } = c.req.valid("query");
    return c.json(await availableTeams(c.get("db"), user, q, limit, offset), 200);
  })
  .openapi(join, async (c) => {
    const { userId } = c.req.valid("param");
    const { team_id } = c.req.valid("json");
    const outcome = await mutate(c, (tx) => addMember(tx, team_id, userId, { field: "team_id" }));
    return c.json({ user_id: userId, team_id, customer_id: outcome.customer_id }, outcome.created ? 201 : 200);
  })
  .openapi(leave, async (c) => {
    const { userId, teamId } = c.req.valid("param");
    const deletionId = await mutate(c, async (tx) => {
      const [user] = await tx.select({ id: users_data.user_id }).from(users_data).where(eq(users_data.user_id, userId));
      if (!user) throw notFound(msg.users.notFound);
      return removeMember(tx, c, teamId, userId, msg.users.notMember);
    });
    return c.json({ ok: true as const, deletion_id: deletionId }, 200);
  });
