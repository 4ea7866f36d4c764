import type { AnyRoute } from "@tanstack/react-router";
import { userSortKeys } from "../../domain/sort-keys";
import type { RouteKit } from "../lib/routes";
import { isTrue, listSearchSchema, uuid } from "../lib/url-search";

/** URL parameters of /users: the list's, one customer's users, and users who have signed in. */
export const usersSearch = listSearchSchema(userSortKeys, {
  customer: uuid,
  /** `true`: users who have signed in at least once (the dashboard's Active Users card). */
  signed_in: isTrue,
});

/** The user screens (SPEC.md §2). */
export const userRoutes = <R extends AnyRoute>({ page, searchPage }: RouteKit<R>) => [
  searchPage("/users", usersSearch, () => import("./UsersPage")),
  page("/users/add", () => import("./AddUserPage")),
  page("/users/$userId", () => import("./UserDetailPage")),
  page("/users/$userId/edit", () => import("./EditUserPage")),
];
