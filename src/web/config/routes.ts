import type { AnyRoute } from "@tanstack/react-router";
import type { RouteKit } from "../lib/routes";
import { searchSchema, uuid } from "../lib/url-search";

/** /config: the customer whose configuration is shown. */
export const configSearch = searchSchema({ customer: uuid });

/** /config (SPEC.md §2). */
export const configRoutes = <R extends AnyRoute>({ searchPage }: RouteKit<R>) => [
  searchPage("/config", configSearch, () => import("./ConfigPage")),
];
