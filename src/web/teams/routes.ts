import type { AnyRoute } from "@tanstack/react-router";
import { teamSortKeys } from "../../domain/sort-keys";
import type { RouteKit } from "../lib/routes";
import { listSearchSchema, uuid } from "../lib/url-search";

/** URL parameters of /teams: the list's, and one customer's teams. */
export const teamsSearch = listSearchSchema(teamSortKeys, { customer: uuid });

/** The team screens (SPEC.md §2). */
export const teamRoutes = <R extends AnyRoute>({ page, searchPage }: RouteKit<R>) => [
  searchPage("/teams", teamsSearch, () => import("./TeamsPage")),
  page("/teams/$teamId", () => import("./TeamDetailPage")),
  page("/teams/$teamId/edit", () => import("./EditTeamPage")),
];
