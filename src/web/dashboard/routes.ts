import { LayoutDashboard } from "lucide-react";
import { navMsg } from "../../domain/messages/common";
import { dashboardTrendRanges } from "../../domain/limits";
import { defineFeature } from "../lib/routes";
import { searchSchema } from "../lib/url-search";

/**
 * URL parameters of the dashboard: `trends`, the days its trends cover (the number 7, 30 or 90, so
 * that the address reads `?trends=7`; 30 without it).
 */
export const dashboardSearch = searchSchema({
  trends: (v): number | undefined =>
    dashboardTrendRanges.some((r) => (typeof v === "number" || typeof v === "string") && String(v) === r)
      ? Number(v)
      : undefined,
});

/** The dashboard (SPEC.md §2: /); its sidebar entry. */
export const feature = defineFeature({
  routes: ({ searchPage }) => [searchPage("/", dashboardSearch, () => import("./DashboardPage"))],
  nav: { order: 10, key: "d", to: "/", label: navMsg.dashboard, icon: LayoutDashboard },
});

// prettier-ignore
declare module "../lib/routes" { interface Features { dashboard: typeof feature } }
