import type { AnyRoute } from "@tanstack/react-router";
import type { RouteKit } from "../lib/routes";

/** /operators (admins). */
export const operatorRoutes = <R extends AnyRoute>({ page }: RouteKit<R>) => [
  page("/operators", () => import("./OperatorsPage")),
];
