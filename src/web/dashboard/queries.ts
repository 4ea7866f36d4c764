import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import {
  dashboardActivitySchema,
  dashboardAttentionSchema,
  dashboardStatsSchema,
  dashboardTrendsSchema,
  type DashboardTrendRange,
} from "../../domain/dashboard";
import { api } from "../api/client";
import { queryRoots } from "../lib/query-client";

/** Query keys of the dashboard. */
export const dashboardKeys = {
  all: queryRoots.dashboard,
  stats: () => [...dashboardKeys.all, "stats"] as const,
  attention: () => [...dashboardKeys.all, "attention"] as const,
  trends: (days: DashboardTrendRange) => [...dashboardKeys.all, "trends", days] as const,
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

/** GET /api/dashboard/trends?days=: sign-ins per day and new users per week over the last `days` days. */
export const dashboardTrendsQuery = (days: DashboardTrendRange) =>
  queryOptions({
    queryKey: dashboardKeys.trends(days),
    queryFn: ({ signal }) => api(`/dashboard/trends?days=${days}`, dashboardTrendsSchema, { signal }),
    // A range switched to shows the last one's charts until its own arrive: nothing jumps.
    placeholderData: keepPreviousData,
  });

/** GET /api/dashboard/activity: the last 10 audit entries (an admin's: everyone's). */
export const dashboardActivityQuery = () =>
  queryOptions({
    queryKey: dashboardKeys.activity(),
    queryFn: ({ signal }) => api("/dashboard/activity", dashboardActivitySchema, { signal }),
  });
