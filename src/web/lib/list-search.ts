import { useNavigate, useSearch } from "@tanstack/react-router";
import { z } from "zod";
import { limits } from "../../domain/messages";

/**
 * URL search parameters of a list screen: `q`, `sort`, `order`, `page` and the screen's filters.
 * Invalid values are dropped rather than failing the page; defaults never appear in the URL.
 */
export function listSearchSchema<const S extends readonly [string, ...string[]], E extends z.ZodRawShape>(sortKeys: S, extra: E) {
  return z.object({
    q: z.string().optional().catch(undefined),
    sort: z.enum(sortKeys).optional().catch(undefined),
    order: z.enum(["asc", "desc"]).optional().catch(undefined),
    page: z.coerce.number().int().min(1).optional().catch(undefined),
    ...extra,
  });
}

type ListSearch = { q?: string; sort?: string; order?: "asc" | "desc"; page?: number } & Record<string, unknown>;

/** Drops empty values so that defaults stay out of shared links. */
function clean(search: Record<string, unknown>) {
  return Object.fromEntries(Object.entries(search).filter(([, v]) => v !== undefined && v !== "" && v !== null));
}

/**
 * Reads and writes a list screen's URL state. Changing the search, a filter or the sort goes back
 * to page 1; `limit`/`offset` are what the API wants.
 */
export function useListSearch<T extends ListSearch>(defaults: { sort: string; order: "asc" | "desc" }) {
  const search = useSearch({ strict: false } as never) as T;
  const navigate = useNavigate();
  const update = (patch: Partial<T>, resetPage = true) =>
    void navigate({
      to: ".",
      search: (prev: Record<string, unknown>) => clean({ ...prev, ...(resetPage ? { page: undefined } : {}), ...patch }),
      replace: true,
    } as never);
  const page = search.page ?? 1;
  return {
    search,
    q: search.q ?? "",
    sort: search.sort ?? defaults.sort,
    order: search.order ?? defaults.order,
    limit: limits.pageSize,
    offset: (page - 1) * limits.pageSize,
    setFilter: (patch: Partial<T>) => update(patch),
    setQuery: (q: string) => update({ q: q || undefined } as Partial<T>),
    setSort: ({ sort, order }: { sort: string; order: "asc" | "desc" }) =>
      update({ sort: sort === defaults.sort && order === defaults.order ? undefined : sort, order: sort === defaults.sort && order === defaults.order ? undefined : order } as Partial<T>),
    setOffset: (offset: number) => update({ page: offset === 0 ? undefined : Math.floor(offset / limits.pageSize) + 1 } as Partial<T>, false),
  };
}
