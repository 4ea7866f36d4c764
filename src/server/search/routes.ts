import { searchTextSchema } from "../../domain/text";
import { z } from "@hono/zod-openapi";
import { msg } from "../../domain/messages";
import { searchResultSchema } from "../../domain/search";
import { apiRoute, createRouter, invalidResponse, jsonResponse } from "../http/route";
import { globalSearch } from "./queries";

export const searchBase = "/api/search";

/**
 * GET /api/search?q → `{ q, groups: [{ kind, items: [{ id, title, subtitle, status }], more }] }`:
 * the top bar's search (SPEC.md §2 "Shell") over customers, users, teams, skills, prompts and
 * platforms, case-insensitive, at most 5 per kind ranked exact name first, one SQL statement per
 * kind. `q` is 1–200 characters (trimmed); 422 otherwise.
 */
const search = apiRoute(searchBase, "viewer", {
  method: "get",
  path: "/",
  tags: ["Search"],
  summary: "Search every kind of record",
  request: {
    query: z.object({
      q: searchTextSchema.min(1, msg.search.queryRequired),
    }),
  },
  responses: { 200: jsonResponse(searchResultSchema, "Matches grouped by kind"), ...invalidResponse },
});

export const searchRouter = createRouter().openapi(search, async (c) =>
  c.json(await globalSearch(c.get("db"), c.req.valid("query").q), 200),
);
