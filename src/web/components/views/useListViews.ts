import { useEffect, useMemo, useRef, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import {
  savedViewLists,
  type ListPreferences,
  type OpenedView,
  type SavedView,
  type SavedViewList,
  type ViewState,
} from "../../../domain/views";
import { limits } from "../../../domain/messages/kit";
import { columnsMsg } from "../../../domain/messages/views";
import { ApiError } from "../../api/client";
import { notify } from "../overlays";
import type { ServerList } from "../../lib/server-list";
import { listPreferencesQuery, openedViewQuery, useViewMutations, viewListQuery } from "./queries";
import {
  columnsChoice,
  describeDropped,
  knownColumns,
  shownColumns,
  sameViewState,
  storedChoice,
  toUrlSearch,
  toViewState,
  type ColumnChoice,
  type ColumnsChoice,
  type ViewContext,
} from "./view-state";

/** The URL parameters that are no state of the list's own (where it is, which view it shows). */
const notState = new Set(["view", "page", "cursor"]);

/** The saved-view list of a screen, from its export path (`/prompt-changes` → `prompt-changes`); null: none. */
export function savedViewListOf(exportPath: string): SavedViewList | null {
  const name = exportPath.replace(/^\//, "");
  return (savedViewLists as readonly string[]).includes(name) ? (name as SavedViewList) : null;
}

/**
 * The columns shown: those chosen on this screen (or by the view just opened), else the operator's
 * saved ones, else the spec's.
 */
function useColumnChoice(prefs: ListPreferences | undefined, defaultColumns: string[]) {
  const [override, setOverride] = useState<ColumnsChoice | null>(null);
  const saved = useMemo(() => (prefs ? storedChoice(prefs) : null), [prefs]);
  const chosen = override ?? saved;
  const visibleColumns = useMemo(
    () => (chosen ? shownColumns(chosen, defaultColumns) : defaultColumns),
    [chosen, defaultColumns],
  );
  return { visibleColumns, setOverride };
}

/**
 * A view opened: its state goes into the URL once (not over a URL that has state of its own: a
 * modified view reloaded keeps its changes), then `onApplied` (its columns replace the shown ones).
 * Gives the id of the view applied last, which opening or saving a view sets or clears.
 */
function useAppliedView(
  view: OpenedView | undefined,
  viewId: string | undefined,
  list: ServerList,
  ctx: ViewContext,
  onApplied: (view: OpenedView) => void,
) {
  const applied = useRef<string | null>(null);
  useEffect(() => {
    if (!view || applied.current === view.view_id) return;
    applied.current = view.view_id;
    const ownState = Object.keys(list.search).some((k) => !notState.has(k));
    if (!ownState) list.replaceState({ ...toUrlSearch(view.state, ctx), view: view.view_id }, false);
    onApplied(view);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [view]);
  useEffect(() => {
    if (!viewId) applied.current = null;
  }, [viewId]);
  return applied;
}

/** The default view, when the list opens with no state of its own in the URL (once per visit). */
function useDefaultView(enabled: boolean, prefs: ListPreferences | undefined, list: ServerList) {
  const defaultChecked = useRef(false);
  useEffect(() => {
    if (!enabled || defaultChecked.current || !prefs) return;
    defaultChecked.current = true;
    const id = prefs.default_view_id;
    if (id && Object.keys(list.search).length === 0) list.replaceState({ view: id }, false);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [enabled, prefs]);
}

/**
 * A list screen's saved views and column choice (docs/saved-views.md):
 *
 * - the visible columns in order: the open view's, else the operator's own (`/api/list-preferences`),
 *   else the spec's (`columns`, in the screen's order); ids the screen no longer has are dropped,
 *   and columns added to the screen since the choice was made show (`shownColumns`);
 * - `?view=<id>` opens that view: when the URL carries nothing else, its search, sort, filters and
 *   page size are written into the URL (replacing the entry), so they stay visible and editable in
 *   the toolbar; `modified` says when what is shown differs from it;
 * - with no state in the URL at all, the operator's default view opens;
 * - the parts of a view that no longer apply (the server's `dropped`, and columns the screen lost)
 *   become `notes`, until dismissed.
 *
 * Lists whose state is not in the URL (tables inside a page), or not among `savedViewLists`, get
 * the spec's columns and no views (`enabled` false).
 */
export function useListViews(list: ServerList, listKey: SavedViewList | null, columns: ColumnChoice[]) {
  const enabled = Boolean(listKey && list.inUrl);
  const key = listKey ?? "customers";
  const defaultColumns = useMemo(() => columns.map((c) => c.id), [columns]);
  const ctx: ViewContext = {
    filterNames: list.filterNames,
    defaults: list.defaults,
    defaultLimit: limits.pageSize,
    defaultColumns,
  };
  const viewId = enabled && typeof list.search.view === "string" ? list.search.view : undefined;

  const views = useQuery({ ...viewListQuery(key), enabled });
  const prefs = useQuery({ ...listPreferencesQuery(key), enabled });
  const opened = useQuery({ ...openedViewQuery(viewId ?? ""), enabled: Boolean(viewId) });
  const view = viewId && opened.data?.view_id === viewId ? opened.data : undefined;
  const mutations = useViewMutations(key);

  const { visibleColumns, setOverride } = useColumnChoice(prefs.data, defaultColumns);
  const [dismissed, setDismissed] = useState<string | null>(null);
  const applied = useAppliedView(view, viewId, list, ctx, (opened) => {
    setOverride(storedChoice(opened.state));
    setDismissed(null);
  });
  useDefaultView(enabled, prefs.data, list);

  const current: ViewState = toViewState(list.state, visibleColumns, list.limit, ctx);
  const modified = Boolean(view && !sameViewState(current, view.state, ctx));
  const unknownColumns = view?.state.columns ? knownColumns(view.state.columns, defaultColumns).unknown : [];
  const notes = view && dismissed !== view.view_id ? describeDropped(view.dropped, unknownColumns) : [];
  const missing = Boolean(viewId && opened.error instanceof ApiError && opened.error.status === 404);

  /** Back to the view as saved (a new history entry). */
  function reset() {
    if (!view) return;
    list.replaceState({ ...toUrlSearch(view.state, ctx), view: view.view_id }, true);
    setOverride(storedChoice(view.state));
  }

  /**
   * Shows a column choice; null: the spec's columns. With a view open the choice is the view's (it
   * shows Modified, and Save keeps it) and the list without a view keeps its own columns; else it
   * is remembered on the server as the operator's columns of the list.
   */
  const setColumns = (ids: string[] | null) => {
    const choice = ids ? columnsChoice(ids, defaultColumns) : null;
    setOverride(choice ?? { columns: defaultColumns });
    if (view) return;
    mutations.preferences.mutate(choice ?? { columns: null, hidden_columns: null }, {
      onError: () => notify(columnsMsg.saveFailed, { tone: "error", testId: "columns-error" }),
    });
  };

  return {
    enabled,
    listKey: key,
    visibleColumns,
    /**
     * The operator's column choice is still on its way: the table shows itself loading meanwhile,
     * rather than the spec's columns that the choice would then rearrange under the pointer.
     */
    columnsPending: enabled && prefs.isPending,
    setColumns,
    views: views.data?.items,
    viewsFailed: Boolean(views.error),
    viewId,
    /** The view shown (as it applies today), once loaded. */
    view,
    opening: Boolean(viewId && opened.isPending),
    /** `?view=` names a view that does not exist, or that the operator may not see. */
    missing,
    modified,
    notes,
    dismissNotes: () => setDismissed(view?.view_id ?? null),
    /** What the screen shows now, as a view's state (for Save and Save as). */
    current,
    defaultViewId: prefs.data?.default_view_id ?? null,
    mutations,
    /** Opens a view (a new history entry); null: the list with no view. */
    choose: (id: string | null) => {
      if (id && id === view?.view_id) return reset();
      applied.current = null;
      setOverride(null);
      list.replaceState(id ? { view: id } : {}, true);
    },
    /** Back to the view as saved (a new history entry). */
    reset,
    /** Shows a view just saved from what the screen shows (its state is already on screen). */
    showSaved: (saved: SavedView) => {
      applied.current = saved.view_id;
      list.replaceState({ ...toUrlSearch(saved.state, ctx), view: saved.view_id }, true);
    },
  };
}

/** What `useListViews` gives a list screen. */
export type ListViews = ReturnType<typeof useListViews>;
