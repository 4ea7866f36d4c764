import { Settings } from "lucide-react";
import { navMsg } from "../../domain/messages/common";
import { defineFeature } from "../lib/routes";
import { searchSchema, uuid } from "../lib/url-search";

/** /config: the customer whose configuration is shown. */
export const configSearch = searchSchema({ customer: uuid });

/** /config (SPEC.md §2); its sidebar entry. */
export const feature = defineFeature({
  routes: ({ searchPage }) => [searchPage("/config", configSearch, () => import("./ConfigPage"))],
  nav: { order: 100, key: "f", to: "/config", label: navMsg.config, icon: Settings },
});

// prettier-ignore
declare module "../lib/routes" { interface Features { config: typeof feature } }
