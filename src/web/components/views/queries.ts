/**
 * The API of saved views and list preferences (docs/saved-views.md) for the list screens: the
 * views of a list, one view as it opens today, the operator's columns and default view, and the
 * changes to them.
 */
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import {
  listPreferencesSchema,
  openedViewSchema,
  savedViewPageSchema,
  savedViewSchema,
  type ListPreferencesUpdate,
  type SavedViewList,
  type ViewCreate,
  type ViewUpdate,
} from "../../../domain/views";
import { api } from "../../api/client";
import { queryRoots } from "../../lib/query-client";

/** Query keys of views and preferences, under the views' root (the search palette lists views too). */
export const viewKeys = {
  all: queryRoots.views,
  list: (list: SavedViewList) => [...queryRoots.views, "list", list] as const,
  opened: (viewId: string) => [...queryRoots.views, "opened", viewId] as const,
  preferences: (list: SavedViewList) => [...queryRoots.views, "preferences", list] as const,
};

/** The most views a list's menu reads at once (the API's page bound; an operator keeps at most 200). */
const menuLimit = 100;

/** GET /api/views?list=: the operator's own views and the shared ones, by name. */
export const viewListQuery = (list: SavedViewList) =>
  queryOptions({
    queryKey: viewKeys.list(list),
    queryFn: ({ signal }) => api("/views", savedViewPageSchema, { query: { list, limit: menuLimit }, signal }),
  });

/** GET /api/views/{id}: the view as it applies today, and the parts dropped from it. */
export const openedViewQuery = (viewId: string) =>
  queryOptions({
    queryKey: viewKeys.opened(viewId),
    queryFn: ({ signal }) => api(`/views/${viewId}`, openedViewSchema, { signal }),
    // A view opened once is the state the screen compares with; it is refreshed after each change.
    staleTime: Infinity,
  });

/** GET /api/list-preferences/{list}: the operator's columns and default view for the list. */
export const listPreferencesQuery = (list: SavedViewList) =>
  queryOptions({
    queryKey: viewKeys.preferences(list),
    queryFn: ({ signal }) => api(`/list-preferences/${list}`, listPreferencesSchema, { signal }),
    staleTime: Infinity,
  });

/** The mutations of a list's views; each refreshes the list's views and the view it changed. */
export function useViewMutations(list: SavedViewList) {
  const client = useQueryClient();
  const refresh = (viewId?: string) =>
    Promise.all([
      client.invalidateQueries({ queryKey: viewKeys.list(list) }),
      client.invalidateQueries({ queryKey: [...queryRoots.views, "palette"] }),
      viewId ? client.invalidateQueries({ queryKey: viewKeys.opened(viewId) }) : null,
      client.invalidateQueries({ queryKey: viewKeys.preferences(list) }),
    ]);
  return {
    create: useMutation({
      mutationFn: (input: Omit<ViewCreate, "list">) =>
        api("/views", savedViewSchema, { method: "POST", body: { ...input, list } }),
      onSuccess: (view) => refresh(view.view_id),
    }),
    update: useMutation({
      mutationFn: ({ viewId, ...input }: ViewUpdate & { viewId: string }) =>
        api(`/views/${viewId}`, savedViewSchema, { method: "PATCH", body: input }),
      onSuccess: (view) => refresh(view.view_id),
      // A stale version (409) or a view gone: what is shown is read again.
      onError: (_e, { viewId }) => refresh(viewId),
    }),
    remove: useMutation({
      mutationFn: (viewId: string) => api(`/views/${viewId}`, z.unknown(), { method: "DELETE" }),
      onSuccess: (_r, viewId) => {
        client.removeQueries({ queryKey: viewKeys.opened(viewId) });
        return refresh();
      },
    }),
    preferences: useMutation({
      mutationFn: (input: ListPreferencesUpdate) =>
        api(`/list-preferences/${list}`, listPreferencesSchema, { method: "PUT", body: input }),
      onSuccess: (prefs) => {
        client.setQueryData(viewKeys.preferences(list), prefs);
        return client.invalidateQueries({ queryKey: viewKeys.list(list) });
      },
    }),
  };
}
