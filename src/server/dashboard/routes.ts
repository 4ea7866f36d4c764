import { dashboardStatsSchema } from "../../domain/dashboard";
import { apiRoute, createRouter } from "../http/route";
import { dashboardStats } from "./queries";

const base = "/api/dashboard";

/**
 * GET /api/dashboard → 200 `{ total_customers, total_users, total_teams, active_users }` (row counts).
 * SPEC.md §2 "/ Dashboard". 401 without a session.
 */
const getDashboard = apiRoute(base, "viewer", {
  method: "get",
  path: "/",
  summary: "Dashboard totals",
  tags: ["Dashboard"],
  responses: {
    200: { description: "Totals", content: { "application/json": { schema: dashboardStatsSchema } } },
  },
});

export const dashboardRouter = createRouter().openapi(getDashboard, async (c) =>
  c.json(await dashboardStats(c.var.db), 200),
);
export const dashboardBase = base;
