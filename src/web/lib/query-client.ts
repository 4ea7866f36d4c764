import { MutationCache, QueryClient, type QueryKey } from "@tanstack/react-query";
import { ApiError } from "../api/client";
import { featureQueryRoots } from "./features";
import type { QueryRootName } from "./routes";

/**
 * The first element of every query key, one per kind of record, as each feature's `routes.ts`
 * declares it (and the command palette's and the saved views' own). Each feature's key factory starts its keys with its
 * root, and a mutation names the roots it changes in its `meta`, so features never import each
 * other's keys.
 */
export const queryRoots = Object.fromEntries(
  [...featureQueryRoots, "search", "views"].map((name) => [name, [name] as const]),
  // The feature folders are found by the build (lib/features.ts), so their names reach here as
  // strings; `QueryRootName` is the same list, declared by each feature's `routes.ts`.
) as { readonly [N in QueryRootName]: readonly [N] };

/** What a mutation changes, declared with it: `useMutation({ ..., meta: { invalidates: [queryRoots.customers] } })`. */
export type MutationMeta = {
  /** Keys (or key prefixes) whose queries refetch after success. */
  invalidates?: readonly QueryKey[];
  /** Keys whose queries are dropped after success (a deleted record would answer 404). */
  removes?: readonly QueryKey[];
};

declare module "@tanstack/react-query" {
  interface Register {
    mutationMeta: MutationMeta;
  }
}

/**
 * The app's query client: 4xx answers are not retried (they will not change), network and server
 * errors get two more tries; after any successful mutation, what its `meta` names is dropped or
 * refetched, and the audit log (every change writes a row) refetches.
 */
export function createQueryClient(): QueryClient {
  const client: QueryClient = new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 15_000,
        retry: (count, error) => !(error instanceof ApiError && error.status >= 400 && error.status < 500) && count < 2,
      },
    },
    mutationCache: new MutationCache({
      // Returned, so the mutation stays pending until the queries on screen have refetched: a
      // screen opened right after a save (an edit form taking its values from the cache) never
      // starts from the data as it was before the save.
      onSuccess: (_data, _variables, _context, mutation) => {
        const meta = mutation.meta;
        for (const queryKey of meta?.removes ?? []) client.removeQueries({ queryKey });
        return Promise.all(
          [...(meta?.invalidates ?? []), queryRoots.audit].map((queryKey) => client.invalidateQueries({ queryKey })),
        );
      },
    }),
  });
  return client;
}
