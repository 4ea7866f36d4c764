import { queryOptions } from "@tanstack/react-query";
import {
  dashboardActivitySchema,
  dashboardAttentionSchema,
  dashboardStatsSchema,
  dashboardTrendsSchema,
} from "../../domain/dashboard";
import { api } from "../api/client";
import { queryRoots } from "../lib/query-client";

/** Query keys of the dashboard. */
export const dashboardKeys = {
  all: queryRoots.dashboard,
  stats: () => [...dashboardKeys.all, "stats"] as const,
  attention: () => [...dashboardKeys.all, "attention"] as const,
  trends: () => [...dashboardKeys.all, "trends"] as const,
  activity: () => [...dashboardKeys.all, "activity"] as const,
};

/** GET /api/dashboard: the spec's four cards. */
export const dashboardStatsQuery = () =>
  queryOptions({
    queryKey: dashboardKeys.stats(),
    queryFn: ({ signal }) => api("/dashboard", dashboardStatsSchema, { signal }),
  });

/** GET /api/dashboard/attention: "Needs attention" (docs/dashboard.md). */
export const dashboardAttentionQuery = () =>
  queryOptions({
    queryKey: dashboardKeys.attention(),
    queryFn: ({ signal }) => api("/dashboard/attention", dashboardAttentionSchema, { signal }),
  });

/** GET /api/dashboard/trends: sign-ins per day and new users per week. */
export const dashboardTrendsQuery = () =>
  queryOptions({
    queryKey: dashboardKeys.trends(),
    queryFn: ({ signal }) => api("/dashboard/trends", dashboardTrendsSchema, { signal }),
  });

/** GET /api/dashboard/activity: the last 10 audit entries (an admin's: everyone's). */
export const dashboardActivityQuery = () =>
  queryOptions({
    queryKey: dashboardKeys.activity(),
    queryFn: ({ signal }) => api("/dashboard/activity", dashboardActivitySchema, { signal }),
  });
