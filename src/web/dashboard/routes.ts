import { LayoutDashboard } from "lucide-react";
import { msg } from "../../domain/messages";
import { defineFeature } from "../lib/routes";

/** The dashboard (SPEC.md §2: /); its sidebar entry and query root. */
export const feature = defineFeature({
  routes: ({ page }) => [page("/", () => import("./DashboardPage"))],
  nav: { order: 10, to: "/", label: msg.nav.dashboard, icon: LayoutDashboard },
  queryRoots: ["dashboard"],
});

declare module "../lib/routes" {
  interface Features {
    dashboard: typeof feature;
  }
}
