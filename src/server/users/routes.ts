import { searchTextSchema } from "../../domain/text";
import { z } from "@hono/zod-openapi";
import { and, eq, sql } from "drizzle-orm";
import { msg } from "../../domain/messages";
import {
  availableTeamsSchema,
  createUserSchema,
  joinedTeamSchema,
  joinTeamSchema,
  userDetailSchema,
  userListItemSchema,
} from "../../domain/users";
import { mutate } from "../audit";
import { membershipAudit } from "../links";
import { recordDeletion, takeRows } from "../deleted";
import { deletedResultSchema } from "../../domain/deleted";
import type { Database } from "../db/client";
import { customers, teams, teams_users, users_data } from "../db/schema";
import { errorBodySchema, HttpError, notFound } from "../http/errors";
import { toJson } from "../http/list";
import { offsetPagingSchema } from "../../domain/common";
import { apiRoute, createRouter, invalidResponse, jsonBody, jsonResponse, notFoundResponse } from "../http/route";
import { availableTeams, getUser, getUserItem, membershipList, userList } from "./queries";
import { mountList } from "../http/list-routes";

export const usersBase = "/api/users";
const userNotFound = notFoundResponse(msg.users.notFound);
const conflictResponse = { 409: jsonResponse(errorBodySchema, msg.users.emailTaken) };
const params = z.object({ userId: z.guid({ error: msg.users.notFound }) });
const paging = offsetPagingSchema;

/** GET /api/users/{userId} → the user with customer name, roles and cards; 404 "User not found". */
const detail = apiRoute(usersBase, "viewer", {
  method: "get",
  path: "/{userId}",
  tags: ["Users"],
  summary: "One user",
  request: { params },
  responses: { 200: jsonResponse(userDetailSchema, "The user"), ...userNotFound },
});

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
 * POST /api/users `{ email, customer_id, status? }` → 201 the user (SPEC.md §5 "Add user"): email
 * trimmed and lowercased; 404 unknown customer; 422 invalid fields or a customer that is not
 * active; 409 when a user already has the email (compared case-insensitively).
 */
const create = apiRoute(usersBase, "editor", {
  method: "post",
  path: "/",
  tags: ["Users"],
  summary: "Add a user",
  request: { body: jsonBody(createUserSchema) },
  responses: {
    201: jsonResponse(userListItemSchema, "Created"),
    ...notFoundResponse(msg.customers.notFound),
    ...conflictResponse,
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
    200: jsonResponse(joinedTeamSchema, "Already a member"),
    201: jsonResponse(joinedTeamSchema, "Added"),
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

/** GET /api/users (SPEC.md §2 "/users", and the users of a customer or a team) and its CSV export: docs/lists.md. */
mountList(usersRouter, {
  base: usersBase,
  path: "/",
  access: "viewer",
  tags: ["Users"],
  summary: "List users",
  description:
    "Users with customer name and roles; `q` searches full name, email, job title, customer name and status; `signed_in=true` keeps users who have signed in at least once (the dashboard's Active Users), `false` those who never have; cards over the customer, team, status and signed_in filters.",
  list: userList,
});

/** GET /api/users/{userId}/teams (SPEC.md §2 "/users/{userId}" Team Memberships) and its CSV export; 404 "User not found". */
mountList(usersRouter, {
  base: usersBase,
  path: "/{userId}/teams",
  access: "viewer",
  tags: ["Users"],
  summary: "Teams of a user",
  description:
    "The user's team memberships joined to team and customer names; `q` searches team name, customer name and status.",
  list: membershipList,
  params,
  scope: {
    where: (p: { userId: string }) => sql`tu.user_id = ${p.userId}`,
    exists: (p: { userId: string }) => sql`exists (select 1 from users_data where user_id = ${p.userId})`,
    notFound: msg.users.notFound,
  },
});

usersRouter
  .openapi(detail, async (c) => {
    const user = await getUser(c.var.db, c.req.valid("param").userId);
    if (!user) throw notFound(msg.users.notFound);
    return c.json(user, 200);
  })
  .openapi(available, async (c) => {
    const user = await requireUser(c.var.db, c.req.valid("param").userId);
    const { q, limit, offset } = c.req.valid("query");
    return c.json(await availableTeams(c.var.db, user, q, limit, offset), 200);
  })
  .openapi(create, async (c) => {
    const input = c.req.valid("json");
    const created = await mutate(c, async (tx) => {
      // Share-locked so that the customer cannot be archived between this check and the insert.
      const [customer] = await tx
        .select({ status: customers.status })
        .from(customers)
        .where(eq(customers.customer_id, input.customer_id))
        .for("share");
      if (!customer) throw notFound(msg.customers.notFound);
      if (customer.status !== "active") {
        throw new HttpError(422, "validation_failed", msg.users.customerNotActive, {
          customer_id: msg.users.customerNotActive,
        });
      }
      const now = new Date();
      // A taken email is refused here, and by the unique index on lower(email) for a race (an
      // adopted database whose rows share an email has no such index: docs/adopting.md): a conflict inserts nothing instead of failing the transaction.
      const [taken] = await tx
        .select({ id: users_data.user_id })
        .from(users_data)
        .where(sql`lower(${users_data.email}) = lower(${input.email})`)
        .limit(1);
      if (taken) throw new HttpError(409, "conflict", msg.users.emailTaken, { email: msg.users.emailTaken });
      const [row] = await tx
        .insert(users_data)
        .values({ ...input, created_at: now, updated_at: now })
        .onConflictDoNothing()
        .returning();
      if (!row) throw new HttpError(409, "conflict", msg.users.emailTaken, { email: msg.users.emailTaken });
      return { result: row, audit: [{ action: "create", entity: "user", entity_id: row.user_id, after: toJson(row) }] };
    });
    const item = await getUserItem(c.var.db, created.user_id);
    return c.json(item!, 201);
  })
  .openapi(join, async (c) => {
    const { userId } = c.req.valid("param");
    const { team_id } = c.req.valid("json");
    const outcome = await mutate(c, async (tx) => {
      const [user] = await tx
        .select({ customer_id: users_data.customer_id })
        .from(users_data)
        .where(eq(users_data.user_id, userId));
      if (!user) throw notFound(msg.users.notFound);
      // Share-locked so that the team cannot be archived or deleted before the membership is written.
      const [team] = await tx
        .select({ customer_id: teams.customer_id, status: teams.status })
        .from(teams)
        .where(eq(teams.team_id, team_id))
        .for("share");
      if (!team) throw notFound(msg.teams.notFound);
      if (team.customer_id !== user.customer_id) {
        throw new HttpError(422, "validation_failed", msg.users.teamOfOtherCustomer, {
          team_id: msg.users.teamOfOtherCustomer,
        });
      }
      if (team.status !== "active")
        throw new HttpError(422, "validation_failed", msg.users.teamNotActive, { team_id: msg.users.teamNotActive });
      // Already a member: nothing to do (checked first, as an adopted database may lack the key).
      const [member] = await tx
        .select({ team_id: teams_users.team_id })
        .from(teams_users)
        .where(and(eq(teams_users.team_id, team_id), eq(teams_users.user_id, userId)))
        .limit(1);
      if (member) return { result: { created: false, customer_id: user.customer_id }, audit: [] };
      const [row] = await tx
        .insert(teams_users)
        .values({ team_id, user_id: userId, customer_id: user.customer_id })
        .onConflictDoNothing()
        .returning({ team_id: teams_users.team_id });
      if (!row) return { result: { created: false, customer_id: user.customer_id }, audit: [] };
      return {
        result: { created: true, customer_id: user.customer_id },
        audit: membershipAudit("add_member", { team_id, user_id: userId, customer_id: user.customer_id }),
      };
    });
    return c.json({ user_id: userId, team_id, customer_id: outcome.customer_id }, outcome.created ? 201 : 200);
  })
  .openapi(leave, async (c) => {
    const { userId, teamId } = c.req.valid("param");
    const deletionId = await mutate(c, async (tx) => {
      const [user] = await tx.select({ id: users_data.user_id }).from(users_data).where(eq(users_data.user_id, userId));
      if (!user) throw notFound(msg.users.notFound);
      const deleted = await takeRows(tx, "teams_users", sql`team_id = ${teamId} and user_id = ${userId}`);
      if (deleted.length === 0) throw new HttpError(404, "not_found", msg.users.notMember);
      const deletion = await recordDeletion(tx, c, { entity: "team_member", row: deleted[0] });
      return {
        result: deletion,
        audit: membershipAudit("remove_member", {
          team_id: teamId,
          user_id: userId,
          customer_id: String(deleted[0].customer_id),
        }),
      };
    });
    return c.json({ ok: true as const, deletion_id: deletionId }, 200);
  });
