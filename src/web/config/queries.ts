import { configChangePageSchema, customerConfigSchema, type SaveConfigInput } from "../../domain/config";
import { api } from "../api/client";
import { entityQueries, useApiMutation } from "../lib/entity-queries";
import { queryRoots } from "../lib/query-client";

const config = entityQueries(queryRoots.config, "/config", { detail: customerConfigSchema });
/**
 * Query keys of customers' configurations (everything about one customer under its `detail` key),
 * and GET /api/config/{customerId}: values, version, who saved last and the usage.
 */
export const { keys: configKeys, detailQuery: configQuery } = config;

/** Recent changes of a customer's configuration, newest first (list engine page). */
export const configChangesQuery = config.nested("changes", configChangePageSchema);

/** Save Changes: PATCH /api/config/{customerId}; a stale version answers 409 with the fresh configuration. */
export const useSaveConfig = (customerId: string) =>
  useApiMutation(
    (input: SaveConfigInput) => api(`/config/${customerId}`, customerConfigSchema, { method: "PATCH", body: input }),
    { invalidates: [configKeys.detail(customerId)] },
  );
