/**
 * The list screen kit: one hook for a list served by the API's list engine (docs/lists.md), used
 * by every list screen and embedded table. It keeps the list's state (search, filters, sort, the
 * page the user sees and the cursor that reaches it) either in the URL (screens: shareable, and
 * Back/Forward walk it: sort, filter and page changes push a history entry, typing in the search
 * replaces the current one) or in component state (tables embedded in a detail page), turns it into
 * the API's paging parameters, and clamps a page past the end to the last page.
 */
import { useEffect, useState } from "react";
import { keepPreviousData, useQuery, type QueryKey } from "@tanstack/react-query";
import { useNavigate, useSearch } from "@tanstack/react-router";
import type { ListParams } from "../../domain/common";
import { limits } from "../../domain/messages/kit";
import { ApiError } from "../api/client";
import { maxOffset, pageSize } from "./url-search";

export { listSearchSchema, maxOffset, maxSearchLength } from "./url-search";

/** The `cursor` URL value that stands for "the last page". */
const endCursor = "end";

/** The state of a list: what the user chose and where they are. */
export type ListState = {
  q: string;
  sort: string;
  order: "asc" | "desc";
  page: number;
  cursor?: string;
  filters: Record<string, string | undefined>;
};

/** One page as the list engine answers it. */
export type ServerPage<I, S = unknown> = {
  items: I[];
  total: number;
  total_exact: boolean;
  /** Null only while `counting` (cards counted with the search's total). */
  summary: S | null;
  summary_exact: boolean;
  summary_as_of: string | null;
  /** The server counts the search's matches in the background: the page is asked for again. */
  counting: boolean;
  next_cursor: string | null;
  prev_cursor: string | null;
};

/** Drops empty values so that defaults stay out of shared links. */
function clean(search: Record<string, unknown>) {
  return Object.fromEntries(Object.entries(search).filter(([, v]) => v !== undefined && v !== "" && v !== null));
}

/** The API's paging parameters for a state: a cursor, an offset for a page near the start, or the last page. */
export function pagingParams(state: ListState, limit: number): Pick<ListParams, "cursor" | "offset" | "at"> {
  if (state.cursor === endCursor) return { at: "end" };
  if (state.cursor) return { cursor: state.cursor };
  const offset = (state.page - 1) * limit;
  if (offset === 0) return {};
  // A page typed into the URL beyond the offset limit: the last page (clamped when it is shorter).
  return offset <= maxOffset ? { offset } : { at: "end" };
}

/** The number of pages, from a total (an estimate when not exact). */
export const pageCount = (total: number, limit: number) => Math.max(1, Math.ceil(total / limit));

/** The API parameters of a list request. */
export type ApiParams = ListParams & Record<string, string | number | undefined>;

type Options = {
  /** "url": the screen's own list, state in the URL; "local": a table inside a page. */
  mode: "url" | "local";
  defaults: { sort: string; order: "asc" | "desc" };
  /** Filter names kept in the URL (screen names, e.g. `customer`), each mapped to its API parameter. */
  filters?: Record<string, string>;
  /** Fixed API parameters (a detail page's customer, say). */
  fixed?: Record<string, string | undefined>;
  limit?: number;
  /** The query: key and fetch for the API parameters. */
  query: (params: ApiParams) => { queryKey: QueryKey; queryFn?: unknown };
};

/** A URL parameter as text: the router reads `?signed_in=true` as true and `?page=2` as 2. */
const textOf = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));

/**
 * A list's state, read from the URL (a screen's) or from component state (an embedded table's),
 * and `update`, which changes it: `push` adds a history entry (URL mode), else the current one is
 * replaced. Absent values take the screen's defaults.
 */
function useListState(options: Options) {
  const navigate = useNavigate();
  const urlSearch: Record<string, unknown> = useSearch({ strict: false });
  const [local, setLocal] = useState<Record<string, unknown>>({});
  const raw = options.mode === "url" ? urlSearch : local;
  const filterNames = options.filters ?? {};
  // The page size the operator chose (a view's, or the pager's choice) wins over the screen's own.
  const limit = pageSize(raw.limit) ?? options.limit ?? limits.pageSize;

  const state: ListState = {
    q: (raw.q as string | undefined) ?? "",
    sort: (raw.sort as string | undefined) ?? options.defaults.sort,
    order: (raw.order as "asc" | "desc" | undefined) ?? options.defaults.order,
    page: (raw.page as number | undefined) ?? 1,
    cursor: raw.cursor as string | undefined,
    // As text: the router reads `?signed_in=true` as the boolean true.
    filters: Object.fromEntries(
      Object.keys(filterNames).map((k) => [k, raw[k] === undefined || raw[k] === null ? undefined : textOf(raw[k])]),
    ),
  };

  /** Applies a change: `push` adds a history entry (URL mode), else the current one is replaced. */
  const update = (patch: Record<string, unknown>, push: boolean) => {
    if (options.mode === "local") {
      setLocal((prev) => clean({ ...prev, ...patch }));
      return;
    }
    void navigate({
      to: ".",
      search: (prev: Record<string, unknown>) => clean({ ...prev, ...patch }),
      replace: !push,
    });
  };
  const firstPage = { page: undefined, cursor: undefined };

  return { raw, state, limit, filterNames, update, firstPage };
}

/**
 * A server list: its state, the query of its current page, and the moves (search, sort, filter,
 * page). See the module comment for history and clamping.
 */
export function useServerList<I, S = unknown>(options: Options) {
  type Summary = NonNullable<S>;
  const { raw, state, limit, filterNames, update, firstPage } = useListState(options);
  const apiFilters = Object.fromEntries(Object.entries(filterNames).map(([k, apiName]) => [apiName, state.filters[k]]));
  const params = {
    ...options.fixed,
    ...apiFilters,
    q: state.q || undefined,
    sort: state.sort,
    order: state.order,
    limit,
    ...pagingParams(state, limit),
  } as ApiParams;
  const query = useQuery<ServerPage<I, Summary>>({
    ...(options.query(params) as { queryKey: QueryKey }),
    placeholderData: keepPreviousData,
    retry: (count, error) => !(error instanceof ApiError && error.status >= 400 && error.status < 500) && count < 2,
    // A page answered while its matches are counted is asked for again until the count is in.
    refetchInterval: (q) => (q.state.data?.counting ? limits.countingRefetchMs : false),
  });
  const data = query.data;
  const failed = Boolean(query.error && !query.isPlaceholderData && (!data || query.isError));

  // A page past the end (a typed URL, or rows deleted since): show the last page instead.
  useEffect(() => {
    // Not on an estimate still being counted: the count may hold the page.
    if (!data || query.isPlaceholderData || query.isFetching || data.counting) return;
    const last = pageCount(data.total, limit);
    const beyond = state.page > last || (data.items.length === 0 && state.page > 1);
    if (beyond) update(last > 1 ? { page: last, cursor: endCursor } : firstPage, false);
    // An `at=end` answer whose page number was a guess: name the real last page.
    else if (state.cursor === endCursor && data.total_exact && state.page !== last) update({ page: last }, false);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [data, query.isPlaceholderData, query.isFetching, state.page, state.cursor]);

  const lastPage = data ? pageCount(data.total, limit) : state.page;
  return {
    state,
    limit,
    /** The screen's filters: URL name → API parameter name (saved views store the API's names). */
    filterNames,
    /** The sort and order the list has when the URL names none. */
    defaults: options.defaults,
    /** Whether the list's state lives in the URL (only such lists have saved views). */
    inUrl: options.mode === "url",
    /** The URL's own parameters (the list's state, `view`, `limit`): empty when it carries none. */
    search: raw,
    /** Rows per page (`limit` in the URL): a new history entry, back to page 1. */
    setPageSize: (size: number) =>
      update({ limit: size === (options.limit ?? limits.pageSize) ? undefined : size, ...firstPage }, true),
    /**
     * Replaces the whole state at once (a saved view opened or reset): search, sort, order, the
     * screen's filters, the page size and the `view` shown; back to page 1. `push` adds a history entry.
     */
    replaceState: (next: Record<string, unknown>, push: boolean) => {
      const cleared = Object.fromEntries(
        ["q", "sort", "order", "limit", "view", ...Object.keys(filterNames)].map((k) => [k, undefined]),
      );
      update({ ...cleared, ...firstPage, ...next }, push);
    },
    params,
    query,
    data: failed ? undefined : data,
    /** The load failed and nothing is shown: the screen shows its error with Retry. */
    failed,
    /** A search or a filter narrows the list (an empty list then says "no match", not "none yet"). */
    narrowed: Boolean(state.q || Object.values(state.filters).some(Boolean)),
    /** Typing in the search box: replaces the history entry, back to page 1. */
    setQuery: (q: string) => update({ q: q || undefined, ...firstPage }, false),
    /** A sort header: a new history entry, back to page 1. */
    setSort: ({ sort, order }: { sort: string; order: "asc" | "desc" }) => {
      const isDefault = sort === options.defaults.sort && order === options.defaults.order;
      update({ sort: isDefault ? undefined : sort, order: isDefault ? undefined : order, ...firstPage }, true);
    },
    /** A filter: a new history entry, back to page 1. */
    setFilter: (patch: Record<string, string | undefined>) => update({ ...patch, ...firstPage }, true),
    pages: {
      page: state.page,
      lastPage,
      first: () => update(firstPage, true),
      previous: () => {
        if (!data?.prev_cursor || state.page <= 2) update(firstPage, true);
        else update({ page: state.page - 1, cursor: data.prev_cursor }, true);
      },
      next: () => data?.next_cursor && update({ page: state.page + 1, cursor: data.next_cursor }, true),
      last: () => update(lastPage > 1 ? { page: lastPage, cursor: endCursor } : firstPage, true),
      /** A page number near the start (its offset within the API's bound). */
      go: (page: number) => update(page === 1 ? firstPage : { page, cursor: undefined }, true),
    },
  };
}

export type ServerList = ReturnType<typeof useServerList<unknown, unknown>>;
