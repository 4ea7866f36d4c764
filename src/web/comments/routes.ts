import type { AnyRoute } from "@tanstack/react-router";
import { commentStatuses } from "../../domain/enums";
import { commentSortKeys } from "../../domain/sort-keys";
import type { RouteKit } from "../lib/routes";
import { listSearchSchema, oneOf, searchSchema, uuid } from "../lib/url-search";

/** URL parameters of /comments. */
export const commentsSearch = listSearchSchema(commentSortKeys, {
  status: oneOf(commentStatuses),
  customer: uuid,
});
/** The review queue: optionally one customer's pending comments. */
export const reviewSearch = searchSchema({ customer: uuid });

/** The comment screens (SPEC.md §2) and the review queue. */
export const commentRoutes = <R extends AnyRoute>({ searchPage }: RouteKit<R>) => [
  searchPage("/comments", commentsSearch, () => import("./CommentsPage")),
  searchPage("/comments/review", reviewSearch, () => import("./ReviewQueuePage")),
];
