import { queryOptions } from "@tanstack/react-query";
import {
  customerDetailSchema,
  customerOptionsSchema,
  customerPageSchema,
  customerSchema,
  createCustomerSchema,
  updateCustomerSchema,
} from "../../domain/customers";
import { api } from "../api/client";
import { entityQueries, useApiMutation } from "../lib/entity-queries";
import { queryRoots } from "../lib/query-client";

const customers = entityQueries(queryRoots.customers, "/customers", {
  list: customerPageSchema,
  detail: customerDetailSchema,
  row: customerSchema,
  create: createCustomerSchema,
  update: updateCustomerSchema,
});
/** Query keys of customers (mutations invalidate through these), GET /api/customers and /api/customers/{id}. */
export const { keys: customerKeys, listQuery: customerListQuery, detailQuery: customerQuery } = customers;

/** Customers by name for pickers; `activeOnly` for the add-user form. */
export const customerOptionsQuery = (activeOnly = false) =>
  queryOptions({
    queryKey: [...customerKeys.all, "options", activeOnly],
    queryFn: ({ signal }) =>
      api("/customers/options", customerOptionsSchema, {
        query: { active: activeOnly ? "true" : undefined, limit: 1 },
        signal,
      }),
    staleTime: 60_000,
  });

/** POST /api/customers (SPEC.md §5 "Add customer"). */
export const useCreateCustomer = customers.creates({ invalidates: [queryRoots.customers, queryRoots.dashboard] });

/** Archive (inactive) / Unarchive (active); the customer's name and status show in team and user lists too. */
export const useSetCustomerStatus = (id: string) =>
  useApiMutation(
    (status: "active" | "inactive") => api(`/customers/${id}`, customerSchema, { method: "PATCH", body: { status } }),
    { invalidates: [queryRoots.customers] },
  );

/** Edit: PATCH /api/customers/{id} with the version read (If-Match); 409 `stale` or `domain_claimed` to decide on. */
export const useUpdateCustomer = customers.updates({
  invalidates: [queryRoots.customers, queryRoots.teams, queryRoots.users],
});
