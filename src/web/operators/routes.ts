import { ShieldCheck } from "lucide-react";
import { navMsg } from "../../domain/messages/common";
import { defineFeature } from "../lib/routes";

/** /operators (admins); its sidebar entry. */
export const feature = defineFeature({
  routes: ({ page }) => [page("/operators", () => import("./OperatorsPage"))],
  nav: { order: 10, key: "o", section: "admin", to: "/operators", label: navMsg.operators, icon: ShieldCheck },
});

// prettier-ignore
declare module "../lib/routes" { interface Features { operators: typeof feature } }
