import type { AnyRoute } from "@tanstack/react-router";
import type { RouteKit } from "../lib/routes";
import { isoDate, positiveInt, searchSchema, text } from "../lib/url-search";

/** Audit log filters (admins). */
export const auditSearch = searchSchema({
  operator: text(100),
  entity: text(50),
  entity_id: text(100),
  action: text(50),
  from: isoDate,
  to: isoDate,
  page: positiveInt,
  cursor: text(2000),
});

/** /audit (admins). */
export const auditRoutes = <R extends AnyRoute>({ searchPage }: RouteKit<R>) => [
  searchPage("/audit", auditSearch, () => import("./AuditPage")),
];
