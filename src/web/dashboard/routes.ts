import { LayoutDashboard } from "lucide-react";
import { msg } from "../../domain/messages";
import { defineFeature } from "../lib/routes";

/** The dashboard (SPEC.md §2: /); its sidebar entry. */
export const feature = defineFeature({
  routes: ({ page }) => [page("/", () => import("./DashboardPage"))],
  nav: { order: 10, key: "d", to: "/", label: msg.nav.dashboard, icon: LayoutDashboard },
});

// prettier-ignore
declare module "../lib/routes" { interface Features { dashboard: typeof feature } }
