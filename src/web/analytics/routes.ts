import { BarChart3 } from "lucide-react";
import { navMsg } from "../../domain/messages/common";
import { defineFeature } from "../lib/routes";

/** /analytics (SPEC.md §2); its sidebar entry. */
export const feature = defineFeature({
  routes: ({ page }) => [page("/analytics", () => import("./AnalyticsPage"))],
  nav: { order: 90, key: "a", to: "/analytics", label: navMsg.analytics, icon: BarChart3 },
});

// prettier-ignore
declare module "../lib/routes" { interface Features { analytics: typeof feature } }
