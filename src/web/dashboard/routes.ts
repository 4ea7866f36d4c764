import type { AnyRoute } from "@tanstack/react-router";
import type { RouteKit } from "../lib/routes";

/** The dashboard (SPEC.md §2: /). */
export const dashboardRoutes = <R extends AnyRoute>({ page }: RouteKit<R>) => [
  page("/", () => import("./DashboardPage")),
];
