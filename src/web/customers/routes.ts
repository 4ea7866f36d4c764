import type { AnyRoute } from "@tanstack/react-router";
import { customerSortKeys } from "../../domain/sort-keys";
import type { RouteKit } from "../lib/routes";
import { listSearchSchema } from "../lib/url-search";

/** URL parameters of /customers. */
export const customersSearch = listSearchSchema(customerSortKeys, {});

/** The customer screens (SPEC.md §2). */
export const customerRoutes = <R extends AnyRoute>({ page, searchPage }: RouteKit<R>) => [
  searchPage("/customers", customersSearch, () => import("./CustomersPage")),
  page("/customers/add", () => import("./AddCustomerPage")),
  page("/customers/$customerId", () => import("./CustomerDetailPage")),
  page("/customers/$customerId/add-team", () => import("./AddTeamPage")),
  page("/customers/$customerId/edit", () => import("./EditCustomerPage")),
];
