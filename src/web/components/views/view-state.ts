/**
 * Between a list screen's state and a saved view's (docs/saved-views.md): a view stores its
 * filters by their API parameter names, the screens keep them in the URL by their own names
 * (`customer` ↔ `customer_id`), so both directions go through the list's filter map. Pure
 * functions, tested in tests/components/views.test.tsx.
 */
import type { ColumnMeta } from "../DataTable";
import type { DroppedPart, ViewState } from "../../../domain/views";
import { viewLimits } from "../../../domain/limits";
import { viewsMsg } from "../../../domain/messages/views";
import { titleCase } from "../case";

/** What of a list's state a view holds: the list's own state as `useServerList` gives it. */
export type ListStateForView = {
  q: string;
  sort: string;
  order: "asc" | "desc";
  filters: Record<string, string | undefined>;
};

/** The parts of a list a view is compared and converted with. */
export type ViewContext = {
  /** URL filter name → API parameter name. */
  filterNames: Record<string, string>;
  defaults: { sort: string; order: "asc" | "desc" };
  /** The page size when the view names none. */
  defaultLimit: number;
  /** The spec's columns in order (the default when the view names none). */
  defaultColumns: string[];
};

/** The view state of what the screen shows now (filters under their API names). */
export function toViewState(state: ListStateForView, columns: string[], limit: number, ctx: ViewContext): ViewState {
  const filters: Record<string, string> = {};
  for (const [urlName, apiName] of Object.entries(ctx.filterNames)) {
    const value = state.filters[urlName];
    if (value) filters[apiName] = value;
  }
  return {
    ...(state.q ? { q: state.q } : {}),
    sort: state.sort,
    order: state.order,
    filters,
    ...columnsChoice(columns, ctx.defaultColumns),
    // A screen's own page size that the lists do not offer is no view's (the API refuses it).
    ...((viewLimits.pageSizes as readonly number[]).includes(limit) ? { limit } : {}),
  };
}

/**
 * The URL search a view opens with: its search, sort and order (left out when the list's
 * defaults), its filters under the screen's names (filters the screen does not have are left out)
 * and its page size (left out when the default).
 */
export function toUrlSearch(view: ViewState, ctx: ViewContext): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (view.q) out.q = view.q;
  const sort = view.sort ?? ctx.defaults.sort;
  const order = view.order ?? ctx.defaults.order;
  if (sort !== ctx.defaults.sort || order !== ctx.defaults.order) {
    out.sort = sort;
    out.order = order;
  }
  const urlNames = Object.fromEntries(Object.entries(ctx.filterNames).map(([url, apiName]) => [apiName, url]));
  for (const [apiName, value] of Object.entries(view.filters ?? {})) {
    const urlName = urlNames[apiName];
    // The router reads `?signed_in=true` as the boolean, and its validators expect it so.
    if (urlName && value) out[urlName] = value === "true" ? true : value === "false" ? false : value;
  }
  if (view.limit && view.limit !== ctx.defaultLimit) out.limit = view.limit;
  return out;
}

/** Whether two states show the same thing (defaults filled in; shown columns compared only when the view names them). */
export function sameViewState(current: ViewState, view: ViewState, ctx: ViewContext): boolean {
  const norm = (s: ViewState, columns: string[] | undefined) =>
    JSON.stringify([
      s.q ?? "",
      s.sort ?? ctx.defaults.sort,
      s.order ?? ctx.defaults.order,
      Object.entries(s.filters ?? {})
        .filter(([, v]) => v !== "")
        .sort(([a], [b]) => a.localeCompare(b)),
      s.limit ?? ctx.defaultLimit,
      columns ?? null,
    ]);
  const shown = (s: ViewState) => {
    const choice = storedChoice(s);
    return choice ? shownColumns(choice, ctx.defaultColumns) : undefined;
  };
  const columns = shown(view);
  return norm(current, columns ? shown(current) : undefined) === norm(view, columns);
}

/** A view's columns the screen still has (in the view's order), and those it no longer has. */
export function knownColumns(ids: string[], available: string[]): { kept: string[]; unknown: string[] } {
  const known = new Set(available);
  const kept = [...new Set(ids)].filter((id) => known.has(id));
  return { kept, unknown: ids.filter((id) => !known.has(id)) };
}

/** A column choice as views and list preferences keep it: shown in order, and hidden. */
export type ColumnsChoice = { columns: string[]; hidden_columns?: string[] | null };

/** The column choice a view's state or a list preference holds; null when it names no columns. */
export function storedChoice(stored: {
  columns?: string[] | null;
  hidden_columns?: string[] | null;
}): ColumnsChoice | null {
  return stored.columns ? { columns: stored.columns, hidden_columns: stored.hidden_columns } : null;
}

/**
 * The columns a choice shows on a screen that has `available` (in the spec's order): the chosen
 * ones the screen still has, in the chosen order, plus the columns the choice names neither shown
 * nor hidden (added to the screen since), each after the column it follows in the spec's order.
 * A choice with no `hidden_columns` (kept before they were) shows only its own. Nothing left: the
 * spec's columns.
 */
export function shownColumns(choice: ColumnsChoice, available: string[]): string[] {
  const shown = knownColumns(choice.columns, available).kept;
  if (choice.hidden_columns) {
    const named = new Set([...choice.columns, ...choice.hidden_columns]);
    available.forEach((id, i) => {
      if (named.has(id)) return;
      const before = available.slice(0, i).findLast((prior) => shown.includes(prior));
      shown.splice(before === undefined ? 0 : shown.indexOf(before) + 1, 0, id);
    });
  }
  return shown.length > 0 ? shown : available;
}

/** The choice that shows `columns` on a screen that has `available`: the others are hidden. */
export function columnsChoice(columns: string[], available: string[]): { columns: string[]; hidden_columns: string[] } {
  return { columns, hidden_columns: available.filter((id) => !columns.includes(id)) };
}

/** One choosable column of a list: its id and the name the column chooser shows. */
export type ColumnChoice = { id: string; label: string };

/** A column declaration's id (`id`, else its accessor key) and meta, as `DataTable` reads them. */
export function columnInfo(column: { id?: string; accessorKey?: unknown; header?: unknown; meta?: ColumnMeta }): {
  id: string;
  label: string;
  fixed: boolean;
} {
  const id = column.id ?? (typeof column.accessorKey === "string" ? column.accessorKey : "");
  const label = column.meta?.label ?? (typeof column.header === "string" ? column.header : titleCase(id));
  // Row actions stay at the end of every row: they are not a column the operator chooses.
  return { id, label, fixed: Boolean(column.meta?.actions) || id === "" };
}

/**
 * The note for each part of a view that no longer applies, in the console's words ("This view's
 * filter Customer no longer applies: the customer was deleted").
 */
export function describeDropped(dropped: DroppedPart[], unknownColumns: string[]): string[] {
  const notes = dropped.map(({ part, reason }) => {
    const filter = part.startsWith("filters.") ? part.slice("filters.".length) : null;
    const what = filter
      ? viewsMsg.partFilter(viewsMsg.filterLabels[filter] ?? titleCase(filter.replace(/_id$/, "").replace(/_/g, " ")))
      : viewsMsg.partSort;
    const why =
      reason === "not_found"
        ? viewsMsg.reasons.not_found(
            (filter && viewsMsg.filterThings[filter]) ?? (filter?.replace(/_id$/, "") || viewsMsg.recordFallback),
          )
        : viewsMsg.reasons[reason];
    return viewsMsg.dropped(what, why);
  });
  for (const id of unknownColumns) {
    notes.push(viewsMsg.dropped(viewsMsg.partColumn(id), viewsMsg.reasons.unknown_column));
  }
  return notes;
}
