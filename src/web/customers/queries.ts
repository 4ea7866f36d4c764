import type { ListParams } from "../../domain/common";
import { keepPreviousData, queryOptions, useMutation } from "@tanstack/react-query";
import {
  customerDetailSchema,
  customerOptionsSchema,
  customerPageSchema,
  customerSchema,
  type CreateCustomerInput,
} from "../../domain/customers";
import { api } from "../api/client";
import { queryRoots } from "../lib/query-client";

export type CustomerListParams = ListParams;

/** Query keys of customers; mutations invalidate through these. */
export const customerKeys = {
  all: queryRoots.customers,
  lists: () => [...customerKeys.all, "list"] as const,
  list: (params: CustomerListParams) => [...customerKeys.lists(), params] as const,
  detail: (id: string) => [...customerKeys.all, "detail", id] as const,
  options: (activeOnly: boolean) => [...customerKeys.all, "options", activeOnly] as const,
};

export const customerListQuery = (params: CustomerListParams) =>
  queryOptions({
    queryKey: customerKeys.list(params),
    queryFn: ({ signal }) => api("/customers", customerPageSchema, { query: params, signal }),
    placeholderData: keepPreviousData,
  });

export const customerQuery = (id: string) =>
  queryOptions({ queryKey: customerKeys.detail(id), queryFn: ({ signal }) => api(`/customers/${id}`, customerDetailSchema, { signal }) });

/** Customers by name for pickers; `activeOnly` for the add-user form. */
export const customerOptionsQuery = (activeOnly = false) =>
  queryOptions({
    queryKey: customerKeys.options(activeOnly),
    queryFn: ({ signal }) => api("/customers/options", customerOptionsSchema, { query: { active: activeOnly ? "true" : undefined, limit: 1 }, signal }),
    staleTime: 60_000,
  });

/** POST /api/customers (SPEC.md §5 "Add customer"). */
export function useCreateCustomer() {
  return useMutation({
    mutationFn: (input: CreateCustomerInput) => api("/customers", customerSchema, { method: "POST", body: input }),
    meta: { invalidates: [queryRoots.customers, queryRoots.dashboard] },
  });
}

/** Archive (inactive) / Unarchive (active); the customer's name and status show in team and user lists too. */
export function useSetCustomerStatus(id: string) {
  return useMutation({
    mutationFn: (status: "active" | "inactive") => api(`/customers/${id}`, customerSchema, { method: "PATCH", body: { status } }),
    meta: { invalidates: [queryRoots.customers] },
  });
}
