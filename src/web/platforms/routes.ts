import type { AnyRoute } from "@tanstack/react-router";
import { platformStatuses } from "../../domain/enums";
import { platformSortKeys } from "../../domain/sort-keys";
import type { RouteKit } from "../lib/routes";
import { listSearchSchema, oneOf } from "../lib/url-search";

/** URL parameters of /platforms. */
export const platformsSearch = listSearchSchema(platformSortKeys, { status: oneOf(platformStatuses) });

/** The platform screens (SPEC.md §2 links them; docs/decisions.md). */
export const platformRoutes = <R extends AnyRoute>({ page, searchPage }: RouteKit<R>) => [
  searchPage("/platforms", platformsSearch, () => import("./PlatformsPage")),
  page("/platforms/add", () => import("./AddPlatformPage")),
  page("/platforms/$platformId", () => import("./PlatformDetailPage")),
  page("/platforms/$platformId/edit", () => import("./EditPlatformPage")),
];
