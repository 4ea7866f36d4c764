/**
 * Search: the command palette (Ctrl K) and its API.
 */

export const searchMsg = {
  queryRequired: "Type something to search for",
  dialog: "Search",
  recent: "Recent",
  noRecent: "Records you open from here appear in this list.",
  noResults: (q: string) => `Nothing matches “${q}”.`,
  searching: "Searching...",
  seeAll: (kind: string) => `See all ${kind.toLowerCase()}`,
  hint: "↑↓ to move, Enter to open, Esc to close",
  failed: "Search failed",
  /** The palette's group of saved views (docs/saved-views.md), each named with its list. */
  savedViews: "Saved views",
  viewSubtitle: (list: string, shared: boolean, owner: string | null) =>
    shared ? `${list} · shared${owner ? ` by ${owner}` : ""}` : `${list} · personal`,
  viewsFailed: "Saved views could not be loaded",
} as const;
