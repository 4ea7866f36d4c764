import { MonitorSmartphone } from "lucide-react";
import { platformStatuses } from "../../domain/enums";
import { platformSortKeys } from "../../domain/sort-keys";
import { msg } from "../../domain/messages";
import { defineFeature } from "../lib/routes";
import { listSearchSchema, oneOf } from "../lib/url-search";

/** URL parameters of /platforms. */
export const platformsSearch = listSearchSchema(platformSortKeys, { status: oneOf(platformStatuses) });

/** The platform screens (SPEC.md §2 links them; docs/decisions.md); its sidebar entry, query root and badge colours. */
export const feature = defineFeature({
  routes: ({ page, searchPage }) => [
    searchPage("/platforms", platformsSearch, () => import("./PlatformsPage")),
    page("/platforms/add", () => import("./PlatformForm"), "AddPage"),
    page("/platforms/$platformId", () => import("./PlatformDetailPage")),
    page("/platforms/$platformId/edit", () => import("./PlatformForm"), "EditPage"),
  ],
  nav: { order: 60, to: "/platforms", label: msg.nav.platforms, icon: MonitorSmartphone },
  queryRoots: ["platforms"],
  badges: { platform: { active: "success", inactive: "error", draft: "warning", other: "secondary" } },
});

declare module "../lib/routes" {
  interface Features {
    platforms: typeof feature;
  }
}
