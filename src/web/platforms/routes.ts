import { MonitorSmartphone } from "lucide-react";
import { platformSortKeys, platformStatuses } from "../../domain/enums";
import { navMsg } from "../../domain/messages/common";
import { defineFeature } from "../lib/routes";
import { listSearchSchema, oneOf, type SearchField } from "../lib/url-search";

/** `?needs_review=true` or `false` (the router reads them as booleans; their text is kept too). */
const yesOrNo: SearchField<boolean> = (v) =>
  v === true || v === "true" ? true : v === false || v === "false" ? false : undefined;

/** URL parameters of /platforms. */
export const platformsSearch = listSearchSchema(platformSortKeys, {
  status: oneOf(platformStatuses),
  needs_review: yesOrNo,
});

/** The platform screens (SPEC.md §2 links them; docs/decisions.md); its sidebar entry and badge colours. */
export const feature = defineFeature({
  routes: ({ recordPages }) => recordPages("/platforms", "platformId", platformsSearch, () => import("./screens")),
  nav: { order: 60, key: "l", to: "/platforms", label: navMsg.platforms, icon: MonitorSmartphone },
  badges: { platform: { active: "success", inactive: "error", draft: "warning", other: "secondary" } },
});

// prettier-ignore
declare module "../lib/routes" { interface Features { platforms: typeof feature } }
