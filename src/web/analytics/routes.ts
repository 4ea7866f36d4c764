import type { AnyRoute } from "@tanstack/react-router";
import type { RouteKit } from "../lib/routes";

/** /analytics (SPEC.md §2). */
export const analyticsRoutes = <R extends AnyRoute>({ page }: RouteKit<R>) => [
  page("/analytics", () => import("./AnalyticsPage")),
];
