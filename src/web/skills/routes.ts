import type { AnyRoute } from "@tanstack/react-router";
import { skillStatuses, skillTypes } from "../../domain/enums";
import { skillScopes, skillSortKeys } from "../../domain/sort-keys";
import type { RouteKit } from "../lib/routes";
import { listSearchSchema, oneOf } from "../lib/url-search";

/** URL parameters of /skills. */
export const skillsSearch = listSearchSchema(skillSortKeys, {
  type: oneOf(skillTypes),
  scope: oneOf(skillScopes),
  status: oneOf(skillStatuses),
});

/** The skill screens (SPEC.md §2). */
export const skillRoutes = <R extends AnyRoute>({ page, searchPage }: RouteKit<R>) => [
  searchPage("/skills", skillsSearch, () => import("./SkillsPage")),
  page("/skills/add", () => import("./AddSkillPage")),
  page("/skills/$skillId", () => import("./SkillDetailPage")),
  page("/skills/$skillId/edit", () => import("./EditSkillPage")),
];
