import { keepPreviousData, queryOptions, useMutation } from "@tanstack/react-query";
import { configChangePageSchema, customerConfigSchema, type SaveConfigInput } from "../../domain/config";
import type { ListParams } from "../../domain/common";
import { api } from "../api/client";
import { queryRoots } from "../lib/query-client";

/** Query keys of customers' configurations; everything about one customer sits under its `detail` key. */
export const configKeys = {
  all: queryRoots.config,
  detail: (customerId: string) => [...configKeys.all, customerId] as const,
  changes: (customerId: string, params: ListParams) => [...configKeys.detail(customerId), "changes", params] as const,
};

/** GET /api/config/{customerId}: values, version, who saved last and the usage. */
export const configQuery = (customerId: string) =>
  queryOptions({ queryKey: configKeys.detail(customerId), queryFn: ({ signal }) => api(`/config/${customerId}`, customerConfigSchema, { signal }) });

/** Recent changes of a customer's configuration, newest first (list engine page). */
export const configChangesQuery = (customerId: string) => (params: ListParams) =>
  queryOptions({
    queryKey: configKeys.changes(customerId, params),
    queryFn: ({ signal }) => api(`/config/${customerId}/changes`, configChangePageSchema, { query: params, signal }),
    placeholderData: keepPreviousData,
  });

/** Save Changes: PATCH /api/config/{customerId}; a stale version answers 409 with the fresh configuration. */
export function useSaveConfig(customerId: string) {
  return useMutation({
    mutationFn: (input: SaveConfigInput) => api(`/config/${customerId}`, customerConfigSchema, { method: "PATCH", body: input }),
    meta: { invalidates: [configKeys.detail(customerId)] },
  });
}
