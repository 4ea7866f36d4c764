import type { QueryFunction, QueryKey } from "@tanstack/react-query";
import { useServerList, type ApiParams } from "./server-list";

/**
 * The query of a list: key and fetch for the API parameters (as `useServerList` takes it), its
 * page's items `I` and summary `S` read from what its fetch answers.
 */
export type ListQuery<I, S> = (params: ApiParams) => {
  queryKey: QueryKey;
  queryFn?: QueryFunction<{ items: I[]; summary: S | null }, never>;
};

/** The order most list screens open in: newest first. */
const newestFirst = { sort: "created_at", order: "desc" } as const;

/**
 * A list screen's own list (`useServerList` with its state in the URL): `filters` maps the URL's
 * filter names to the API's parameters; `defaults` is the sort when the URL names none (newest
 * first unless given).
 */
export function useScreenList<I, S = unknown>(
  query: ListQuery<I, S>,
  filters?: Record<string, string>,
  defaults: { sort: string; order: "asc" | "desc" } = newestFirst,
) {
  return useServerList<I, S>({ mode: "url", defaults, filters, query });
}
