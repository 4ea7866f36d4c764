import { queryOptions } from "@tanstack/react-query";
import { dashboardStatsSchema } from "../../domain/dashboard";
import { api } from "../api/client";
import { queryRoots } from "../lib/query-client";

/** Query keys of the dashboard. */
export const dashboardKeys = {
  all: queryRoots.dashboard,
  stats: () => [...dashboardKeys.all, "stats"] as const,
};

export const dashboardStatsQuery = () =>
  queryOptions({
    queryKey: dashboardKeys.stats(),
    queryFn: ({ signal }) => api("/dashboard", dashboardStatsSchema, { signal }),
  });
