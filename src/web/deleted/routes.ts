import type { AnyRoute } from "@tanstack/react-router";
import type { RouteKit } from "../lib/routes";
import { positiveInt, searchSchema, text } from "../lib/url-search";

/** Recently deleted: search, kind, sort and page in the URL. */
export const deletedSearch = searchSchema({
  q: text(200),
  entity: text(50),
  sort: text(20),
  order: text(4),
  page: positiveInt,
  cursor: text(2000),
});

/** /deleted (admins and editors): what can still be restored (docs/undo-and-restore.md). */
export const deletedRoutes = <R extends AnyRoute>({ searchPage }: RouteKit<R>) => [
  searchPage("/deleted", deletedSearch, () => import("./DeletedPage")),
];
