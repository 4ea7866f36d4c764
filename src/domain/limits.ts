/**
 * The console's numeric limits, each in one place, for the API (zod schemas in src/domain) and the
 * screens alike. This module imports nothing, so the router's URL checks (which load before zod,
 * src/web/lib/url-search.ts) read the same numbers as the server.
 */

/**
 * Paging of every list: rows per page (`limit`, 50 by default, at most 200) and the largest
 * `offset` (beyond it keyset cursors page: next, previous, last).
 */
export const paging = { defaultLimit: 50, maxLimit: 200, maxOffset: 10_000 } as const;

/**
 * The ranges the dashboard's trends offer, in days (`?days=` of GET /api/dashboard/trends, and
 * `?trends=` of the dashboard's own URL), and the one shown first.
 */
export const dashboardTrendRanges = ["7", "30", "90"] as const;
export type DashboardTrendRange = (typeof dashboardTrendRanges)[number];
export const dashboardTrendDays: DashboardTrendRange = "30";

/** The longest search text a list or the global search takes. */
export const maxSearchLength = 200;

/** Searches shorter than this match prefixes only (a trigram index needs three characters). */
export const minContainsLength = 3;

/**
 * Whether `name` matches the search `q` as the server matches it (case-insensitive; a prefix below
 * `minContainsLength` characters, else anywhere): a picker narrows what it already shows with it
 * while the server's answer is on its way, so that an option does not move under the pointer.
 */
export function matchesSearch(name: string, q: string): boolean {
  const text = name.toLowerCase();
  const wanted = q.trim().toLowerCase();
  return wanted.length < minContainsLength ? text.startsWith(wanted) : text.includes(wanted);
}

/** The longest email address there is (RFC 5321: a path of 256 octets less its angle brackets). */
export const maxEmailLength = 254;

/**
 * Bulk actions (docs/bulk-actions.md): the most records one action may select (a filter matching
 * more is refused before anything changes), the most explicit ids a request may list, and the rows
 * per batch (each batch is one transaction): at most `batchSize`, at least `minBatch`, sized as the
 * run goes so that a batch takes about `batchTargetMs` milliseconds and the progress moves at
 * least every second however slow the database is at the time; `workers` batches are written at
 * once, each on its own connection; a server copy's lease on a run lasts `leaseSeconds` past its last batch.
 */
export const bulkLimits = {
  maxSelection: 200_000,
  maxIds: 5_000,
  batchSize: 1_000,
  minBatch: 50,
  firstBatch: 250,
  batchTargetMs: 300,
  workers: 4,
  sampleSize: 10,
  /** Previews and runs one operator may have under way at once (429 beyond). */
  perOperator: 2,
  /** The longest a preview's statements may take, in milliseconds (PostgreSQL's statement_timeout). */
  previewTimeoutMs: 20_000,
  /**
   * How long a server copy's lease on a run holds without a batch renewing it, in seconds: a run
   * whose copy stopped is resumed by another once it runs out (docs/bulk-actions.md "Restart").
   */
  leaseSeconds: 30,
} as const;

/**
 * Saved views (docs/saved-views.md): a name's longest length, the most views one operator keeps
 * per list, the most filters and columns a view carries, and the page sizes a list offers.
 */
export const viewLimits = {
  maxName: 100,
  maxPerOperatorList: 200,
  maxFilters: 20,
  maxColumns: 40,
  pageSizes: [25, 50, 100, 200],
} as const;
