import {
  dashboardActivitySchema,
  dashboardAttentionSchema,
  dashboardStatsSchema,
  dashboardTrendRanges,
  dashboardTrendsSchema,
} from "../../domain/dashboard";
import { z } from "@hono/zod-openapi";
import { apiRoute, createRouter, jsonResponse } from "../http/route";
import { dashboardActivity, dashboardAttention, dashboardStats, dashboardTrends } from "./queries";

const base = "/api/dashboard";

/** A dashboard panel's GET route for any role: its path, summary, description (if any) and 200 answer. */
function panelRoute<P extends string, S extends z.ZodType>(
  path: P,
  summary: string,
  description: string | undefined,
  answer: { schema: S; what: string },
) {
  return apiRoute(base, "viewer", {
    method: "get",
    path,
    summary,
    ...(description === undefined ? {} : { description }),
    tags: ["Dashboard"],
    responses: { 200: jsonResponse(answer.schema, answer.what) },
  });
}

/**
 * GET /api/dashboard → 200 `{ total_customers, total_users, total_teams, active_users }` (row counts).
 * SPEC.md §2 "/ Dashboard". 401 without a session.
 */
const getDashboard = panelRoute("/", "Dashboard totals", undefined, { schema: dashboardStatsSchema, what: "Totals" });

/**
 * GET /api/dashboard/attention → 200 `DashboardAttention` (counts of records; docs/dashboard.md
 * "Needs attention"): each equals the `total` of the list its link opens. `pending_prompt_changes`
 * is null when PROMPT_REVIEW is off; the teams, skills and prompts counts come from a snapshot at
 * most ANALYTICS_REFRESH_SECONDS old (`as_of`). Beyond SPEC.md §2 "/ Dashboard". 401 without a session.
 */
const getAttention = panelRoute(
  "/attention",
  "Records needing attention",
  "Counts of records a staff member acts on, each equal to its filtered list's total.",
  { schema: dashboardAttentionSchema, what: "Counts" },
);

/**
 * GET /api/dashboard/trends?days=7|30|90 (default 30) → 200 `{ days, sign_ins, new_users }`, each
 * trend `{ rows: [{ label, users }], as_of }` (docs/dashboard.md "Trends"): users by day of last
 * sign-in over the last `days` days, today included, and users created per week since the week of
 * the first of those days. Each range is a snapshot at most ANALYTICS_REFRESH_SECONDS old
 * (`as_of` says when). Labels are YYYY-MM-DD, a day or a week's Monday. 422 for another `days`,
 * 401 without a session.
 */
const getTrends = apiRoute(base, "viewer", {
  method: "get",
  path: "/trends",
  summary: "Sign-ins per day and new users per week",
  description:
    "The last 7, 30 or 90 days (`days`, default 30): users by day of last sign-in, and users created per week.",
  tags: ["Dashboard"],
  request: { query: z.object({ days: z.enum(dashboardTrendRanges).optional() }) },
  responses: { 200: jsonResponse(dashboardTrendsSchema, "Trends") },
});

/**
 * GET /api/dashboard/activity → 200 `{ items, scope }` (docs/dashboard.md "Recent activity"): the
 * last 10 audit entries, newest first; an admin sees everyone's (`scope: "all"`), anyone else only
 * their own (`scope: "own"`), as the audit log is admin only. 401 without a session.
 */
const getActivity = panelRoute(
  "/activity",
  "Recent activity",
  "The last 10 audit entries: all of them for an admin, one's own for anyone else.",
  { schema: dashboardActivitySchema, what: "Audit entries" },
);

export const dashboardRouter = createRouter()
  .openapi(getDashboard, async (c) => c.json(await dashboardStats(c.get("db")), 200))
  .openapi(getAttention, async (c) =>
    c.json(await dashboardAttention(c.get("db"), c.get("promptReview") !== "off", c.get("analytics")), 200),
  )
  .openapi(getTrends, async (c) =>
    c.json(await dashboardTrends(c.get("db"), c.get("analytics"), c.req.valid("query").days), 200),
  )
  .openapi(getActivity, async (c) => {
    const user = c.get("session")!.user as { id: string; role?: string };
    const admin = user.role === "admin";
    const items = await dashboardActivity(c.get("db"), admin ? undefined : user.id);
    return c.json({ items, scope: admin ? ("all" as const) : ("own" as const) }, 200);
  });
export const dashboardBase = base;
