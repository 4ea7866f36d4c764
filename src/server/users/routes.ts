import { z } from "@hono/zod-openapi";
import { userStatuses } from "../../domain/enums";
import { userPageSchema, userSortKeys } from "../../domain/users";
import { listQuery } from "../http/list";
import { apiRoute, createRouter, invalidResponse, jsonResponse } from "../http/route";
import { listUsers } from "./queries";

export const usersBase = "/api/users";

/**
 * GET /api/users?q&customer_id&team_id&status&sort&order&limit&offset → `{ items, total, summary }`:
 * users with customer name and roles (SPEC.md §2 "/users", and the users of a customer or team).
 */
const list = apiRoute(usersBase, "viewer", {
  method: "get", path: "/", tags: ["Users"], summary: "List users",
  request: {
    query: listQuery(userSortKeys, "created_at").extend({
      customer_id: z.uuid().optional(),
      team_id: z.uuid().optional(),
      status: z.enum(userStatuses).optional(),
    }),
  },
  responses: { 200: jsonResponse(userPageSchema, "One page of users"), ...invalidResponse },
});

export const usersRouter = createRouter().openapi(list, async (c) => c.json(await listUsers(c.var.db, c.req.valid("query")), 200));
