import { Building2 } from "lucide-react";
import { customerSortKeys, customerStatuses } from "../../domain/enums";
import { navMsg } from "../../domain/messages/common";
import { defineFeature } from "../lib/routes";
import { listSearchSchema, oneOf } from "../lib/url-search";

/** URL parameters of /customers. */
export const customersSearch = listSearchSchema(customerSortKeys, { status: oneOf(customerStatuses) });

/** The customer screens (SPEC.md §2); its sidebar entry and badge colours. */
export const feature = defineFeature({
  routes: ({ page, searchPage, formPages }) => [
    searchPage("/customers", customersSearch, () => import("./CustomersPage")),
    ...formPages("/customers", "customerId", () => import("./CustomerForm")),
    page("/customers/$customerId", () => import("./CustomerDetailPage")),
    page("/customers/$customerId/add-team", () => import("./AddTeamPage")),
  ],
  nav: { order: 20, key: "c", to: "/customers", label: navMsg.customers, icon: Building2 },
  badges: { customer: { active: "success", inactive: "error", trial: "warning", other: "neutral" } },
});

// prettier-ignore
declare module "../lib/routes" { interface Features { customers: typeof feature } }
