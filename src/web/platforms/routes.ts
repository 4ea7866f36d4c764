import { MonitorSmartphone } from "lucide-react";
import { platformStatuses } from "../../domain/enums";
import { platformSortKeys } from "../../domain/sort-keys";
import { msg } from "../../domain/messages";
import { defineFeature } from "../lib/routes";
import { listSearchSchema, oneOf } from "../lib/url-search";

/** URL parameters of /platforms. */
export const platformsSearch = listSearchSchema(platformSortKeys, { status: oneOf(platformStatuses) });

/** The platform screens (SPEC.md §2 links them; docs/decisions.md); its sidebar entry and badge colours. */
export const feature = defineFeature({
  routes: ({ page, searchPage, formPages }) => [
    searchPage("/platforms", platformsSearch, () => import("./PlatformsPage")),
    ...formPages("/platforms", "platformId", () => import("./PlatformForm")),
    page("/platforms/$platformId", () => import("./PlatformDetailPage")),
  ],
  nav: { order: 60, to: "/platforms", label: msg.nav.platforms, icon: MonitorSmartphone },
  badges: { platform: { active: "success", inactive: "error", draft: "warning", other: "secondary" } },
});

// prettier-ignore
declare module "../lib/routes" { interface Features { platforms: typeof feature } }
